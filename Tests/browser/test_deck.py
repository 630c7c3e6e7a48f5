"""The web deck in a real Chromium against a real deckd (issue 15's list)."""

import json

from conftest import Device, open_deck
from deck import Deck


def host_names(layout, page):
    return [b["name"] if b else None for b in layout["layout"]["pages"][page]["buttons"]]


def test_tap_runs_a_run_action(phone, host):
    deck = Deck(phone)
    deck.tap("0/1")
    assert host.ran("bravo"), "the tap did not run Bravo's command on the host"
    assert not (host.out / "alpha").exists()


def test_hold_then_release_opens_settings_and_an_edit_reaches_the_host_and_another_browser(browser, phone, host):
    other = open_deck(browser, host)
    try:
        deck = Deck(phone)
        deck.hold("0/0")
        assert deck.hint() == "Release for settings · drag to move"
        deck.up()
        sheet = phone.wait("(() => { const d = document.querySelector('[data-role=\"settings\"]'); return d.open && d.dataset.slot; })()",
                           what="the settings sheet")
        assert sheet == "0/0"
        assert deck.hint() is None
        assert not (host.out / "alpha").exists(), "a hold must not run the button"
        phone.js("""(() => { const f = document.querySelector('[data-role="settings"] [name="name"]');
                     f.value = 'Alpha 한글'; f.dispatchEvent(new Event('input')); })()""")
        phone.js("document.querySelector('[data-role=\"save\"]').click()")
        phone.wait("!document.querySelector('[data-role=\"settings\"]').open", what="the sheet to close on ok")
        assert host_names(host.layout(), 0)[0] == "Alpha 한글"
        Deck(other).page.wait("document.querySelector('[data-slot=\"0/0\"]').dataset.name === 'Alpha 한글'",
                              what="the second browser to show the new name")
    finally:
        other.close()


def test_a_tap_in_arrange_mode_opens_settings_and_its_own_click_presses_nothing_on_the_sheet(phone, host):
    """The tap's click comes after its release, where the finger was: on the sheet that tap
    opened (Cancel, Remove). It is the touch's; the sheet stays open and nothing is removed."""
    deck = Deck(phone)
    deck.lift("0/0")
    deck.up()
    deck.wait_attr("arranging", "true")
    before = host.layout()["layout"]
    filled = [i for i, name in enumerate(deck.names(0)) if name]
    assert len(filled) >= 5
    for index in filled:
        deck.quiet()
        cell = deck.cell(index)
        deck.down(cell["x"], cell["y"])
        deck.up()
        phone.wait("document.querySelector('[data-role=\"settings\"]').open", what=f"the sheet of 0/{index}")
        # The tap's click is on its way once the touch's events are handled: a task, then two frames.
        phone.js("new Promise(r => setTimeout(() => requestAnimationFrame(() => requestAnimationFrame(r)), 0))")
        assert deck.settings() is not None and deck.settings()["slot"] == f"0/{index}", f"the sheet of 0/{index} closed by its own tap"
        phone.js("document.querySelector('[data-role=\"cancel\"]').click()")
        phone.wait("!document.querySelector('[data-role=\"settings\"]').open", what="the sheet to close on cancel")
    assert host.layout()["layout"] == before, "a tap that opened the sheet pressed one of its buttons"


def test_hold_drag_release_moves_and_the_tile_never_jumps_back(phone, host):
    deck = Deck(phone)
    with Device(host.tcp_port) as device:
        start = deck.lift("0/0")
        assert deck.attr("arranging") == "true"
        target = deck.tile("0/5")
        deck.move(target["x"], target["y"], steps=6)
        phone.wait("document.querySelector('[data-slot=\"0/5\"]').dataset.state === 'target'", what="0/5 outlined")
        # Sample Alpha's box every frame from just before the drop until it settles.
        phone.js("""window.__boxes = []; (function sample() {
            const t = document.querySelector('[data-name="Alpha"]');
            if (t) { const b = t.getBoundingClientRect(); window.__boxes.push([b.left + b.width / 2, b.top + b.height / 2]); }
            if (window.__boxes.length < 40) requestAnimationFrame(sample); })()""")
        deck.up()
        phone.wait("window.__boxes.length >= 40", what="40 frames of samples")
        boxes = phone.js("window.__boxes")
        layout = device.next(lambda m: m["type"] == "layout")
        assert host_names(layout, 0)[5] == "Alpha" and host_names(layout, 0)[0] is None
    assert host_names(host.layout(), 0)[5] == "Alpha"
    half = start["width"] / 2
    for x, y in boxes:
        assert abs(x - start["x"]) > half or abs(y - start["y"]) > half, f"Alpha jumped back to its old slot: {boxes}"
    assert abs(boxes[-1][0] - target["x"]) < 2 and abs(boxes[-1][1] - target["y"]) < 2, "Alpha did not settle on 0/5"
    assert deck.tile("0/5")["name"] == "Alpha" and deck.tile("0/0")["name"] == ""


def test_edge_dwell_turns_the_page_then_drops_there_and_a_gap_sends_it_back(phone, host):
    deck = Deck(phone)
    grid = deck.grid()
    # Where slots 4, 0 and 3 are on whatever page shows (measured while page 0 rests).
    cell4, golf, hotel_row = deck.tile("0/4"), deck.tile("0/0"), deck.tile("0/3")
    deck.lift("0/0")
    # Both ends in the page's own clock, set up before the drag: when the touch entered the 40-point
    # edge zone (its event's timeStamp, the time the engine is given) and when the page turned. A clock
    # read over CDP after the move would come late on a busy machine and shorten the dwell seen.
    phone.js(f"""(() => {{ const right = {grid["x"] + grid["width"]};
      window.__arrived = new Promise(resolve => addEventListener('pointermove', function f(e) {{
        if (e.clientX >= right - 40) {{ removeEventListener('pointermove', f, true); resolve(e.timeStamp); }} }}, true));
      window.__flip = new Promise(resolve => new MutationObserver((_, o) => {{
        if (document.querySelector('[data-connection]').dataset.page === '1') {{ o.disconnect(); resolve(performance.now()); }}
      }}).observe(document.querySelector('[data-connection]'), {{attributes: true}})); }})()""", await_promise=False)
    deck.move(grid["x"] + grid["width"] - 8, grid["y"] + grid["height"] / 2, steps=6)
    arrived = phone.js("window.__arrived")
    flipped = phone.js("window.__flip")
    assert flipped - arrived >= 450, f"the page turned {flipped - arrived:.0f} ms after reaching the edge (0.5 s dwell)"
    deck.move(cell4["x"], cell4["y"], steps=4)  # off the edge before the next flip (0.7 s)
    phone.wait("document.querySelector('[data-slot=\"1/4\"]').dataset.state === 'target'", what="1/4 outlined")
    with Device(host.tcp_port) as device:
        deck.up()
        phone.wait("document.querySelector('[data-slot=\"1/4\"]').dataset.name === 'Alpha'", what="Alpha on 1/4")
        # The page shows the drop before the host has made it durable: wait for the host's layout.
        layout = device.next(lambda m: m["type"] == "layout")
        assert host_names(layout, 1)[4] == "Alpha"
    # In arrange mode now: a drop over the gap between two cells goes back.
    revision = host.status()["revision"]
    deck.wait_attr("page", "1")
    phone.wait("document.querySelector('[data-slot=\"1/0\"]').getBoundingClientRect().left - "
               f"{golf['x'] - golf['width'] / 2} < 0.5", what="the strip to settle on page 1")
    deck.hold("1/0")  # 0.01 s in arrange mode
    deck.move(golf["x"] + 20, golf["y"], steps=2)
    gap_y = (golf["y"] + golf["height"] / 2 + hotel_row["y"] - hotel_row["height"] / 2) / 2
    deck.move(golf["x"], gap_y, steps=3)
    phone.wait("![...document.querySelectorAll('[data-slot]')].some(t => t.dataset.state === 'target')", what="no target over a gap")
    deck.up()
    phone.wait("document.querySelector('[data-slot=\"1/0\"]').dataset.state === 'idle'", what="Golf back")
    assert deck.tile("1/0")["name"] == "Golf"
    assert host.status()["revision"] == revision, "a drop on a gap sent something"


def test_lock_mid_drag_ends_arrange_mode_and_the_tile_goes_back(phone, host):
    deck = Deck(phone)
    revision = host.status()["revision"]
    start = deck.lift("0/0")
    deck.move(start["x"] + 120, start["y"] + 40, steps=4)
    host.ctl("lock")
    deck.wait_attr("locked", "true")
    deck.wait_attr("arranging", "false")
    deck.move(start["x"] + 160, start["y"] + 200, steps=3)  # further moves of this touch lift nothing
    assert deck.tile("0/0")["state"] != "lifted"
    deck.up()
    phone.wait("document.querySelector('[data-slot=\"0/0\"]').dataset.state === 'idle'", what="Alpha back")
    assert deck.tile("0/0")["name"] == "Alpha"
    assert host.status()["revision"] == revision, "something moved while locked"
    # A press while locked is refused on the spot.
    deck.tap("0/1")
    phone.wait("document.querySelector('[data-role=\"announce\"]')?.textContent.includes('locked')", what="the refusal said")
    host.ctl("unlock")
    deck.wait_attr("locked", "false")
    assert not (host.out / "bravo").exists()


STATES_OF_ALPHA = """window.alphaStates = [];
    new MutationObserver((records) => records.forEach((r) => window.alphaStates.push(r.target.dataset.state)))
      .observe(document.querySelector('[data-slot="0/0"]'), {attributes: true, attributeFilter: ['data-state']});"""
REFUSAL_SAID = "document.querySelector('[data-role=\"announce\"]')?.textContent.includes('locked')"


def test_a_hold_while_locked_lifts_nothing_and_says_so(phone, host):
    """WEB.md §6: "While the host is locked the deck says so, a hold lifts nothing". The tile was
    raised (held, 1.06×), offered "drag to move", and its release opened the settings."""
    deck = Deck(phone)
    host.ctl("lock")
    deck.wait_attr("locked", "true")
    phone.js(STATES_OF_ALPHA)
    alpha = deck.tile("0/0")
    deck.down(alpha["x"], alpha["y"])
    phone.wait(REFUSAL_SAID, what="the hold refused in words")  # said when the hold's 0.45 s are up
    assert deck.hint() is None
    deck.up()
    assert deck.settings() is None, "a locked hold opens no settings"
    assert "held" not in phone.js("window.alphaStates") and deck.tile("0/0")["state"] == "idle"

    # A tile held when the lock comes goes back, and its release opens nothing either.
    host.ctl("unlock")
    deck.wait_attr("locked", "false")
    deck.hold("0/0")
    host.ctl("lock")
    phone.wait("document.querySelector('[data-slot=\"0/0\"]').dataset.state === 'idle'", what="Alpha back")
    assert deck.hint() is None
    deck.up()
    assert deck.settings() is None
    assert host.status()["revision"] == 1


def test_the_page_says_its_pages_by_the_time_it_says_connected(browser, host):
    """WEB.md §7: the root's `data-connection` is "`connecting` until the first `welcome`", beside
    `data-page` and `data-pages`. `data-pages` said 1 for a frame or more after `connected`."""
    page = browser.new_page(390, 844, 3)
    try:
        page.call("Page.addScriptToEvaluateOnNewDocument", {"source": """
            new MutationObserver((records) => { for (const r of records) {
              if (r.target.dataset.connection === 'connected' && window.pagesWhenConnected === undefined)
                window.pagesWhenConnected = r.target.dataset.pages ?? null; } })
              .observe(document, {subtree: true, attributes: true, attributeFilter: ['data-connection']});"""})
        page.goto(host.url)
        page.wait("window.pagesWhenConnected !== undefined", what="the deck to connect")
        assert page.js("window.pagesWhenConnected") == "3"  # two pages and the empty one to move onto
    finally:
        page.close()


def test_an_empty_name_is_refused_in_the_sheet_in_words(phone, host):
    """WEB.md §6: refusals "are said in the sheet in words, never swallowed"; §7: "a refusal in
    `[data-role="message"]`". The browser's own bubble ("Please fill out this field") said it, and
    the sheet's message stayed empty."""
    deck = Deck(phone)
    deck.hold("0/0")
    deck.up()
    phone.wait("document.querySelector('[data-role=\"settings\"]').open", what="the settings sheet")
    phone.js("""(() => { const f = document.querySelector('[data-role="settings"] [name="name"]');
        f.value = ''; f.dispatchEvent(new Event('input', {bubbles: true}));
        document.querySelector('[data-role="save"]').click(); })()""")
    phone.wait("!document.querySelector('[data-role=\"settings\"] [data-role=\"message\"]').hidden", what="the message")
    assert deck.settings()["message"] == "A button needs a name."
    assert host.status()["revision"] == 1


def test_swipes_fling_and_slow_drag_and_rubber_band(phone, host):
    deck = Deck(phone)
    grid = deck.grid()
    y = deck.tile("0/8")["y"]  # an empty slot: the whole grid takes touches
    # Each touch is timed: its events carry the times meant here, not when a loaded machine delivered them.
    # A fling: 90 px in 40 ms, far less than a third of the width, but its predicted end is beyond.
    x = grid["x"] + grid["width"] * 0.8
    deck.down(x, y, timed=True)
    deck.move(x - 90, y, steps=4, pause=0.01)
    deck.up()
    deck.wait_attr("page", "1")
    # A slow drag: 60 % of the width, then still (longer than the velocity's 0.1 s), then release.
    deck.down(x, y, timed=True)
    deck.move(x - grid["width"] * 0.6, y, steps=12, pause=0.03)
    deck.up(after=0.15)
    deck.wait_attr("page", "2")
    # The rubber band at the last page: the strip follows a third of the finger.
    deck.settle("2/0")
    before = deck.tile("2/0")["x"]
    deck.down(x, y, timed=True)
    deck.move(x - 150, y, steps=10, pause=0.01)
    pulled = deck.tile("2/0")["x"] - before
    deck.up()
    assert -60 < pulled < -40, f"the last page followed {pulled:.1f} px of a 150 px pull (a third is -50)"
    deck.wait_attr("page", "2")
    phone.wait(f"Math.abs(document.querySelector('[data-slot=\"2/0\"]').getBoundingClientRect().left + "
               f"document.querySelector('[data-slot=\"2/0\"]').getBoundingClientRect().width / 2 - {before}) < 1",
               what="the strip to settle back")


def test_reduced_motion_shows_a_border_instead_of_the_wiggle(phone, host):
    deck = Deck(phone)
    deck.lift("0/0")
    rotations = phone.js("""new Promise(resolve => { const seen = new Set(); let n = 0;
        (function f() { seen.add(getComputedStyle(document.querySelector('[data-slot="0/1"]')).transform);
          if (++n < 12) requestAnimationFrame(f); else resolve([...seen]); })(); })""")
    assert len(rotations) > 1 and any(r != "none" for r in rotations), f"no wiggle: {rotations}"
    plain_border = deck.tile("0/1")["border"]
    phone.call("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-reduced-motion", "value": "reduce"}]})
    phone.wait("matchMedia('(prefers-reduced-motion: reduce)').matches")
    phone.js("new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    for slot in ("0/1", "0/2", "0/3"):
        tile = deck.tile(slot)
        assert tile["transform"] == "none", f"{slot} still turns with reduced motion: {tile['transform']}"
        assert tile["border"] != plain_border, "no bright border in arrange mode with reduced motion"
    deck.up()
    phone.call("Emulation.setEmulatedMedia", {"features": []})


def test_a_press_while_offline_is_refused_and_the_page_reconnects_to_a_restarted_host(phone, host):
    deck = Deck(phone)
    host.kill()
    deck.wait_attr("connection", "offline")
    deck.tap("0/2")
    phone.wait("document.querySelector('[data-role=\"announce\"]')?.textContent.includes('offline')", what="the refusal said")
    host.start()
    host.ctl("set", "0", "7", "--name", "India", "--run", "true")
    revision = str(host.status()["revision"])
    deck.wait_attr("connection", "connected", timeout=30)
    deck.wait_attr("revision", revision, timeout=30)
    assert deck.tile("0/7")["name"] == "India"
    assert not (host.out / "charlie").exists(), "a press made offline was sent late"
