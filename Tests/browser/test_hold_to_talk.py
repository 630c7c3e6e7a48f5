"""Press and hold (PROTOCOL.md §5 holdSlots, seed 004): a plugin button
declared `hold: true` sends `down` when the finger lands and `up` when it
lifts, opens no settings on a hold, and its title follows `buttonState`."""

import textwrap

import pytest

from conftest import Device, open_deck, running_host
from deck import Deck

LAYOUT = textwrap.dedent("""\
    name: default
    pages:
      - buttons:
          0: {{name: Talk, icon: "🎙️", action: {{plugin: hold, command: hold}}}}
          1: {{name: Other, action: {{run: "touch {out}/other"}}}}
    """)


@pytest.fixture
def talk_host(bindir):
    with running_host(bindir, LAYOUT) as h:
        yield h


def test_a_hold_button_sends_down_and_up_and_opens_no_settings(browser, talk_host):
    with Device(talk_host.tcp_port) as device:
        if "holdSlots" not in device.welcome:
            pytest.skip("this deckd sends no holdSlots (hold: true plugins come with branch edits)")
        assert [0, 0] in device.welcome["holdSlots"]
    page = open_deck(browser, talk_host)
    try:
        deck = Deck(page)
        cell = deck.tile("0/0")
        deck.down(cell["x"], cell["y"])
        # The plugin saw `down`: its title says it is held, while the finger is still down.
        page.wait("document.querySelector('[data-slot=\"0/0\"]').dataset.shows.startsWith('holding')", what="the down edge")
        page.js("new Promise(r => setTimeout(r, 600))")  # past the 0.45 s hold
        deck.up()
        page.wait("document.querySelector('[data-slot=\"0/0\"]').dataset.shows.startsWith('held')", what="the up edge")
        assert deck.settings() is None, "a hold on a hold button opened its settings"
        assert deck.tile("0/0")["name"] == "Talk"
    finally:
        page.close()
