"""Two browsers editing the same deck at random for 30 s, drags interleaved
with the other's edits so some are refused as stale: both end on exactly the
host's layout (PROTOCOL.md §5: the host's next layout replaces the copy)."""

import os
import random
import time

from conftest import open_deck
from deck import Deck

DUMP = """JSON.stringify({root: {...document.querySelector('[data-connection]').dataset}, vis: document.visibilityState,
    states: [...document.querySelectorAll('[data-slot^="0/"]:not([data-role])')].map(t => t.dataset.state + ':' + t.dataset.name)})"""
SECONDS = float(os.environ.get("DECK_RANDOM_SECONDS", "30"))


def filled(deck, page=0):
    return [i for i, name in enumerate(deck.names(page)) if name]


def drag(deck, rng, finish=True):
    """Lifts a random button of page 0 and carries it over another slot; drops it unless told not to."""
    deck.quiet()
    slots = filled(deck)
    if not slots:
        return False
    source = rng.choice(slots)
    start = deck.cell(source)
    deck.down(start["x"], start["y"])
    deck.page.wait(f"['held', 'lifted'].includes(document.querySelector('[data-slot=\"0/{source}\"]').dataset.state)",
                   what=f"a hold of 0/{source} at {start}")
    # 10 points past the hold lift it; towards the middle, so the finger never dwells in an edge zone.
    grid = deck.grid()
    deck.move(start["x"] + (30 if start["x"] < grid["x"] + grid["width"] / 2 else -30), start["y"], steps=3)
    target = deck.cell(rng.choice([i for i in range(12) if i != source]))
    deck.move(target["x"], target["y"], steps=3)
    if finish:
        deck.up()
    return True


def rename(deck, rng, keyboard=False):
    """Renames a random button through its settings sheet, reached by a hold (or a tap in
    arrange mode), or by the keyboard's context-menu key on the tile."""
    deck.quiet()
    slots = filled(deck)
    if not slots:
        return
    index = rng.choice(slots)
    slot = f"0/{index}"
    cell = deck.cell(index)
    if keyboard:
        deck.page.js(f"""document.querySelector('[data-slot="{slot}"]').dispatchEvent(
            new KeyboardEvent('keydown', {{key: 'ContextMenu', bubbles: true}}))""")
    elif deck.attr("arranging") == "true":
        deck.down(cell["x"], cell["y"])
        deck.up()
    else:
        deck.down(cell["x"], cell["y"])
        deck.page.wait(f"document.querySelector('[data-slot=\"{slot}\"]').dataset.state === 'held'", what=f"{slot} held")
        deck.up()
    deck.page.wait("document.querySelector('[data-role=\"settings\"]').open", what="the settings sheet")
    name = rng.choice(["Alpha", "Bravo", "가나다", "Zulu", "📦 Box"]) + str(rng.randrange(100))
    deck.page.js(f"document.querySelector('[data-role=\"settings\"] [name=\"name\"]').value = {name!r}")
    deck.page.js("document.querySelector('[data-role=\"save\"]').click()")
    # Closed on ok; a refusal (stale) is said in the sheet, then the person cancels.
    state = deck.page.wait("(() => { const d = document.querySelector('[data-role=\"settings\"]');"
                           " const m = d.querySelector('[data-role=\"message\"]');"
                           " return !d.open ? 'closed' : (!m.hidden && !m.textContent.endsWith('…') ? 'refused' : ''); })()",
                           what="the sheet's answer")
    if state == "refused":
        deck.page.js("document.querySelector('[data-role=\"cancel\"]').click()")


def settle(host, decks, timeout=20):
    """Waits until both browsers show the host's revision (a drop's move may still be on its way to the host)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        revision = str(host.status()["revision"])
        if all(deck.attr("revision") == revision for deck in decks):
            return
        time.sleep(0.02)
    raise AssertionError(f"the browsers show revisions {[d.attr('revision') for d in decks]}, the host {revision}")


def run(host, decks, rng, end, log):
    while time.monotonic() < end:
        # Each operation starts from what the host has: a person aims at what the screen shows,
        # and a layout still on its way would move the button from under the test's finger.
        settle(host, decks)
        one, other = rng.sample(decks, 2)
        assert one.attr("page") == "0" and other.attr("page") == "0", "a page turned: the operations assume page 0"
        roll = rng.random()
        who = "a" if one is decks[0] else "b"
        if roll < 0.45:
            log.append(f"{who} drag")
            drag(one, rng)
        elif roll < 0.7:
            log.append(f"{who} rename")
            rename(one, rng)
        else:
            # A drag on one browser with an edit from the other landing meanwhile.
            log.append(f"{who} drag held while the other edits")
            # (The other's edit goes in by its keyboard: a touch in another window would end this one's.)
            if drag(one, rng, finish=False):
                rename(other, rng, keyboard=True)
                one.up()


def test_two_browsers_editing_at_random_end_on_the_hosts_layout(browser, host):
    seed = int(os.environ.get("DECK_SEED", random.randrange(1 << 30)))
    rng = random.Random(seed)
    a, b = open_deck(browser, host), open_deck(browser, host, 820, 1180, 2)
    try:
        decks = [Deck(a), Deck(b)]
        for deck in decks:
            assert deck.attr("page") == "0"
        end = time.monotonic() + SECONDS
        operations = 0
        log = []
        try:
            run(host, decks, rng, end, log)
        except AssertionError as error:
            raise AssertionError(f"{error} (seed {seed}, after {log[-6:]}; sheets open: "
                                 f"{[d.settings() for d in decks]}; host {host.layout()}; pages: {[d.page.js(DUMP) for d in decks]})") from error
        operations = len(log)
        for deck in decks:
            if deck.attr("arranging") == "true":
                deck.page.js("document.querySelector('[data-role=\"done\"]').click()")
        settle(host, decks)
        revision = host.status()["revision"]
        welcome = host.layout()
        assert operations > 5, f"only {operations} operations in {SECONDS} s (seed {seed})"
        for deck in decks:
            deck.wait_attr("revision", str(revision))
            for page, wanted in enumerate(welcome["layout"]["pages"]):
                names = [b["name"] if b else "" for b in wanted["buttons"]]
                assert deck.names(page) == names, f"page {page} differs from the host's (seed {seed})"
            assert deck.names(len(welcome["layout"]["pages"])) == [], f"a page the host does not have (seed {seed})"
    finally:
        a.close()
        b.close()
