"""WEB.md §3: pairing by scanning — codes, tokens, names, the QR code."""
import json
import re
import shutil
import struct
import subprocess
import zlib

import pytest


def pair(host, name="phone"):
    r = host.ctl("--json", "pair", name, "--no-qr")
    return json.loads(r.stdout.splitlines()[0])


def hello_with_code(host, code, name="whatever it says"):
    browser = host.ws()
    return browser, browser.hello(name=name, pairingCode=code)


def test_a_good_code_pairs_the_device_under_its_name(host):
    offer = pair(host)
    assert re.fullmatch(r"[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}", offer["code"])
    assert offer["link"] == f"http://127.0.0.1:{host.web_port}/#pair={offer['code']}"
    assert offer["expires"].endswith("Z")
    browser, welcome = hello_with_code(host, offer["code"])
    assert welcome["type"] == "welcome" and welcome["token"] == offer["token"]
    status = json.loads(host.ctl("--json", "status").stdout.splitlines()[0])
    assert "phone" in [c["name"] for c in status["clients"]]  # the paired name, not what hello claimed
    assert "whatever it says" not in [c["name"] for c in status["clients"]]
    devices = json.loads(host.ctl("--json", "devices").stdout.splitlines()[0])
    assert devices["type"] == "devices"
    [phone] = devices["devices"]
    assert phone["name"] == "phone" and phone["connected"] is True and phone["lastSeen"] and phone["pairedAt"]
    browser.close()
    # From then on the token names the device, on TCP too, whatever its hello says.
    tcp = host.tcp(hello=False)
    w = tcp.request({"type": "hello", "protocol": 7, "device": {"name": "x", "kind": "phone"}, "token": welcome["token"]})
    assert w["type"] == "welcome" and "token" not in w
    assert "joined" in host.log_text() and "phone (phone, 127.0.0.1" in host.log_text()


def test_a_code_works_once(host):
    offer = pair(host)
    first, welcome = hello_with_code(host, offer["code"])
    assert welcome["type"] == "welcome"
    second, refused = hello_with_code(host, offer["code"])
    assert refused["type"] == "error" and refused["code"] == "unauthorized"
    assert second.close_code() == 1008


def test_codes_are_read_as_crockford_says(host):
    offer = pair(host)
    sloppy = offer["code"].lower().replace("-", "").replace("0", "o").replace("1", "l")
    _, welcome = hello_with_code(host, sloppy)
    assert welcome["type"] == "welcome"


def test_an_expired_code_is_refused(deck):
    host = deck(extra=["--pairing-lifetime", "1"])  # 1 ms: expired by the time any device connects
    offer = pair(host)
    browser, refused = hello_with_code(host, offer["code"])
    assert refused["type"] == "error" and refused["code"] == "unauthorized" and "expired" in refused["message"]
    assert browser.close_code() == 1008


def test_a_code_over_tcp(host):
    offer = pair(host)
    tcp = host.tcp(hello=False)
    w = tcp.request({"type": "hello", "protocol": 7, "device": {"name": "t", "kind": "terminal"},
                     "pairingCode": offer["code"]})
    assert w["type"] == "welcome" and w["token"] == offer["token"]


def test_wrong_codes_are_rate_limited(host):
    offer = pair(host)
    for _ in range(10):
        browser, refused = hello_with_code(host, "ZZZZ-ZZZZ")
        assert refused["code"] == "unauthorized"
        browser.close()
    browser, refused = hello_with_code(host, offer["code"])  # the right one, too late
    assert refused["code"] == "unauthorized" and "too many" in refused["message"]


def test_pairing_again_replaces_the_code(host):
    old = pair(host)
    new = pair(host)
    _, refused = hello_with_code(host, old["code"])
    assert refused["code"] == "unauthorized"
    _, welcome = hello_with_code(host, new["code"])
    assert welcome["token"] == new["token"]


def test_without_the_web_there_is_no_link(deck):
    host = deck(extra=["--no-web"])
    offer = pair(host)
    assert offer["link"] is None and offer["code"]
    text = host.ctl("pair", "tablet").stdout
    assert "no pairing link" in text


def test_the_link_uses_web_url(deck):
    host = deck(extra=["--web-url", "https://deck.example.org/"])
    assert pair(host)["link"].startswith("https://deck.example.org/#pair=")


# The QR code: what deckctl draws decodes to the link (zbarimg reads a PNG made from the drawn characters).

def png(matrix, scale=8):
    height, width = len(matrix), len(matrix[0])
    rows = b""
    for row in matrix:
        line = bytes([0 if dark else 255 for dark in row for _ in range(scale)])
        rows += (b"\x00" + line) * scale
    def chunk(kind, data):
        return struct.pack("!I", len(data)) + kind + data + struct.pack("!I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    header = struct.pack("!IIBBBBB", width * scale, height * scale, 8, 0, 0, 0, 0)  # 8-bit greyscale
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


def matrix_from_half_blocks(lines):
    """Drawn cells are light (as `qrencode -t UTF8`): █ both halves, ▀ upper, ▄ lower, space none."""
    halves = {"█": (True, True), "▀": (True, False), "▄": (False, True), " ": (False, False)}
    matrix = []
    for line in lines:
        pairs = [halves[c] for c in line]
        matrix.append([not light for light, _ in pairs])
        matrix.append([not light for _, light in pairs])
    return matrix


def test_the_qr_code_decodes_to_the_link(host, tmp_root):
    zbarimg = shutil.which("zbarimg")
    if not zbarimg:
        pytest.fail("zbarimg (zbar-tools) is missing: make setup installs it")
    out = host.ctl("pair", "phone", "--qr").stdout.splitlines()
    link = next(l.strip() for l in out if "/#pair=" in l)
    drawn = [l for l in out if l.strip() and set(l) <= set("█▀▄ ")]
    assert len(drawn) > 10
    picture = tmp_root / "qr.png"
    picture.write_bytes(png(matrix_from_half_blocks(drawn)))
    r = subprocess.run([zbarimg, "--raw", "-q", str(picture)], capture_output=True, text=True, timeout=30)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == link


def test_no_qr_when_not_a_terminal_unless_asked(host):
    plain = host.ctl("pair", "phone").stdout
    assert "/#pair=" in plain and "█" not in plain
    assert "█" not in host.ctl("pair", "phone", "--no-qr").stdout
