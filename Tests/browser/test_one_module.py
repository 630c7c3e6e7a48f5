"""one_module.py, the reading aid behind docs/performance.md's bound on the
first draw (issue 28), makes a variant that still draws what the deck draws:
were it to break, its figure would be of a page that shows nothing."""

import bench
import conftest
import one_module
from conftest import running_host
from deck import Deck


def test_the_one_module_variant_draws_the_decks_first_layout(browser, bindir, tmp_path, monkeypatch):
    web = bench.floor_web_root(tmp_path)
    order = one_module.one_module_variant(web)
    # Every module index.html announces for the first draw is in the one module, after what it imports.
    preloaded = {"js/boot.mjs", "js/main.mjs"} | set(
        one_module.re.findall(r'rel="modulepreload" href="([^"]+)"', (web / "index.html").read_text()))
    assert preloaded <= set(order), f"missing from the one module: {sorted(preloaded - set(order))}"
    assert order.index("js/connection.mjs") < order.index("js/boot.mjs")
    assert order.index("engine/layout.mjs") < order.index("js/engine-api.mjs") < order.index("js/main.mjs")
    html = (web / one_module.VARIANT / "index.html").read_text()
    assert "modulepreload" not in html and html.count('type="module"') == 1

    monkeypatch.setattr(conftest, "APP", web)
    with running_host(bindir) as host:
        pages = {}
        for name, path in (("deck", ""), ("one module", f"{one_module.VARIANT}/index.html")):
            page = browser.new_page()
            try:
                page.call("Network.enable")
                page.call("Network.setCacheDisabled", {"cacheDisabled": True})
                page.goto(host.url + path)
                page.wait("performance.getEntriesByName('deck:first-layout').length > 0", what=f"the first layout of the {name}")
                files = page.js("performance.getEntriesByType('resource').map(e => new URL(e.name).pathname)")
                pages[name] = (Deck(page).names(0), files)
            finally:
                page.close()
    assert pages["one module"][0] == pages["deck"][0]
    assert "Alpha" in pages["deck"][0] and "Foxtrot" in pages["deck"][0]
    assert f"/{one_module.VARIANT}/first-draw.mjs" in pages["one module"][1]
    assert not any(f.endswith("/js/main.mjs") for f in pages["one module"][1]), "the variant loaded the app's own modules"
