#!/usr/bin/env python3
"""Does to gatt2mqtt's live page what a stranger on the network could: guess its password, or hold idle
connections open, and times what a legitimate client gets meanwhile. Standard library only, raw sockets, so
what it prints is what crossed the wire.

    stranger_probe.py guess --port P --user U --wrong N --right PASSWORD [--legit-source 127.0.0.2]
        At least N wrong passwords from 127.0.0.1, one connection each, as fast as answers come, and on until
        the server refuses for 2 s or more (for at most 30 s after the N); then the right password from the
        guessing source, and from the legitimate one (another loopback address: another client as the server
        sees it).
        Prints:  GUESSES <sent> <seconds> <count>x<status> ...
                 RETRY-AFTER <seconds>          (the last answer's, when it was 429)
                 RIGHT <source> <status> <seconds>

    stranger_probe.py crowd --port P --token T --idle N [--seconds S]
        N idle connections from 127.0.0.1 that send nothing, reopened as the server closes them, for S seconds
        and until R legitimate requests (--requests, 3) were answered, while a legitimate client (also 127.0.0.1)
        sends GET / with the token on a fresh connection every 0.2 s (each waits at most 60 s for its answer).
        Prints:  IDLE <connections still open at the end> <reopened>
                 LEGIT <status> <seconds>       one line per legitimate request

    stranger_probe.py keepalive --port P --clients N [--every E] [--seconds S] [--requests R]
        N kept-alive connections from 127.0.0.1 that each send a whole GET / (no credentials: the page's default),
        read the answer, and ask again on the same connection every E seconds (2), reopening it when the server
        closes it; meanwhile, as for crowd, a legitimate client (also 127.0.0.1) sends GET / on a fresh connection
        every 0.2 s for S seconds and until R requests were answered.
        Prints:  KEEPALIVE <answers the kept-alive connections got> <reopened>
                 LEGIT <status> <seconds>       one line per legitimate request
"""

import argparse
import base64
import selectors
import socket
import sys
import threading
import time

from http_probe import read_head


def get(port, headers, source="127.0.0.1", timeout=60):
    """One GET / on a fresh connection from `source`; returns (status, retry-after or None, seconds)."""
    started = time.monotonic()
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.settimeout(timeout)
    sock.bind((source, 0))
    sock.connect(("127.0.0.1", port))
    lines = ["GET / HTTP/1.1", f"Host: 127.0.0.1:{port}", "Connection: close"] + [f"{k}: {v}" for k, v in headers.items()]
    sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
    status, head, _ = read_head(sock)
    sock.close()
    retry = next((line.split(":", 1)[1].strip() for line in head.split("\r\n")[1:] if line.lower().startswith("retry-after:")), None)
    return status, retry, time.monotonic() - started


def basic(user, password):
    return {"Authorization": "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()}


def guess(args):
    counts = {}
    retry = None
    sent = 0
    started = time.monotonic()
    required_done = started  # when the N were sent
    # At least N; then on until a refusal says to wait 2 s or more, so that the right password sent next from this
    # source surely falls inside a window: 30 s at most after the N, not after the start, for on a loaded host the
    # N alone took 32 s and the probe stopped on a checked guess, with no refusal to report.
    while sent < args.wrong or (retry is None or int(retry) < 2) and time.monotonic() - required_done < 30:
        status, retry_after, _ = get(args.port, basic(args.user, f"wrong-{sent}"))
        sent += 1
        counts[status] = counts.get(status, 0) + 1
        retry = retry_after if status == 429 else None
        if sent == args.wrong:
            required_done = time.monotonic()
    elapsed = time.monotonic() - started
    print(f"GUESSES {sent} {elapsed:.3f} " + " ".join(f"{n}x{s}" for s, n in sorted(counts.items())), flush=True)
    if retry is not None:
        print(f"RETRY-AFTER {retry}", flush=True)
    for source in ("127.0.0.1", args.legit_source):
        status, _, seconds = get(args.port, basic(args.user, args.right), source=source)
        print(f"RIGHT {source} {status} {seconds:.3f}", flush=True)


def crowd(args):
    selector = selectors.DefaultSelector()
    reopened = 0

    def open_idle():
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setblocking(False)
        sock.connect_ex(("127.0.0.1", args.port))
        selector.register(sock, selectors.EVENT_READ)

    for _ in range(args.idle):
        open_idle()
    # Let the server take them all in before the first legitimate request.
    time.sleep(1)
    # At least `--seconds`, and on until `--requests` legitimate requests were answered: on a busy machine one
    # answer can take seconds, and how many fit in a fixed window is the machine's business, not the server's.
    ends = time.monotonic() + args.seconds
    next_legit = time.monotonic()
    answered = 0
    while time.monotonic() < ends or answered < args.requests:
        for key, _ in selector.select(timeout=0.05):
            # Readable with nothing sent: the server closed it (or reset it). Reopen, as an attacker would.
            try:
                key.fileobj.recv(1)
            except OSError:
                pass
            selector.unregister(key.fileobj)
            key.fileobj.close()
            open_idle()
            reopened += 1
        if time.monotonic() >= next_legit:
            status, _, seconds = get(args.port, {"Authorization": f"Bearer {args.token}"}, timeout=60)
            print(f"LEGIT {status} {seconds:.3f}", flush=True)
            answered += 1
            next_legit = time.monotonic() + 0.2
    print(f"IDLE {len(selector.get_map())} {reopened}", flush=True)
    for key in list(selector.get_map().values()):
        key.fileobj.close()


def read_answer(sock):
    """Reads one whole answer (head, and a body of its Content-Length); returns its status, 0 if none came."""
    status, head, rest = read_head(sock)
    length = next((int(line.split(":", 1)[1]) for line in head.split("\r\n")[1:]
                   if line.lower().startswith("content-length:")), 0)
    while len(rest) < length:
        chunk = sock.recv(65536)
        if not chunk:
            return 0
        rest += chunk
    return status


def keepalive(args):
    stop = threading.Event()
    counts = {"answers": 0, "reopened": 0}
    lock = threading.Lock()
    request = f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{args.port}\r\n\r\n".encode()

    def client():
        sock = None
        while not stop.is_set():
            try:
                if sock is None:
                    sock = socket.create_connection(("127.0.0.1", args.port), timeout=10)
                sock.sendall(request)
                if read_answer(sock) == 0:
                    raise OSError("closed")
                with lock:
                    counts["answers"] += 1
                stop.wait(args.every)
            except OSError:
                if sock is not None:
                    sock.close()
                sock = None
                with lock:
                    counts["reopened"] += 1
                stop.wait(0.05)
        if sock is not None:
            sock.close()

    threads = [threading.Thread(target=client, daemon=True) for _ in range(args.clients)]
    for thread in threads:
        thread.start()
    # Let every connection be answered once before the first legitimate request.
    time.sleep(1)
    ends = time.monotonic() + args.seconds
    answered = 0
    # On until R were answered, but not for ever: a client kept out gets its connection closed (status 0) each time.
    while (time.monotonic() < ends or answered < args.requests) and time.monotonic() < ends + 20:
        started = time.monotonic()
        try:
            status, _, seconds = get(args.port, {}, timeout=60)
        except OSError:
            status, seconds = 0, time.monotonic() - started
        print(f"LEGIT {status} {seconds:.3f}", flush=True)
        answered += 1 if status else 0
        time.sleep(0.2)
    stop.set()
    for thread in threads:
        thread.join()
    print(f"KEEPALIVE {counts['answers']} {counts['reopened']}", flush=True)


def main():
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="command", required=True)
    g = sub.add_parser("guess")
    g.add_argument("--port", type=int, required=True)
    g.add_argument("--user", required=True)
    g.add_argument("--wrong", type=int, required=True)
    g.add_argument("--right", required=True)
    g.add_argument("--legit-source", default="127.0.0.2")
    c = sub.add_parser("crowd")
    c.add_argument("--port", type=int, required=True)
    c.add_argument("--token", required=True)
    c.add_argument("--idle", type=int, required=True)
    c.add_argument("--seconds", type=float, default=3)
    c.add_argument("--requests", type=int, default=3)
    k = sub.add_parser("keepalive")
    k.add_argument("--port", type=int, required=True)
    k.add_argument("--clients", type=int, required=True)
    k.add_argument("--every", type=float, default=2)
    k.add_argument("--seconds", type=float, default=3)
    k.add_argument("--requests", type=int, default=3)
    args = parser.parse_args()
    {"guess": guess, "crowd": crowd, "keepalive": keepalive}[args.command](args)


if __name__ == "__main__":
    sys.exit(main())
