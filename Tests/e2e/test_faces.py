"""docs/faces.md end to end: a real plugin's setState/setImage/showAlert, a level-8 TCP device,
a level-8 WebSocket device and a level-7 device side by side, a reconnecting device's welcome,
and the image over HTTP."""
import base64
import hashlib
import json
import os
import time

from conftest import get, install_script_plugin, parse_http

PNG = b"\x89PNG\r\n\x1a\n" + bytes(40)

LAYOUT = """\
pages:
  - buttons:
      0:
        name: Mic
        action: {plugin: facer, command: mute, settings: {target: input}}
        style: {color: white, background: "#1f6f3f"}
        states: [{id: live}, {id: muted, name: Mic off, style: {background: red}}]
      1: {name: Speaker, action: {plugin: facer, command: mute, settings: {target: output}}, states: [{id: live}, {id: muted}]}
      2: {name: Files, action: {open: "~"}}
"""

# Waits for a press, then sends the face messages: the tests decide when.
PLUGIN = """\
#!/usr/bin/env python3
import json, sys, base64
png = base64.b64encode(%r).decode()
out = lambda m: print(json.dumps(m), flush=True)
for line in sys.stdin:
    event = json.loads(line)
    if event.get("event") == "hello":
        out({"type": "ready"})
    elif event.get("event") == "press" and event.get("phase") == "tap":
        out({"type": "setState", "for": {"command": "mute", "settings": {"target": "input"}}, "state": "muted"})
        out({"type": "setImage", "page": 0, "index": 0, "image": png})
        out({"type": "setState", "page": 0, "index": 0, "state": "nonsense"})
        out({"type": "showAlert", "for": {"command": "mute"}})
    elif event.get("event") == "shutdown":
        sys.exit(0)
""" % PNG


def install_plugin(root):
    folder = root / "plugins" / "facer"
    folder.mkdir(parents=True)
    (folder / "plugin").write_text(PLUGIN)
    os.chmod(folder / "plugin", 0o755)
    (folder / "plugin.yaml").write_text("id: facer\nexec: [./plugin]\n")


def hello(client, level, name):
    w = client.request({"type": "hello", "protocol": level, "device": {"name": name, "kind": "terminal"}})
    assert w["type"] == "welcome", w
    return w


def faces_of(messages):
    return [m for m in messages if m["type"] == "buttonFace"]


def collect(client, until, timeout=10.0):
    seen = []
    deadline = time.time() + timeout
    while not until(seen):
        seen.append(client.recv(max(0.01, deadline - time.time())))
    return seen


def test_plugin_faces_reach_each_level_its_way(deck, tmp_root):
    root = tmp_root / "host1"
    install_plugin(root)
    host = deck(yaml=LAYOUT)
    modern = host.tcp(hello=False)
    assert hello(modern, 8, "modern")["protocol"] == 8
    old = host.tcp(hello=False)
    assert hello(old, 7, "old")["protocol"] == 7
    web = host.ws(hello={"protocol": 8, "name": "browser"})
    assert web.welcome["protocol"] == 8

    host.ctl("press", "0", "2")  # not the plugin's: nothing happens to faces
    host.ctl("press", "0", "1")  # the plugin's: it sends its face messages

    digest = hashlib.sha256(PNG).hexdigest()
    # Level 8 TCP: the state, the image inline, the alert; the newest face per button.
    seen = collect(modern, lambda s: any(f.get("flash") == "alert" and f["index"] == 0 for f in faces_of(s))
                   and any(f.get("flash") == "alert" and f["index"] == 1 for f in faces_of(s)))
    last = [f for f in faces_of(seen) if f["index"] == 0][-1]
    assert last["state"] == "muted", seen
    assert last["image"]["hash"] == digest and last["image"]["type"] == "image/png"
    assert last["image"]["url"] == f"/faces/{digest}.png"
    assert base64.b64decode(last["image"]["data"]) == PNG, "TCP devices get the bytes inline"
    assert all(f["state"] is None for f in faces_of(seen) if f["index"] == 1), "the output button was not matched"
    assert "has no state 'nonsense'" in host.log_text()

    # Level 8 WebSocket: the same face, the image by URL only.
    ws_seen = collect(web, lambda s: any(f.get("flash") == "alert" and f["index"] == 0 for f in faces_of(s)))
    ws_last = [f for f in faces_of(ws_seen) if f["index"] == 0][-1]
    assert ws_last["state"] == "muted" and "data" not in ws_last["image"]

    # Level 7: no buttonFace at all.
    old.send({"type": "ping"})
    assert not [m for m in collect(old, lambda s: any(m["type"] == "pong" for m in s)) if m["type"] == "buttonFace"]

    # The image over HTTP: immutable, ETag, 304.
    [(status, headers, body)] = parse_http(host.http(get(f"/faces/{digest}.png")))
    assert status == 200 and body == PNG and headers["content-type"] == "image/png"
    assert headers["cache-control"] == "public, max-age=31536000, immutable"
    etag = headers["etag"]
    [(again, _, _)] = parse_http(host.http(get(f"/faces/{digest}.png", extra=f"If-None-Match: {etag}\r\n")))
    assert again == 304

    # A device that reconnects sees the faces in its welcome; the flash is not kept.
    modern.close()
    back = host.tcp(hello=False)
    welcome = hello(back, 8, "modern again")
    [face] = welcome["faces"]
    assert face["page"] == 0 and face["index"] == 0 and face["state"] == "muted" and "flash" not in face
    assert base64.b64decode(face["image"]["data"]) == PNG

    # No revision, no snapshot for any of it.
    status = json.loads(host.ctl("--json", "status").stdout.splitlines()[-1])
    assert status["revision"] == welcome["revision"] == web.welcome["revision"]


# On a press, a new state and a new title for the pressed button, written back to back in one
# write(), as a plugin that prints both and flushes once does.
TOGETHER = """
b = event["button"]
lines = [{"type": "setState", "page": b["page"], "index": b["index"], "state": "muted"},
         {"type": "setTitle", "page": b["page"], "index": b["index"], "title": "Mic: off"}]
os.write(1, "".join(json.dumps(m) + "\\n" for m in lines).encode())
"""


def test_a_state_and_a_title_read_together_go_out_as_one_face(deck, tmp_root):
    """Sent one at a time, a device drew the new state under the old title for a frame (an audit's finding)."""
    install_script_plugin(tmp_root / "host1", "facer", on_tap=TOGETHER)
    host = deck(yaml=LAYOUT)
    device = host.tcp(hello=False)
    hello(device, 8, "modern")
    host.ctl("press", "0", "0")
    seen = collect(device, lambda s: any(f.get("title") == "Mic: off" for f in faces_of(s)))
    device.send({"type": "ping"})  # anything after the face would come before the pong
    seen += collect(device, lambda s: any(m["type"] == "pong" for m in s))
    faces = [f for f in faces_of(seen) if f["index"] == 0]
    assert [(f["state"], f.get("title")) for f in faces] == [("muted", "Mic: off")], faces
