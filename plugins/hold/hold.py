#!/usr/bin/env python3
"""The hold example plugin (PLUGINS.md): shows how long its button was held.

The host writes one JSON object per line to our standard input and reads
ours from standard output. We answer `hello` with `ready`, and on each
press of a `hold` button we set the button's title: "holding 1.5 s" while
the finger is down (updated twice a second), "held 2.3 s" after `up`.
"""
import json
import os
import select
import sys
import time

held = {}  # (page, index) -> when the finger went down


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def title(page, index, text):
    send({"type": "setTitle", "page": page, "index": index, "title": text})


def handle(event):
    kind = event.get("event") or event.get("type")
    if kind == "hello":
        send({"type": "ready"})
    elif kind == "buttons":
        # A held button that left the layout (removed, moved) will get no
        # `up` here: forget it, or we would keep setting a title it no longer has.
        mine = {(b["page"], b["index"]) for b in event["buttons"]}
        for slot in list(held):
            if slot not in mine:
                del held[slot]
    elif kind == "press":
        slot = (event["button"]["page"], event["button"]["index"])
        phase = event.get("phase", "tap")
        if phase == "down":
            held[slot] = time.monotonic()
            title(*slot, "holding…")
        elif phase == "up" and slot in held:
            title(*slot, "held %.1f s" % (time.monotonic() - held.pop(slot)))
        elif phase == "tap":
            title(*slot, "hold me longer")
    elif kind == "shutdown":
        sys.exit(0)


def main():
    pending = b""
    while True:
        # While a button is down, wake up twice a second to show the time so far.
        ready, _, _ = select.select([0], [], [], 0.5 if held else None)
        if not ready:
            now = time.monotonic()
            for slot, since in held.items():
                title(*slot, "holding %.1f s" % (now - since))
            continue
        chunk = os.read(0, 65536)
        if not chunk:
            return  # the host went away
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
