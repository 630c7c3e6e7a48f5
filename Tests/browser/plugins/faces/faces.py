#!/usr/bin/env python3
"""The face test plugin (PLUGINS.md, docs/faces.md §3). On `press` of a
`send` button it writes each message of `settings.send` with the pressed
button's page and index (unless the message has its own `page` or `for`);
a `toggle` button moves its own face to the next of `settings.states`
(then writing `TIME STATE` to `settings.log`, TIME: time.time() just before
the send);
a `storm` button starts (or stops) flipping every `storm` button between
the states `a` and `b`, `settings.hz` times a second each; each flip's
send time goes to the file `settings.log` names, one line
`TIME PAGE INDEX STATE` (TIME: time.time()), for `make bench`.
"""
import json
import os
import select
import sys
import time

buttons = []  # the host's `buttons`: ours in the live layout
toggled = {}  # (page, index) -> which of its settings.states it showed last
storm = None  # {"hz": …, "next": …, "flip": 0, "log": file or None} while storming


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def handle(event):
    global buttons, storm
    kind = event.get("event") or event.get("type")
    if kind == "hello":
        send({"type": "ready"})
    elif kind == "buttons":
        buttons = event["buttons"]
    elif kind == "press" and event.get("phase", "tap") == "tap":
        button, settings = event["button"], event.get("settings") or {}
        if event.get("command") == "send":
            for message in settings.get("send", []):
                if "page" not in message and "for" not in message:
                    message = dict(message, page=button["page"], index=button["index"])
                send(message)
        elif event.get("command") == "toggle":
            states = settings.get("states", ["a", "b"])
            slot = (button["page"], button["index"])
            toggled[slot] = (toggled.get(slot, 0) + 1) % len(states)  # it starts on the first, state 0
            # The time just before the line goes out; the log is written after it, out of the timed path.
            sent = time.time()
            send({"type": "setState", "page": slot[0], "index": slot[1], "state": states[toggled[slot]]})
            if settings.get("log"):
                with open(settings["log"], "a") as log:
                    log.write(f"{sent:.6f} {states[toggled[slot]]}\n")
        elif event.get("command") == "storm":
            if storm:
                if storm["log"]:
                    storm["log"].close()
                storm = None
            else:
                log = open(settings["log"], "a") if settings.get("log") else None
                storm = {"hz": float(settings.get("hz", 20)), "next": time.monotonic(), "flip": 0, "log": log}
    elif kind == "shutdown":
        sys.exit(0)


def flip():
    storm["flip"] += 1
    state = "b" if storm["flip"] % 2 else "a"
    now = time.time()
    for b in buttons:
        if b.get("command") == "storm":
            send({"type": "setState", "page": b["page"], "index": b["index"], "state": state})
            if storm["log"]:
                storm["log"].write(f"{now:.6f} {b['page']} {b['index']} {state}\n")
    if storm["log"]:
        storm["log"].flush()
    storm["next"] += 1 / storm["hz"]


def main():
    pending = b""
    while True:
        wait = None if not storm else max(0.0, storm["next"] - time.monotonic())
        ready, _, _ = select.select([0], [], [], wait)
        if storm and time.monotonic() >= storm["next"]:
            flip()
        if not ready:
            continue
        chunk = os.read(0, 1 << 20)
        if not chunk:
            return
        pending += chunk
        *lines, pending = pending.split(b"\n")
        for line in lines:
            try:
                event = json.loads(line)
            except ValueError:
                continue
            if isinstance(event, dict):
                handle(event)


main()
