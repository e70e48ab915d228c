#!/usr/bin/env python3
"""The benchmark's peer: the relay a user would write without gatt2mqtt, from bleak and paho-mqtt.

It does the bridge's job for the Activ5 force stream and nothing more: connect, set the sample
period (F0FA), subscribe to F0FE, decode each int16 into newtons and publish it, two decimals, on
relay/<id>/force (QoS 0, as the bridge); a JSON {"period_ms": N} on relay/<id>/cmd/sample_period is
written to F0FA and answered on relay/<id>/reply. It prints "relay: streaming N" once every device
streams, and on SIGTERM unsubscribes, disconnects and exits 0.

Usage: bench_peer.py --port 1883 --period-ms 5 00:11:22:33:44:51 [...]
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


def device_id(address):
    return address.replace(":", "").lower()


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--period-ms", type=int, default=100)
    parser.add_argument("--acquire-notify", action="store_true",
                        help="AcquireNotify where the characteristic offers it (bleak's use_start_notify=False)")
    parser.add_argument("addresses", nargs="+")
    options = parser.parse_args()
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
        topic = f"relay/{device_id(address)}/force"

        def on_force(_characteristic, data):
            (raw,) = struct.unpack_from("<h", data)
            mqttc.publish(topic, f"{raw * NEWTONS_PER_COUNT:.2f}", qos=0)

        await client.write_gatt_char(SAMPLE_PERIOD, struct.pack("<h", options.period_ms), response=True)
        await client.start_notify(FORCE, on_force, bluez={"use_start_notify": not options.acquire_notify})

    await asyncio.gather(*(start(address) for address in options.addresses))
    print(f"relay: streaming {len(clients)}", flush=True)

    stop = asyncio.Event()
    loop.add_signal_handler(signal.SIGTERM, stop.set)
    loop.add_signal_handler(signal.SIGINT, stop.set)
    await stop.wait()
    for client in clients.values():
        try:
            await client.stop_notify(FORCE)
            await client.disconnect()
        except Exception:
            pass
    mqttc.loop_stop()
    mqttc.disconnect()
    print("relay: stopped", flush=True)


if __name__ == "__main__":
    asyncio.run(main())
