#!/usr/bin/env python3
"""gatt2mqtt test fixture: BlueZoo 1.0.2 with run-time fidelity fixes.

Starts BlueZoo (PyPI ``bluezoo==1.0.2``, the BlueZ D-Bus stand-in) with the
same command line as the ``bluezoo`` CLI (``--auto-enable``,
``--scan-interval N``, ``-a ADDR`` repeatable, ``-v``/``-q``,
``--bus-session``), after monkeypatching the gaps that break the bridge's
reconnect and fault tests. Nothing in site-packages is edited. Every fix moves
BlueZoo toward what bluetoothd does; none is there to please one client.

Prints ``bluezoo-fixture: ready`` on stdout once org.bluez is owned and the
adapters are exported (and powered, with --auto-enable). SIGTERM/SIGINT shut it
down and exit with status 0.

Usage: python3 scripts/bluezoo_fixture.py --auto-enable --scan-interval 1 \\
           -a 00:11:22:33:44:55 -a 00:AA:BB:CC:DD:EE

The patches reach into BlueZoo internals, hence the hard version pin below.
"""

import asyncio
import random
import signal
import socket
import sys
from importlib.metadata import PackageNotFoundError, version
from types import SimpleNamespace

REQUIRED_BLUEZOO = "1.0.2"

try:
    _found = version("bluezoo")
except PackageNotFoundError:
    _found = None
if _found != REQUIRED_BLUEZOO:
    sys.exit(f"bluezoo-fixture: needs bluezoo=={REQUIRED_BLUEZOO}, found {_found or 'none'}")

from bluezoo import bluezoo as bz  # noqa: E402
from bluezoo import events  # noqa: E402
from bluezoo.adapter import Adapter  # noqa: E402
from bluezoo.device import Device  # noqa: E402
from bluezoo.exceptions import DBusBluezAlreadyExistsError  # noqa: E402
from bluezoo.gatt import characteristic as gatt_characteristic  # noqa: E402
from bluezoo.gatt import GattCharacteristicClient, GattCharacteristicClientLink, GattManager  # noqa: E402
from bluezoo.interfaces.GattCharacteristic import GattCharacteristicInterface  # noqa: E402
from bluezoo.log import logger  # noqa: E402
from bluezoo.utils import create_background_task  # noqa: E402

# Device1.Disconnected(reason, message): the reason names newer bluetoothd
# sends for the kernel's disconnect reasons (the message is free text).
REASONS = {
    "local": ("org.bluez.Reason.Local", "Connection terminated by local host"),
    "remote": ("org.bluez.Reason.Remote", "Connection terminated by remote user"),
    "timeout": ("org.bluez.Reason.Timeout", "Connection timed out"),
}


_exiting = False  # set on SIGTERM/SIGINT


def _counterpart(dev):
    """The other side's Device object: the device that represents our adapter on the peer adapter."""
    peer = dev.peer_adapter
    return peer.devices.get(f"{peer.get_object_path()}/dev_{dev.adapter.address.replace(':', '_')}")


class _FdRelay:
    """A socketpair of our own between the central and the app's fd, as bluetoothd does.

    bluetoothd never passes the app's fd through: it hands the central one end
    of its own SOCK_SEQPACKET socketpair and moves packets itself. So the app
    gets EOF when the central closes its fd, and both get HUP/EOF when the link
    drops.
    """

    def __init__(self, app_fd: int):
        self.app = socket.socket(fileno=app_fd)
        self.ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self.central_fd = theirs.detach()
        loop = asyncio.get_running_loop()
        for src, dst in ((self.app, self.ours), (self.ours, self.app)):
            src.setblocking(False)
            loop.add_reader(src, self._pump, src, dst)

    def _pump(self, src, dst):
        try:
            data = src.recv(65536)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:
            return self.close()
        try:
            dst.send(data)
        except BlockingIOError:
            pass  # the reader is not keeping up: the packet is dropped
        except OSError:
            self.close()

    def close(self):
        loop = asyncio.get_running_loop()
        for s in (self.app, self.ours):
            if s.fileno() >= 0:
                loop.remove_reader(s)
                s.close()


async def _release_characteristic(link, stop_notify: bool):
    """End the link's notify session and close every fd it handed out or holds."""
    link.client_props_changed_subscription.unsubscribe()
    link.client_props_changed_subscription = events.Subscription()
    if stop_notify and link.client.Notifying.get(False):
        try:
            await asyncio.wait_for(link.client.StopNotify(), 2)
        except Exception as e:
            logger.debug(f"StopNotify on {link} after disconnect: {e}")
    loop = asyncio.get_running_loop()
    if link.f_read is not None:
        loop.remove_reader(link.f_read)
    for f in (link.f_read, link.f_write):
        if f is not None:
            f.close()
    link.f_read = link.f_write = None
    for relay in getattr(link, "relays", []):
        relay.close()
    link.relays = []


def fix_p1_disconnect():
    """P1: a disconnect tears down the link on both sides, as bluetoothd does.

    bluetoothd on link loss: ServicesResolved=false, then Connected=false, on
    both ends; Device1.Disconnected(reason, message) (added after 5.66, whose
    binary lacks it; clients that do not know it ignore it); the peripheral's
    notify sessions end (gatt-database.c clears the CCC state of an unbonded
    client, which sends StopNotify to the app); acquired fds get HUP. The GATT
    objects are removed (InterfacesRemoved), as bluetoothd does with
    [GATT] Cache=no, or Cache=yes for an unbonded device; with the default
    Cache=always it keeps them and fails calls with "Not connected". Stock
    BlueZoo only flips Connected and keeps forwarding calls to the app.
    """
    async def disconnect(self, uuid=None, reason="local"):
        self.connecting_task.cancel()
        other = _counterpart(self)
        for dev, why in ((self, reason), (other, "remote" if reason == "local" else reason)):
            if dev is None or not dev.connected:
                continue  # bluetoothd 5.66 replies success on a disconnected device
            logger.info(f"Disconnecting {dev} on {dev.adapter} ({why})")
            for link in reversed(list(dev.services.values())):  # children first
                if isinstance(link, GattCharacteristicClientLink):
                    # No StopNotify to an app that is gone, nor while bluetoothd itself exits.
                    await _release_characteristic(link, stop_notify=why != "timeout" and not _exiting)
                dev.adapter.mock.remove_object(link)
            dev.services.clear()
            if dev.services_resolved:
                await dev.ServicesResolved.set_async(False)
            await dev.Connected.set_async(False)
            dev.Disconnected.emit(REASONS[why])

    Device.disconnect = disconnect


def fix_p1_acquired_fds():
    """P1: AcquireNotify/AcquireWrite hand out bluetoothd-owned fds (see _FdRelay).

    Stock BlueZoo passes the app's fd through and keeps a copy, so the app
    never sees EOF. The relay is closed when the central closes its end or the
    link drops (fix_p1_disconnect), which gives the app EOF.

    Where BlueZoo itself acquires the app's fd (StartNotify/WriteValue on an
    app with NotifyAcquired/WriteAcquired) it wraps an os.dup() of an fd that
    sdbus already handed over to it, leaking the original; wrapping the fd
    itself lets closing the file close the app's socket.
    """
    gatt_characteristic.os = SimpleNamespace(dup=lambda fd: fd)
    for name in ("AcquireNotify", "AcquireWrite"):
        member = GattCharacteristicClientLink.__dict__[name]  # the exported DbusMethodAsync
        stock = member.original_method

        async def acquire(self, options, _stock=stock):
            fd, mtu = await _stock(self, options)
            try:
                relay = _FdRelay(fd)
            except OSError:
                return fd, mtu  # not a socket: keep the stock pass-through
            self.relays = [r for r in getattr(self, "relays", []) if r.app.fileno() >= 0] + [relay]
            # Our copy of the central's end is closed right after the reply is sent.
            asyncio.get_running_loop().call_soon(socket.close, relay.central_fd)
            return relay.central_fd, mtu

        member.original_method = acquire


def fix_p2_connect():
    """P2: Connect on a connected LE device succeeds without doing anything.

    bluetoothd 5.66 replies success to Connect when the LE link is already up
    (foundations.md 1.3). Stock BlueZoo re-exports the GATT objects and
    fails with EEXIST. After a disconnect the objects are gone (P1), so a new
    Connect exports them afresh.
    """
    stock = Device.connect

    async def connect(self, uuid=None):
        if not self.connecting_task.done():
            await asyncio.wait({self.connecting_task})  # a Connect already in flight
            return
        if self.connected:
            return
        await stock(self, uuid)

    Device.connect = connect


def fix_p3_app_gone():
    """P3: a GATT app that unregisters or leaves the bus drops its links, reason Timeout.

    For the bridge, a simulator process going away is a peripheral going out
    of range: bluetoothd then sees the supervision timeout and reports
    Disconnected("org.bluez.Reason.Timeout"). Stock BlueZoo only updates the
    peripheral adapter and leaves the central connected to stale objects.
    """
    name = "_GattManager__del_gatt_application"  # covers UnregisterApplication and NameOwnerChanged
    stock = getattr(GattManager, name)

    async def del_gatt_application(self, app):
        app_objects = set(map(id, app.objects.values()))
        for adapter in self.mock.adapters.values():
            for dev in list(adapter.devices.values()):
                if dev.connected and any(id(link.client) in app_objects for link in dev.services.values()):
                    await dev.disconnect(reason="timeout")
        await stock(self, app)

    setattr(GattManager, name, del_gatt_application)


def fix_p4_rescan():
    """P4: each scan round re-reports known devices through an RSSI change.

    While discovering, bluetoothd turns the advertising reports of a device it
    already knows into property updates (RSSI, sent when it moves), so a
    client's second scan sees the device again. BlueZoo has no radio, so each
    round draws an RSSI from -75..-45 dBm. Also: a second StartDiscovery no
    longer leaks the previous scan loop (bluetoothd runs one discovery).
    """
    rssi = Device.__dict__["RSSI"]
    rssi.setter_private(lambda self, value: setattr(self, "rssi", value))
    stock_add = Adapter.add_device

    async def add_device(self, device):
        device.rssi = random.randint(-75, -45)
        path = f"{self.get_object_path()}/dev_{device.address.replace(':', '_')}"
        known = self.devices.get(path)
        await stock_add(self, device)
        if known is not None and known is not device and self.discovering:
            await known.RSSI.set_async(device.rssi)

    Adapter.add_device = add_device

    stock_task = bz.BluezMockService.create_discovering_task

    def create_discovering_task(self, id):
        self.adapters[id].discovering_task.cancel()
        return stock_task(self, id)

    bz.BluezMockService.create_discovering_task = create_discovering_task


def fix_p5_manufacturer_data():
    """P5: Device1.ManufacturerData is a{qv} (company id -> ay), as in BlueZ.

    Stock declares a{sv}; a uint16 key then cannot be marshalled, which loses
    InterfacesAdded and makes GetManagedObjects fail for every client.
    """
    Device.__dict__["ManufacturerData"].property_signature = "a{qv}"


def fix_p7_pairing():
    """P7: Bonded reads back what was set; Pair() without an agent is Just Works.

    bluetoothd pairs without an agent when no user interaction is needed
    (NoInputNoOutput, Just Works), sets Paired and Bonded, and answers a Pair()
    on a bonded device with org.bluez.Error.AlreadyExists (device.c
    pair_device). Stock BlueZoo writes self.bond (typo) and, with no agent,
    logs an AttributeError and returns success without pairing.
    """
    Device.__dict__["Bonded"].property_setter = lambda self, value: setattr(self, "bonded", value)
    stock = Device.pair

    async def pair(self):
        if self.paired:
            raise DBusBluezAlreadyExistsError("Already Exists")
        agent = self.adapter.mock.root.agent
        if agent is not None and agent.capability != "NoInputNoOutput":
            return await stock(self)  # other IO capabilities: BlueZoo's own (limited) path
        logger.info(f"Pairing {self} with {self.adapter} (Just Works)")
        self.peer.paired = self.peer.bonded = True
        await self.peer_adapter.add_device(self.peer)
        await self.Paired.set_async(True)
        await self.Bonded.set_async(True)

    Device.pair = pair


def fix_indication_confirm():
    """Indications: Confirm() goes to the app only for "indicate" characteristics.

    bluetoothd calls the app's Confirm when the remote acknowledges an
    indication (ATT Handle Value Confirmation); notifications are never
    acknowledged. Stock BlueZoo calls it after every forwarded value.
    """
    proxy_confirm = GattCharacteristicInterface.Confirm

    async def confirm(self):
        if "indicate" in self.Flags.get([]):
            await proxy_confirm.__get__(self, type(self))()

    GattCharacteristicClient.Confirm = confirm


FIXES = (
    fix_p1_disconnect,
    fix_p1_acquired_fds,
    fix_p2_connect,
    fix_p3_app_gone,
    fix_p4_rescan,
    fix_p5_manufacturer_data,
    fix_p7_pairing,
    fix_indication_confirm,
)


def install_launcher_hooks():
    """Ready line once startup is done; clean shutdown on SIGTERM/SIGINT."""
    stock_startup = bz.startup

    async def startup(*args, **kwargs):
        await stock_startup(*args, **kwargs)
        # --auto-enable powers adapters from background tasks; let them finish.
        while create_background_task.tasks:
            await asyncio.gather(*list(create_background_task.tasks), return_exceptions=True)
        loop = asyncio.get_running_loop()

        async def stop():
            global _exiting
            _exiting = True
            try:
                await asyncio.wait_for(bz.shutdown(), 5)
            except Exception as e:
                logger.warning(f"Shutdown: {e!r}")
            loop.stop()

        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, lambda: asyncio.ensure_future(stop()))
        print("bluezoo-fixture: ready", flush=True)

    bz.startup = startup


def main():
    for fix in FIXES:
        fix()
    install_launcher_hooks()
    sys.argv[0] = "bluezoo-fixture"
    bz.main()  # BlueZoo's own CLI; returns when stop() ends the loop
    return 0


if __name__ == "__main__":
    sys.exit(main())
