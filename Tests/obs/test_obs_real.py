"""The obs plugin against a real OBS Studio (obs-websocket 5.1) under Xvfb: make test-obs."""
import base64

import pytest

from conftest import Faces, plugin_line, wait_for
from obs_support import Obs, ObsClient, Xvfb, obs_available

pytestmark = pytest.mark.skipif(not obs_available(), reason="obs-studio and Xvfb are not installed (make test-obs installs them)")


@pytest.fixture(scope="module")
def display():
    x = Xvfb()
    yield x.display
    x.stop()


@pytest.fixture
def obs(display, tmp_root):
    o = Obs(tmp_root, display).start()
    yield o
    o.stop()


@pytest.fixture
def second(obs):
    c = ObsClient(obs.port, obs.password)
    c.request("CreateInput", {"sceneName": "Live", "inputName": "Mic", "inputKind": "ffmpeg_source", "inputSettings": {}})
    yield c
    c.close()


def test_connects_and_reports_the_obs_version(obs, obs_deck):
    host = obs_deck(obs.port, obs.password)
    line = wait_for("connected", lambda: "connected to OBS 29" in plugin_line(host) and plugin_line(host))
    assert "obs-websocket 5.1" in line, line
    assert obs.password not in host.log_text()


def test_scene_button_switches_the_program_scene(obs, second, obs_deck):
    host = obs_deck(obs.port, obs.password)
    wait_for("connected", lambda: "connected to OBS" in plugin_line(host))
    device = host.tcp()
    reply = device.request({"type": "press", "page": 0, "index": 1})
    assert reply["type"] == "ok", reply
    assert second.event("CurrentProgramSceneChanged", lambda d: d["sceneName"] == "Live")["sceneName"] == "Live"
    device.request({"type": "press", "page": 0, "index": 0})
    second.event("CurrentProgramSceneChanged", lambda d: d["sceneName"] == "Intro")
    assert second.request("GetCurrentProgramScene")["responseData"]["currentProgramSceneName"] == "Intro"


def test_record_toggles_and_its_elapsed_time_shows(obs, second, obs_deck):
    host = obs_deck(obs.port, obs.password)
    wait_for("connected", lambda: "connected to OBS" in plugin_line(host))
    device = host.tcp()
    device.request({"type": "press", "page": 0, "index": 2})
    second.event("RecordStateChanged", lambda d: d["outputState"] == "OBS_WEBSOCKET_OUTPUT_STARTED")
    shown = device.recv_until(lambda m: m.get("type") == "buttonState" and m["index"] == 2 and (m.get("title") or "").startswith("0:"))
    assert shown["page"] == 0
    device.request({"type": "press", "page": 0, "index": 2})
    second.event("RecordStateChanged", lambda d: d["outputState"] == "OBS_WEBSOCKET_OUTPUT_STOPPED")
    device.recv_until(lambda m: m.get("type") == "buttonState" and m["index"] == 2 and m.get("title") is None)


def test_a_wrong_password_shows_unauthorised(obs, obs_deck):
    host = obs_deck(obs.port, "not-the-password")
    wait_for("unauthorised", lambda: "unauthorised" in plugin_line(host))
    assert "not-the-password" not in host.log_text()


def test_killing_obs_and_starting_it_again_reconnects(obs, obs_deck):
    host = obs_deck(obs.port, obs.password)
    wait_for("connected", lambda: "connected to OBS" in plugin_line(host))
    obs.kill()
    wait_for("unreachable", lambda: "unreachable" in plugin_line(host))
    obs.start()
    wait_for("connected again", lambda: "connected to OBS" in plugin_line(host))


def test_scene_buttons_follow_a_switch_made_by_another_client(obs, second, obs_deck):
    host = obs_deck(obs.port, obs.password)
    wait_for("connected", lambda: "connected to OBS" in plugin_line(host))
    device = Faces(host)
    device.wait("Intro live at start", 0, lambda f: f["state"] == "active")
    second.request("SetCurrentProgramScene", {"sceneName": "Live"})
    device.wait("Live follows", 1, lambda f: f["state"] == "active")
    device.wait("Intro no longer live", 0, lambda f: f["state"] is None)
    device.press(0)
    device.wait("the press switches back", 0, lambda f: f["state"] == "active")
    assert second.request("GetCurrentProgramScene")["responseData"]["currentProgramSceneName"] == "Intro"


def test_record_state_follows(obs, second, obs_deck):
    host = obs_deck(obs.port, obs.password)
    wait_for("connected", lambda: "connected to OBS" in plugin_line(host))
    device = Faces(host)
    device.press(2)
    device.wait("recording, with its elapsed time", 2, lambda f: f["state"] == "on" and (f["title"] or "").startswith("0:"))
    second.request("StopRecord")
    device.wait("stopped", 2, lambda f: f["state"] is None and f["title"] is None)


def test_mute_follows_the_input(obs, second, obs_deck):
    host = obs_deck(obs.port, obs.password)
    wait_for("connected", lambda: "connected to OBS" in plugin_line(host))
    device = Faces(host)
    second.request("SetInputMute", {"inputName": "Mic", "inputMuted": True})
    device.wait("muted", 3, lambda f: f["state"] == "muted")
    device.press(3)
    device.wait("unmuted by the button", 3, lambda f: f["state"] is None)
    assert second.request("GetInputMute", {"inputName": "Mic"})["responseData"]["inputMuted"] is False


def test_a_screenshot_button_shows_the_source_as_its_image(obs, second, obs_deck):
    host = obs_deck(obs.port, obs.password,
                    extra_buttons="      4: {name: Shot, action: {plugin: obs, command: screenshot, settings: {source: Live, width: 64}}}\n")
    wait_for("connected", lambda: "connected to OBS" in plugin_line(host))
    device = Faces(host)
    device.press(4)
    face = device.wait("an image", 4, lambda f: f.get("image") is not None)
    assert face["image"]["type"] == "image/png"
    assert base64.b64decode(face["image"]["data"]).startswith(b"\x89PNG\r\n\x1a\n")
