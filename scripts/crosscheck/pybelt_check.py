#!/usr/bin/env python3
"""Cross-check: feelSpace's own library (pybelt, over bleak) against a belt seen through BlueZ.

Finds the belt on one adapter, connects with pybelt's BeltController (which runs pybelt's own
handshake, belt.md §2.5), reads mode and orientation, optionally switches the mode through pybelt,
disconnects and exits 0. Standard output is a line protocol for tests:

    PYBELT FOUND <address> <name> <bluez path>
    PYBELT CONNECTED
    PYBELT FIRMWARE <version>
    PYBELT MODE <name>                 the mode pybelt read during its handshake
    PYBELT HEADING <degrees>           one line per orientation notification, --headings of them
    PYBELT MODE-SET <name>             the mode pybelt saw confirmed after --set-mode
    PYBELT DISCONNECTED
    PYBELT OK

Any failure prints `PYBELT FAIL <reason>` and exits non-zero (1: a check failed, 2: the hard
timeout struck). Logs (pybelt's and bleak's) go to standard error.

The adapter is always named: pybelt scans and bleak connects on "the default adapter", which under
BlueZoo may be the peripheral's own. pybelt's BeltController.connect accepts a BLEDevice, and bleak
connects through the BlueZ object path that BLEDevice carries, so a device found on --adapter keeps
the whole session on that adapter without patching pybelt. (pybelt's own scan path is not used:
besides taking the default adapter, BleInterface.open(None) never picks the belt it found.)
"""

import argparse
import asyncio
import logging
import os
import queue
import sys
import threading

from bleak import BleakScanner
from bleak.backends.bluezdbus import defs
from bleak.backends.bluezdbus.manager import BlueZManager
from pybelt.belt_controller import BeltConnectionState, BeltController, BeltControllerDelegate, BeltMode

MODE_NAMES = {
    BeltMode.STANDBY: "standby",
    BeltMode.WAIT: "wait",
    BeltMode.COMPASS: "compass",
    BeltMode.APP_MODE: "app",
    BeltMode.PAUSE: "pause",
    BeltMode.CALIBRATION: "calibration",
    BeltMode.CROSSING: "crossing",
}
MODE_VALUES = {name: value for value, name in MODE_NAMES.items()}


class CheckFailed(Exception):
    pass


def trust_a_successful_connect():
    """bluetoothd 5.66 never signals `Connected` when a link's ATT channel connects before the kernel's
    Device Connected event reaches it (the guest's bluetoothd under load: its log says "Device … is already
    connected"), though it answers Connect and resolves the services. bleak (pinned in requirements.txt)
    then reads its cached `Connected: false` as a lost link while it waits for the services, and
    disconnects. bleak waits for them only once Connect has succeeded, which bluetoothd answers only with
    a link up: record that link, and a real loss still arrives as `Connected: false`. (gatt2mqtt's own
    cache counts resolved services as connected for the same reason: BlueZDevice.hasLink.)"""
    original = BlueZManager._wait_for_services_discovery

    async def wait_for_services_discovery(self, device_path):
        device = self._properties.get(device_path, {}).get(defs.DEVICE_INTERFACE)
        if device is not None and not device.get("Connected", False):
            device["Connected"] = True
        await original(self, device_path)

    BlueZManager._wait_for_services_discovery = wait_for_services_discovery


def say(*words):
    print("PYBELT", *words, flush=True)


def mode_name(mode):
    return MODE_NAMES.get(mode, f"unknown({mode})")


def arm_watchdog(seconds):
    """Ends the process after `seconds`, whatever pybelt's threads are blocked on."""

    def expire():
        say("FAIL", f"hard timeout after {seconds:g} s")
        sys.stderr.flush()
        os._exit(2)

    timer = threading.Timer(seconds, expire)
    timer.daemon = True
    timer.start()
    return timer


class Delegate(BeltControllerDelegate):
    """Collects what pybelt reports, from its notifier thread, into queues the main thread waits on."""

    def __init__(self):
        self.headings = queue.Queue()
        self.modes = queue.Queue()
        self.connection_error = None

    def on_connection_state_changed(self, state, error=None):
        if error is not None:
            self.connection_error = error

    def on_belt_mode_changed(self, belt_mode):
        self.modes.put(belt_mode)

    def on_belt_orientation_notified(self, heading, is_orientation_accurate, extra):
        self.headings.put(heading)


async def find_belt(adapter, address, name_prefix, timeout):
    """The belt as bleak sees it on `adapter`: by address if given, else by name prefix."""

    def matches(device, advertisement):
        if address is not None:
            return device.address.upper() == address.upper()
        name = advertisement.local_name or device.name or ""
        return name.lower().startswith(name_prefix.lower())

    device = await BleakScanner.find_device_by_filter(matches, timeout=timeout, bluez={"adapter": adapter})
    if device is None:
        what = address if address is not None else f"device named {name_prefix}…"
        raise CheckFailed(f"no {what} found on {adapter} within {timeout:g} s")
    path = device.details.get("path", "") if isinstance(device.details, dict) else ""
    if not path.startswith(f"/org/bluez/{adapter}/"):
        raise CheckFailed(f"device {device.address} was reported on {path!r}, not on {adapter}")
    return device, path


def wait_for(source, timeout, what):
    try:
        return source.get(timeout=timeout)
    except queue.Empty:
        raise CheckFailed(f"no {what} within {timeout:g} s") from None


def run(arguments):
    device, path = asyncio.run(find_belt(arguments.adapter, arguments.address, arguments.name, arguments.scan_timeout))
    say("FOUND", device.address, device.name or "-", path)

    delegate = Delegate()
    controller = BeltController(delegate)
    try:
        # BLE connection, service discovery and pybelt's handshake. bleak gives a connection 10 s; on the
        # real stack under qemu's emulation a first connection can take longer (the kernel holds it back
        # until the discovery window ends), so a user would try again, and so may this check.
        for attempt in range(1, arguments.connect_attempts + 1):
            controller.connect(device)
            if controller.get_connection_state() == BeltConnectionState.CONNECTED:
                break
            reason = delegate.connection_error or "unknown reason"
            if attempt == arguments.connect_attempts:
                raise CheckFailed(f"pybelt did not connect: {reason}")
            say("RETRY", f"attempt {attempt} did not connect: {reason}")
        say("CONNECTED")
        say("FIRMWARE", controller.get_firmware_version())
        mode = controller.get_belt_mode()
        if mode is None:
            raise CheckFailed("pybelt knows no belt mode after its handshake")
        say("MODE", mode_name(mode))

        headings = []
        for _ in range(arguments.headings):
            heading = wait_for(delegate.headings, arguments.step_timeout, "orientation notification")
            headings.append(heading)
            say("HEADING", heading)
        if len(set(headings)) < 2 and arguments.headings >= 2:
            raise CheckFailed(f"the heading did not change: {headings}")

        if arguments.set_mode is not None:
            wanted = MODE_VALUES[arguments.set_mode]
            # wait_ack: pybelt waits for the belt's FE06 `01 01 <mode>` notification.
            try:
                sent = controller.set_belt_mode(wanted, wait_ack=True)
            except TimeoutError as error:
                raise CheckFailed(f"no acknowledgement of mode {arguments.set_mode}: {error}") from None
            if not sent:
                raise CheckFailed(f"pybelt could not send mode {arguments.set_mode}")
            while True:
                changed = wait_for(delegate.modes, arguments.step_timeout, f"mode change to {arguments.set_mode}")
                if changed == wanted:
                    break
            if controller.get_belt_mode() != wanted:
                raise CheckFailed(f"pybelt reports mode {mode_name(controller.get_belt_mode())} after the change")
            say("MODE-SET", mode_name(wanted))
    finally:
        controller.disconnect_belt(wait=True)
    if controller.get_connection_state() != BeltConnectionState.DISCONNECTED:
        raise CheckFailed("pybelt did not disconnect")
    say("DISCONNECTED")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--adapter", default="hci0", help="the central's adapter (default hci0)")
    parser.add_argument("--address", help="the belt's address (default: the first device named --name…)")
    parser.add_argument("--name", default="naviGuertel", help="device-name prefix (default naviGuertel)")
    parser.add_argument("--connect-attempts", type=int, default=1, help="connections to try (default 1)")
    parser.add_argument("--headings", type=int, default=2, help="orientation notifications to wait for (default 2)")
    parser.add_argument("--set-mode", choices=sorted(MODE_VALUES), help="switch to this mode through pybelt")
    parser.add_argument("--scan-timeout", type=float, default=10.0, help="seconds to find the belt (default 10)")
    parser.add_argument("--step-timeout", type=float, default=5.0, help="seconds for each later wait (default 5)")
    parser.add_argument("--timeout", type=float, default=45.0, help="hard limit for the whole run (default 45)")
    parser.add_argument("--verbose", action="store_true", help="debug logs from pybelt and bleak")
    arguments = parser.parse_args()

    logging.basicConfig(stream=sys.stderr, level=logging.DEBUG if arguments.verbose else logging.WARNING,
                        format="%(asctime)s %(name)s %(levelname)s %(message)s")
    arm_watchdog(arguments.timeout)
    trust_a_successful_connect()
    try:
        run(arguments)
    except CheckFailed as error:
        say("FAIL", error)
        return 1
    except Exception as error:  # anything pybelt or bleak raised
        logging.exception("pybelt check failed")
        say("FAIL", f"{type(error).__name__}: {error}")
        return 1
    say("OK")
    return 0


if __name__ == "__main__":
    code = main()
    sys.stdout.flush()
    sys.stderr.flush()
    # pybelt leaves non-daemon threads behind on some failure paths; do not wait for them.
    os._exit(code)
