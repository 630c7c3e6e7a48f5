"""Browser tests of the web deck (WEB.md §6–§7): a real deckd, a real
headless Chromium over CDP, and nothing but WEB.md §7's attributes.

One Chromium serves the whole session (pages are tabs); each test gets its
own deckd in a temporary folder with ephemeral ports. deckd serves the app
itself (`--web 127.0.0.1:0 --web-root Apps/web`) when its build has `--web`;
otherwise bridge.Relay serves Apps/web and carries each WebSocket to deckd's
TCP port, line for message.
"""

import contextlib
import json
import os
import re
import signal
import socket
import subprocess
import tempfile
import textwrap
import time
from pathlib import Path

import pytest

from bridge import Relay
from cdp import Browser

PROJECT = Path(__file__).resolve().parents[2]
APP = PROJECT / "Apps" / "web"

LAYOUT = textwrap.dedent("""\
    name: default
    pages:
      - buttons:
          0: {{name: Alpha, icon: "🅰️", action: {{run: "touch {out}/alpha"}}}}
          1: {{name: Bravo, icon: "🅱️", action: {{run: "touch {out}/bravo"}}}}
          2: {{name: Charlie, action: {{run: "touch {out}/charlie"}}}}
          3: {{name: Delta, icon: "🔔", action: {{run: "touch {out}/delta"}}}}
          4: {{name: 다음 페이지, icon: "➡️", action: {{page: next}}}}
          6: {{name: Echo, icon: "📝", action: {{run: "touch {out}/echo"}}}}
          9: {{name: Foxtrot, icon: "🦊", action: {{run: "touch {out}/foxtrot"}}}}
      - buttons:
          0: {{name: Golf, icon: "⛳", action: {{run: "touch {out}/golf"}}}}
          5: {{name: Hotel, icon: "🏨", action: {{run: "touch {out}/hotel"}}}}
    """)


def bin_dir():
    env = os.environ.get("DECK_BIN")
    if env:
        return Path(env)
    return Path(subprocess.run(["swift", "build", "--show-bin-path"], cwd=PROJECT, check=True,
                               capture_output=True, text=True).stdout.strip())


@pytest.fixture(scope="session")
def bindir():
    d = bin_dir()
    for exe in ("deckd", "deckctl"):
        assert (d / exe).exists(), f"no {exe} in {d}: run `swift build` (make test does)"
    return d


@pytest.fixture(scope="session")
def browser():
    b = Browser()
    yield b
    b.close()


def serves_web(bindir):
    help_text = subprocess.run([str(bindir / "deckd"), "--help"], capture_output=True, text=True)
    return "--web" in help_text.stdout + help_text.stderr


class Host:
    """A deckd in its own folder; `url` is where a browser opens the deck."""

    def __init__(self, bindir, root, layout=LAYOUT, plugins=PROJECT / "plugins"):
        self.bindir, self.root = bindir, Path(root)
        self.plugins = plugins
        self.out = self.root / "out"
        self.out.mkdir()
        (self.root / "layouts").mkdir()
        (self.root / "state").mkdir(mode=0o700)
        (self.root / "layouts" / "default.yaml").write_text(layout.format(out=self.out))
        self.control = self.root / "control.sock"
        self.web = serves_web(bindir)
        self.web_port = 0  # the kernel's pick at the first start, kept across restarts as a bookmark is
        self.relay = None
        self.process = None
        self.start()
        if not self.web:
            self.relay = Relay(str(APP), self.tcp_port)
        self.url = f"http://127.0.0.1:{self.web_port if self.web else self.relay.port}/"

    def start(self):
        args = [str(self.bindir / "deckd"), "--layouts", str(self.root / "layouts"), "--state", str(self.root / "state"),
                "--listen", "127.0.0.1:0", "--control", str(self.control), "--plugins", str(self.plugins)]
        if self.web:
            args += ["--web", f"127.0.0.1:{self.web_port}", "--web-root", str(APP)]
        self.log = open(self.root / "deckd.log", "ab")
        offset = self.log.tell()
        self.process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=self.log)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            text = (self.root / "deckd.log").read_bytes()[offset:].decode(errors="replace")
            match = re.search(r"deckd ready on (.*)", text)
            if match:
                self.tcp_port = int(re.search(r":(\d+) \(devices\)", match.group(1)).group(1))
                if self.web:
                    self.web_port = int(re.search(r"http://[^ ]*:(\d+)/ \(web\)", match.group(1)).group(1))
                if self.relay:
                    self.relay.retarget(self.tcp_port)
                return
            if self.process.poll() is not None:
                raise AssertionError(f"deckd exited with {self.process.returncode}: {text[-2000:]}")
            time.sleep(0.01)
        raise AssertionError("deckd did not say it was ready within 30 s")

    def kill(self):
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(5)
            except subprocess.TimeoutExpired:
                self.process.kill()
        if self.relay:
            self.relay.close()

    def ctl(self, *args, check=True):
        done = subprocess.run([str(self.bindir / "deckctl"), "--control", str(self.control), *args],
                              capture_output=True, text=True, timeout=30)
        if check and done.returncode != 0:
            raise AssertionError(f"deckctl {' '.join(args)}: {done.returncode} {done.stderr}")
        return done.stdout

    def status(self):
        return json.loads(self.ctl("--json", "status").splitlines()[0])

    def layout(self):
        """The host's live layout, through a TCP device's welcome."""
        with Device(self.tcp_port) as device:
            return device.welcome

    def ran(self, name, timeout=10):
        """Waits for a run action's file to appear."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if (self.out / name).exists():
                return True
            time.sleep(0.02)
        return False


class Device:
    """A TCP device (PROTOCOL.md), to see broadcasts as a native app would."""

    def __init__(self, port, protocol=7):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        self.buffer = b""
        self.send({"type": "hello", "id": 1, "protocol": protocol, "device": {"name": "tcp device", "kind": "phone"}})
        self.welcome = self.next(lambda m: m["type"] == "welcome")

    def __enter__(self):
        return self

    def __exit__(self, *_):
        self.sock.close()

    def send(self, message):
        self.sock.sendall(json.dumps(message).encode() + b"\n")

    def next(self, wanted, timeout=10):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            while b"\n" in self.buffer:
                line, self.buffer = self.buffer.split(b"\n", 1)
                message = json.loads(line)
                if wanted(message):
                    return message
            self.sock.settimeout(max(0.01, deadline - time.monotonic()))
            try:
                chunk = self.sock.recv(65536)
            except socket.timeout:
                break
            if not chunk:
                break
            self.buffer += chunk
        raise AssertionError("the TCP device did not get the message it waited for")


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


@contextlib.contextmanager
def running_host(bindir, layout=LAYOUT, **options):
    """A deckd on `layout` in a temporary folder, stopped afterwards (options: Host's, e.g. `plugins`)."""
    with tempfile.TemporaryDirectory(prefix="deck-browser-") as root:
        h = Host(bindir, root, layout=layout, **options)
        try:
            yield h
        finally:
            h.stop()


@pytest.fixture
def host(bindir):
    with running_host(bindir) as h:
        yield h


@pytest.fixture
def phone(browser, host):
    """A phone-sized tab showing the host's deck."""
    page = open_deck(browser, host)
    yield page
    page.close()


def open_deck(browser, host, width=390, height=844, scale=3):
    page = browser.new_page(width, height, scale)
    page.goto(host.url)
    page.wait("document.querySelector('[data-connection]')?.dataset.connection === 'connected'"
              " && document.querySelectorAll('[data-slot]').length > 0", what="the deck to connect and draw")
    return page
