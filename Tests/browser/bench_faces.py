"""`make bench`'s button-face figures (issue 24), run by bench.py in the same
run as the other web figures:

- plugin `setState` → the web deck has painted the new face: the plugin's
  send time (Tests/browser/plugins/faces, `toggle`) to the first animation
  frame after the tile shows the state, p50, as a ratio to the floor: the
  same message's bytes sent by a minimal WebSocket server (the `websockets`
  package) to a blank page, to the first animation frame after it arrived
  (target ≤ 2×). Both sides are wall-clock times (Python's time.time() and
  the page's performance.timeOrigin + now()) on one machine, so both carry
  the same small offset between the two clocks. Both wait PAUSE between
  rounds, so that each message finds a page at rest (below);
- 100 faces changing at 20 Hz each (the plugin's `storm`): dropped frames
  in a CDP trace of 5 s (DroppedFrame events, next to the frames drawn;
  target none at 60 fps) and deckd's CPU time over the same 5 s as a share
  of one core (target ≤ 5 %); next to the same deck standing still for 5 s
  just before (what this machine drops with nothing changing).
"""

import json
import os
import statistics
import tempfile
import textwrap
import threading
import time
from pathlib import Path

from conftest import Device, Host

PLUGINS = Path(__file__).resolve().parent / "plugins"
STORM_BUTTONS = 100
STORM_HZ = 20
TRACE_SECONDS = 5
# Samples of setState → painted at least (a tap's ROUNDS may be fewer).
PAINT_ROUNDS = 40
# Between rounds, for the deck and its floor alike: long enough that the page has stopped asking for
# frames (30 ms after a paint it still was here, 60 ms after no longer), as a press finds a deck at
# rest. Sooner, the next frame is the clock's next tick, up to ~17 ms later depending on where in the
# frame the message lands, and a floor paced by its own frame callbacks lands at the same place each round.
PAUSE = 0.1


def toggle_layout(log):
    return textwrap.dedent(f"""\
        name: default
        pages:
          - buttons:
              0:
                name: Toggle
                action: {{{{plugin: faces, command: toggle, settings: {{{{states: [a, b], log: "{log}"}}}}}}}}
                states: [{{{{id: a}}}}, {{{{id: b, style: {{{{background: red}}}}}}}}]
        """)


def storm_layout():
    lines = ["name: default", f"slotsPerPage: {STORM_BUTTONS}", "pages:", "  - buttons:"]
    for i in range(STORM_BUTTONS):
        lines.append(f"      {i}: {{{{name: S{i}, action: {{{{plugin: faces, command: storm, settings: {{{{hz: {STORM_HZ}}}}}}}}}, "
                     "states: [{{id: a}}, {{id: b, style: {{background: blue}}}}]}}")
    return "\n".join(lines) + "\n"


def wait_plugin(host):
    deadline = time.monotonic() + 20
    while not any(p["id"] == "faces" and p["state"] == "running" for p in host.status().get("plugins", [])):
        if time.monotonic() > deadline:
            raise RuntimeError("the faces test plugin did not start")
        time.sleep(0.05)


def open_page(browser, host, width=390, height=844):
    page = browser.new_page(width, height, 2)
    page.goto(host.url)
    page.wait("document.querySelector('[data-connection]')?.dataset.connection === 'connected'"
              " && document.querySelectorAll('[data-slot]').length > 0", what="the deck")
    return page


def set_state_to_painted(browser, bindir, rounds):
    """Seconds from the plugin's setState to the frame that paints it, one per round."""
    with tempfile.TemporaryDirectory(prefix="deck-face-bench-") as root:
        log = Path(root) / "sent.log"
        host = Host(bindir, root, layout=toggle_layout(log), plugins=PLUGINS)
        try:
            wait_plugin(host)
            page = open_page(browser, host)
            page.js("""(() => { window.__painted = [];
                const tile = document.querySelector('[data-slot="0/0"]');
                new MutationObserver(() => { const state = tile.dataset.faceState ?? 'a';
                    requestAnimationFrame(() => window.__painted.push([state, performance.timeOrigin + performance.now()])); })
                  .observe(tile, {attributes: true, attributeFilter: ['data-face-state']}); })()""")
            with Device(host.tcp_port) as device:
                for i in range(rounds):
                    device.send({"type": "press", "id": 10 + i, "page": 0, "index": 0})
                    device.next(lambda m: m.get("id") == 10 + i)
                    page.wait(f"window.__painted.length >= {i + 1}", what="the face painted")
                    time.sleep(PAUSE)
            painted = page.js("window.__painted")
            page.close()
        finally:
            host.stop()
        sent = [line.split() for line in log.read_text().splitlines()]
    return [p[1] / 1000 - float(s[0]) for s, p in zip(sent, painted) if s[1] == p[0]]


def websocket_floor(browser, message, rounds):
    """Seconds from a minimal server's send of `message` to the first frame after a blank page got it."""
    from websockets.sync.server import serve
    sends = []

    def handler(socket):
        for _ in socket:  # the page asks for each one
            sends.append(time.time())
            socket.send(message)

    with serve(handler, "127.0.0.1", 0) as server:
        threading.Thread(target=server.serve_forever, daemon=True).start()
        port = server.socket.getsockname()[1]
        page = browser.new_page(390, 844, 2)
        got = page.js(f"""new Promise(resolve => {{
            const s = new WebSocket('ws://127.0.0.1:{port}/'); const out = [];
            s.onopen = () => s.send('go');
            s.onmessage = () => requestAnimationFrame(() => {{ out.push(performance.timeOrigin + performance.now());
                if (out.length >= {rounds}) {{ s.close(); resolve(out); }} else setTimeout(() => s.send('go'), {PAUSE * 1000}); }});
          }})""")
        page.close()
        server.shutdown()
    return [g / 1000 - s for s, g in zip(sends, got)]


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(") ", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def trace(page, pid):
    """A CDP trace of TRACE_SECONDS: its frames and dropped frames, the page's rAF gaps, deckd's CPU share."""
    while not page.events.empty():
        page.events.get_nowait()
    page.call("Tracing.start", {"transferMode": "ReportEvents", "traceConfig": {
        "includedCategories": ["disabled-by-default-devtools.timeline.frame", "devtools.timeline"]}})
    cpu0, wall0 = cpu_seconds(pid), time.monotonic()
    intervals = page.js(f"""new Promise(resolve => {{ const out = []; let last = null; const end = performance.now() + {TRACE_SECONDS * 1000};
        (function f(t) {{ if (last !== null) out.push(t - last); last = t;
          if (t < end) requestAnimationFrame(f); else resolve(out); }})(performance.now()); }})""")
    cpu1, wall1 = cpu_seconds(pid), time.monotonic()
    page.call("Tracing.end")
    events = []
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        message = page.events.get(timeout=60)
        if message.get("method") == "Tracing.dataCollected":
            events += message["params"]["value"]
        elif message.get("method") == "Tracing.tracingComplete":
            break
    names = [e.get("name") for e in events]
    return {"droppedFrames": names.count("DroppedFrame"), "framesDrawn": names.count("DrawFrame"),
            "rafOver25ms": sum(1 for i in intervals if i > 25), "rafFrames": len(intervals),
            "deckdCpuShare": (cpu1 - cpu0) / (wall1 - wall0), "seconds": wall1 - wall0}


def storm(browser, bindir):
    """100 faces at 20 Hz each for TRACE_SECONDS, next to the same deck standing still (the floor, same run)."""
    with tempfile.TemporaryDirectory(prefix="deck-storm-bench-") as root:
        host = Host(bindir, root, layout=storm_layout(), plugins=PLUGINS)
        try:
            wait_plugin(host)
            page = open_page(browser, host, 1180, 820)
            still = trace(page, host.process.pid)
            with Device(host.tcp_port) as device:
                device.send({"type": "press", "id": 2, "page": 0, "index": 0})
                device.next(lambda m: m.get("id") == 2)
                page.wait("document.querySelector('[data-slot=\"0/99\"]').dataset.faceState === 'b'", what="the storm")
                stormy = trace(page, host.process.pid)
                device.send({"type": "press", "id": 3, "page": 0, "index": 0})
                device.next(lambda m: m.get("id") == 3)
            page.close()
        finally:
            host.stop()
    return dict(stormy, still=still)


def run(browser, bindir, rounds):
    """Every face figure; a dict for bench/web-results.json."""
    rounds = max(PAINT_ROUNDS, rounds)
    painted = set_state_to_painted(browser, bindir, rounds)
    sample = json.dumps({"type": "buttonFace", "page": 0, "index": 0, "title": None, "state": "b", "image": None, "flash": None})
    floor = websocket_floor(browser, sample, rounds)
    med = statistics.median
    return {
        "setStateToPainted": {"median_ms": med(painted) * 1000, "floor_ms": med(floor) * 1000,
                              "ratio": med(painted) / med(floor), "samples": len(painted), "target": 2},
        "storm": dict(storm(browser, bindir), buttons=STORM_BUTTONS, hz=STORM_HZ, target_cpu_share=0.05, target_dropped=0),
    }


def report(results):
    s = results["setStateToPainted"]
    print(f"  setState → face painted     {s['median_ms']:.1f} ms = {s['ratio']:.2f}× floor {s['floor_ms']:.1f} ms "
          f"(WebSocket send + one frame, {s['samples']} samples)   target ≤ 2×")
    t = results["storm"]
    print(f"  {t['buttons']} faces at {t['hz']} Hz           {t['droppedFrames']} dropped of {t['framesDrawn']} frames drawn in a "
          f"{t['seconds']:.1f} s trace ({t['rafOver25ms']} of {t['rafFrames']} rAF gaps > 25 ms); deckd "
          f"{t['deckdCpuShare'] * 100:.1f} % of a core   targets 0 dropped, ≤ 5 %")
    q = t["still"]
    print(f"  the same deck standing still {q['droppedFrames']} dropped of {q['framesDrawn']} frames ({q['rafOver25ms']} of "
          f"{q['rafFrames']} rAF gaps > 25 ms); deckd {q['deckdCpuShare'] * 100:.1f} % of a core   (this machine's floor, same run)")
