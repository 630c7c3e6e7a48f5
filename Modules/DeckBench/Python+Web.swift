extension Python {
    /// The web figures, from python3 and the `websockets` package (what the e2e
    /// tests use, so the same client drives both transports): moveButton → ok
    /// over a WebSocket and over TCP, interleaved; the echo of a same-size text
    /// message through a minimal WebSocket server in the same process (the floor);
    /// then `devices` WebSocket devices connected and the host's CPU time over an
    /// idle window (every thread's schedstat).
    /// argv: TCP port, web port, deckd pid, count, warm-up, idle seconds, devices, output file.
    static let web = #"""
    import glob, json, os, socket, sys, threading, time
    from websockets.sync.client import connect
    from websockets.sync.server import serve
    tcp_port, web_port, pid, count, warm, idle, devices, out = sys.argv[1:9]
    tcp_port, web_port, count, warm, devices, idle = int(tcp_port), int(web_port), int(count), int(warm), int(devices), float(idle)
    origin = "http://127.0.0.1:%d" % web_port
    hello = lambda name: {"type": "hello", "id": 0, "protocol": 7, "device": {"name": name, "kind": "phone"}}

    class WS:
        def __init__(self, name):
            self.c = connect("ws://127.0.0.1:%d/ws" % web_port, origin=origin, max_size=None, compression=None)
            self.c.send(json.dumps(hello(name)))
            self.welcome = json.loads(self.c.recv())
        def send(self, text): self.c.send(text)
        def recv(self): return json.loads(self.c.recv())

    class TCP:
        def __init__(self, name):
            self.s = socket.create_connection(("127.0.0.1", tcp_port))
            self.s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            self.f = self.s.makefile("rb")
            self.send(json.dumps(hello(name)))
            self.welcome = json.loads(self.f.readline())
        def send(self, text): self.s.sendall(text.encode() + b"\n")
        def recv(self): return json.loads(self.f.readline())

    ws, tcp = WS("bench browser"), TCP("bench terminal")
    layout = ws.welcome["layout"]
    next_id = [1]

    def move(sender, other):
        global layout
        button = layout["pages"][0]["buttons"][0]
        next_id[0] += 1
        rid = next_id[0]
        line = json.dumps({"type": "moveButton", "id": rid, "fromPage": 0, "fromIndex": 0, "toPage": 0, "toIndex": 1,
                           "button": button})
        start = time.perf_counter()
        sender.send(line)
        while True:
            m = sender.recv()
            if m.get("id") == rid:
                break
        elapsed = (time.perf_counter() - start) * 1e6
        assert m["type"] == "ok", m
        for client in (sender, other):  # both get the layout; untimed
            while True:
                m = client.recv()
                if m["type"] == "layout":
                    layout = m["layout"]
                    break
        return elapsed, len(line)

    ws_times, tcp_times = [], []
    size = 0
    for i in range(warm + count):
        a, size = move(ws, tcp)
        b, _ = move(tcp, ws)
        if i >= warm:
            ws_times.append(a)
            tcp_times.append(b)

    def echo(connection):
        for message in connection:
            connection.send(message)
    server = serve(echo, "127.0.0.1", 0, compression=None)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    floor_client = connect("ws://127.0.0.1:%d/" % server.socket.getsockname()[1], compression=None)
    payload = "x" * size
    echo_times = []
    for i in range(warm + count):
        start = time.perf_counter()
        floor_client.send(payload)
        floor_client.recv()
        if i >= warm:
            echo_times.append((time.perf_counter() - start) * 1e6)
    floor_client.close()
    server.shutdown()

    def ticks():
        fields = open("/proc/%s/stat" % pid).read().rsplit(")", 1)[1].split()
        return int(fields[11]) + int(fields[12])  # utime + stime, in clock ticks (exited threads included)
    def cpu():
        total, threads = 0, set()
        for path in glob.glob("/proc/%s/task/*/schedstat" % pid):
            threads.add(path)
            try:
                total += int(open(path).read().split()[0])
            except OSError:
                pass
        return total, threads
    idle_clients = [WS("idle browser %d" % n) for n in range(devices)]
    assert all(c.welcome["type"] == "welcome" for c in idle_clients)
    time.sleep(0.2)
    before, threads_before = cpu()
    ticks_before = ticks()
    time.sleep(idle)
    after, threads_after = cpu()
    ticks_after = ticks()
    json.dump({"ws_us": ws_times, "tcp_us": tcp_times, "echo_us": echo_times, "bytes": size,
               "idle_ns": after - before, "same_threads": threads_before == threads_after,
               "idle_ticks": ticks_after - ticks_before, "tick_hz": os.sysconf("SC_CLK_TCK"), "devices": len(idle_clients)},
              open(out, "w"))
    """#
}
