import time
from deck import Deck

def test_fling_delivered_late(phone, host):
    deck = Deck(phone)
    time.sleep(1)  # the session is in
    grid = deck.grid()
    y = deck.tile("0/8")["y"]
    x = grid["x"] + grid["width"] * 0.8
    deck.down(x, y, timed=True)
    time.sleep(0.6)  # a loaded machine: the moves reach the page late; their times stay the finger's
    deck.move(x - 90, y, steps=4, pause=0.01)
    deck.up()
    print("PAGE", phone.js("document.querySelector('[data-connection]').dataset.page"))
    deck.wait_attr("page", "1", timeout=5)
