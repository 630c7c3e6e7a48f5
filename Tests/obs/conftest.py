"""The obs plugin's end-to-end tests: a real deckd (Tests/e2e's fixtures), the real plugin
binary, and a real OBS (make test-obs) or the stand-in server (obs_standin.py, make test)."""
import importlib.util
import sys
import textwrap
import time
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
_spec = importlib.util.spec_from_file_location("deck_e2e_conftest", HERE.parent / "e2e" / "conftest.py")
_e2e = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_e2e)
bindir, tmp_root, deck = _e2e.bindir, _e2e.tmp_root, _e2e.deck


def install_obs_plugin(root: Path, bindir: Path):
    """The plugin folder the host finds: the repo's manifest, exec pointing at the built binary."""
    folder = root / "plugins" / "obs"
    folder.mkdir(parents=True, exist_ok=True)
    manifest = (HERE.parents[1] / "plugins" / "obs" / "plugin.yaml").read_text()
    (folder / "plugin.yaml").write_text(manifest.replace("exec: [./obs]", f"exec: [{bindir / 'deck-plugin-obs'}]"))


def obs_layout(port, password_file, extra_buttons=""):
    return textwrap.dedent(f"""\
        name: default
        pages:
          - buttons:
              0: {{name: Intro, action: {{plugin: obs, command: scene, settings: {{scene: Intro, url: "ws://127.0.0.1:{port}", passwordFile: "{password_file}"}}}},
                  states: [{{id: inactive}}, {{id: active}}]}}
              1: {{name: Live, action: {{plugin: obs, command: scene, settings: {{scene: Live}}}}, states: [{{id: inactive}}, {{id: active}}]}}
              2: {{name: Rec, action: {{plugin: obs, command: record}}, states: [{{id: "off"}}, {{id: starting}}, {{id: "on"}}, {{id: stopping}}]}}
              3: {{name: Mic, action: {{plugin: obs, command: mute, settings: {{input: Mic}}}}, states: [{{id: live}}, {{id: muted}}]}}
        """) + extra_buttons


@pytest.fixture
def obs_deck(deck, bindir, tmp_root):
    """obs_deck(port, password) -> a started Host whose layout drives OBS at that port."""
    def start(port, password, extra_buttons=""):
        root = tmp_root / "host1"
        install_obs_plugin(root, bindir)
        secret = tmp_root / "obs-password"
        secret.write_text(password + "\n")
        return deck(yaml=obs_layout(port, secret, extra_buttons))
    return start


def wait_for(what, probe, timeout=30.0):
    """Asks `probe` (a control request, a client's reply) until it returns something true."""
    deadline = time.time() + timeout
    last = None
    while time.time() < deadline:
        last = probe()
        if last:
            return last
        time.sleep(0.05)
    raise AssertionError(f"{what}: not within {timeout} s (last: {last!r})")


def plugin_line(host):
    r = host.ctl("plugins", "obs")
    return r.stdout.strip()


class Faces:
    """A level-8 TCP device that keeps every button's live face (docs/faces.md §4)."""

    def __init__(self, host):
        self.client = _e2e.LineClient(host.port)
        welcome = self.client.request({"type": "hello", "protocol": 8, "device": {"name": "faces", "kind": "terminal"}})
        assert welcome["type"] == "welcome", welcome
        self.faces = {(f["page"], f["index"]): f for f in welcome.get("faces", [])}

    def face(self, index, page=0):
        return self.faces.get((page, index), {"title": None, "state": None, "image": None})

    def wait(self, what, index, pred, timeout=20.0):
        """Reads faces until button `index`'s face satisfies `pred` (it may already)."""
        deadline = time.time() + timeout
        while not pred(self.face(index)):
            left = deadline - time.time()
            if left <= 0:
                raise AssertionError(f"{what}: button {index} shows {self.face(index)}")
            m = self.client.recv(left)
            if m.get("type") == "buttonFace":
                self.faces[(m["page"], m["index"])] = m
        return self.face(index)

    def press(self, index, page=0):
        reply = self.client.request({"type": "press", "page": page, "index": index})
        assert reply["type"] == "ok", reply
