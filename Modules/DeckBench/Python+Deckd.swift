extension Python {
    /// Python functions the plugin figures share (obs, keys): a real deckd
    /// with a plugins folder, and a TCP device that has said hello.
    static let deckdHelpers = #"""
    import json, re, socket, subprocess, time

    def start_deckd(deckd, work, plugins, ready, env=None):
        """deckd on a free port; returns (process, devices port) once its log holds `ready` too."""
        log = open(work / "deckd.log", "wb")
        host = subprocess.Popen([deckd, "--layouts", str(work / "layouts"), "--state", str(work / "state"), "--listen", "127.0.0.1:0",
                                 "--control", str(work / "control.sock"), "--plugins", str(plugins), "--no-web"],
                                stdout=log, stderr=log, env=env)
        deadline = time.time() + 30
        while time.time() < deadline:
            text = (work / "deckd.log").read_text(errors="replace")
            m = re.search(r"127\.0\.0\.1:(\d+) \(devices\)", text)
            if m and ready in text:
                return host, int(m.group(1))
            time.sleep(0.05)  # polling a log file: nothing signals it
        host.terminate()
        raise AssertionError("deckd or the plugin did not come up: " + (work / "deckd.log").read_text(errors="replace")[-1500:])

    def tcp_device(port):
        """A terminal device that said hello and read its welcome."""
        device = socket.create_connection(("127.0.0.1", port))
        device.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        device.sendall(b'{"type":"hello","id":0,"protocol":7,"device":{"name":"bench","kind":"terminal"}}\n')
        json.loads(device.makefile("rb").readline())
        return device

    """#
}
