import Foundation

/// The keys plugin's figure (issue 25): a device's press of a `press` button
/// → the KeyPress a real X client receives, as a ratio to the same XTest tap
/// made by a small C program on the same display (Tests/e2e/keys/xtest_floor.c:
/// the plugin's own calls with no host, pipe or plugin protocol on top). Xvfb,
/// the recording client (Tests/e2e/keys/xrecord.c) and deckd with the real
/// deck-plugin-keys are started by Tests/e2e/keys_x11.py's helpers, as the
/// keys end-to-end tests start them.
extension Bench {
    func measureKeys(deckd: String) throws {
        let id = "keys.pressLatency", title = "keys: press line sent → KeyPress at an X client"
        let target = "≤ 1.2× a direct XTest call at the median"
        guard let plugin = product("deck-plugin-keys") else {
            return record(.missing(id: id, title: title, unit: "ms", target: target,
                                   why: "not measurable: deck-plugin-keys is not built in \(productsFolder)"))
        }
        guard Child.find("Xvfb") != nil, Child.find("setxkbmap") != nil, Child.find("cc") != nil else {
            return record(.missing(id: id, title: title, unit: "ms", target: target,
                                   why: "not measurable: Xvfb, setxkbmap or cc is not installed (make setup installs them)"))
        }
        let support = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Tests/e2e").path
        let count = options.quick ? 10 : 300, warmUp = options.quick ? 2 : 20
        let result = try Python.run(Python.keys, [support, deckd, plugin, try folder("keys"), "\(count)", "\(warmUp)",
                                                  work.path + "/keys.json"], in: work.path)
        let viaDeck = Samples((result["deck_ms"] as? [Double]) ?? [])
        let direct = Samples((result["direct_ms"] as? [Double]) ?? [])
        guard viaDeck.count > 0, direct.count > 0 else { throw BenchError.setup("the keys bench measured nothing") }
        let ratio = direct.median > 0 ? viaDeck.median / direct.median : .infinity
        record(Figure(id: id, title: title, unit: "ms", value: .init(viaDeck),
                      baselineLabel: "the same XTest tap from a C program (floor)", baseline: .init(direct),
                      target: target, verdict: ratio <= 1.2 ? .met : .missed,
                      note: "Xvfb with layout us; a TCP device taps a button {keys: a}; xcb client records; interleaved"))
    }
}

extension Python {
    /// argv: Tests/e2e, deckd, deck-plugin-keys, a work folder, count, warm-up, output file.
    static let keys = deckdHelpers + #"""
    import json, os, queue, re, socket, subprocess, sys, time
    support, deckd, plugin, work, count, warm, out = sys.argv[1:8]
    count, warm = int(count), int(warm)
    sys.path.insert(0, support)
    from pathlib import Path
    from keys_x11 import Recorder, Xvfb, build_recorder, keys_plugin_folder
    work = Path(work)

    class Timed(Recorder):
        """xrecord's lines with the time each arrived here: both paths are timed to the same reading."""
        def _read(self):
            for line in self.proc.stdout:
                item = json.loads(line)
                if "ready" not in item:
                    item["at"] = time.perf_counter()
                self.lines.put(item)
            self.lines.put(None)

    x = Xvfb()
    host = floor = recorder = None
    try:
        x.layout("us")
        recorder = Timed(build_recorder(work), x.env)
        floor_bin = work / "xtest_floor"
        subprocess.run(["cc", "-O1", "-o", str(floor_bin), str(Path(support) / "keys" / "xtest_floor.c"), "-lX11", "-lXtst"],
                       check=True)
        floor = subprocess.Popen([str(floor_bin)], env=x.env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        assert floor.stdout.readline().strip() == "ready"
        plugins = keys_plugin_folder(work, Path(plugin).parent)
        (work / "layouts").mkdir()
        (work / "layouts" / "default.yaml").write_text(
            "name: default\npages:\n  - buttons:\n      0: {name: A, action: {plugin: keys, command: press, settings: {keys: a}}}\n")
        host, port = start_deckd(deckd, work, plugins, "keyboard back end: X11 (XTest)", env=x.env)
        device = tcp_device(port)

        def arrived(start):
            """The KeyPress of a, then its KeyRelease drained; ms from start to the press."""
            pressed = None
            while True:
                event = recorder.next(10)
                if event.get("type") == "press" and event.get("keysym") in ("a", 0x61, "0x61"):
                    pressed = event["at"]
                elif event.get("type") == "release" and pressed is not None:
                    return (pressed - start) * 1e3

        def via_deck(rid):
            start = time.perf_counter()
            device.sendall(b'{"type":"press","id":%d,"page":0,"index":0}\n' % rid)
            return arrived(start)

        def direct():
            start = time.perf_counter()
            floor.stdin.write("a\n")
            floor.stdin.flush()
            return arrived(start)

        deck_ms, direct_ms = [], []
        for i in range(warm + count):
            a = via_deck(i + 1)
            b = direct()
            if i >= warm:
                deck_ms.append(a)
                direct_ms.append(b)
        json.dump({"deck_ms": deck_ms, "direct_ms": direct_ms}, open(out, "w"))
    finally:
        if host:
            host.terminate()
            host.wait(10)
        if floor:
            floor.stdin.close()
            floor.wait(10)
        if recorder:
            recorder.stop()
        x.stop()
    """#
}
