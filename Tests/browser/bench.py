"""`make bench`'s web deck figures, in headless Chromium on loopback against a
release deckd (issue 15), each as a ratio to this machine's floor measured in
the same run where it has one:

- touch → lifted tile drawn: animation frames from the touch move that lifts
  the tile to the first frame that shows it lifted (target ≤ 1);
- tap → the action's process started, over its floor (CDP's touch delivery +
  a WebSocket round trip from the page + spawning /bin/sh once) (target ≤ 1.5×);
- page load → first layout drawn (target ≤ 150 ms), and as a ratio to a floor
  page served by the same deckd (one HTML file and one module that opens the
  WebSocket and writes the welcome's layout as text) (target ≤ 1.5×);
- the app's weight: every file the page loads, as sent (gzip) (target ≤ 64 KB);
- button faces (bench_faces.py): plugin setState → face painted over its
  WebSocket-and-a-frame floor (target ≤ 2×); 100 faces at 20 Hz: dropped
  frames in a CDP trace (target none) and deckd's CPU (target ≤ 5 % of a core).

Prints a table and writes bench/web-results.json. Reports only: it never fails on a slow machine."""

import contextlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import conftest  # noqa: E402
from cdp import Browser  # noqa: E402
from conftest import Host  # noqa: E402
from deck import Deck  # noqa: E402
import bench_faces  # noqa: E402

ROUNDS = int(os.environ.get("DECK_BENCH_ROUNDS", "20"))
LAYOUT = textwrap.dedent("""\
    name: default
    pages:
      - buttons:
          0: {{name: Started, action: {{run: ": > {out}/started"}}}}
          1: {{name: Lift me, icon: "📦", action: {{run: "true"}}}}
    """)


def wait_file(path, timeout=10):
    deadline = time.perf_counter() + timeout
    while time.perf_counter() < deadline:
        if os.path.exists(path):
            return time.perf_counter()
        time.sleep(0.0002)
    raise RuntimeError(f"{path} did not appear")


def tap_to_started(host, page, deck):
    cell = deck.tile("0/0")
    marker = host.out / "started"
    times = []
    for _ in range(ROUNDS):
        if marker.exists():
            marker.unlink()
        start = time.perf_counter()
        page.touch("touchStart", cell["x"], cell["y"])
        page.touch("touchEnd")
        times.append(wait_file(marker) - start)
        time.sleep(0.05)
    return times


def floor(page, host):
    """CDP touch delivery (a tap on no button), a WebSocket round trip from the page, /bin/sh spawned once."""
    g = Deck(page).grid()
    cdp, ws, spawn = [], [], []
    for _ in range(ROUNDS):
        start = time.perf_counter()
        page.touch("touchStart", g["x"] + 2, g["y"] + g["height"] - 2)
        page.touch("touchEnd")
        cdp.append(time.perf_counter() - start)
        time.sleep(0.05)
    rtts = page.js(f"""new Promise(resolve => {{
        const s = new WebSocket(`ws://${{location.host}}/ws`); const out = []; let t = 0;
        s.onopen = () => s.send(JSON.stringify({{type: 'hello', id: 0, protocol: 7, device: {{name: 'bench', kind: 'phone'}}}}));
        s.onmessage = (m) => {{ const msg = JSON.parse(m.data);
          if (msg.type === 'pong') out.push(performance.now() - t);
          if (msg.type === 'welcome' || msg.type === 'pong') {{
            if (out.length >= {ROUNDS}) {{ s.close(); resolve(out); return; }}
            t = performance.now(); s.send(JSON.stringify({{type: 'ping', id: out.length + 1}})); }} }};
      }})""")
    ws = [r / 1000 for r in rtts]
    for _ in range(ROUNDS):
        start = time.perf_counter()
        subprocess.run(["/bin/sh", "-c", ":"], check=True)
        spawn.append(time.perf_counter() - start)
    return cdp, ws, spawn


def lift_frames(page, deck):
    """Frames from the move that lifts the tile to the first frame showing it lifted."""
    frames = []
    for _ in range(max(5, ROUNDS // 4)):
        t = deck.tile("0/1")
        deck.down(t["x"], t["y"])
        page.wait("document.querySelector('[data-slot=\"0/1\"]').dataset.state === 'held'")
        page.touch("touchMove", t["x"] + 2, t["y"])  # the drag part starts here (the first touch after the hold)
        page.js("""window.__lift = new Promise(resolve => { let frames = 0, moved = false;
            addEventListener('pointermove', () => { moved = true; }, {once: true, capture: true});
            (function f() { if (moved) frames++;
              if (document.querySelector('[data-slot="0/1"]').dataset.state === 'lifted') resolve(frames);
              else requestAnimationFrame(f); })(); })""", await_promise=False)
        page.touch("touchMove", t["x"] + 30, t["y"])
        frames.append(page.js("window.__lift"))
        deck.up()
        page.wait("document.querySelector('[data-slot=\"0/1\"]').dataset.state === 'idle'")
        page.js("document.querySelector('[data-role=\"done\"]').click()")
    return frames


def first_draw(page, host):
    """Page loads with the cache off (each one fetches every file, as a first visit does),
    each from a blank page: a person opens the link in a tab that was not showing the deck,
    and a load over the deck itself would count tearing the old one down (its socket, its
    frames) in the new one's time."""
    page.call("Network.enable")
    page.call("Network.setCacheDisabled", {"cacheDisabled": True})
    times = []
    for _ in range(max(15, ROUNDS)):  # a load is short, and its time varies more than a tap's
        page.goto("about:blank")
        page.wait("location.href === 'about:blank' && document.readyState === 'complete'", what="a blank page")
        page.goto(host.url)
        page.wait("performance.getEntriesByName('deck:first-layout').length > 0", what="the first layout")
        times.append(page.js("performance.getEntriesByName('deck:first-layout')[0].startTime") / 1000)
    # The weight is every file the app loads, the later parts too (main.mjs loads them after the first
    # draw): the settings sheet's kinds are filled when they are in (main.mjs).
    page.wait("document.querySelector('[data-role=\"settings\"] select[name=\"action\"]')?.options.length > 0",
              what="the later parts")
    weight = page.js("""(() => { const n = performance.getEntriesByType('navigation')[0];
        return [n, ...performance.getEntriesByType('resource')].filter(e => !e.name.includes('/ws'))
          .map(e => [e.name, e.encodedBodySize]); })()""")
    return times, weight


FLOOR_HTML = """<!doctype html><meta charset="utf-8"><title>floor</title><pre id="out"></pre>
<script type="module" src="floor.mjs"></script>
"""
FLOOR_MODULE = """const s = new WebSocket(`ws://${location.host}/ws`);
s.onopen = () => s.send(JSON.stringify({type: 'hello', id: 0, protocol: 7, device: {name: 'floor', kind: 'phone'}}));
s.onmessage = (m) => { const msg = JSON.parse(m.data); if (msg.type !== 'welcome') return;
  document.getElementById('out').textContent = msg.layout.pages
    .map((p) => p.buttons.map((b) => (b ? b.name : '·')).join(' | ')).join('\\n');
  requestAnimationFrame(() => performance.mark('deck:first-layout')); s.close(); };
"""


def floor_web_root(root):
    """The app's files plus /floor/ (the first-draw floor page) in a temporary web root, so the
    same deckd serves both and the floor is never in Apps/web, where an install would ship it."""
    web = Path(root) / "web"
    shutil.copytree(conftest.APP, web, ignore=shutil.ignore_patterns("test"))
    (web / "floor").mkdir()
    (web / "floor" / "index.html").write_text(FLOOR_HTML)
    (web / "floor" / "floor.mjs").write_text(FLOOR_MODULE)
    return web


def first_layouts(page, urls, loads):
    """Page load → first layout (s) of each of `urls` ({name: url}), in turn `loads` times, the cache
    off, each from a blank page (as first_draw). Every page marks `deck:first-layout` as the deck does."""
    page.call("Network.enable")
    page.call("Network.setCacheDisabled", {"cacheDisabled": True})
    times = {name: [] for name in urls}
    for _ in range(loads):
        for name, url in urls.items():
            page.goto("about:blank")
            page.wait("location.href === 'about:blank' && document.readyState === 'complete'", what="a blank page")
            page.goto(url)
            page.wait("performance.getEntriesByName('deck:first-layout').length > 0", what=f"the first layout of {url}")
            times[name].append(page.js("performance.getEntriesByName('deck:first-layout')[0].startTime") / 1000)
    return times


def first_draw_against_floor(page, host):
    """Page load → first layout of the deck and of the floor page, alternating. The floor marks its
    draw the same way, one frame after writing the text, as the deck marks it after drawing."""
    times = first_layouts(page, {"deck": host.url, "floor": host.url + "floor/index.html"}, max(15, ROUNDS))
    return times["deck"], times["floor"]


@contextlib.contextmanager
def floor_host(bindir, prefix, extend=None):
    """A deckd on LAYOUT serving a copy of the app with /floor/ (and what `extend(web)` adds to the
    copy) from a temporary folder; this process's hosts serve that copy until it ends."""
    app = conftest.APP
    try:
        with tempfile.TemporaryDirectory(prefix=prefix) as root:
            web = floor_web_root(root)
            if extend:
                extend(web)
            conftest.APP = web
            host = Host(bindir, root, layout=LAYOUT)
            try:
                if not host.web:
                    raise SystemExit("unsupported: this deckd has no --web; the web figures need its own listener")
                yield host
            finally:
                host.stop()
    finally:
        conftest.APP = app  # the copy goes with the folder: later hosts serve the app itself


def main():
    bindir = Path(os.environ.get("DECK_BIN", ".build/release"))
    browser = Browser()
    results = {}
    try:
        with floor_host(bindir, "deck-web-bench-") as host:
            page = browser.new_page()
            page.goto(host.url)
            page.wait("document.querySelector('[data-connection]')?.dataset.connection === 'connected'")
            deck = Deck(page)
            frames = lift_frames(page, deck)
            taps = tap_to_started(host, page, deck)
            cdp, ws, spawn = floor(page, host)
            draws, weight = first_draw(page, host)
            deck_draws, floor_draws = first_draw_against_floor(page, host)
        faces = bench_faces.run(browser, bindir, ROUNDS)
    finally:
        browser.close()
    med = statistics.median
    floor_s = med(cdp) + med(ws) + med(spawn)
    total = sum(size for _, size in weight)
    results = {
        "liftFrames": {"max": max(frames), "median": med(frames), "target": 1},
        "tapToStarted": {"median_ms": med(taps) * 1000, "floor_ms": floor_s * 1000, "ratio": med(taps) / floor_s,
                         "floor_parts_ms": {"cdpTouch": med(cdp) * 1000, "webSocketRoundTrip": med(ws) * 1000,
                                            "spawnSh": med(spawn) * 1000}, "target": 1.5},
        "firstLayout": {"median_ms": med(draws) * 1000, "max_ms": max(draws) * 1000, "target_ms": 150},
        "weight": {"bytes": total, "files": len(weight), "target_bytes": 64 * 1024},
        "firstLayoutVsFloor": {"median_ms": med(deck_draws) * 1000, "floor_median_ms": med(floor_draws) * 1000,
                               "ratio": med(deck_draws) / med(floor_draws), "target": 1.5},
        "faces": faces,
    }
    print("web deck (headless Chromium, loopback, release deckd)")
    print(f"  touch → lifted tile drawn   {results['liftFrames']['max']} frame(s) at most (median {results['liftFrames']['median']})   target ≤ 1")
    t = results["tapToStarted"]
    print(f"  tap → action started        {t['median_ms']:.1f} ms = {t['ratio']:.2f}× floor {t['floor_ms']:.1f} ms "
          f"(CDP {t['floor_parts_ms']['cdpTouch']:.1f} + WS {t['floor_parts_ms']['webSocketRoundTrip']:.1f} + spawn {t['floor_parts_ms']['spawnSh']:.1f})   target ≤ 1.5×")
    f = results["firstLayout"]
    print(f"  page load → first layout    {f['median_ms']:.0f} ms median, {f['max_ms']:.0f} ms max   target ≤ 150 ms")
    r = results["firstLayoutVsFloor"]
    print(f"  first layout vs floor page  {r['median_ms']:.0f} ms = {r['ratio']:.2f}× floor {r['floor_median_ms']:.0f} ms "
          f"(one HTML file + one module, same deckd)   target ≤ 1.5×")
    print(f"  weight (as sent, gzip)      {total / 1024:.1f} KB in {len(weight)} files   target ≤ 64 KB")
    bench_faces.report(faces)
    os.makedirs("bench", exist_ok=True)
    with open("bench/web-results.json", "w") as out:
        json.dump(results, out, indent=2)


if __name__ == "__main__":
    main()
