"""The obs plugin on a real deckd against the stand-in obs-websocket server (obs_standin.py):
the protocol paths and the bad input a real OBS does not send. Part of make test."""
import re
import struct
import time

import pytest

from conftest import Faces, plugin_line, wait_for
from obs_standin import StandIn, frame


@pytest.fixture
def server():
    s = StandIn()
    yield s
    s.close()


def pid_of(host):
    m = re.search(r"pid (\d+)", plugin_line(host))
    return int(m.group(1)) if m else None


def rss_kib(pid):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


def requests_of(server, kind):
    return [m for m in list(server.received) if m["op"] == 6 and m["d"]["requestType"] == kind]


def connected(host):
    return wait_for("connected", lambda: "connected to OBS 29.0.2-standin" in plugin_line(host) and plugin_line(host))


def test_identifies_with_the_v5_authentication_and_syncs_in_one_batch(server, obs_deck):
    host = obs_deck(server.port, server.password)
    line = connected(host)
    assert "obs-websocket 5.1.0" in line
    identify = next(m for m in server.received if m["op"] == 1)["d"]
    assert identify["rpcVersion"] == 1 and identify["eventSubscriptions"] & (1 << 2)
    batch = next(m for m in server.received if m["op"] == 8)["d"]
    kinds = [r["requestType"] for r in batch["requests"]]
    assert kinds[:2] == ["GetVersion", "GetSceneList"] and "GetInputMute" in kinds
    assert server.password not in host.log_text()


def test_a_scene_press_sends_set_current_program_scene_and_the_faces_follow(server, obs_deck):
    host = obs_deck(server.port, server.password)
    connected(host)
    device = Faces(host)
    device.wait("Intro live from the sync", 0, lambda f: f["state"] == "active")
    device.press(1)
    sent = wait_for("SetCurrentProgramScene", lambda: requests_of(server, "SetCurrentProgramScene"))
    assert sent[0]["d"]["requestData"] == {"sceneName": "Live"}
    device.wait("Live live", 1, lambda f: f["state"] == "active")
    device.wait("Intro not", 0, lambda f: f["state"] is None)
    device.press(3)
    device.wait("Mic muted", 3, lambda f: f["state"] == "muted")


def test_a_wrong_password_is_unauthorised_and_never_logged(server, obs_deck):
    host = obs_deck(server.port, "wrong-password-1234")
    wait_for("unauthorised", lambda: "unauthorised" in plugin_line(host))
    Faces(host).wait("the buttons say so", 0, lambda f: f["title"] == "OBS: password?")
    assert "wrong-password-1234" not in host.log_text()


def test_nothing_listening_is_unreachable(obs_deck):
    from obs_support import free_port
    host = obs_deck(free_port(), "x")
    line = wait_for("unreachable", lambda: "unreachable" in plugin_line(host) and plugin_line(host))
    assert "nothing answers" in line


def test_a_server_that_stops_answering_mid_request_is_unreachable_then_reconnected(server, obs_deck):
    host = obs_deck(server.port, server.password)
    connected(host)
    server.silence()
    device = host.tcp()
    device.request({"type": "press", "page": 0, "index": 1})
    wait_for("unreachable", lambda: "unreachable" in plugin_line(host) and "did not answer" in plugin_line(host), timeout=15)
    assert "did not answer SetCurrentProgramScene" in host.log_text()
    server.silent.clear()
    connected(host)


@pytest.mark.parametrize("bad, logged", [
    (frame(b"", 2)[:1] + bytes([127]) + struct.pack(">Q", 64 << 20) + b"x" * 1024, "over the size limit"),  # claims 64 MiB
    (frame(b"not json at all"), "does not allow"),
    (frame(b'{"op":7,"d":{"requestId":"nobody"}}'), "requestStatus"),
    (frame(b"\xff\xfe\xfd"), "not UTF-8"),
    (frame(b"\x00\x01", 2), "binary message"),
    (bytes([0x81, 0x7E]), "OBS closed the connection"),  # a header cut short, then the socket ends
], ids=["64MiB", "not-json", "no-status", "not-utf8", "binary", "cut-short"])
def test_bad_frames_drop_the_connection_and_it_comes_back(server, obs_deck, bad, logged):
    host = obs_deck(server.port, server.password)
    connected(host)
    pid = pid_of(host)
    server.identified.clear()
    server.send_raw(bad)
    if bad == bytes([0x81, 0x7E]):
        server.hang_up()
    assert server.identified.wait(15), "the plugin did not identify again"
    connected(host)
    assert pid_of(host) == pid, "the plugin process restarted instead of reconnecting"
    assert logged in host.log_text()


def test_a_flood_of_scene_changes_leaves_the_plugin_answering_with_bounded_memory(server, obs_deck):
    host = obs_deck(server.port, server.password)
    connected(host)
    pid = pid_of(host)
    before = rss_kib(pid)
    started = time.time()
    for second in range(3):
        server.flood(1000, "Live" if second == 2 else "Outro")
    elapsed = time.time() - started
    # The faces end right: the last scene named is the live one.
    faces = Faces(host)
    faces.wait("Live after the flood", 1, lambda f: f["state"] == "active")
    assert faces.face(0)["state"] is None
    # Right after the flood a press still goes through: the plugin read it all and is not behind.
    device = host.tcp()
    device.request({"type": "press", "page": 0, "index": 0})
    wait_for("the press after the flood", lambda: requests_of(server, "SetCurrentProgramScene"), timeout=10)
    assert pid_of(host) == pid and "connected" in plugin_line(host)
    assert rss_kib(pid) - before < 16 * 1024, (before, rss_kib(pid))
    assert elapsed < 30
