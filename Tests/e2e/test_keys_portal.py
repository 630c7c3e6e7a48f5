"""The keys plugin's RemoteDesktop portal back end end to end: a real deckd,
the real plugin binary, a private dbus-daemon started here, and a stand-in
for xdg-desktop-portal's org.freedesktop.portal.RemoteDesktop v2
(keys/portal_standin.py, Debian's python3 with python3-dbus) that records
every call, checks the options, issues restore tokens and can deny consent.
It stands in for GNOME's or KDE's portal back end, which needs a desktop
session and a person to click the consent dialog (docs/plugins.md).
Waits are on the stand-in's record file, the log or the control socket; none sleeps for a guess."""
import json
import os
import shutil
import signal
import stat
import subprocess
import time
from pathlib import Path

import pytest

from keys_x11 import keys_plugin_folder
from test_keys_x11 import press, wait_log, wait_status
from test_media import Bus

SYSTEM_PYTHON = "/usr/bin/python3"  # Debian's, where python3-dbus and python3-gi are
STANDIN = Path(__file__).resolve().parent / "keys" / "portal_standin.py"

pytestmark = pytest.mark.skipif(not shutil.which("dbus-daemon"), reason="needs dbus-daemon (make setup installs it)")

LAYOUT = """\
name: default
pages:
  - buttons:
      0: {name: NewTab, action: {plugin: keys, command: press, settings: {keys: "ctrl+shift+t"}}}
      1: {name: Hello, action: {plugin: keys, command: type, settings: {text: "안녕 café ✓"}}}
      2: {name: Shift, action: {plugin: keys, command: press, settings: {keys: "shift", hold: true}}}
"""
CTRL, SHIFT, T = 0xFFE3, 0xFFE1, 0x74


class Portal:
    """The stand-in portal and what it recorded."""

    def __init__(self, bus: Bus, folder: Path, mode=None):
        self.record = folder / "portal.jsonl"
        self.record.touch()
        self.proc = subprocess.Popen([SYSTEM_PYTHON, str(STANDIN), str(self.record), *([mode] if mode else [])],
                                     env=dict(os.environ, DBUS_SESSION_BUS_ADDRESS=bus.address),
                                     stdout=subprocess.PIPE, text=True)
        assert self.proc.stdout.readline().strip() == "ready"

    def entries(self):
        return [json.loads(line) for line in self.record.read_text().splitlines() if line]

    def wait(self, done, timeout=15):
        """Waits until done(entries) is true; returns the entries."""
        deadline = time.time() + timeout
        while True:
            seen = self.entries()
            if done(seen):
                return seen
            assert time.time() < deadline, f"the stand-in portal recorded only:\n{seen}"
            time.sleep(0.02)  # polling a file the stand-in appends to: nothing signals us

    def keys(self, count):
        return [(e["key"], e["state"]) for e in self.wait(lambda s: len([e for e in s if "key" in e]) >= count)
                if "key" in e]

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(10)


@pytest.fixture
def bus(tmp_root):
    bus = Bus(tmp_root / "bus")
    yield bus
    bus.stop()


@pytest.fixture
def portal_host(deck, bindir, tmp_root, bus):
    portals = []

    def start(mode=None):
        portal = Portal(bus, tmp_root, mode)
        portals.append(portal)
        plugins = keys_plugin_folder(tmp_root, bindir)
        env = {"DBUS_SESSION_BUS_ADDRESS": bus.address, "WAYLAND_DISPLAY": "wayland-deck-test", "DISPLAY": "",
               "DECK_KEYS_BACKEND": ""}
        host = deck(yaml=LAYOUT, extra=["--no-web", "--plugins", str(plugins)], env=env)
        wait_log(host, "keyboard back end: RemoteDesktop portal")
        return host, portal
    yield start
    for portal in portals:
        portal.stop()


def consents(entries):
    return [e["consent"] for e in entries if "consent" in e]


def calls(entries, name):
    return [e for e in entries if e.get("call") == name]


def token_file(host):
    return host.root / "state" / "plugins" / "keys" / "portal-restore-token"


# "안녕 café ✓" as xkbcommon's keysyms: Hangul syllables as 0x1000000 + code point, Latin-1 as
# itself, and ✓ as its legacy keysym 'checkmark' (0xaf3).
TYPED = [0x100C548, 0x100B155, 0x20, 0x63, 0x61, 0x66, 0xE9, 0x20, 0xAF3]


def test_consent_is_asked_once_kept_and_reused_and_reset_asks_again(portal_host):
    host, portal = portal_host()
    wait_status(host, "keyboard back end: RemoteDesktop portal (consent given)")
    seen = portal.entries()
    assert [e for e in seen if "problem" in e] == []
    assert consents(seen) == ["asked"]
    create, = calls(seen, "CreateSession")
    assert create["options"]["handle_token"] and create["options"]["session_handle_token"]
    select, = calls(seen, "SelectDevices")
    assert select["options"]["types"] == 1 and select["options"]["persist_mode"] == 2
    assert "restore_token" not in select["options"]
    # The token is kept in the plugin's state folder, which the host made private.
    wait_log(host, "portal: consent remembered in")
    token = token_file(host).read_text().strip()
    assert token
    assert stat.S_IMODE(token_file(host).parent.stat().st_mode) == 0o700
    assert stat.S_IMODE(token_file(host).stat().st_mode) == 0o600

    host.ctl("restart", "keys")
    seen = portal.wait(lambda s: len(consents(s)) == 2)
    assert consents(seen) == ["asked", "restored"]  # the second start made no consent request
    assert calls(seen, "SelectDevices")[1]["options"]["restore_token"] == token
    wait_status(host, "keyboard back end: RemoteDesktop portal (consent remembered)")

    out = host.ctl("plugins", "keys", "--reset").stdout
    assert "forgot its state and is restarting" in out, out
    seen = portal.wait(lambda s: len(consents(s)) == 3)
    assert consents(seen) == ["asked", "restored", "asked"]
    assert "restore_token" not in calls(seen, "SelectDevices")[2]["options"]
    wait_log(host, "plugin 'keys': emptied its state folder")
    assert [e for e in portal.entries() if "problem" in e] == []


def test_a_chord_and_typed_text_arrive_as_keysym_press_release_pairs_in_order(portal_host):
    host, portal = portal_host()
    wait_status(host, "keyboard back end: RemoteDesktop portal (consent given)")
    client = host.tcp()
    press(client, 0, "down")
    press(client, 0, "up")
    assert portal.keys(6) == [(CTRL, 1), (SHIFT, 1), (T, 1), (T, 0), (SHIFT, 0), (CTRL, 0)]
    press(client, 1)
    text = "안녕 café ✓"
    typed = portal.keys(6 + 2 * len(text))[6:]
    assert typed == [pair for k in TYPED for pair in ((k, 1), (k, 0))]


def test_deckd_stopping_releases_a_held_key_before_the_session_closes(portal_host):
    host, portal = portal_host()
    wait_status(host, "keyboard back end: RemoteDesktop portal (consent given)")
    client = host.tcp()
    press(client, 2, "down")
    assert portal.keys(1) == [(SHIFT, 1)]
    host.stop()
    seen = portal.wait(lambda s: calls(s, "Close"))
    order = [("key", e["key"], e["state"]) if "key" in e else e.get("call") for e in seen if "key" in e or e.get("call") == "Close"]
    assert order == [("key", SHIFT, 1), ("key", SHIFT, 0), "Close"]


@pytest.mark.parametrize("mode,title,status", [
    ("--deny", "consent denied", "portal: consent denied — run `deckctl plugins keys --reset` to ask again"),
    ("--cancel", "consent cancelled", "portal: the consent dialog was cancelled — run `deckctl plugins keys --reset`"),
])
def test_consent_refused_is_a_state_on_every_button_and_the_status(portal_host, mode, title, status):
    host, portal = portal_host(mode)
    one, _ = wait_status(host, status)
    assert "running" in one, one
    assert not token_file(host).exists()
    client = host.tcp()  # the host sends the titles set so far with the others, then each change
    client.recv_until(lambda m: m.get("type") == "buttonState" and m.get("index") == 0 and m.get("title") == title)
    press(client, 0)
    wait_log(host, "button 'NewTab' at 0/0: " + status)
    assert [e for e in portal.entries() if "key" in e] == []  # nothing was typed


def test_the_desktop_closing_the_session_is_a_state_and_the_plugin_keeps_running(portal_host):
    host, portal = portal_host()
    wait_status(host, "keyboard back end: RemoteDesktop portal (consent given)")
    client = host.tcp()
    portal.proc.send_signal(signal.SIGUSR1)
    one, _ = wait_status(host, "portal: the desktop closed the remote-desktop session — run `deckctl plugins keys --reset`")
    assert "running" in one, one
    # The title of the condition reaches the device (recv_until fails on a timeout; an
    # earlier title may come first: titles are coalesced, and the join sent the current one).
    client.recv_until(lambda m: m.get("type") == "buttonState" and m.get("index") == 0 and m.get("title") == "session closed")
    press(client, 0)
    wait_log(host, "button 'NewTab' at 0/0: portal: the desktop closed the remote-desktop session")
    assert [e for e in portal.entries() if "key" in e] == []


def test_the_bus_going_away_is_a_state_not_a_crash(portal_host, bus):
    host, portal = portal_host()
    wait_status(host, "keyboard back end: RemoteDesktop portal (consent given)")
    client = host.tcp()
    bus.proc.kill()  # killed: the daemon says nothing more (a stopped one may first announce the portal leaving)
    bus.proc.wait(10)
    one, _ = wait_status(host, "portal: the session bus went away")
    assert "running" in one and "`deckctl restart keys` once it is back" in one, one
    # The title of the condition reaches the device (recv_until fails on a timeout; an
    # earlier title may come first: titles are coalesced, and the join sent the current one).
    client.recv_until(lambda m: m.get("type") == "buttonState" and m.get("index") == 0 and m.get("title") == "bus gone")
    press(client, 0)
    wait_log(host, "button 'NewTab' at 0/0: portal: the session bus went away")
    assert "0 restarts" in host.ctl("plugins", "keys").stdout  # the same process, never crashed


def test_the_portal_leaving_the_bus_is_a_state_not_a_crash(portal_host):
    host, portal = portal_host()
    wait_status(host, "keyboard back end: RemoteDesktop portal (consent given)")
    client = host.tcp()
    portal.stop()
    one, _ = wait_status(host, "portal: xdg-desktop-portal left the session bus — run `deckctl restart keys` once it is back")
    assert "running" in one, one
    # The title of the condition reaches the device (recv_until fails on a timeout; an
    # earlier title may come first: titles are coalesced, and the join sent the current one).
    client.recv_until(lambda m: m.get("type") == "buttonState" and m.get("index") == 0 and m.get("title") == "portal gone")


def test_a_wayland_session_without_a_portal_falls_back_and_says_why(deck, bindir, tmp_root, bus):
    plugins = keys_plugin_folder(tmp_root, bindir)
    env = {"DBUS_SESSION_BUS_ADDRESS": bus.address, "WAYLAND_DISPLAY": "wayland-deck-test", "DISPLAY": "",
           "DECK_KEYS_BACKEND": ""}
    host = deck(yaml=LAYOUT, extra=["--no-web", "--plugins", str(plugins)], env=env)
    one, _ = wait_status(host, "no keyboard back end: DISPLAY is not set")
    assert "this is a Wayland session, and the RemoteDesktop portal cannot be used" in one, one
    wait_log(host, "this is a Wayland session, but the RemoteDesktop portal cannot be used (nothing owns "
                   "org.freedesktop.portal.Desktop on the session bus (xdg-desktop-portal is not running)); trying XTest and uinput")
