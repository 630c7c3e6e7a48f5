"""The keys plugin end to end on X11: a real deckd, the real plugin binary, a
real Xvfb started here on a free display, and a real X client (keys/xrecord.c)
recording what arrives. Layouts us, de and kr are set with setxkbmap.
Nothing here waits on a sleep: every step waits for the events it expects."""
import json
import random
import signal
import time

import pytest

from conftest import LineClient
from keys_x11 import Recorder, Xvfb, build_recorder, keys_plugin_folder

LAYOUT = """\
name: default
pages:
  - buttons:
      0: {name: NewTab, action: {plugin: keys, command: press, settings: {keys: "ctrl+shift+t"}}}
      1: {name: Chord, action: {plugin: keys, command: press, settings: {keys: "ctrl+k ctrl+c"}}}
      2: {name: Shift, action: {plugin: keys, command: press, settings: {keys: "shift", hold: true}}}
      3: {name: Hello, action: {plugin: keys, command: type, settings: {text: "안녕하세요 café ✓ 😀"}}}
      4: {name: At, action: {plugin: keys, command: press, settings: {keys: "at"}}}
      5: {name: Typo, action: {plugin: keys, command: press, settings: {keys: "ctrl+shfit+t"}}}
      6: {name: Free, action: {plugin: keys, command: type, settings: {text: "x"}}}
      7: {name: Swapped, action: {plugin: keys, command: type, settings: {text: "zy"}}}
"""


@pytest.fixture(scope="module")
def recorder_bin(tmp_path_factory):
    return build_recorder(tmp_path_factory.mktemp("xrecord"))


@pytest.fixture
def x(recorder_bin):
    server = Xvfb()
    server.layout("us")
    recorder = Recorder(recorder_bin, server.env)
    server.recorder = recorder
    yield server
    recorder.stop()
    server.stop()


@pytest.fixture
def keys_host(deck, bindir, tmp_root, x):
    def start(yaml=LAYOUT, env=None):
        plugins = keys_plugin_folder(tmp_root, bindir)
        host = deck(yaml=yaml, extra=["--no-web", "--plugins", str(plugins)], env=dict({"DISPLAY": x.display}, **(env or {})))
        wait_log(host, "keyboard back end: X11 (XTest) on " + x.display)
        return host
    return start


def wait_log(host, text, timeout=10):
    deadline = time.time() + timeout
    while text not in host.log_text():
        assert time.time() < deadline, f"no {text!r} in the log:\n{host.log_text()[-3000:]}"
        time.sleep(0.02)  # polling a log file: the host writes it, nothing signals us


def wait_status(host, text, timeout=10):
    """Waits until `deckctl plugins keys` shows `text` (the plugin's setStatus); returns both listings."""
    deadline = time.time() + timeout
    while True:
        one = host.ctl("plugins", "keys").stdout
        if text in one:
            return one, host.ctl("plugins").stdout
        assert time.time() < deadline, f"no {text!r} in deckctl plugins keys:\n{one}"
        time.sleep(0.05)  # polling the control socket: the status change has no reply to wait on


def press(client, index, phase=None):
    message = {"type": "press", "page": 0, "index": index}
    if phase:
        message["phase"] = phase
    reply = client.request(message)
    assert reply.get("type") == "ok", reply
    return reply


def balanced_after(name):
    """True once `name` came up and every key that went down came up."""
    def done(seen):
        ups = sum(e["type"] == "release" for e in seen)
        return any(e["type"] == "release" and e["name"] == name for e in seen) and ups * 2 == len(seen)
    return done


def key_events(recorder, count):
    return [(e["type"], e["name"], e["state"]) for e in recorder.events(count)]


@pytest.mark.parametrize("layout", ["us", "de", "kr"])
def test_a_chord_arrives_as_its_keysyms_with_their_modifiers(keys_host, x, layout):
    x.layout(layout)
    host = keys_host()
    client = host.tcp()
    press(client, 0, "down")
    press(client, 0, "up")
    assert key_events(x.recorder, 6) == [
        ("press", "Control_L", 0), ("press", "Shift_L", 4), ("press", "T", 5),
        ("release", "T", 5), ("release", "Shift_L", 5), ("release", "Control_L", 4)]
    press(client, 4)  # '@': shift+2 on us and kr, AltGr+q on de: typed through whatever key has it
    events = x.recorder.presses_until(balanced_after("at"))
    assert [e["text"] for e in events if e["type"] == "press" and e["text"]] == ["@"]
    press(client, 1)
    names = [(e["type"], e["name"]) for e in x.recorder.events(8)]
    assert names == [("press", "Control_L"), ("press", "k"), ("release", "k"), ("release", "Control_L"),
                     ("press", "Control_L"), ("press", "c"), ("release", "c"), ("release", "Control_L")]
    assert x.recorder.down() == []


@pytest.mark.parametrize("layout", ["us", "de", "kr"])
def test_typed_korean_accented_and_emoji_text_arrives_as_that_text(keys_host, x, layout):
    x.layout(layout)
    host = keys_host()
    client = host.tcp()
    press(client, 3)
    assert x.recorder.text_of("안녕하세요 café ✓ 😀") == "안녕하세요 café ✓ 😀"
    assert x.recorder.down() == []


def test_a_layout_set_while_the_plugin_runs_is_the_one_it_types_with(keys_host, x):
    """The plugin keeps the keymap between commands (docs/performance.md, issue 25)
    and reads it again when the server says it changed: de swaps the keys of y
    and z, so text typed with the map of the layout before would come out "yz"."""
    host = keys_host()
    client = host.tcp()
    for layout in ["us", "de", "us", "de"]:
        x.layout(layout)
        press(client, 7)
        events = x.recorder.events(4)
        assert [(e["type"], e["text"]) for e in events] == [
            ("press", "z"), ("release", "z"), ("press", "y"), ("release", "y")], layout
        assert [e["code"] for e in events if e["type"] == "press"] == ([52, 29] if layout == "us" else [29, 52]), layout
    assert x.recorder.down() == []


ALPHABET = ("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 !\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"
            "éèàüöäßçñÉÜ€£¥가나다라마바사아자차카타파하한글안녕✓→★😀🎉")


def test_a_thousand_random_strings_round_trip(keys_host, x):
    rng = random.Random(25)
    strings = ["".join(rng.choice(ALPHABET) for _ in range(rng.randint(1, 12))) for _ in range(1000)]
    pages = [strings[i:i + 12] for i in range(0, len(strings), 12)]
    layout = "name: default\npages:\n" + "".join(
        "  - buttons:\n" + "".join(
            f"      {i}: {{name: s{i}, action: {{plugin: keys, command: type, settings: {{text: {json.dumps(s, ensure_ascii=False)}}}}}}}\n"
            for i, s in enumerate(page))
        for page in pages)
    host = keys_host(yaml=layout)
    client = host.tcp()
    for number, text in enumerate(strings):
        reply = client.request({"type": "press", "page": number // 12, "index": number % 12})
        assert reply.get("type") == "ok", reply
        assert x.recorder.text_of(text) == text, (number, text)
    assert x.recorder.down() == []


def test_a_held_chord_comes_up_on_lift_and_on_disconnect(keys_host, x):
    host = keys_host()
    client = host.tcp()
    press(client, 2, "down")
    assert key_events(x.recorder, 1) == [("press", "Shift_L", 0)]
    assert x.recorder.down() == [50]
    press(client, 2, "up")
    assert key_events(x.recorder, 1) == [("release", "Shift_L", 1)]
    press(client, 2, "down")
    assert key_events(x.recorder, 1) == [("press", "Shift_L", 0)]
    client.close()  # the device goes away holding the button: the host owes it its up
    assert key_events(x.recorder, 1) == [("release", "Shift_L", 1)]
    assert x.recorder.down() == []


def test_a_plugin_killed_while_holding_lets_go_when_it_starts_again(keys_host, x):
    host = keys_host()
    client = host.tcp()
    press(client, 2, "down")
    assert key_events(x.recorder, 1) == [("press", "Shift_L", 0)]
    pid = plugin_pid(host)
    import os
    os.kill(pid, signal.SIGKILL)  # no chance to release: the next start must
    assert key_events(x.recorder, 1) == [("release", "Shift_L", 1)]
    assert x.recorder.down() == []


def test_deckd_stopping_releases_every_held_key(keys_host, x):
    host = keys_host()
    client = host.tcp()
    press(client, 2, "down")
    assert key_events(x.recorder, 1) == [("press", "Shift_L", 0)]
    host.stop()
    assert key_events(x.recorder, 1) == [("release", "Shift_L", 1)]
    assert x.recorder.down() == []


def test_a_typo_is_a_title_on_the_button_and_a_log_line(keys_host, x):
    host = keys_host()
    wait_log(host, "button 'Typo' at 0/5: column 6: unknown key 'shfit' (did you mean 'shift'?)")
    client = host.tcp()  # joined after the title was set: the host sends it with the others
    state = client.recv_until(lambda m: m.get("type") == "buttonState" and m.get("index") == 5)
    assert state["title"] == "unknown key shfit: shift?"
    press(client, 5)
    # At protocol level 8 the refused press also flashes the alert (docs/faces.md §3, §4).
    faces = LineClient(host.port)
    assert faces.request({"type": "hello", "protocol": 8, "device": {"name": "faces", "kind": "terminal"}})["type"] == "welcome"
    press(faces, 5)
    face = faces.recv_until(lambda m: m.get("type") == "buttonFace" and m.get("index") == 5 and m.get("flash"))
    assert face["flash"] == "alert" and face["title"] == "unknown key shfit: shift?"
    press(client, 6)
    assert x.recorder.text_of("x") == "x"  # the bad button typed nothing before it


def test_no_display_is_a_title_on_every_button_not_a_crash(deck, bindir, tmp_root):
    plugins = keys_plugin_folder(tmp_root, bindir)
    host = deck(yaml=LAYOUT, extra=["--no-web", "--plugins", str(plugins)], env={"DISPLAY": "", "WAYLAND_DISPLAY": ""})
    wait_log(host, "button 'Hello' at 0/3: no keyboard back end: DISPLAY is not set")
    client = host.tcp()
    state = client.recv_until(lambda m: m.get("type") == "buttonState" and m.get("index") == 3)
    assert state["title"].startswith("no keyboard back end: DISPLAY is not set")
    press(client, 3)  # pressed anyway: refused with a log line naming the button, the plugin still runs
    wait_log(host, "button 'Hello' at 0/3: no keyboard back end: DISPLAY is not set")
    one, every = wait_status(host, "no keyboard back end: DISPLAY is not set, so there is no X server for XTest, and /dev/uinput is not writable")
    assert "running" in one, one
    keys_line = next(line for line in every.splitlines() if line.strip().startswith("keys"))
    assert "running" in keys_line and "no keyboard back end: DISPLAY is not set" in keys_line, every


def test_the_x_server_going_away_is_a_title_not_a_crash(keys_host, x):
    host = keys_host()
    pid = plugin_pid(host)
    client = host.tcp()
    x.recorder.stop()
    x.stop()
    press(client, 6)
    wait_log(host, "button 'Free' at 0/6: the X display " + x.display + " went away; keys are typed again once it is back")
    assert plugin_pid(host) == pid  # the same process, still running
    wait_status(host, "keyboard back end: X11 (XTest) on " + x.display + ": the X display " + x.display + " went away")


def title_of(client, index, title):
    """Waits for slot `index` of page 0 to show `title` (None: its name again)."""
    return client.recv_until(lambda m: m.get("type") == "buttonState" and m.get("page") == 0
                             and m.get("index") == index and m.get("title") == title)


def test_the_x_server_coming_back_is_typed_on_again_without_a_restart(keys_host, x, recorder_bin):
    host = keys_host()
    pid = plugin_pid(host)
    client = host.tcp()
    x.recorder.stop()
    x.stop()
    # Nobody presses: the buttons say it within the revival's interval (2 s).
    title_of(client, 6, "keys failed")
    wait_status(host, "the X display " + x.display + " went away")
    back = Xvfb(display=x.display)
    try:
        back.layout("us")
        recorder = Recorder(recorder_bin, back.env)
        try:
            title_of(client, 6, None)
            wait_log(host, "keyboard back end: X11 (XTest) on " + x.display + ", opened again")
            press(client, 6)
            assert recorder.text_of("x") == "x"
            assert plugin_pid(host) == pid, "the same process: no restart"
            one, _ = wait_status(host, "keyboard back end: X11 (XTest) on " + x.display)
            assert "went away" not in one, one
        finally:
            recorder.stop()
    finally:
        back.stop()


def test_an_x_server_that_comes_up_after_the_plugin_is_typed_on(deck, bindir, tmp_root, x, recorder_bin):
    """deckd started before the session's X server: the display does not exist yet."""
    display = x.display
    x.recorder.stop()
    x.stop()
    plugins = keys_plugin_folder(tmp_root, bindir)
    host = deck(yaml=LAYOUT, extra=["--no-web", "--plugins", str(plugins)], env={"DISPLAY": display, "WAYLAND_DISPLAY": ""})
    wait_log(host, "no keyboard back end: cannot open the X display " + display)
    client = host.tcp()
    title_of(client, 6, "no keyboard back end: cannot open the X display " + display
             + " (is the X server running, and may this user connect?)")
    late = Xvfb(display=display)
    try:
        late.layout("us")
        recorder = Recorder(recorder_bin, late.env)
        try:
            title_of(client, 6, None)
            wait_log(host, "keyboard back end: X11 (XTest) on " + display + ", opened again")
            press(client, 6)
            assert recorder.text_of("x") == "x"
        finally:
            recorder.stop()
    finally:
        late.stop()


def test_the_chosen_back_end_is_the_status_deckctl_plugins_shows(keys_host, x):
    host = keys_host()
    one, every = wait_status(host, "keyboard back end: X11 (XTest) on " + x.display)
    assert "went away" not in one, one
    keys_line = next(line for line in every.splitlines() if line.strip().startswith("keys"))
    assert "keyboard back end: X11 (XTest) on " + x.display in keys_line, every


def plugin_pid(host):
    out = host.ctl("plugins").stdout
    for line in out.splitlines():
        if line.strip().startswith("keys"):
            for word in line.replace(",", " ").split():
                if word.isdigit() and int(word) > 1:
                    return int(word)
    raise AssertionError("no pid of keys in:\n" + out)
