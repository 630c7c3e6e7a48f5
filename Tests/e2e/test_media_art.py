"""The media plugin's http(s) album art end to end (docs/plugins.md "media", art): a real deckd with the
real deck-plugin-media, a private dbus-daemon, the stand-in MPRIS player (media/mpris_peer.py: mpv-mpris
only ever reports file: art, so the player side reporting an http URL is a stand-in) and a real HTTP(S)
server (media/art_server.py, python3's http.server on an ephemeral port). A level-8 device reads the
button's face: the served PNG's hash is its image; a slow fetch for an old track never replaces a newer
track's art; 50 MB and a self-signed certificate end as no image and a log line. Waits are on device
messages, server lines and log lines, never on a guess. A trusted https fetch needs a certificate from a
CA in the system's store, which an offline test cannot have: that path is libcurl's own verification,
tested here only by its refusal."""
import hashlib
import time
import queue
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from conftest import LineClient
from test_media import (STATES, PluginPipe, StandIn, bus, media_host, plugin_pid, pytestmark, rss_kib,  # noqa: F401
                        wait_log)  # (bus: a fixture; pytestmark: the same skip as test_media's)

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "media"))
from art_server import png  # noqa: E402 (the server's own bytes, to compare hashes)

SERVER = HERE / "media" / "art_server.py"


class ArtServer:
    def __init__(self, *args):
        self.proc = subprocess.Popen([sys.executable, str(SERVER), *args], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True)
        first = self.proc.stdout.readline().split()
        assert first[0] == "port", first
        self.port = int(first[1])
        self.lines = queue.Queue()
        threading.Thread(target=lambda: [self.lines.put(l.strip()) for l in self.proc.stdout], daemon=True).start()

    def url(self, path, scheme="http"):
        return f"{scheme}://127.0.0.1:{self.port}{path}"

    def wait_line(self, want, timeout=15):
        seen = []
        while True:
            line = self.lines.get(timeout=timeout)
            seen.append(line)
            if line == want:
                return seen

    def release(self, name):
        self.proc.stdin.write(f"release {name}\n")
        self.proc.stdin.flush()

    def stop(self):
        self.proc.stdin.close()
        self.proc.wait(10)


@pytest.fixture
def server():
    s = ArtServer()
    yield s
    s.stop()


def faces(host):
    client = LineClient(host.port)
    welcome = client.request({"type": "hello", "protocol": 8, "device": {"name": "art", "kind": "terminal"}})
    assert welcome["type"] == "welcome" and welcome["protocol"] >= 8, welcome
    pending = [f for f in welcome.get("faces", []) if f["index"] == 0]
    seen = []

    def face(pred, timeout=15):
        while pending:
            f = pending.pop(0)
            seen.append(f)
            if pred(f):
                return f
        f = client.recv_until(lambda m: m.get("type") == "buttonFace" and m.get("index") == 0
                              and (seen.append(m) or pred(m)), timeout)
        return f
    face.seen = seen
    return face


def art_host(deck, bindir, tmp_root, bus):
    """A real deckd with the media plugin's one button, and a reader of that button's faces."""
    host = media_host(deck, bindir, tmp_root, bus, [f"{{name: Play, action: {{plugin: media, command: play-pause}}, {STATES}}}"])
    return host, faces(host)


def image_hash(face):
    return (face.get("image") or {}).get("hash")


def sha(name):
    return hashlib.sha256(png(name)).hexdigest()


def test_http_art_reaches_the_face_and_the_newest_track_wins(deck, bindir, tmp_root, bus, server):
    player = StandIn(bus, "org.mpris.MediaPlayer2.web")
    try:
        host, face = art_host(deck, bindir, tmp_root, bus)
        player.set(PlaybackStatus="Playing", Metadata={"xesam:title": "One", "mpris:artUrl": server.url("/art/one.png")})
        shown = face(lambda f: f.get("title") == "One" and image_hash(f) == sha("one"))
        assert shown["image"]["type"] == "image/png"
        # Track two's server holds its art; track three comes before it: two's fetch is cancelled
        # (the server sees the client leave), three's art shows, and two's, released late, never does.
        player.set(Metadata={"xesam:title": "Two", "mpris:artUrl": server.url("/held/two.png")})
        server.wait_line("request /held/two.png")
        face(lambda f: f.get("title") == "Two" and f.get("image") is None)
        player.set(Metadata={"xesam:title": "Three", "mpris:artUrl": server.url("/art/three.png")})
        face(lambda f: f.get("title") == "Three" and image_hash(f) == sha("three"))
        server.wait_line("closed /held/two.png")
        server.release("two")
        # Back to one: from the plugin's cache, not fetched again.
        player.set(Metadata={"xesam:title": "One", "mpris:artUrl": server.url("/art/one.png")})
        face(lambda f: f.get("title") == "One" and image_hash(f) == sha("one"))
        assert sha("two") not in [image_hash(f) for f in face.seen]
        requests = []
        while not server.lines.empty():
            requests.append(server.lines.get())
        assert "request /art/one.png" not in requests, requests
    finally:
        player.stop()


def test_art_over_the_bound_and_an_untrusted_certificate_show_no_image_and_say_why(deck, bindir, tmp_root, bus, server):
    folder = tmp_root / "tls"
    folder.mkdir()
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                    "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1", "-days", "1",
                    "-keyout", str(folder / "key.pem"), "-out", str(folder / "cert.pem")], check=True, capture_output=True)
    tls = ArtServer("--tls", str(folder / "cert.pem"), str(folder / "key.pem"))
    player = StandIn(bus, "org.mpris.MediaPlayer2.web")
    try:
        host, face = art_host(deck, bindir, tmp_root, bus)
        player.set(PlaybackStatus="Playing", Metadata={"xesam:title": "Fine", "mpris:artUrl": server.url("/art/fine.png")})
        face(lambda f: f.get("title") == "Fine" and image_hash(f) == sha("fine"))
        before = rss_kib(plugin_pid(host))  # libcurl and OpenSSL are loaded by now
        big = server.url("/huge-chunked")
        player.set(Metadata={"xesam:title": "Big", "mpris:artUrl": big})
        face(lambda f: f.get("title") == "Big" and f.get("image") is None)
        wait_log(host, "art at " + big.replace(".", r"\.") + r" is over the 256 KiB a button image may be; "
                 r"stopped reading at the bound; the button shows no image")
        untrusted = tls.url("/art/secret.png", scheme="https")
        player.set(Metadata={"xesam:title": "Untrusted", "mpris:artUrl": untrusted})
        face(lambda f: f.get("title") == "Untrusted" and f.get("image") is None)
        wait_log(host, "art at " + untrusted.replace(".", r"\.") + r" was refused: the server's certificate is not "
                 r"trusted by the system's CA store \(SSL certificate problem: self-signed certificate\)")
        assert sha("secret") not in [image_hash(f) for f in face.seen]
        after = rss_kib(plugin_pid(host))
        assert after - before < 16 * 1024, (before, after)  # 50 MB offered, at most 256 KiB kept
        assert host.proc.poll() is None
    finally:
        player.stop()
        tls.stop()


def test_a_fetch_in_flight_never_holds_up_presses_or_shutdown(bindir, bus, server):
    """The art server stalls mid-body: the plugin still answers a press at once and ends on `shutdown`
    well within the 2 s the host gives it (the fetch thread is woken and joined, the transfer dropped)."""
    player = StandIn(bus, "org.mpris.MediaPlayer2.web")
    plugin = PluginPipe(bindir, bus, [("play-pause", {})])
    try:
        player.set(PlaybackStatus="Paused", Metadata={"xesam:title": "Stalled", "mpris:artUrl": server.url("/slow")})
        server.wait_line("request /slow")
        plugin.press(0)
        assert player.next_call() == "call PlayPause"
        plugin.state(0, "playing")
        started = time.time()
        plugin.stop()
        assert time.time() - started < 2, "the plugin took 2 s or more to end with a fetch in flight"
    finally:
        if plugin.proc.poll() is None:
            plugin.proc.kill()
        player.stop()
