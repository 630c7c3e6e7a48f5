#!/usr/bin/env python3
"""Edits against a running deckd, as devices make them: each device moves its
own button back and forth between two slots of one page, sending its next
edit when the `ok` of the last one arrives. Prints each phase's count,
latency (median, p99) and rate.

For profiling deckd by hand (docs/performance.md, "Reproducing and
profiling"): `--between CMD` runs CMD after the warm-up, so a profiler counts
only the measured edits (callgrind-edits.sh passes `callgrind_control
--zero`). deckd must serve devices on loopback without TLS (`--listen
127.0.0.1:0`), where devices need no pairing, and its live profile needs two
filled slots on one page for every device (deck-bench --desk-profile has 16
pairs).

usage: edits.py PORT [--devices N] [--edits M] [--warm-up W] [--between CMD]
"""
import argparse
import json
import socket
import statistics
import subprocess
import sys
import threading
import time


def connect(port, name):
    sock = socket.create_connection(("127.0.0.1", port), timeout=30)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    lines = sock.makefile("rb")
    hello = {"type": "hello", "id": 0, "protocol": 7, "device": {"name": name, "kind": "phone"}}
    sock.sendall(json.dumps(hello).encode() + b"\n")
    welcome = json.loads(lines.readline())
    if welcome.get("type") != "welcome":
        raise SystemExit(f"edits.py: deckd did not welcome {name}: {welcome}")
    return sock, lines, welcome["layout"]


def pairs_of(layout):
    """Disjoint pairs of filled slots on one page: (page, from, to, button)."""
    pairs = []
    for number, page in enumerate(layout["pages"]):
        filled = [index for index, button in enumerate(page["buttons"]) if button]
        for k in range(0, len(filled) - 1, 2):
            pairs.append((number, filled[k], filled[k + 1], page["buttons"][filled[k]]))
    return pairs


class Device:
    def __init__(self, port, number, pair):
        self.sock, self.lines, _ = connect(port, f"edits.py {number}")
        self.page, self.here, self.there, self.button = pair
        self.next_id = 1

    def edit(self, count, latencies, failures):
        for _ in range(count):
            request = {"type": "moveButton", "id": self.next_id, "fromPage": self.page, "fromIndex": self.here,
                       "toPage": self.page, "toIndex": self.there, "button": self.button}
            ok = b'{"type":"ok","id":%d,' % self.next_id
            sent = time.perf_counter()
            self.sock.sendall(json.dumps(request).encode() + b"\n")
            while True:
                line = self.lines.readline()
                if line.startswith(ok):
                    break
                if not line or line.startswith(b'{"type":"error"'):
                    failures.append(line.decode(errors="replace").strip() or "deckd closed the connection")
                    return
            latencies.append(time.perf_counter() - sent)
            self.here, self.there = self.there, self.here
            self.next_id += 1


def phase(devices, count):
    latencies, failures = [], []
    threads = [threading.Thread(target=d.edit, args=(count, latencies, failures)) for d in devices]
    start = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    seconds = time.perf_counter() - start
    if failures:
        raise SystemExit(f"edits.py: an edit failed: {failures[0]}")
    return sorted(latencies), seconds


def report(name, latencies, seconds):
    p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))]
    print(f"{name}: {len(latencies)} edits, median {statistics.median(latencies) * 1e6:.0f} µs, "
          f"p99 {p99 * 1e6:.0f} µs, {len(latencies) / seconds:.0f} edits/s")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("port", type=int, help="deckd's device port (its ready line)")
    parser.add_argument("--devices", type=int, default=1, help="devices editing at once (default 1)")
    parser.add_argument("--edits", type=int, default=300, help="measured edits per device (default 300)")
    parser.add_argument("--warm-up", type=int, default=20, help="edits per device before measuring (default 20)")
    parser.add_argument("--between", help="a shell command run after the warm-up, before the measured edits")
    options = parser.parse_args()
    if options.devices < 1 or options.edits < 1 or options.warm_up < 0:
        parser.error("--devices and --edits must be at least 1, --warm-up at least 0")
    probe, _, layout = connect(options.port, "edits.py probe")
    probe.close()  # it would get every layout and read none
    pairs = pairs_of(layout)
    if len(pairs) < options.devices:
        parser.error(f"the live layout has {len(pairs)} pairs of filled slots on one page, fewer than "
                     f"{options.devices} devices; serve deck-bench --desk-profile's profile")
    devices = [Device(options.port, number, pairs[number]) for number in range(options.devices)]
    if options.warm_up:
        report("warm-up", *phase(devices, options.warm_up))
    if options.between:
        subprocess.run(options.between, shell=True, check=True, stdout=subprocess.DEVNULL)
    report("measured", *phase(devices, options.edits))


if __name__ == "__main__":
    sys.exit(main())
