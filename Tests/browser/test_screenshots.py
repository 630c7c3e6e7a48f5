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
