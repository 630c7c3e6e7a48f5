"""The media plugin (plugins/media, docs/plugins.md "media") end to end: a real deckd, the
real deck-plugin-media, a private dbus-daemon in a temporary folder, a real mpv with Debian's
mpv-mpris script playing a file ffmpeg makes (title tag, cover.jpg beside it), and a stand-in
MPRIS player (media/mpris_peer.py, Debian's python3 with python3-dbus) for what mpv never sends.
Every wait is on a signal: a D-Bus signal (the peer's wait-* commands), a device message, or a
log line; none sleeps for a guess."""
import json
import signal
import os
import re
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from conftest import LineClient

HERE = Path(__file__).resolve().parent
PEER = HERE / "media" / "mpris_peer.py"
SYSTEM_PYTHON = "/usr/bin/python3"  # Debian's, where python3-dbus and python3-gi are
MPRIS_SCRIPT = next((p for p in ("/usr/lib/mpv-mpris/mpris.so", "/etc/mpv/scripts/mpris.so") if os.path.exists(p)), None)

# Skipped on a machine without them, but never in CI, where make setup has installed them.
pytestmark = pytest.mark.skipif(
    not os.environ.get("CI")
    and not (shutil.which("dbus-daemon") and shutil.which("mpv") and shutil.which("ffmpeg") and MPRIS_SCRIPT),
    reason="needs dbus-daemon, mpv, mpv-mpris and ffmpeg (make setup installs them)")

MPV = "org.mpris.MediaPlayer2.mpv"
STATES = "states: [{id: stopped}, {id: playing}, {id: paused}, {id: no-player}]"


class Bus:
    """A private session bus: dbus-daemon listening in a temporary folder."""

    def __init__(self, folder: Path):
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)
        self.socket = folder / "bus"
        self.proc = None
        self.start()

    def start(self):
        self.proc = subprocess.Popen(["dbus-daemon", "--session", "--nofork", "--nopidfile",
                                      f"--address=unix:path={self.socket}", "--print-address=1"],
                                     stdout=subprocess.PIPE, text=True)
        printed = self.proc.stdout.readline().strip()  # printed once it listens
        assert printed.startswith(f"unix:path={self.socket},guid="), printed
        # As a desktop's bus is named (unix:path=/run/user/UID/bus): without the guid, which would pin
        # this one daemon and make sd-bus refuse the restarted one.
        self.address = f"unix:path={self.socket}"
        self.env = dict(os.environ, DBUS_SESSION_BUS_ADDRESS=self.address)

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(10)

    def peer(self, *args, timeout=30):
        r = subprocess.run([SYSTEM_PYTHON, str(PEER), *args], env=self.env, capture_output=True, text=True,
                           timeout=timeout)
        return r

    def wait_prop(self, name, prop, value):
        r = self.peer("wait-prop", name, prop, value)
        assert r.returncode == 0, (name, prop, value, r.stderr, self.peer("get", name, prop).stdout)

    def wait_name(self, name, gone=False):
        r = self.peer("wait-name", name, *(["--gone"] if gone else []))
        assert r.returncode == 0, (name, gone, r.stderr)


class StandIn:
    """The stand-in player: owns NAME on the bus, takes property changes line by line."""

    def __init__(self, bus: Bus, name: str):
        self.proc = subprocess.Popen([SYSTEM_PYTHON, str(PEER), "player", name], env=bus.env,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert self.proc.stdout.readline().strip() == "ready"

    def set(self, **changes):
        self.proc.stdin.write(json.dumps(changes) + "\n")
        self.proc.stdin.flush()
        assert self.proc.stdout.readline().strip() == "ok"

    def next_call(self):
        return self.proc.stdout.readline().strip()

    def stop(self):
        if self.proc.poll() is None:
            self.proc.stdin.close()
            self.proc.wait(10)


@pytest.fixture
def bus(tmp_root):
    b = Bus(tmp_root / "dbus")
    yield b
    b.stop()


@pytest.fixture
def song(tmp_root):
    """A 60 s sine wave tagged 'Deck Test Tone' with a cover.jpg next to it (mpv-mpris's artUrl)."""
    folder = tmp_root / "music"
    folder.mkdir()
    subprocess.run(["ffmpeg", "-loglevel", "error", "-f", "lavfi", "-i", "sine=frequency=440:duration=60",
                    "-metadata", "title=Deck Test Tone", "-metadata", "artist=deck", str(folder / "tone.ogg")], check=True)
    subprocess.run(["ffmpeg", "-loglevel", "error", "-f", "lavfi", "-i", "color=c=red:s=32x32", "-frames:v", "1",
                    str(folder / "cover.jpg")], check=True)
    return folder / "tone.ogg"


@pytest.fixture
def players(bus):
    started = []

    def start(path, *extra):
        proc = subprocess.Popen(["mpv", "--idle", "--ao=null", "--no-video", "--no-config", "--no-terminal",
                                 f"--script={MPRIS_SCRIPT}", "--pause", *extra, str(path)], env=bus.env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        started.append(proc)
        bus.wait_name(MPV)
        bus.wait_prop(MPV, "PlaybackStatus", "Paused")
        return proc

    yield start
    for proc in started:
        if proc.poll() is None:
            proc.terminate()
            proc.wait(10)


def media_host(deck, bindir, tmp_root, bus, buttons):
    plugins = tmp_root / "plugins"
    (plugins / "media").mkdir(parents=True, exist_ok=True)
    manifest = (HERE.parents[1] / "plugins" / "media" / "plugin.yaml").read_text()
    manifest = manifest.replace("exec: [./media]", f"exec: [{bindir / 'deck-plugin-media'}]")
    (plugins / "media" / "plugin.yaml").write_text(manifest)
    layout = "name: default\npages:\n  - buttons:\n" + "".join(f"      {i}: {b}\n" for i, b in enumerate(buttons))
    host = deck(yaml=layout, env={"DBUS_SESSION_BUS_ADDRESS": bus.address})
    shutil.copytree(plugins, host.root / "plugins", dirs_exist_ok=True)
    host.ctl("reload")
    return host


def titles(client, index, want, timeout=15):
    """Reads buttonState lines until slot `index` shows `want` (a string, None, or a predicate)."""
    match = want if callable(want) else (lambda title: title == want)
    return client.recv_until(lambda m: m.get("type") == "buttonState" and m.get("index") == index
                             and match(m.get("title")), timeout)


def wait_log(host, pattern, timeout=15):
    deadline = time.time() + timeout
    while time.time() < deadline:
        found = re.search(pattern, host.log_text())
        if found:
            return found
        time.sleep(0.02)
    raise AssertionError(f"no log line matching {pattern!r}:\n" + host.log_text()[-3000:])


def plugin_pid(host):
    out = subprocess.run(["pgrep", "-P", str(host.proc.pid), "-f", "deck-plugin-media"], capture_output=True, text=True)
    return int(out.stdout.split()[0])


def rss_kib(pid):
    status = Path(f"/proc/{pid}/status").read_text()
    return int(re.search(r"VmRSS:\s+(\d+) kB", status).group(1))


def test_play_pause_on_a_real_deckd_plays_mpv_and_the_title_follows(deck, bindir, tmp_root, bus, song, players):
    players(song)
    host = media_host(deck, bindir, tmp_root, bus, [
        "{name: Play, action: {plugin: media, command: play-pause}}",
        "{name: Mpv, action: {plugin: media, command: next, settings: {player: mpv}}}",
        "{name: Vlc, action: {plugin: media, command: next, settings: {player: vlc}}}",
    ])
    client = host.tcp()
    titles(client, 0, "Deck Test Tone")
    titles(client, 1, "Deck Test Tone")
    host.ctl("press", "0", "0")
    bus.wait_prop(MPV, "PlaybackStatus", "Playing")
    host.ctl("press", "0", "0")
    bus.wait_prop(MPV, "PlaybackStatus", "Paused")
    # No vlc on the bus: a press is a log line, not an error, and mpv is untouched.
    host.ctl("press", "0", "2")
    wait_log(host, r"button 'Vlc' at 0/2: no player vlc on the bus")
    assert json.loads(bus.peer("get", MPV, "PlaybackStatus").stdout) == "Paused"


def test_a_press_held_across_a_restart_reaches_the_player(deck, bindir, tmp_root, bus, song, players):
    """The host holds a press while the plugin restarts and delivers it after `ready`; the plugin
    says `ready` once it knows the players, so the press plays mpv instead of 'no MPRIS player'."""
    players(song)
    host = media_host(deck, bindir, tmp_root, bus, ["{name: Play, action: {plugin: media, command: play-pause}}"])
    client = host.tcp()
    titles(client, 0, "Deck Test Tone")
    os.kill(plugin_pid(host), signal.SIGKILL)
    # Pressed once the host knows, so the press waits for the restart (not the dying process's pipe).
    wait_log(host, r"plugin 'media' was ended by signal 9; starting it again in 1 s")
    host.ctl("press", "0", "0")
    wait_log(host, r"'Play' \(plugin\) was delivered to its plugin")
    bus.wait_prop(MPV, "PlaybackStatus", "Playing")
    assert "no MPRIS player" not in host.log_text()


def test_a_player_that_quits_and_a_second_that_starts(deck, bindir, tmp_root, bus, song, players):
    first = players(song)
    host = media_host(deck, bindir, tmp_root, bus, ["{name: Play, action: {plugin: media, command: play-pause}}"])
    client = host.tcp()
    titles(client, 0, "Deck Test Tone")
    first.terminate()
    first.wait(10)
    titles(client, 0, None)  # no player: back to the button's name (state no-player)
    wait_log(host, r"player org\.mpris\.MediaPlayer2\.mpv left the bus")
    second = StandIn(bus, "org.mpris.MediaPlayer2.second")
    try:
        second.set(PlaybackStatus="Paused", Metadata={"xesam:title": "Second Song"})
        titles(client, 0, "Second Song")
        host.ctl("press", "0", "0")
        assert second.next_call() == "call PlayPause"
    finally:
        second.stop()


def test_huge_and_malformed_metadata_are_clear_log_lines_with_memory_bounded(deck, bindir, tmp_root, bus):
    standin = StandIn(bus, "org.mpris.MediaPlayer2.bad")
    try:
        host = media_host(deck, bindir, tmp_root, bus, ["{name: Play, action: {plugin: media, command: play-pause}}"])
        client = host.tcp()
        standin.set(PlaybackStatus="Playing", Metadata={"xesam:title": "fine"})
        titles(client, 0, "fine")
        before = rss_kib(plugin_pid(host))
        # A 1 MB title: cut to 64 characters.
        standin.set(Metadata={"xesam:title": "T" * (1 << 20)})
        shown = titles(client, 0, lambda t: t is not None and t.startswith("TTT"))
        assert shown["title"] == "T" * 63 + "…"
        # A title of bytes that are not UTF-8 (D-Bus strings cannot carry them): refused by type.
        standin.set(Metadata={"xesam:title": {"invalid-utf8": True}})
        titles(client, 0, None)
        wait_log(host, r"player org\.mpris\.MediaPlayer2\.bad: xesam:title is type 'ay', not a string; ignored")
        # 50 MB of art, as a file and as bytes in the metadata; and a PlaybackStatus that is none.
        big = tmp_root / "huge.jpg"
        with open(big, "wb") as f:
            f.write(b"\xff\xd8\xff" + b"\0" * (50 << 20))
        standin.set(Metadata={"xesam:title": "art", "mpris:artUrl": f"file://{big}"})
        titles(client, 0, "art")
        wait_log(host, r"art file .*huge\.jpg is 52428803 bytes, over the 256 KiB a button image may be")
        standin.set(Metadata={"xesam:title": "bytes", "mpris:artUrl": {"bytes": 50 << 20}}, PlaybackStatus="Dancing")
        titles(client, 0, "bytes")
        wait_log(host, r"mpris:artUrl is type 'ay', not a string; ignored")
        wait_log(host, r"PlaybackStatus is 'Dancing', not Playing, Paused or Stopped; ignored")
        # Still answering, and what it holds did not grow with what it was sent.
        host.ctl("press", "0", "0")
        assert standin.next_call() == "call PlayPause"
        after = rss_kib(plugin_pid(host))
        assert after - before < 16 * 1024, (before, after)
        assert host.proc.poll() is None
    finally:
        standin.stop()


def test_the_bus_going_away_shows_no_player_and_the_plugin_reconnects(deck, bindir, tmp_root, bus, song, players):
    players(song)
    host = media_host(deck, bindir, tmp_root, bus, ["{name: Play, action: {plugin: media, command: play-pause}}"])
    client = host.tcp()
    titles(client, 0, "Deck Test Tone")
    bus.stop()
    titles(client, 0, None)
    wait_log(host, r"session bus is gone")
    bus.start()  # the same address: the plugin's next try (1 s after) finds it
    wait_log(host, r"connected to the session bus again")
    warnings = [line for line in host.log_text().splitlines() if " warning plugin 'media'" in line and "bus" in line]
    assert len(warnings) == 1, warnings  # docs/plugins.md: "one warning is logged" (there were two)
    standin = StandIn(bus, "org.mpris.MediaPlayer2.after")
    try:
        standin.set(PlaybackStatus="Playing", Metadata={"xesam:title": "After"})
        titles(client, 0, "After")
    finally:
        standin.stop()


class PluginPipe:
    """The real deck-plugin-media with this test as its host: hello, buttons and presses in,
    every line it writes read back (the plugin boundary, PLUGINS.md §2)."""

    def __init__(self, bindir, bus, buttons):
        import queue
        import threading
        self.proc = subprocess.Popen([str(bindir / "deck-plugin-media")], env=bus.env, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, encoding="utf-8")
        self.lines = queue.Queue()
        self.history, self.cursor = [], 0
        threading.Thread(target=lambda: [self.lines.put(json.loads(l)) for l in self.proc.stdout], daemon=True).start()
        self.send({"type": "hello", "protocol": 1, "host": {"name": "deckd", "version": "test"}, "plugin": "media"})
        assert self.recv(lambda m: m["type"] == "ready")
        self.buttons = [dict(page=0, index=i, name=f"B{i}", command=c, settings=s) for i, (c, s) in enumerate(buttons)]
        self.send({"type": "buttons", "buttons": self.buttons})

    def send(self, event):
        self.proc.stdin.write(json.dumps(event) + "\n")
        self.proc.stdin.flush()

    def press(self, index):
        b = self.buttons[index]
        self.send({"type": "press", "phase": "tap", "command": b["command"], "settings": b["settings"],
                   "button": {"page": 0, "index": index, "name": b["name"]}, "device": {"name": "t", "kind": "terminal"}})

    def recv(self, pred, timeout=15, anywhere=False):
        """The next line matching `pred` after the last one matched (or, `anywhere`, the first ever sent)."""
        import queue
        for i, m in enumerate(self.history):
            if (anywhere or i >= self.cursor) and pred(m):
                self.cursor = max(self.cursor, i + 1)
                return m
        deadline = time.time() + timeout
        while True:
            try:
                m = self.lines.get(timeout=max(0.01, deadline - time.time()))
            except queue.Empty:
                raise AssertionError(f"no matching line from the plugin; it sent {self.history[-20:]}")
            self.history.append(m)
            if pred(m):
                self.cursor = len(self.history)
                return m

    def state(self, index, state):
        return self.recv(lambda m: m["type"] == "setState" and m.get("index") == index and m.get("state") == state)

    def stop(self):
        self.send({"type": "shutdown"})
        assert self.proc.wait(5) == 0


def test_states_art_and_flashes_at_the_plugin_boundary(bindir, bus, song, players):
    import base64
    mpv = players(song)
    plugin = PluginPipe(bindir, bus, [("play-pause", {}), ("seek", {"seconds": "ten"}), ("stop", {"player": "vlc"})])
    try:
        plugin.state(0, "paused")
        image = plugin.recv(lambda m: m["type"] == "setImage" and m.get("index") == 0 and m.get("image"))
        assert base64.b64decode(image["image"]) == (song.parent / "cover.jpg").read_bytes()
        bad = plugin.recv(lambda m: m["type"] == "setTitle" and m.get("index") == 1, anywhere=True)
        assert bad["title"] == "⚠ settings"
        assert plugin.recv(lambda m: m["type"] == "setState" and m.get("index") == 2, anywhere=True)["state"] == "no-player"
        plugin.press(0)
        plugin.state(0, "playing")
        bus.wait_prop(MPV, "PlaybackStatus", "Playing")
        plugin.press(2)  # no vlc: a flash, not a call
        plugin.recv(lambda m: m["type"] == "showAlert" and m.get("index") == 2)
        mpv.terminate()
        mpv.wait(10)
        plugin.state(0, "no-player")
        plugin.recv(lambda m: m["type"] == "setImage" and m.get("index") == 0 and m.get("image") is None)
        plugin.stop()
    finally:
        if plugin.proc.poll() is None:
            plugin.proc.kill()


def test_a_stalled_bus_never_hangs_the_plugin(bindir, bus):
    """dbus-daemon stopped (SIGSTOP) with calls in flight: presses still reach the plugin, and it
    ends at once on shutdown rather than waiting for the bus (the host would SIGKILL it after 2 s)."""
    import signal as signals
    standin = StandIn(bus, "org.mpris.MediaPlayer2.slow")
    plugin = PluginPipe(bindir, bus, [("play-pause", {})])
    try:
        standin.set(PlaybackStatus="Paused", Metadata={"xesam:title": "slow"})
        plugin.state(0, "paused")
        bus.proc.send_signal(signals.SIGSTOP)
        for _ in range(50):
            plugin.press(0)
        started = time.time()
        plugin.stop()
        assert time.time() - started < 2, "the plugin took 2 s or more to end with the bus stalled"
    finally:
        bus.proc.send_signal(signals.SIGCONT)
        if plugin.proc.poll() is None:
            plugin.proc.kill()
        standin.stop()


def test_the_button_face_follows_mpv_on_a_level_8_device(deck, bindir, tmp_root, bus, song, players):
    """docs/faces.md §4 on a real deckd: the state, title and art of a media button as a
    level-8 device sees them (buttonFace, and the faces of a welcome)."""
    import base64
    import hashlib
    mpv = players(song)
    host = media_host(deck, bindir, tmp_root, bus, [f"{{name: Play, action: {{plugin: media, command: play-pause}}, {STATES}}}"])
    client = LineClient(host.port)
    welcome = client.request({"type": "hello", "protocol": 8, "device": {"name": "faces", "kind": "terminal"}})
    assert welcome["type"] == "welcome" and welcome["protocol"] >= 8, welcome

    def face(pred):
        for f in welcome.get("faces", []):
            if f["index"] == 0 and pred(f):
                return f
        return client.recv_until(lambda m: m.get("type") == "buttonFace" and m.get("index") == 0 and pred(m), 15)

    cover = (song.parent / "cover.jpg").read_bytes()
    shown = face(lambda f: f.get("state") == "paused" and f.get("title") == "Deck Test Tone" and f.get("image"))
    assert shown["image"]["hash"] == hashlib.sha256(cover).hexdigest()
    assert shown["image"]["type"] == "image/jpeg"
    welcome = {}
    host.ctl("press", "0", "0")
    bus.wait_prop(MPV, "PlaybackStatus", "Playing")
    face(lambda f: f.get("state") == "playing")
    mpv.terminate()
    mpv.wait(10)
    # State, title and image are three plugin lines: a frame may carry some of them, the face ends on all.
    face(lambda f: f.get("state") == "no-player" and f.get("title") is None and f.get("image") is None)
