"""Screenshots of the deck as a person first sees it: a phone and a tablet,
a held button with its hint, and arrange mode with a lifted button over its
target. `make screenshots` writes them to docs/ (DECK_SCREENSHOTS=docs);
in `make test` they go to a temporary folder and are checked for what they show."""

import os
import struct
import tempfile
import textwrap

import pytest

from conftest import open_deck, running_host
from deck import Deck

DESK = textwrap.dedent("""\
    name: default
    pages:
      - buttons:
          0: {{name: Files, icon: "📁", action: {{open: "~"}}}}
          1: {{name: Terminal, icon: "🖥️", action: {{run: "true"}}}}
          2: {{name: Disk space, icon: "💾", action: {{run: "true"}}}}
          3: {{name: Uptime, icon: "⏱️", action: {{run: "true"}}}}
          4: {{name: Swift docs, icon: "📚", action: {{open: "https://www.swift.org"}}}}
          5: {{name: Log a note, icon: "📝", action: {{run: "true"}}}}
          6: {{name: Long job, icon: "🏗️", action: {{run: "true"}}}}
          7: {{name: Mute, icon: "🔇", action: {{run: "true"}}}}
          9: {{name: Count, icon: "🔢", action: {{run: "true"}}}}
          10: {{name: 스트리밍, icon: "🎥", action: {{run: "true"}}}}
          11: {{name: 다음 페이지, icon: "➡️", action: {{page: next}}}}
      - buttons:
          0: {{name: Timestamp, icon: "🕒", action: {{run: "true"}}}}
    """)

DEVICES = {"phone": (390, 844, 2), "tablet": (1180, 820, 1.5)}


def png_size(path):
    with open(path, "rb") as f:
        head = f.read(24)
    assert head[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    return struct.unpack(">II", head[16:24])


@pytest.fixture
def desk(bindir):
    with running_host(bindir, DESK) as h:
        yield h


@pytest.mark.parametrize("device", DEVICES)
def test_screenshots_of_the_hint_and_of_arrange_mode(browser, desk, device):
    width, height, scale = DEVICES[device]
    folder = os.environ.get("DECK_SCREENSHOTS") or tempfile.mkdtemp(prefix="deck-shots-")
    page = open_deck(browser, desk, width, height, scale)
    try:
        deck = Deck(page)
        page.js("document.fonts.ready.then(() => true)")
        held = "0/4"
        deck.hold(held)
        page.js("new Promise(r => setTimeout(r, 200))")  # the held tile's grow (0.12 s) has ended
        assert deck.tile(held)["state"] == "held"
        assert deck.hint() == "Release for settings · drag to move"
        hint_path = os.path.join(folder, f"web-{device}-hint.png")
        page.screenshot(hint_path)
        tile = deck.tile(held)
        deck.move(tile["x"] + 20, tile["y"], steps=2)
        target = deck.tile("0/8")
        deck.move((tile["x"] + target["x"]) / 2 + 10, target["y"] - 10, steps=4)
        deck.move(target["x"] + 12, target["y"] - 8, steps=2)
        page.wait("document.querySelector('[data-slot=\"0/8\"]').dataset.state === 'target'", what="the target outlined")
        arrange_path = os.path.join(folder, f"web-{device}-arrange.png")
        page.screenshot(arrange_path)
        assert deck.attr("arranging") == "true"
        deck.up()
        for path in (hint_path, arrange_path):
            assert png_size(path) == (width, height)
    finally:
        page.close()


def gradient_png(size=96):
    """A square PNG from orange to purple, as album art stands in a screenshot."""
    import zlib
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    rows = b"".join(b"\x00" + b"".join(bytes((255 - x, 96 + y // 2, 64 + x)) for x in range(size)) for y in range(size))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


def face_layout():
    import base64
    import json

    def sends(*messages):
        # Host formats the layout with str.format: braces of the JSON are doubled.
        return json.dumps({"send": list(messages)}).replace("{", "{{").replace("}", "}}")
    art = base64.b64encode(gradient_png()).decode()
    return textwrap.dedent("""\
        name: streaming
        pages:
          - buttons:
              0: {{name: Mic, icon: "🎙️", style: {{background: green}}, action: {{plugin: faces, command: send, settings: %s}},
                  states: [{{id: live}}, {{id: muted, name: Mic off, icon: "🔇", style: {{background: red}}}}]}}
              1: {{name: Camera, icon: "📷", style: {{background: blue}}, action: {{run: "true"}}}}
              2: {{name: Record, icon: "⏺️", action: {{plugin: faces, command: send, settings: %s}},
                  states: [{{id: idle}}, {{id: recording, name: Recording, style: {{background: red}}}}]}}
              3: {{name: Now playing, icon: "🎵", action: {{plugin: faces, command: send, settings: %s}}}}
              4: {{name: Go live, icon: "📡", style: {{background: purple}}, action: {{run: "true"}}}}
              5: {{name: Chat, icon: "💬", style: {{color: yellow}}, action: {{run: "true"}}}}
              6: {{name: Volume, icon: "🔊", style: {{background: teal}}, action: {{plugin: faces, command: send, settings: %s}}}}
              7: {{name: Lights, icon: "💡", style: {{background: yellow}}, action: {{run: "true"}}}}
              8: {{name: Break, icon: "☕", style: {{background: grey}}, action: {{run: "true"}}}}
              9: {{name: Backup, icon: "💾", style: {{background: orange}}, action: {{run: "true"}}}}
              10: {{name: Notes, icon: "📝", action: {{run: "true"}}}}
              11: {{name: 다음 페이지, icon: "➡️", style: {{background: pink}}, action: {{page: next}}}}
        """) % (sends({"type": "setState", "state": "muted"}), sends({"type": "setState", "state": "recording"}),
                sends({"type": "setImage", "image": art}), sends({"type": "setTitle", "title": "-12 dB"}))


@pytest.mark.parametrize("device", DEVICES)
def test_screenshots_of_coloured_and_stateful_buttons(browser, bindir, device):
    from pathlib import Path
    from conftest import Device
    width, height, scale = DEVICES[device]
    folder = os.environ.get("DECK_SCREENSHOTS") or tempfile.mkdtemp(prefix="deck-shots-")
    with running_host(bindir, face_layout(), plugins=Path(__file__).resolve().parent / "plugins") as host:
        page = open_deck(browser, host, width, height, scale)
        try:
            page.js("document.fonts.ready.then(() => true)")
            with Device(host.tcp_port) as device_client:
                for i, index in enumerate((0, 2, 3, 6)):
                    device_client.send({"type": "press", "id": 10 + i, "page": 0, "index": index})
                    assert device_client.next(lambda m: m.get("id") == 10 + i)["type"] == "ok"
            page.wait("(() => { const t = (s) => document.querySelector(`[data-slot=\"${s}\"]`).dataset;"
                      " return t('0/0').faceState === 'muted' && t('0/2').faceState === 'recording' && t('0/6').shows === '-12 dB'"
                      " && document.querySelector('[data-slot=\"0/3\"] img.image')?.naturalWidth > 0; })()",
                      what="the faces drawn")
            # Auto text on a light background: near-black (docs/web.md's palette).
            assert page.js("getComputedStyle(document.querySelector('[data-slot=\"0/7\"]')).color") == "rgb(17, 17, 17)"
            page.js("new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")  # the frame that shows them
            path = os.path.join(folder, f"web-{device}-faces.png")
            page.screenshot(path)
            assert png_size(path) == (width, height)
        finally:
            page.close()
