"""Button faces in the web deck (docs/faces.md, docs/web.md): a style, a
state flip, an image and a flash are each drawn after a plugin message and
after a reconnect, read from the tiles' attributes and computed styles; a
level-8 and a level-7 device side by side.

The plugin is real (Tests/browser/plugins/faces): pressing one of its
buttons makes it send the messages that button's settings list, so every
face here comes from a plugin message through a real deckd."""

import base64
import hashlib
import json
import struct
import textwrap
import time
import zlib
from pathlib import Path

import pytest

from conftest import Device, open_deck, running_host

PLUGINS = Path(__file__).resolve().parent / "plugins"


def png(width, height, rgb):
    """A small PNG of one colour."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    rows = b"".join(b"\x00" + bytes(rgb) * width for _ in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


IMAGE = png(8, 8, (255, 140, 0))
IMAGE_HASH = hashlib.sha256(IMAGE).hexdigest()


def sends(*messages):
    # Host formats the layout with str.format: braces of the JSON are doubled.
    return json.dumps({"send": list(messages)}).replace("{", "{{").replace("}", "}}")


LAYOUT = textwrap.dedent("""\
    name: default
    pages:
      - buttons:
          0:
            name: Mic
            icon: "🎙️"
            style: {{color: white, background: green}}
            action: {{plugin: faces, command: send, settings: %s}}
            states:
              - {{id: live}}
              - {{id: muted, name: "Mic off", icon: "🔇", style: {{background: red}}}}
          1: {{name: Art, icon: "🎵", action: {{plugin: faces, command: send, settings: %s}}}}
          2: {{name: Alarm, icon: "⏰", action: {{plugin: faces, command: send, settings: %s}}}}
          3: {{name: Yellow, style: {{background: yellow}}, action: {{run: "true"}}}}
          4: {{name: Titled, action: {{plugin: faces, command: send, settings: %s}}}}
          5: {{name: Good, action: {{plugin: faces, command: send, settings: %s}}}}
    """) % (sends({"type": "setState", "state": "muted"}),
            sends({"type": "setImage", "image": base64.b64encode(IMAGE).decode()}),
            sends({"type": "showAlert"}),
            sends({"type": "setTitle", "title": "42"}),
            sends({"type": "showOk"}))

# The palette as docs/web.md gives it, as getComputedStyle spells it.
GREEN, RED, YELLOW, WHITE, NEAR_BLACK = "rgb(31, 122, 63)", "rgb(198, 40, 40)", "rgb(242, 195, 0)", "rgb(255, 255, 255)", "rgb(17, 17, 17)"


@pytest.fixture
def faces_host(bindir):
    with running_host(bindir, LAYOUT, plugins=PLUGINS) as h:
        # A press before the plugin's `ready` waits for it (PLUGINS.md); wait here so that a test's
        # first press does not carry the plugin's start-up.
        deadline = time.monotonic() + 20
        while not any(p["id"] == "faces" and p["state"] == "running" for p in h.status().get("plugins", [])):
            assert time.monotonic() < deadline, f"the faces test plugin did not start: {h.status().get('plugins')}"
            time.sleep(0.05)
        yield h


def tile(page, slot):
    return page.js(f"""(() => {{
        const t = document.querySelector('[data-slot="{slot}"]');
        const s = getComputedStyle(t), img = t.querySelector('img.image');
        return {{shows: t.dataset.shows, state: t.dataset.faceState ?? null, image: t.dataset.faceImage ?? null,
                 flash: t.dataset.flash ?? null, background: s.backgroundColor, color: s.color,
                 border: s.borderTopColor, animation: s.animationName,
                 loaded: img ? img.complete && img.naturalWidth > 0 : null, icon: t.querySelector('.face').textContent}};
    }})()""")


def wait_tile(page, slot, condition, what):
    page.wait(f"(t => {condition})(document.querySelector('[data-slot=\"{slot}\"]'))", what=what)


def press(host, index):
    with Device(host.tcp_port) as device:
        device.send({"type": "press", "id": 2, "page": 0, "index": index})
        reply = device.next(lambda m: m.get("id") == 2)
        assert reply["type"] == "ok", reply


def test_style_state_image_and_flash_after_a_plugin_message_and_after_a_reconnect(browser, faces_host):
    page = open_deck(browser, faces_host)
    try:
        # A style from the profile: the palette's green, and on yellow the text that reads on it.
        assert (tile(page, "0/0")["background"], tile(page, "0/0")["color"]) == (GREEN, WHITE)
        assert (tile(page, "0/3")["background"], tile(page, "0/3")["color"]) == (YELLOW, NEAR_BLACK)
        assert tile(page, "0/0")["state"] is None

        press(faces_host, 0)  # setState muted
        wait_tile(page, "0/0", "t.dataset.faceState === 'muted'", "the state flip")
        mic = tile(page, "0/0")
        assert (mic["shows"], mic["icon"], mic["background"], mic["color"]) == ("Mic off", "🔇", RED, WHITE)

        press(faces_host, 1)  # setImage
        wait_tile(page, "0/1", f"t.dataset.faceImage === '{IMAGE_HASH}' && t.querySelector('img.image')?.naturalWidth > 0", "the image")
        assert tile(page, "0/1")["icon"] == "", "the image replaces the icon"

        press(faces_host, 2)  # showAlert
        wait_tile(page, "0/2", "t.dataset.flash === 'alert'", "the alert flash")
        assert tile(page, "0/2")["animation"] == "flash"
        wait_tile(page, "0/2", "!t.dataset.flash", "the flash to end (about a second)")

        press(faces_host, 4)  # setTitle: at level 8 it is part of the face
        wait_tile(page, "0/4", "t.dataset.shows === '42'", "the title")

        # A reconnect (the page loaded again): the welcome carries every face but the flash.
        page.goto(faces_host.url)
        page.wait("document.querySelector('[data-connection]')?.dataset.connection === 'connected'"
                  " && document.querySelectorAll('[data-slot]').length > 0", what="the deck again")
        wait_tile(page, "0/1", f"t.dataset.faceImage === '{IMAGE_HASH}' && t.querySelector('img.image')?.naturalWidth > 0", "the image again")
        again = tile(page, "0/0")
        assert (again["state"], again["shows"], again["background"]) == ("muted", "Mic off", RED)
        assert tile(page, "0/4")["shows"] == "42"
        assert tile(page, "0/3")["background"] == YELLOW
        assert tile(page, "0/2")["flash"] is None, "a flash is not kept"

        # And after the reconnect, a flash is drawn again; with reduced motion a border, no animation.
        page.call("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-reduced-motion", "value": "reduce"}]})
        page.wait("matchMedia('(prefers-reduced-motion: reduce)').matches")
        press(faces_host, 5)  # showOk
        wait_tile(page, "0/5", "t.dataset.flash === 'ok'", "the ok flash")
        good = tile(page, "0/5")
        assert good["animation"] == "none" and good["border"] == "rgb(46, 157, 79)", good
        page.call("Emulation.setEmulatedMedia", {"features": []})
    finally:
        page.close()


def test_a_level_8_and_a_level_7_device_side_by_side(browser, faces_host):
    page = open_deck(browser, faces_host)
    try:
        with Device(faces_host.tcp_port, protocol=8) as new, Device(faces_host.tcp_port, protocol=7) as old:
            assert new.welcome["protocol"] == 8 and old.welcome["protocol"] == 7
            assert new.welcome.get("faces", []) == [] and "faces" not in old.welcome
            press(faces_host, 0)  # setState: level 8 only
            face = new.next(lambda m: m["type"] == "buttonFace" and m["index"] == 0)
            assert face["state"] == "muted" and face["page"] == 0
            wait_tile(page, "0/0", "t.dataset.faceState === 'muted'", "the state in the browser")
            press(faces_host, 4)  # setTitle: both, each in its own words
            assert new.next(lambda m: m["type"] == "buttonFace" and m["index"] == 4)["title"] == "42"
            seen = []
            title = old.next(lambda m: seen.append(m["type"]) or m["type"] == "buttonState")
            assert (title["index"], title["title"]) == (4, "42")
            assert "buttonFace" not in seen, "a level-7 device never gets buttonFace"
            press(faces_host, 1)  # setImage: the TCP device gets the bytes inline
            image = new.next(lambda m: m["type"] == "buttonFace" and m["index"] == 1)["image"]
            assert image["hash"] == IMAGE_HASH and base64.b64decode(image["data"]) == IMAGE
            wait_tile(page, "0/4", "t.dataset.shows === '42'", "the title in the browser")
    finally:
        page.close()
