"""Pairing by scanning (WEB.md §3) as the page does it: the code from the
link's #pair=CODE goes in hello, the token comes back and is kept, the code
leaves the address bar. Needs deckd's own web listener (pairing links)."""

import json

import pytest

from deck import Deck


def test_the_pairing_link_pairs_the_browser_and_the_token_is_kept(browser, host):
    if not host.web:
        pytest.fail("unsupported: this deckd has no --web, so there are no pairing links")
    paired = json.loads(host.ctl("--json", "pair", "Kim's phone", "--no-qr").splitlines()[0])
    assert "#pair=" in paired["link"]
    page = browser.new_page()
    try:
        page.goto(paired["link"])
        deck = Deck(page)
        deck.wait_attr("connection", "connected")
        assert page.js("location.hash") == "", "the pairing code stayed in the address bar"
        assert paired["code"] not in page.js("location.href")
        token = page.js("localStorage.getItem('deck.token')")
        assert token == paired["token"], "the browser did not keep the token welcome gave it"
        devices = json.loads(host.ctl("--json", "devices").splitlines()[0])["devices"]
        assert any(d["name"] == "Kim's phone" and d["connected"] for d in devices), devices
        # Next visit: no code, the kept token.
        page.goto(host.url)
        page.wait("document.querySelector('[data-connection]')?.dataset.connection === 'connected'", what="reconnected by token")
        status = host.status()
        assert any(c["name"] == "Kim's phone" for c in status["clients"]), status["clients"]
        # The same link again: the code is used up, the kept token still gets in.
        page.goto(paired["link"])
        page.wait("document.querySelector('[data-connection]')?.dataset.connection === 'connected'", what="in by the kept token")
    finally:
        page.js("localStorage.clear()")
        page.close()
