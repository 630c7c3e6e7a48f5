"""Where the web deck's first draw goes (issue 28): page loads with the cache off,
each from a blank page as bench.py's first_draw, and for each one every file's
Resource Timing (start, request sent, first byte, end, relative to navigation),
when the WebSocket's handshake went out and when its `welcome` came (CDP's
Network events, on the same clock as the navigation), and where the renderer's
main thread spent the load (one CDP trace, `devtools.timeline`: script
compile and evaluation, style, layout, paint, HTML parsing, idle).

    DECK_BIN=.build/release python3 Tests/browser/waterfall.py [LOADS] [--floor | --one-module] [--json FILE]

Prints the median of each figure over LOADS loads (8 unless given), files in
the order they were requested; --floor measures bench.py's floor page instead,
--one-module the first draw from one module (one_module.py).
A reading aid for docs/performance.md, not a figure of `make bench`."""

import json
import os
import queue
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import bench  # noqa: E402
import one_module  # noqa: E402
from cdp import Browser  # noqa: E402

# Resource Timing of every file but the WebSocket, in ms from the navigation's start.
RESOURCES = """(() => [performance.getEntriesByType('navigation')[0], ...performance.getEntriesByType('resource')]
  .filter((e) => !e.name.includes('/ws'))
  .map((e) => ({name: new URL(e.name).pathname, start: e.startTime, sent: e.requestStart,
                firstByte: e.responseStart, end: e.responseEnd, bytes: e.encodedBodySize})))()"""
MARKS = """(() => ({firstLayout: performance.getEntriesByName('deck:first-layout')[0].startTime,
  scriptsRun: performance.getEntriesByType('navigation')[0].domContentLoadedEventStart,
  ...window.__clock}))()"""
# On the page's own clock, when its main thread saw each step: the WebSocket made, its open and
# first message handled, the first tile in the document. Added to every document before its scripts run.
SOCKET_CLOCK = """window.__clock = {};
{ const at = (name) => { window.__clock[name] ??= performance.now(); };
  window.WebSocket = new Proxy(WebSocket, { construct(native, args) {
    at('wsCreated'); const s = Reflect.construct(native, args);
    s.addEventListener('open', () => at('wsOpenSeen')); s.addEventListener('message', () => at('welcomeSeen'));
    return s; } });
  new MutationObserver((_, o) => { if (document.querySelector('[data-slot]')) { at('firstTile'); o.disconnect(); } })
    .observe(document, { childList: true, subtree: true }); }"""


def drain(page):
    """The page's CDP events so far (and none of them again)."""
    events = []
    while True:
        try:
            events.append(page.events.get_nowait())
        except queue.Empty:
            return events


def socket_times(events):
    """ms from the document's request to the WebSocket's handshake request, its 101, and the welcome frame."""
    base = handshake = opened = welcome = None
    for event in events:
        method, params = event.get("method"), event.get("params", {})
        if method == "Network.requestWillBeSent" and params.get("type") == "Document" and base is None:
            base = params["timestamp"]
        elif method == "Network.webSocketWillSendHandshakeRequest" and handshake is None:
            handshake = params["timestamp"]
        elif method == "Network.webSocketHandshakeResponseReceived" and opened is None:
            opened = params["timestamp"]
        elif method == "Network.webSocketFrameReceived" and welcome is None \
                and '"welcome"' in params.get("response", {}).get("payloadData", ""):
            welcome = params["timestamp"]
    if base is None:
        return {}
    return {name: (value - base) * 1000 for name, value in
            (("wsHandshake", handshake), ("wsOpen", opened), ("welcome", welcome)) if value is not None}


def load(page, url):
    page.goto("about:blank")
    page.wait("location.href === 'about:blank' && document.readyState === 'complete'", what="a blank page")
    drain(page)
    page.goto(url)
    page.wait("performance.getEntriesByName('deck:first-layout').length > 0", what=f"the first layout of {url}")
    marks = page.js(MARKS)
    resources = page.js(RESOURCES)
    time.sleep(0.05)  # the welcome frame's event is sent before the mark; let the reader thread hand it over
    return marks, resources, socket_times(drain(page))


# Trace event names grouped into what the main thread was doing.
KINDS = {
    "script": {"v8.compile", "v8.compileModule", "EvaluateScript", "v8.evaluateModule", "FunctionCall",
               "TimerFire", "EventDispatch", "FireAnimationFrame", "RunMicrotasks", "v8.produceModuleCache"},
    "parse HTML": {"ParseHTML"},
    "style": {"UpdateLayoutTree", "RecalculateStyles", "ParseAuthorStyleSheet"},
    "layout": {"Layout"},
    "paint": {"Paint", "PrePaint", "Layerize", "UpdateLayer", "CompositeLayers", "Commit"},
}


def covered(events):
    """ms covered by the events' intervals (nested or overlapping ones once)."""
    total, reach = 0.0, None
    for e in sorted(events, key=lambda e: e["ts"]):
        begin, finish = e["ts"], e["ts"] + e.get("dur", 0)
        if reach is None or begin > reach:
            total += finish - begin
            reach = finish
        elif finish > reach:
            total += finish - reach
            reach = finish
    return total / 1000


def main_thread(page, url):
    """One load under a trace: ms of each kind of work on the renderer main thread up to the first layout."""
    page.call("Tracing.start", {"categories": "devtools.timeline,v8,blink.user_timing", "transferMode": "ReportEvents"})
    marks, _, _ = load(page, url)
    page.call("Tracing.end")
    events, deadline = [], time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            event = page.events.get(timeout=1)
        except queue.Empty:
            continue
        if event.get("method") == "Tracing.dataCollected":
            events += event["params"]["value"]
        elif event.get("method") == "Tracing.tracingComplete":
            break
    if os.environ.get("DECK_TRACE_DUMP"):
        Path(os.environ["DECK_TRACE_DUMP"]).write_text(json.dumps(events))
    names = {(e["pid"], e["tid"]) for e in events if e.get("name") == "thread_name"
             and e.get("args", {}).get("name") == "CrRendererMain"}
    main = [e for e in events if (e.get("pid"), e.get("tid")) in names and e.get("ph") == "X"]
    # The deck's own navigation (the last one: the blank page's came before it).
    starts = [e["ts"] for e in events if e.get("name") == "navigationStart"
              and e.get("args", {}).get("data", {}).get("documentLoaderURL") == url]
    start = max(starts)
    end = start + marks["firstLayout"] * 1000
    inside = [e for e in main if start <= e["ts"] <= end]
    busy = {kind: covered([e for e in inside if e["name"] in names_]) for kind, names_ in KINDS.items()}
    busy["any"] = covered(inside)
    busy["to first layout"] = marks["firstLayout"]
    tops = {}
    for e in inside:
        tops[e["name"]] = tops.get(e["name"], 0) + e.get("dur", 0) / 1000
    busy["largest"] = {name: round(ms, 1) for name, ms in sorted(tops.items(), key=lambda kv: -kv[1])[:8]}
    return busy


def main():
    args = sys.argv[1:]
    floor = "--floor" in args
    variant = "--one-module" in args
    out = args[args.index("--json") + 1] if "--json" in args else None
    counts = [a for a in args if a.isdigit()]
    loads = int(counts[0]) if counts else 8
    bindir = Path(os.environ.get("DECK_BIN", ".build/release"))
    browser = Browser()
    try:
        with bench.floor_host(bindir, "deck-waterfall-", one_module.one_module_variant if variant else None) as host:
            url = host.url + ("floor/index.html" if floor else f"{one_module.VARIANT}/index.html" if variant else "")
            page = browser.new_page()
            page.call("Network.enable")
            page.call("Network.setCacheDisabled", {"cacheDisabled": True})
            page.call("Page.addScriptToEvaluateOnNewDocument", {"source": SOCKET_CLOCK})
            load(page, url)  # the first load warms deckd's file cache and Chromium's process
            runs = [load(page, url) for _ in range(loads)]
            busy = main_thread(page, url)
    finally:
        browser.close()
    med = statistics.median
    files = {}
    for _, resources, _ in runs:
        for r in resources:
            files.setdefault(r["name"], []).append(r)
    order = sorted(files, key=lambda name: med(r["start"] for r in files[name]))
    print(f"{'file':34} {'start':>7} {'sent':>7} {'1st byte':>8} {'end':>7} {'bytes':>6}   (ms from navigation, median of {loads})")
    table = []
    for name in order:
        rows = files[name]
        row = {key: med(r[key] for r in rows) for key in ("start", "sent", "firstByte", "end", "bytes")}
        row["name"], row["loads"] = name, len(rows)
        table.append(row)
        print(f"{name:34} {row['start']:7.1f} {row['sent']:7.1f} {row['firstByte']:8.1f} {row['end']:7.1f} {row['bytes']:6.0f}"
              + ("" if len(rows) == loads else f"   (in {len(rows)} of {loads} loads)"))
    sockets = [s for _, _, s in runs]
    summary = {key: med(s[key] for s in sockets if key in s) for key in ("wsHandshake", "wsOpen", "welcome")
               if any(key in s for s in sockets)}
    summary.update({key: med(m[key] for m, _, _ in runs if m.get(key) is not None) for key in ("wsCreated", "wsOpenSeen", "welcomeSeen", "scriptsRun", "firstTile", "firstLayout")
                    if any(m.get(key) is not None for m, _, _ in runs)})
    summary["lastFileEnd"] = med(max(r["end"] for r in resources) for _, resources, _ in runs)
    summary["files"] = med(len(resources) for _, resources, _ in runs)
    for key, value in summary.items():
        print(f"{key:34} {value:7.1f}")
    print("renderer main thread, one traced load (ms): "
          + ", ".join(f"{k} {v:.1f}" for k, v in busy.items() if not isinstance(v, dict)))
    print("  the largest trace events: " + ", ".join(f"{k} {v}" for k, v in busy["largest"].items()))
    if out:
        Path(out).write_text(json.dumps({"files": table, "summary": summary, "mainThread": busy}, indent=2))


if __name__ == "__main__":
    main()
