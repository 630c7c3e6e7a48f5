"""WEB.md §5: /icons/NAME by the freedesktop Icon Theme Specification, from a theme installed in a temp XDG_DATA_DIRS."""
import pytest

from conftest import get, parse_http

SVG_THEME = b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><rect id="theme"/></svg>'
SVG_HICOLOR = b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><rect id="hicolor"/></svg>'
PNG = b"\x89PNG\r\n\x1a\n"


def png(size):
    return PNG + bytes([size]) * 16


@pytest.fixture
def themes(tmp_root):
    data = tmp_root / "share"
    hicolor = data / "icons" / "hicolor"
    for folder in ["scalable/apps", "16x16/apps", "48x48/apps", "32x32/apps"]:
        (hicolor / folder).mkdir(parents=True)
    (hicolor / "index.theme").write_text(
        "[Icon Theme]\nName=Hicolor\nDirectories=16x16/apps,48x48/apps,32x32/apps,scalable/apps\n\n"
        "[16x16/apps]\nSize=16\nType=Threshold\n\n[48x48/apps]\nSize=48\nType=Threshold\n\n"
        "[32x32/apps]\nSize=32\nType=Threshold\n\n[scalable/apps]\nSize=48\nType=Scalable\nMinSize=1\nMaxSize=512\n")
    (hicolor / "scalable/apps/deck-vector.svg").write_bytes(SVG_HICOLOR)
    (hicolor / "48x48/apps/deck-vector.png").write_bytes(png(48))  # the SVG wins
    for size in (16, 48, 32):
        (hicolor / f"{size}x{size}/apps/deck-bitmap.png").write_bytes(png(size))  # the largest PNG wins
    desk = data / "icons" / "Desk"
    (desk / "scalable" / "places").mkdir(parents=True)
    (desk / "index.theme").write_text("[Icon Theme]\nName=Desk\nInherits=hicolor\nDirectories=scalable/places\n\n"
                                      "[scalable/places]\nSize=64\nType=Scalable\n")
    (desk / "scalable/places/deck-vector.svg").write_bytes(SVG_THEME)  # the desktop's theme before hicolor
    (desk / "scalable/places/folder.svg").write_bytes(SVG_THEME)
    return data


def icon(host, name):
    [(status, headers, body)] = parse_http(host.http(get(f"/icons/{name}")))
    return status, headers, body


def test_icons_by_the_theme_spec(deck, themes):
    host = deck(env={"XDG_DATA_DIRS": str(themes), "XDG_DATA_HOME": str(themes / "none"), "DECK_ICON_THEME": "Desk"})
    status, headers, body = icon(host, "deck-vector")
    assert status == 200 and headers["content-type"] == "image/svg+xml" and body == SVG_THEME
    assert headers["etag"] and headers["x-content-type-options"] == "nosniff"
    status, headers, body = icon(host, "deck-bitmap")
    assert status == 200 and headers["content-type"] == "image/png" and body == png(48)
    assert icon(host, "folder")[2] == SVG_THEME
    for missing in ["not-an-icon", "..%2f..%2fetc%2fpasswd", ".hidden", "%F0%9F%93%81"]:  # the last: an emoji, no lookup
        assert icon(host, missing)[0] == 404, missing


def test_without_the_desktop_theme_hicolor_serves(deck, themes):
    host = deck(env={"XDG_DATA_DIRS": str(themes), "XDG_DATA_HOME": str(themes / "none"), "DECK_ICON_THEME": ""})
    assert icon(host, "deck-vector")[2] == SVG_HICOLOR
    assert icon(host, "folder")[0] == 404
