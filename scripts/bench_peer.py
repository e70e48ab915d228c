#!/usr/bin/env python3
"""The benchmark's peer: the relay a user would write without gatt2mqtt, from bleak and paho-mqtt.

It does the bridge's job for one device family's main stream and nothing more, publishing what the
bridge publishes under relay/<id>/ instead of <family>/<id>/ (--family, default a5):

- a5: set the sample period (F0FA, --period-ms, default 100), subscribe to F0FE, decode each int16
  into newtons and publish it, two decimals, on relay/<id>/force (QoS 0); a JSON {"period_ms": N} on
  relay/<id>/cmd/sample_period is written to F0FA and answered on relay/<id>/reply.
- belt: with --period-ms, write the orientation period once (FE05 `11 0F 00 <ms u16 LE>`, the bytes of
  the bridge's orientation command, unclamped: the simulator needs --minimum-orientation-period-ms for
  less than 20 ms), subscribe to FE0C and publish the belt heading in whole degrees on
  relay/<id>/heading (QoS 0).
- cpr: subscribe to FFF1 and publish each peak in centimetres, one decimal (raw / 10), on
  relay/<id>/peak (QoS 1).
- grip: subscribe to the event characteristic of the built-in (HYPOTHETICAL) profile and publish the
  SDK event name on relay/<id>/event (QoS 1). The relay does not pair: start the grip simulator with
  --no-pairing.
- hr: subscribe to the Heart Rate Measurement (2A37) and publish the rate in beats per minute on
  relay/<id>/bpm (QoS 0).
- csc: subscribe to the CSC Measurement (2A5B) and publish its wheel and crank data as the shipped
  declaration does, one JSON on relay/<id>/measurement (QoS 0).

It prints "relay: streaming N" once every device streams, and on SIGTERM unsubscribes, disconnects
and exits 0.

Usage: bench_peer.py --port 1883 [--family a5|belt|cpr|grip|hr|csc] [--period-ms 5] 00:11:22:33:44:51 [...]
Runs against whatever BlueZ DBUS_SYSTEM_BUS_ADDRESS names (BlueZoo in the benchmark).
"""

import argparse
import asyncio
import json
import signal
import struct

import paho.mqtt.client as mqtt
from bleak import BleakClient, BleakScanner

FORCE = "0000f0fe-0000-1000-8000-00805f9b34fb"
SAMPLE_PERIOD = "0000f0fa-0000-1000-8000-00805f9b34fb"
NEWTONS_PER_COUNT = 0.27156315909  # the vendor's iOS toNewtons, as in Peripherals/Activ5ForceScale
A5_DEFAULT_PERIOD_MS = 100

BELT_ORIENTATION = "0000fe0c-0000-1000-8000-00805f9b34fb"  # Peripherals/Belt/BeltGATT
BELT_PARAMETER_REQUEST = "0000fe05-0000-1000-8000-00805f9b34fb"
BELT_SET_ORIENTATION_PERIOD = bytes([0x11, 0x0F, 0x00])  # BeltCommand.setOrientationPeriod, persist 0

CPR_DEPTH = "0000fff1-0000-1000-8000-00805f9b34fb"  # Peripherals/CPRBand/CPRBandGATT

# GripProfile.placeholder: the event characteristic, and byte n (1...14) is the n-th GripEvent case.
GRIP_EVENT = "c73bd0bc-e6c7-4580-820f-294274854b28"
GRIP_EVENTS = [
    "shutterButtonDown", "shutterButtonReleased", "shutterButtonHalfDown", "dialButtonCW", "dialButtonCCW",
    "dialButtonPress", "dialButtonLongPress", "fnButtonPress", "fnButtonLongPress", "zoomLeverHoldLeft",
    "zoomLeverHoldRight", "zoomLeverLeft", "zoomLeverRight", "zoomLeverNeutral",
]

HR_MEASUREMENT = "00002a37-0000-1000-8000-00805f9b34fb"  # Peripherals/HeartRate/HeartRateGATT
CSC_MEASUREMENT = "00002a5b-0000-1000-8000-00805f9b34fb"  # Peripherals/CyclingSpeedCadence


def force_text(data):
    """Activ5ForceScale: int16 LE counts in newtons, two decimals."""
    (raw,) = struct.unpack_from("<h", data)
    return f"{raw * NEWTONS_PER_COUNT:.2f}"


def heading_text(data):
    """BeltTelemetry: the belt heading (int16 LE at byte 1 of the 16) in whole degrees 0...359."""
    if len(data) < 16:
        return None
    (heading,) = struct.unpack_from("<h", data, 1)
    return str(heading % 360)


def peak_text(data):
    """CPRBandTelemetry.peak: the last byte in millimetres, published in centimetres with one decimal."""
    return f"{data[-1] / 10:.1f}" if data else None


def event_text(data):
    """GripProfile.event(bytes:): exactly one byte, looked up in the table."""
    return GRIP_EVENTS[data[0] - 1] if len(data) == 1 and 1 <= data[0] <= len(GRIP_EVENTS) else None


def bpm_text(data):
    """HeartRateLeaves: the rate after the flags byte, a uint16 LE when flags bit 0 is set, else a uint8."""
    if len(data) < 2 or (data[0] & 1 and len(data) < 3):
        return None
    return str(struct.unpack_from("<H", data, 1)[0] if data[0] & 1 else data[1])


def number_text(value):
    """A number as the gateway writes it in JSON: a whole one without a decimal point, else the shortest repr."""
    return str(int(value)) if value == int(value) else repr(value)


def csc_text(data):
    """declarations/cycling_speed_cadence.yaml: flags, then wheel (uint32, uint16 1/1024 s) and crank (uint16,
    uint16 1/1024 s) data as the flags say; a value with bytes left over or missing is refused."""
    if not data:
        return None
    flags, offset, fields = data[0], 1, []
    if flags & 1:
        if len(data) < offset + 6:
            return None
        revolutions, time = struct.unpack_from("<IH", data, offset)
        fields += [("wheel_revolutions", revolutions), ("wheel_event_time", time / 1024)]
        offset += 6
    if flags & 2:
        if len(data) < offset + 4:
            return None
        revolutions, time = struct.unpack_from("<HH", data, offset)
        fields += [("crank_revolutions", revolutions), ("crank_event_time", time / 1024)]
        offset += 4
    if offset != len(data):
        return None
    return "{" + ",".join(f'"{name}":{number_text(value)}' for name, value in fields) + "}"


# Per family: the characteristic streamed, the relay/<id>/<leaf> published, its QoS and the decoder.
FAMILIES = {
    "a5": (FORCE, "force", 0, force_text),
    "belt": (BELT_ORIENTATION, "heading", 0, heading_text),
    "cpr": (CPR_DEPTH, "peak", 1, peak_text),
    "grip": (GRIP_EVENT, "event", 1, event_text),
    "hr": (HR_MEASUREMENT, "bpm", 0, bpm_text),
    "csc": (CSC_MEASUREMENT, "measurement", 0, csc_text),
}


def device_id(address):
    return address.replace(":", "").lower()


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--family", choices=sorted(FAMILIES), default="a5")
    parser.add_argument("--period-ms", type=int,
                        help=f"a5: F0FA sample period (default {A5_DEFAULT_PERIOD_MS}); belt: orientation period "
                        "written once (default: none written); cpr, grip, hr, csc: unused (the simulator sets the rate)")
    parser.add_argument("--acquire-notify", action="store_true",
                        help="AcquireNotify where the characteristic offers it (bleak's use_start_notify=False)")
    parser.add_argument("addresses", nargs="+")
    options = parser.parse_args()
    stream, leaf, qos, decode = FAMILIES[options.family]
    loop = asyncio.get_running_loop()
    clients = {}

    mqttc = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="relay-peer")
    mqttc.max_queued_messages_set(0)

    async def set_period(address, payload):
        try:
            period = int(json.loads(payload)["period_ms"])
            await clients[address].write_gatt_char(SAMPLE_PERIOD, struct.pack("<h", period), response=True)
            reply = {"ok": True}
        except Exception as error:  # the relay reports, as the bridge does; it never dies on input
            reply = {"ok": False, "error": str(error)}
        mqttc.publish(f"relay/{device_id(address)}/reply", json.dumps(reply), qos=1)

    by_id = {device_id(address): address for address in options.addresses}

    def on_message(_client, _userdata, message):
        address = by_id.get(message.topic.split("/")[1])
        if address in clients:
            asyncio.run_coroutine_threadsafe(set_period(address, message.payload), loop)

    mqttc.on_message = on_message
    mqttc.connect("127.0.0.1", options.port)
    if options.family == "a5":
        mqttc.subscribe("relay/+/cmd/sample_period", qos=1)
    mqttc.loop_start()

    wanted = {address.upper() for address in options.addresses}
    found = {}
    async with BleakScanner(bluez={"adapter": "hci0"}) as scanner:
        async for device, _ in scanner.advertisement_data():
            if device.address.upper() in wanted:
                found[device.address.upper()] = device
                if len(found) == len(wanted):
                    break

    async def start(address):
        client = BleakClient(found[address.upper()], bluez={"adapter": "hci0"})
        await client.connect()
        clients[address] = client
        topic = f"relay/{device_id(address)}/{leaf}"

        def on_value(_characteristic, data):
            text = decode(data)
            if text is not None:  # the bridge drops what does not decode
                mqttc.publish(topic, text, qos=qos)

        if options.family == "a5":
            period = A5_DEFAULT_PERIOD_MS if options.period_ms is None else options.period_ms
            await client.write_gatt_char(SAMPLE_PERIOD, struct.pack("<h", period), response=True)
        elif options.family == "belt" and options.period_ms is not None:
            period = BELT_SET_ORIENTATION_PERIOD + struct.pack("<H", options.period_ms)
            await client.write_gatt_char(BELT_PARAMETER_REQUEST, period, response=True)
        await client.start_notify(stream, on_value, bluez={"use_start_notify": not options.acquire_notify})

    await asyncio.gather(*(start(address) for address in options.addresses))
    print(f"relay: streaming {len(clients)}", flush=True)

    stop = asyncio.Event()
    loop.add_signal_handler(signal.SIGTERM, stop.set)
    loop.add_signal_handler(signal.SIGINT, stop.set)
    await stop.wait()
    for client in clients.values():
        try:
            await client.stop_notify(stream)
            await client.disconnect()
        except Exception:
            pass
    mqttc.loop_stop()
    mqttc.disconnect()
    print("relay: stopped", flush=True)


if __name__ == "__main__":
    asyncio.run(main())
