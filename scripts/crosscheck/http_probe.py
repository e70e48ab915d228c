#!/usr/bin/env python3
"""Probes gatt2mqtt's HTTP server the way a careless or hostile client would, and its WebSocket the way
the page does, with nothing but the standard library (so it shows what arrives on the wire).

    http_probe.py --base http://127.0.0.1:PORT [--token T] [--device belt/<id>]

Prints one line per probe, for tests to read:

    STATUS <probe> <http status>          e.g. STATUS get-page 200, STATUS page-rebound-host 421
    FRAME <probe> <frame JSON>            the WebSocket's answer to one frame the probe sent
    HELLO <frame JSON>                    the first frame after the upgrade
"""

import argparse
import base64
import json
import os
import socket
import struct
import sys
import threading
import time
import urllib.parse


def read_head(sock):
    """Reads a response head: (status, head text, what came after it); status 0 when none came."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(4096)
        if not chunk:
            break
        data += chunk
    head, _, rest = data.partition(b"\r\n\r\n")
    status_line = head.split(b"\r\n", 1)[0].decode("latin-1")
    parts = status_line.split(" ")
    status = int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else 0
    return status, head.decode("latin-1"), rest


def request(host, port, raw):
    """Sends raw bytes, returns (status, headers text, socket) with the socket still open."""
    sock = socket.create_connection((host, port), timeout=10)
    sock.sendall(raw)
    status, head, rest = read_head(sock)
    return status, head, sock, rest


def http(host, port, method, path, headers=None, host_header=None):
    lines = [f"{method} {path} HTTP/1.1", f"Host: {host_header or f'{host}:{port}'}", "Connection: close"]
    lines += [f"{k}: {v}" for k, v in (headers or {}).items()]
    status, _, sock, _ = request(host, port, ("\r\n".join(lines) + "\r\n\r\n").encode())
    sock.close()
    return status


def upgrade(host, port, path, origin, host_header=None):
    key = base64.b64encode(os.urandom(16)).decode()
    lines = [f"GET {path} HTTP/1.1", f"Host: {host_header or f'{host}:{port}'}", "Upgrade: websocket", "Connection: Upgrade",
             f"Sec-WebSocket-Key: {key}", "Sec-WebSocket-Version: 13", f"Origin: {origin}"]
    return request(host, port, ("\r\n".join(lines) + "\r\n\r\n").encode())


def send_text(sock, text):
    payload = text.encode()
    mask = os.urandom(4)
    header = bytes([0x81])
    if len(payload) < 126:
        header += bytes([0x80 | len(payload)])
    elif len(payload) < 65536:
        header += bytes([0x80 | 126]) + struct.pack("!H", len(payload))
    else:
        header += bytes([0x80 | 127]) + struct.pack("!Q", len(payload))
    sock.sendall(header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))


class FrameReader:
    def __init__(self, sock, buffered):
        self.sock, self.buffer = sock, buffered

    def need(self, count):
        while len(self.buffer) < count:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise EOFError("the server closed the WebSocket")
            self.buffer += chunk
        data, self.buffer = self.buffer[:count], self.buffer[count:]
        return data

    def text(self):
        """The next text frame (server frames are unmasked and, here, unfragmented)."""
        while True:
            first, second = self.need(2)
            length = second & 0x7F
            if length == 126:
                length = struct.unpack("!H", self.need(2))[0]
            elif length == 127:
                length = struct.unpack("!Q", self.need(8))[0]
            payload = self.need(length)
            opcode = first & 0x0F
            if opcode == 0x1:
                return payload.decode()
            if opcode == 0x8:
                raise EOFError("close frame")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--base", required=True)
    parser.add_argument("--token")
    parser.add_argument("--device")
    args = parser.parse_args()
    url = urllib.parse.urlparse(args.base)
    host, port = url.hostname, url.port
    query = f"?token={args.token}" if args.token else ""
    origin = f"http://{host}:{port}"

    printing = threading.Lock()

    def say(*words):
        with printing:  # the idle watcher's thread says its lines beside the main thread's
            print(*words, flush=True)

    def report_close(name, label, sock, since):
        """Waits up to 30 s for the server to close `sock`; says when it did, counting from `since`."""
        sock.settimeout(30)
        try:
            while sock.recv(4096):
                pass
            closed = time.monotonic() - since
        except socket.timeout:
            closed = None
        sock.close()
        say(label, "open after 30 s" if closed is None else f"closed after {closed:.1f} s")
        say(f"STATUS {name}", 1 if closed is not None and closed < 20 else 0)

    # A client that keeps its connection after an answer and sends nothing more: the server closes it once it has
    # been idle for its idle time-out (10 s). Watched beside the slowloris below, which takes as long.
    _, _, idle, _ = request(host, port, f"GET /metrics{query} HTTP/1.1\r\nHost: {host}:{port}\r\n\r\n".encode())
    idle_watcher = threading.Thread(target=report_close, args=("idle-keepalive-closed", "IDLE", idle, time.monotonic()))
    idle_watcher.start()

    # A client that never finishes its request head (slowloris): the server closes the connection by itself.
    slow = socket.create_connection((host, port), timeout=30)
    slow.sendall(f"GET / HTTP/1.1\r\nHost: {host}:{port}\r\nX-Slow: ".encode())
    report_close("slow-header-closed", "SLOW-HEADER", slow, time.monotonic())
    idle_watcher.join()

    say("STATUS get-page", http(host, port, "GET", "/" + query))
    say("STATUS get-metrics", http(host, port, "GET", "/metrics" + query))
    say("STATUS get-unknown", http(host, port, "GET", "/nothing-here" + query))
    say("STATUS post-page", http(host, port, "POST", "/" + query, {"Content-Length": "0"}))
    say("STATUS live-without-upgrade", http(host, port, "GET", "/live" + query))
    if args.token:
        say("STATUS page-without-token", http(host, port, "GET", "/"))
        say("STATUS page-wrong-token", http(host, port, "GET", "/?token=wrong"))
        say("STATUS metrics-bearer", http(host, port, "GET", "/metrics", {"Authorization": f"Bearer {args.token}"}))
        status, _, sock, _ = upgrade(host, port, "/live", origin)
        sock.close()
        say("STATUS live-without-token", status)
    status, _, sock, _ = request(host, port, b"NOT AN HTTP REQUEST\r\n\r\n")
    sock.close()
    say("STATUS garbage", status)
    status, _, sock, _ = upgrade(host, port, "/live" + query, "http://evil.example")
    sock.close()
    say("STATUS live-foreign-origin", status)
    # This server's host and port, but another scheme: the page is served over plain HTTP, so an https:// page is
    # another site's.
    status, _, sock, _ = upgrade(host, port, "/live" + query, f"https://{host}:{port}")
    sock.close()
    say("STATUS live-https-origin", status)
    # DNS rebinding: a page on evil.example whose name now points at this machine sends its own name as Host,
    # and its WebSocket's Origin matches that Host.
    rebound = f"evil.example:{port}"
    say("STATUS page-rebound-host", http(host, port, "GET", "/" + query, host_header=rebound))
    status, _, sock, _ = upgrade(host, port, "/live" + query, f"http://{rebound}", host_header=rebound)
    sock.close()
    say("STATUS live-rebound-host", status)
    say("STATUS page-localhost", http(host, port, "GET", "/" + query, host_header=f"localhost:{port}"))

    status, _, sock, rest = upgrade(host, port, "/live" + query, origin)
    say("STATUS live-upgrade", status)
    if status != 101:
        return 1
    frames = FrameReader(sock, rest)
    say("HELLO", frames.text())

    def ask(probe, frame):
        send_text(sock, frame)
        # Skip the live feed until the answer to this frame (a reply or an error) comes.
        while True:
            text = frames.text()
            kind = json.loads(text).get("type")
            if kind in ("reply", "error"):
                say("FRAME", probe, text)
                return

    ask("not-json", "this is not json")
    ask("unknown-family", json.dumps({"type": "command", "id": 1, "device": "lamp/x", "command": "on", "payload": ""}))
    ask("wildcard-id", json.dumps({"type": "command", "id": 2, "device": "belt/#", "command": "mode", "payload": "app"}))
    ask("unknown-request", json.dumps({"type": "request", "id": 3, "gateway": "x", "request": "reboot", "payload": ""}))
    if args.device:
        ask("bad-value", json.dumps({"type": "command", "id": 4, "device": args.device, "command": "intensity",
                                     "payload": "{\"intensity\":500}"}))
        ask("good-command", json.dumps({"type": "command", "id": 5, "device": args.device, "command": "mode", "payload": "app"}))
    sock.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
