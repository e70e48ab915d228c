#!/usr/bin/env python3
"""Scans an adapter the way Home Assistant's Bluetooth integration does, beside gatt2mqtt on the same adapter.

Home Assistant (habluetooth, over bleak) keeps an active BlueZ discovery session open on each adapter and reads every
advertisement through a detection callback. This script does the same with bleak for SECONDS on ADAPTER and prints
one line per advertiser it hears:

    SCAN SEEN <address> <name>     the first advertisement of each address
    SCAN COUNT <address> <n>       at the end: how many advertisements each address gave
    SCAN DONE                      the scan started and stopped cleanly

and exits 0, or prints ``SCAN FAIL <reason>`` and exits 1.

    shared_adapter_scan.py --adapter hci0 --seconds 12
"""
import argparse, asyncio, sys
from collections import Counter

from bleak import BleakScanner


async def scan(adapter, seconds):
    counts = Counter()

    def heard(device, advertisement):
        if counts[device.address] == 0:
            print(f"SCAN SEEN {device.address} {advertisement.local_name or device.name or '-'}", flush=True)
        counts[device.address] += 1

    scanner = BleakScanner(detection_callback=heard, scanning_mode="active", bluez={"adapter": adapter})
    await scanner.start()
    await asyncio.sleep(seconds)
    await scanner.stop()
    for address, count in sorted(counts.items()):
        print(f"SCAN COUNT {address} {count}", flush=True)
    print("SCAN DONE", flush=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--adapter", required=True)
    parser.add_argument("--seconds", type=float, default=12)
    arguments = parser.parse_args()
    try:
        asyncio.run(asyncio.wait_for(scan(arguments.adapter, arguments.seconds), arguments.seconds + 30))
    except Exception as error:  # every failure is a line the test can show
        print(f"SCAN FAIL {type(error).__name__}: {error}", flush=True)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
