"""The first layout is drawn before the arrange session's modules are in
(js/engine-api.mjs: page load → first layout), and touches made on it in that
time are kept and replayed into the session when it comes
(js/early-touches.mjs). The session's module is held back with CDP's Fetch
domain, so that time lasts as long as the test wants, not a few milliseconds."""

import textwrap

import pytest

from conftest import running_host
from deck import Deck

SESSION_MODULE = "*engine/arrange-session.mjs"
LAYOUT = textwrap.dedent("""\
    name: default
    pages:
      - buttons:
          0: {{name: Alpha, action: {{run: "touch {out}/alpha"}}}}
          1: {{name: Counted, action: {{run: "echo pressed >> {out}/counted"}}}}
          2: {{name: Charlie, action: {{run: "touch {out}/charlie"}}}}
      - buttons:
          0: {{name: Delta, action: {{run: "touch {out}/delta"}}}}
    """)


@pytest.fixture
def held(browser, bindir):
    """A phone whose deck is drawn while the arrange session's module is held back."""
    with running_host(bindir, layout=LAYOUT) as host:
        page = browser.new_page()
        try:
            page.call("Network.enable")
            page.call("Network.setCacheDisabled", {"cacheDisabled": True})
            page.call("Fetch.enable", {"patterns": [{"urlPattern": SESSION_MODULE, "requestStage": "Request"}]})
            page.goto(host.url)
            paused = next_event(page, "Fetch.requestPaused")
            assert paused["request"]["url"].endswith("/engine/arrange-session.mjs")
            page.wait("document.querySelector('[data-connection]').dataset.connection === 'connected'"
                      " && document.querySelector('[data-slot=\"0/1\"]')?.dataset.name === 'Counted'",
                      what="the first layout, drawn without the session")
            yield host, page, paused["requestId"]
        finally:
            page.close()


def next_event(page, method, timeout=20):
    while True:
        event = page.events.get(timeout=timeout)
        if event.get("method") == method:
            return event["params"]


def release(page, request_id):
    page.call("Fetch.continueRequest", {"requestId": request_id})


def test_a_tap_on_the_first_layout_runs_once_when_the_session_comes(held):
    host, page, request_id = held
    deck = Deck(page)
    deck.tap("0/1")
    assert not (host.out / "counted").exists(), "a press before the session is not the session's"
    release(page, request_id)
    assert host.ran("counted"), "the tap made before the session came was lost"
    # A later tap, once it has run, shows the first one was not pressed twice.
    deck.tap("0/2")
    assert host.ran("charlie")
    assert (host.out / "counted").read_text().splitlines() == ["pressed"]


def test_a_hold_begun_before_the_session_opens_settings_on_release(held):
    """The hold's time is its own (the touch's timestamps), not when the session saw it."""
    host, page, request_id = held
    deck = Deck(page)
    t = deck.tile("0/0")
    deck.down(t["x"], t["y"])
    page.js("new Promise(r => setTimeout(r, 600))")  # the finger stays past the 0.45 s hold on the page's own clock
    release(page, request_id)
    page.wait("document.querySelector('[data-slot=\"0/0\"]').dataset.state === 'held'", what="0/0 to be held")
    deck.up()
    sheet = page.wait("(() => { const d = document.querySelector('[data-role=\"settings\"]'); return d.open && d.dataset.slot; })()",
                      what="the settings sheet")
    assert sheet == "0/0"
    assert not (host.out / "alpha").exists(), "a hold must not run the button"


def test_a_host_gone_while_the_session_loads_refuses_offline_touches_and_the_session_comes_when_it_is_back(held):
    """The session's modules come from the host: killed while they load, the load fails.
    A tap offline is refused on the spot (never kept to be sent late), and the load is
    tried again once the page has reconnected — the deck takes touches without a reload."""
    host, page, request_id = held
    deck = Deck(page)
    host.kill()
    release(page, request_id)  # to a host that is gone: the import fails
    deck.wait_attr("connection", "offline")
    deck.tap("0/2")
    page.wait("document.querySelector('[data-role=\"announce\"]')?.textContent.includes('offline')", what="the refusal said")
    host.start()
    retried = next_event(page, "Fetch.requestPaused", timeout=60)
    assert retried["request"]["url"].endswith("/engine/arrange-session.mjs")
    release(page, retried["requestId"])
    deck.wait_attr("connection", "connected", timeout=30)
    deck.tap("0/1")
    assert host.ran("counted"), "the deck took no touch after the host came back"
    assert not (host.out / "charlie").exists(), "a press made offline was sent late"


def test_a_fling_the_session_arrives_in_the_middle_of_turns_the_page(held):
    """Half the fling before the session, half after: the finger's capture is the grid's from the
    down (not taken from the tile only at the replay, whose lostpointercapture read as a release)."""
    host, page, request_id = held
    deck = Deck(page)
    grid = deck.grid()
    y = deck.tile("0/8")["y"]
    x = grid["x"] + grid["width"] * 0.8
    deck.down(x, y, timed=True)
    deck.move(x - 45, y, steps=2, pause=0.01)
    release(page, request_id)
    # The sheet's kinds are filled as the later parts are made, just before the session is (main.mjs).
    page.wait("document.querySelector('[data-role=\"settings\"] select[name=\"action\"]').options.length > 0"
              " && new Promise(r => setTimeout(() => r(true)))", what="the session to come")
    deck.move(x - 90, y, steps=2, pause=0.01)
    deck.up()
    deck.wait_attr("page", "1")
