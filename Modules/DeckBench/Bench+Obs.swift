import Foundation

/// The obs plugin's figure (issue 27): a scene button's press → OBS's
/// `CurrentProgramSceneChanged` seen by a second obs-websocket client, as a
/// ratio to the same switch that client requests itself — against a real OBS
/// under Xvfb, started by Tests/obs/obs_support.py as `make test-obs` does.
extension Bench {
    func measureObs(deckd: String) throws {
        let id = "obs.sceneSwitch", title = "scene button press → CurrentProgramSceneChanged at a second client"
        guard let plugin = product("deck-plugin-obs") else {
            return record(.missing(id: id, title: title, unit: "ms", target: nil,
                                   why: "not measurable: deck-plugin-obs is not built in \(productsFolder)"))
        }
        guard Child.find("obs") != nil, Child.find("Xvfb") != nil else {
            return record(.missing(id: id, title: title, unit: "ms", target: nil,
                                   why: "not measurable: OBS Studio and Xvfb are not installed (make test-obs installs them)"))
        }
        // The test helpers live in the repository, beside this source file's module.
        let support = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Tests/obs").path
        let count = options.quick ? 5 : 100, warmUp = options.quick ? 1 : 10
        let result = try Python.run(Python.obs, [support, deckd, plugin, try folder("obs"), "\(count)", "\(warmUp)",
                                                 work.path + "/obs.json"], in: work.path)
        let viaDeck = Samples((result["deck_ms"] as? [Double]) ?? [])
        let direct = Samples((result["direct_ms"] as? [Double]) ?? [])
        record(Figure(id: id, title: title, unit: "ms", value: .init(viaDeck),
                      baselineLabel: "the same switch requested by that client itself", baseline: .init(direct),
                      note: "real OBS \(result["obs_version"] as? String ?? "?") under Xvfb with software GL, 30 fps, a cut transition; "
                        + "a TCP device presses, python3's websockets client watches; interleaved"))
    }
}

extension Python {
    /// argv: Tests/obs, deckd, deck-plugin-obs, a work folder, count, warm-up, output file.
    static let obs = deckdHelpers + #"""
    import json, os, random, re, socket, subprocess, sys, time
    support, deckd, plugin, work, count, warm, out = sys.argv[1:8]
    count, warm = int(count), int(warm)
    sys.path.insert(0, support)
    from pathlib import Path
    from obs_support import Obs, ObsClient, Xvfb
    work = Path(work)
    x = Xvfb()
    obs = Obs(work, x.display).start()
    host = None
    try:
        (work / "plugins" / "obs").mkdir(parents=True)
        (work / "plugins" / "obs" / "plugin.yaml").write_text(
            "id: obs\nname: OBS\nversion: 1.0.0\nprotocol: 1\nexec: [%s]\ncommands:\n  - {name: scene}\n" % plugin)
        secret = work / "password"
        secret.write_text(obs.password)
        (work / "layouts").mkdir()
        (work / "layouts" / "default.yaml").write_text(
            "name: default\npages:\n  - buttons:\n"
            "      0: {name: Intro, action: {plugin: obs, command: scene, settings: {scene: Intro, url: \"ws://127.0.0.1:%d\", passwordFile: \"%s\"}}}\n"
            "      1: {name: Live, action: {plugin: obs, command: scene, settings: {scene: Live}}}\n" % (obs.port, secret))
        host, port = start_deckd(deckd, work, work / "plugins", "connected to OBS 2")
        device = tcp_device(port)
        watcher = ObsClient(obs.port, obs.password, events=1 << 2)
        version = watcher.request("GetVersion")["responseData"]["obsVersion"]
        # A cut: the event comes on the next frame, not after the default 300 ms fade, so the figure is the deck's.
        assert watcher.request("SetCurrentSceneTransition", {"transitionName": "Cut"})["requestStatus"]["result"]

        def seen(scene):
            while True:
                m = json.loads(watcher.ws.recv(timeout=10))
                if m["op"] == 5 and m["d"]["eventType"] == "CurrentProgramSceneChanged" and m["d"]["eventData"]["sceneName"] == scene:
                    return

        def via_deck(index, scene, rid):
            time.sleep(random.uniform(0, 1 / 30))  # a random phase against OBS's 30 fps frames, for both kinds
            start = time.perf_counter()
            device.sendall(b'{"type":"press","id":%d,"page":0,"index":%d}\n' % (rid, index))
            seen(scene)
            return (time.perf_counter() - start) * 1e3

        def direct(scene, rid):
            time.sleep(random.uniform(0, 1 / 30))
            start = time.perf_counter()
            watcher.ws.send(json.dumps({"op": 6, "d": {"requestType": "SetCurrentProgramScene", "requestId": "b%d" % rid,
                                                       "requestData": {"sceneName": scene}}}))
            seen(scene)
            return (time.perf_counter() - start) * 1e3

        deck_ms, direct_ms = [], []
        current = "Intro"
        for i in range(warm + count):
            # Each switch goes to the scene that is not live, so every one makes an event.
            target, index = ("Live", 1) if current == "Intro" else ("Intro", 0)
            a = via_deck(index, target, 2 * i + 1)
            current = target
            target = "Live" if current == "Intro" else "Intro"
            b = direct(target, i)
            current = target
            if i >= warm:
                deck_ms.append(a)
                direct_ms.append(b)
        json.dump({"deck_ms": deck_ms, "direct_ms": direct_ms, "obs_version": version}, open(out, "w"))
    finally:
        if host:
            host.terminate()
            host.wait(10)
        obs.stop()
        x.stop()
    """#
}
