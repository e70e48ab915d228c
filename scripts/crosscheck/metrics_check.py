#!/usr/bin/env python3
"""Reads gatt2mqtt's /metrics with the Prometheus project's own text parser (prometheus-client) and
prints every sample as one JSON line: {"family", "type", "name", "labels", "value"}. A parse error
exits 1 with `FAIL <reason>`.

    metrics_check.py URL [--token T]
"""

import argparse
import json
import sys
import urllib.request

from prometheus_client.parser import text_string_to_metric_families


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("url")
    parser.add_argument("--token")
    args = parser.parse_args()
    request = urllib.request.Request(args.url)
    if args.token:
        request.add_header("Authorization", f"Bearer {args.token}")
    with urllib.request.urlopen(request, timeout=10) as response:
        content_type = response.headers.get("Content-Type", "")
        text = response.read().decode()
    print(json.dumps({"content_type": content_type}), flush=True)
    try:
        for family in text_string_to_metric_families(text):
            for sample in family.samples:
                print(json.dumps({"family": family.name, "type": family.type, "name": sample.name,
                                  "labels": sample.labels, "value": sample.value}), flush=True)
    except Exception as error:  # the parser raises ValueError and friends on malformed text
        print(f"FAIL {type(error).__name__}: {error}", flush=True)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
