"""Reading and touching the deck through WEB.md §7's attributes only."""

import json
import time

ROOT = "document.querySelector('[data-connection]')"

# The pointer events' times as the page sees them (ms since the epoch, coalesced samples
# each on their own), cleared for each timed touch.
RECORD_TOUCH_TIMES = """(() => {
  if (!window.__deckTouchTimes) {
    const times = window.__deckTouchTimes = [];
    const take = (e) => {
      const samples = e.type === 'pointermove' ? e.getCoalescedEvents?.() ?? [] : [];
      for (const s of samples.length ? samples : [e]) times.push(performance.timeOrigin + s.timeStamp);
    };
    for (const type of ['pointerdown', 'pointermove', 'pointerup']) window.addEventListener(type, take, true);
  }
  window.__deckTouchTimes.length = 0;
})()"""
# Chromium keeps event times to 0.1 ms; a millisecond apart is another time.
TIME_TOLERANCE_MS = 1.0


class Deck:
    clock = None  # a timed touch's time (time.time()'s clock); None: events take the browser's

    def __init__(self, page):
        self.page = page

    def attr(self, name):
        return self.page.js(f"{ROOT}.dataset.{name}")

    def wait_attr(self, name, value, timeout=20):
        return self.page.wait(f"{ROOT}.dataset.{name} === {json.dumps(value)}", timeout, what=f"data-{name} = {value}")

    def tile(self, slot):
        """A tile's attributes and its box in page coordinates."""
        return self.page.js(f"""(() => {{
            const t = document.querySelector('[data-slot="{slot}"]');
            if (!t) return null;
            const b = t.getBoundingClientRect();
            return {{name: t.dataset.name, shows: t.dataset.shows, state: t.dataset.state,
                     transform: getComputedStyle(t).transform, border: getComputedStyle(t).borderTopColor,
                     x: b.left + b.width / 2, y: b.top + b.height / 2, width: b.width, height: b.height}};
        }})()""")

    def grid(self):
        return self.page.js("""(() => { const b = document.querySelector('[data-deck-grid]').getBoundingClientRect();
            return {x: b.left, y: b.top, width: b.width, height: b.height}; })()""")

    def cell(self, index, slots=12):
        """The centre of a slot's cell on the visible page, from the grid's box alone (WEB.md §6:
        3 columns when taller than wide, else 4; 14 points apart) — where the deck takes a touch for it."""
        g = self.grid()
        columns = 3 if g["height"] > g["width"] else 4
        rows = -(-slots // columns)
        width = (g["width"] - 14 * (columns - 1)) / columns
        height = (g["height"] - 14 * (rows - 1)) / rows
        column, row = index % columns, index // columns
        return {"x": g["x"] + column * (width + 14) + width / 2, "y": g["y"] + row * (height + 14) + height / 2,
                "width": width, "height": height}

    def names(self, page):
        return self.page.js(f"""[...document.querySelectorAll('[data-slot^="{page}/"]:not([data-role])')]
            .sort((a, b) => Number(a.dataset.slot.split('/')[1]) - Number(b.dataset.slot.split('/')[1]))
            .map(t => t.dataset.name)""")

    def hint(self):
        return self.page.js("document.querySelector('[data-role=\"hint\"]')?.textContent ?? null")

    def settings(self):
        return self.page.js("""(() => { const d = document.querySelector('[data-role="settings"]');
            return d && d.open ? {slot: d.dataset.slot, name: d.querySelector('[name="name"]').value,
              message: d.querySelector('[data-role="message"]').hidden ? '' : d.querySelector('[data-role="message"]').textContent} : null; })()""")

    def settle(self, slot):
        """Waits until a tile stands still for three frames (the strip's settle animation is over)."""
        self.page.wait(f"""new Promise(resolve => {{ let last = null, still = 0;
            (function f() {{ const x = document.querySelector('[data-slot="{slot}"]').getBoundingClientRect().left;
              still = x === last ? still + 1 : 0; last = x;
              if (still >= 3) resolve(true); else requestAnimationFrame(f); }})(); }})""", what=f"{slot} to stand still")

    def quiet(self):
        """Waits until no dropped tile is still gliding to its slot (a touch aimed at its box would miss the cell)."""
        self.page.wait("!document.getAnimations().some(a => a.transitionProperty === 'translate')", what="glides to end")

    # --- touches ---------------------------------------------------------

    def down(self, x, y, timed=False):
        """Touches (x, y). timed: the touch keeps the times the test gives it, however late a
        loaded machine delivers its events — the down now, each step of `move` `pause` after
        the one before, the lift `after` the last — as a real finger's events carry the times
        it moved (the engine's velocity is read from them). A timed touch must not wait on
        the page's own clock (a hold) in between: the page's timers run on real time."""
        self.clock = None
        if timed:
            self.page.js(RECORD_TOUCH_TIMES)
            self.clock = time.time()
            self.sent = [self.clock]
        self.page.touch("touchStart", x, y, timestamp=self.clock)
        self.at = (x, y)

    def move(self, x, y, steps=1, pause=0.0):
        x0, y0 = self.at
        for i in range(1, steps + 1):
            point = (x0 + (x - x0) * i / steps, y0 + (y - y0) * i / steps)
            if self.clock is None:
                self.page.touch("touchMove", *point)
                if pause:
                    time.sleep(pause)
            else:
                self.step(pause)
                self.page.touch("touchMove", *point, timestamp=self.clock)
        self.at = (x, y)

    def up(self, after=0.0):
        """Lifts the finger, `after` seconds after the last touch (at once by default, as a finger lifts)."""
        if self.clock is None:
            if after:
                time.sleep(after)
            self.page.touch("touchEnd")
            return
        self.step(after)
        self.page.touch("touchEnd", timestamp=self.clock)
        self.clock = None
        self.check_times()

    def step(self, seconds):
        """Advances a timed touch's clock; waits until it has come, so that no event is stamped
        ahead of the page's own clock (its timers, its animations)."""
        self.clock += seconds
        self.sent.append(self.clock)
        time.sleep(max(0.0, self.clock - time.time()))

    def check_times(self):
        """Fails loudly unless the page's pointer events carried the times the timed touch sent
        (Input.dispatchTouchEvent's timestamp): otherwise its gesture is not the one meant."""
        seen = self.page.js("window.__deckTouchTimes")
        sent = [round((t - self.sent[0]) * 1000, 1) for t in self.sent]
        got = [round(t - seen[0], 1) for t in seen] if seen else []
        near = lambda t: any(abs(t - s) <= TIME_TOLERANCE_MS for s in sent)
        assert got and abs(got[-1] - sent[-1]) <= TIME_TOLERANCE_MS and all(map(near, got)), (
            f"the page's pointer events did not carry the times the touch was sent with (ms after its "
            f"down): sent {sent}, the page saw {got}")

    def hold(self, slot):
        """Touches a tile's centre and keeps the finger there until the deck shows it held."""
        t = self.tile(slot)
        self.down(t["x"], t["y"])
        self.page.wait(f"document.querySelector('[data-slot=\"{slot}\"]').dataset.state === 'held'",
                       what=f"{slot} to be held")
        return t

    def lift(self, slot):
        """Holds a tile and drags it 20 px so it lifts (arrange mode)."""
        t = self.hold(slot)
        self.move(t["x"] + 20, t["y"], steps=2)
        self.page.wait(f"document.querySelector('[data-slot=\"{slot}\"]').dataset.state === 'lifted'",
                       what=f"{slot} to lift")
        return t

    def tap(self, slot):
        t = self.tile(slot)
        self.down(t["x"], t["y"])
        self.up()
