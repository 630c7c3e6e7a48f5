"""docs/faces.md §3–§4, the bytes of face images on TCP devices: each image goes inline once to a
device, while a face it was sent shows it, and the images shown at once are bounded so that every
device can read its `welcome`. A real plugin sets the images; real level-8 TCP devices read them."""
import base64
import os
import time

from test_faces import hello

# Buttons 0/0–0/11 and 1/3–1/4 show images; 1/0–1/2 tell the plugin what to do.
SHOW = "{plugin: facer, command: show, settings: {do: none}}"
LAYOUT = "pages:\n  - buttons:\n" + "".join(
    f"      {i}: {{name: B{i}, action: {SHOW}, states: [{{id: a}}, {{id: b}}]}}\n" for i in range(12)) + """\
  - buttons:
      0: {name: Images, action: {plugin: facer, command: show, settings: {do: images}}}
      1: {name: Flip, action: {plugin: facer, command: show, settings: {do: flip}}}
      2: {name: Same, action: {plugin: facer, command: show, settings: {do: same}}}
      3: {name: B12, action: {plugin: facer, command: show, settings: {do: none}}, states: [{id: a}, {id: b}]}
      4: {name: B13, action: {plugin: facer, command: show, settings: {do: none}}, states: [{id: a}, {id: b}]}
"""

SLOTS = [(0, i) for i in range(12)] + [(1, 3), (1, 4)]
SIZE = 250_000


def image(n, size=SIZE):
    return b"\x89PNG\r\n\x1a\n" + bytes([n]) + bytes(size - 9)


PLUGIN = """\
#!/usr/bin/env python3
import base64, json, os, sys
count = int(os.environ.get("FACER_IMAGES", "1"))
slots = %r
def image(n):
    return base64.b64encode(b"\\x89PNG\\r\\n\\x1a\\n" + bytes([n]) + bytes(%d - 9)).decode()
out = lambda m: print(json.dumps(m), flush=True)
state = "a"
for line in sys.stdin:
    event = json.loads(line)
    if event.get("event") == "hello":
        out({"type": "ready"})
    elif event.get("event") == "press" and event.get("phase") == "tap":
        do = event["settings"]["do"]
        if do == "images":
            for n, (page, index) in enumerate(slots[:count]):
                out({"type": "setImage", "page": page, "index": index, "image": image(n)})
        elif do == "flip":
            state = "b" if state == "a" else "a"
            out({"type": "setState", "page": 0, "index": 0, "state": state})
        elif do == "same":
            out({"type": "setImage", "page": 0, "index": 1, "image": image(0)})
    elif event.get("event") == "shutdown":
        sys.exit(0)
""" % (SLOTS, SIZE)


def start(deck, tmp_root, images):
    folder = tmp_root / "host1" / "plugins" / "facer"  # the first host the deck fixture starts
    folder.mkdir(parents=True)
    (folder / "plugin").write_text(PLUGIN)
    os.chmod(folder / "plugin", 0o755)
    (folder / "plugin.yaml").write_text("id: facer\nexec: [./plugin]\n")
    return deck(yaml=LAYOUT, env={"FACER_IMAGES": str(images)})


def device(host, name):
    client = host.tcp(hello=False)
    return client, hello(client, 8, name)


def faces_until(client, pred, timeout=30):
    """The buttonFace lines up to and including the first for which `pred` holds."""
    seen = []
    while True:
        m = client.recv(timeout)
        if m["type"] == "buttonFace":
            seen.append(m)
            if pred(m):
                return seen


def test_an_image_goes_inline_once_to_each_device(deck, tmp_root):
    host = start(deck, tmp_root, images=1)
    first, _ = device(host, "first")
    host.ctl("press", "1", "0")  # 0/0 shows image 0
    [shown] = faces_until(first, lambda f: f["image"] is not None)
    assert base64.b64decode(shown["image"]["data"]) == image(0), "the first time: its bytes"

    # A state flip of a button that shows an image names the image by its hash alone (it re-sent
    # the 250 KB each time, and a plugin flipping ten such buttons closed a device reading 2 MB/s).
    for flip in range(6):
        host.ctl("press", "1", "1")
        want = "b" if flip % 2 == 0 else None
        [*_, face] = faces_until(first, lambda f: f["index"] == 0 and f["state"] == want)
        assert face["image"]["hash"] == shown["image"]["hash"] and "data" not in face["image"], face

    # Another button showing the same image: the device holds it.
    host.ctl("press", "1", "2")
    [*_, same] = faces_until(first, lambda f: f["index"] == 1 and f["image"] is not None)
    assert same["image"]["hash"] == shown["image"]["hash"] and "data" not in same["image"]

    # A device that connects now gets the bytes once, in its welcome; later lines name the hash.
    late, welcome = device(host, "late")
    listed = {(f["page"], f["index"]): f["image"] for f in welcome["faces"]}
    assert set(listed) == {(0, 0), (0, 1)}
    assert sum("data" in i for i in listed.values()) == 1, "one copy of the bytes for the two buttons"
    assert all(base64.b64decode(i["data"]) == image(0) for i in listed.values() if "data" in i)
    host.ctl("press", "1", "1")
    [*_, face] = faces_until(late, lambda f: f["index"] == 0)
    assert "data" not in face["image"]

    # An edit's layout lists the faces without the bytes the devices hold.
    reply = first.request({"type": "setButton", "page": 1, "index": 11, "button": {"name": "X", "action": {"run": "true"}}})
    assert reply["type"] == "ok", reply
    layout = first.recv_until(lambda m: m["type"] == "layout")
    assert layout["faces"] and all("data" not in f["image"] for f in layout["faces"] if f.get("image"))
    assert late.recv_until(lambda m: m["type"] == "layout")["revision"] == layout["revision"]


def test_the_images_shown_at_once_are_bounded_so_every_welcome_can_be_read(deck, tmp_root):
    host = start(deck, tmp_root, images=len(SLOTS))
    early, _ = device(host, "early")
    host.ctl("press", "1", "0")  # 14 images of 250 KB: 12 fit in 3 MiB
    faces_until(early, lambda f: (f["page"], f["index"]) == SLOTS[11] and f["image"] is not None, timeout=60)
    deadline = time.time() + 30
    while "'B13' at 1/4 is refused" not in host.log_text() and time.time() < deadline:
        time.sleep(0.05)  # the refusal's log line is the only sign of it
    log = host.log_text()
    assert "the buttons' images would take 3250000 bytes, more than the 3145728 all faces may show at once, " \
        "so the image for button 'B12' at 1/3 is refused; its face is unchanged" in log, log[-2000:]

    late, welcome = device(host, "late")
    assert len(welcome["faces"]) == 12 and all("data" in f["image"] for f in welcome["faces"])
    assert late.request({"type": "ping"})["type"] == "pong"
    reply = late.request({"type": "setButton", "page": 1, "index": 11, "button": {"name": "X", "action": {"run": "true"}}})
    assert reply["type"] == "ok", reply
    for client in (early, late):
        layout = client.recv_until(lambda m: m["type"] == "layout", 30)
        assert len(layout["faces"]) == 12 and not any("data" in f["image"] for f in layout["faces"])
    assert early.request({"type": "ping"})["type"] == "pong", "the edit's broadcast closed no device"
