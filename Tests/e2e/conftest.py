"""End-to-end tests against a real deckd (WEB.md and more): real sockets, a real
browser-side WebSocket client (the `websockets` package), temp folders, ports
picked by the kernel and read back from `deckd ready`.

Run by `make test` after the Swift tests:  DECK_BIN=.build/debug python3 -m pytest -q Tests/e2e
Other engineers add files here; the fixtures below are theirs too:

- `deck(extra=[...], yaml=..., web_root=..., env=...)` starts a host (web listener on port 0
  unless `--no-web` is given) and stops it after the test; `host.web_port`, `host.port`.
- `host.ws(origin=...)` opens a WebSocket client; `host.tcp()` a raw TCP line client;
  `host.http(raw_bytes)` sends raw bytes to the web port and returns the whole answer.
"""
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import textwrap
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _bin_dir():
    env = os.environ.get("DECK_BIN")
    if env:
        return Path(env)
    subprocess.run(["swift", "build"], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    out = subprocess.run(["swift", "build", "--show-bin-path"], cwd=ROOT, check=True, capture_output=True, text=True)
    return Path(out.stdout.strip())


@pytest.fixture(scope="session")
def bindir():
    d = _bin_dir()
    for exe in ("deckd", "deckctl"):
        assert (d / exe).exists(), f"no {exe} in {d}"
    return d


LAYOUT = textwrap.dedent("""\
    name: default
    pages:
      - buttons:
          0: {name: Files, icon: folder, action: {open: "~"}}
          1: {name: Terminal, action: {run: "true"}}
          2: {name: Build, action: {run: "true"}}
      - buttons:
          0: {name: Mail, action: {open: "mailto:a@b.c"}}
    """)


class Requests:
    """What both kinds of device client do on top of their own send and recv."""

    def recv_until(self, pred, timeout=10.0):
        deadline = time.time() + timeout
        while True:
            m = self.recv(max(0.01, deadline - time.time()))
            if pred(m):
                return m

    def request(self, msg, timeout=10.0):
        rid = self.send(msg)
        return self.recv_until(lambda m: m.get("id") == rid, timeout)


class LineClient(Requests):
    """A TCP device speaking NDJSON."""

    def __init__(self, port):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.buf = b""
        self.next_id = 1

    def send(self, msg):
        if "id" not in msg:
            msg = dict(msg, id=self.next_id)
            self.next_id += 1
        self.sock.sendall((json.dumps(msg) + "\n").encode())
        return msg["id"]

    def recv(self, timeout=10.0):
        deadline = time.time() + timeout
        while b"\n" not in self.buf:
            left = deadline - time.time()
            if left <= 0:
                raise TimeoutError("no line from the host")
            self.sock.settimeout(left)
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("closed by the host")
            self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        return json.loads(line)

    def close(self):
        self.sock.close()


class WSClient(Requests):
    """A browser-like device: the websockets package's sync client, JSON text messages."""

    def __init__(self, conn):
        self.conn = conn
        self.next_id = 1

    def send(self, msg):
        if "id" not in msg:
            msg = dict(msg, id=self.next_id)
            self.next_id += 1
        self.conn.send(json.dumps(msg))
        return msg["id"]

    def recv(self, timeout=10.0):
        return json.loads(self.conn.recv(timeout=timeout))

    def hello(self, name="browser", **extra):
        return self.request(dict({"type": "hello", "protocol": 7, "device": {"name": name, "kind": "phone"}}, **extra))

    def close_code(self, timeout=10.0):
        """Reads until the host closes; returns the close code it sent."""
        from websockets.exceptions import ConnectionClosed
        deadline = time.time() + timeout
        try:
            while time.time() < deadline:
                self.conn.recv(timeout=max(0.01, deadline - time.time()))
        except ConnectionClosed as closed:
            return closed.rcvd.code if closed.rcvd else None
        except TimeoutError:
            return "open"
        return "open"

    def close(self):
        self.conn.close()


class Host:
    def __init__(self, bindir, root, extra=(), yaml=LAYOUT, web_root=None, env=None, relative_state=False):
        self.bindir = bindir
        self.root = root
        (root / "layouts").mkdir(parents=True, exist_ok=True)
        (root / "state").mkdir(parents=True, exist_ok=True)
        (root / "run").mkdir(parents=True, exist_ok=True)
        os.chmod(root / "run", 0o700)
        (root / "layouts" / "default.yaml").write_text(yaml)
        self.control = root / "run" / "control.sock"
        self.log = root / "deckd.log"
        # relative_state: `--state state`, run from the root, as `make run` gives `--state .state`.
        self.cwd = root if relative_state else None
        args = [str(bindir / "deckd"), "--layouts", str(root / "layouts"),
                "--state", "state" if relative_state else str(root / "state"),
                "--listen", "127.0.0.1:0", "--control", str(self.control), "--plugins", str(root / "plugins")]
        if not any(a.startswith("--web") or a == "--no-web" for a in extra):
            args += ["--web", "127.0.0.1:0"]
        if web_root is not None:
            args += ["--web-root", str(web_root)]
        self.args = args + list(extra)
        self.env = dict(os.environ, XDG_RUNTIME_DIR=str(root / "run"), **(env or {}))
        self.proc = None

    def start(self, timeout=30):
        logf = open(self.log, "ab")
        self.proc = subprocess.Popen(self.args, stdout=logf, stderr=logf, env=self.env, cwd=self.cwd)
        deadline = time.time() + timeout
        while time.time() < deadline:
            text = self.log.read_text(errors="replace")
            ready = re.search(r"deckd ready on (.*)", text)
            if ready:
                line = ready.group(1)
                tcp = re.search(r"127\.0\.0\.1:(\d+) \(devices\)", line)
                web = re.search(r"http://[^ ]*:(\d+)/ \(web\)", line)
                self.port = int(tcp.group(1)) if tcp else None
                self.web_port = int(web.group(1)) if web else None
                return self
            if self.proc.poll() is not None:
                raise RuntimeError("deckd exited: " + text[-2000:])
            time.sleep(0.02)
        raise RuntimeError("deckd not ready: " + self.log.read_text(errors="replace")[-2000:])

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    @property
    def origin(self):
        return f"http://127.0.0.1:{self.web_port}"

    def ws(self, origin="own", hello=False, **kwargs):
        from websockets.sync.client import connect
        conn = connect(f"ws://127.0.0.1:{self.web_port}/ws", origin=self.origin if origin == "own" else origin,
                       open_timeout=10, max_size=None, **kwargs)
        client = WSClient(conn)
        if hello:
            w = client.hello(**({} if hello is True else hello))
            assert w["type"] == "welcome", w
            client.welcome = w
        return client

    def tcp(self, hello=True, name="tcp-device"):
        c = LineClient(self.port)
        if hello:
            w = c.request({"type": "hello", "protocol": 7, "device": {"name": name, "kind": "terminal"}})
            assert w["type"] == "welcome", w
            c.welcome = w
        return c

    def raw(self, timeout=10):
        s = socket.create_connection(("127.0.0.1", self.web_port), timeout=timeout)
        s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        return s

    def http(self, data: bytes, timeout=10):
        """Sends raw bytes, reads until the host closes; returns everything."""
        s = self.raw(timeout)
        s.sendall(data)
        out = b""
        try:
            while chunk := s.recv(65536):
                out += chunk
        except (ConnectionResetError, socket.timeout):
            pass
        s.close()
        return out

    def ctl(self, *args, check=True, timeout=20):
        r = subprocess.run([str(self.bindir / "deckctl"), "--control", str(self.control), *args],
                           capture_output=True, text=True, timeout=timeout)
        if check:
            assert r.returncode == 0, (args, r.returncode, r.stdout, r.stderr)
        return r

    def log_text(self):
        return self.log.read_text(errors="replace")


def install_script_plugin(root, plugin_id, on_hello="", on_tap=""):
    """Installs under root/plugins a Python plugin `plugin_id` that runs `on_hello` (code, one
    statement a line) before it says ready, `on_tap` on a tap (`event` is the press), and exits
    at shutdown. Returns its folder."""
    def body(code):
        return textwrap.indent(textwrap.dedent(code).strip() or "pass", " " * 8)
    folder = root / "plugins" / plugin_id
    folder.mkdir(parents=True)
    (folder / "plugin").write_text(
        "#!/usr/bin/env python3\nimport json, os, sys\nfor line in sys.stdin:\n    event = json.loads(line)\n"
        "    if event.get(\"event\") == \"hello\":\n" + body(on_hello) + "\n"
        "        print(json.dumps({\"type\": \"ready\"}), flush=True)\n"
        "    elif event.get(\"event\") == \"press\" and event.get(\"phase\") == \"tap\":\n" + body(on_tap) + "\n"
        "    elif event.get(\"event\") == \"shutdown\":\n        sys.exit(0)\n")
    os.chmod(folder / "plugin", 0o755)
    (folder / "plugin.yaml").write_text(f"id: {plugin_id}\nexec: [./plugin]\n")
    return folder


@pytest.fixture
def tmp_root():
    d = Path(tempfile.mkdtemp(prefix="deck-e2e-"))
    yield d
    shutil.rmtree(d, ignore_errors=True)


@pytest.fixture
def deck(bindir, tmp_root):
    """Starts hosts for a test: deck(extra=[...], ...) -> Host; all stopped afterwards."""
    hosts = []
    count = [0]

    def start(**kwargs):
        count[0] += 1
        h = Host(bindir, tmp_root / f"host{count[0]}", **kwargs).start()
        hosts.append(h)
        return h

    yield start
    for h in hosts:
        h.stop()


@pytest.fixture
def host(deck):
    return deck()


def parse_http(data: bytes):
    """Splits raw bytes into responses: [(status, {header: value}, body)] (Content-Length framed)."""
    responses = []
    while data:
        head, sep, rest = data.partition(b"\r\n\r\n")
        if not sep:
            raise AssertionError(f"incomplete response: {data[:200]!r}")
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split(" ")[1])
        headers = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
        length = int(headers.get("content-length", "0"))
        responses.append((status, headers, rest[:length]))
        data = rest[length:]
    return responses


def get(path, host="127.0.0.1", extra="", method="GET", close=True):
    return (f"{method} {path} HTTP/1.1\r\nHost: {host}\r\n{extra}"
            + ("Connection: close\r\n" if close else "") + "\r\n").encode()
