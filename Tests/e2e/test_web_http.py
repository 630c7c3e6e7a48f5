"""WEB.md §2 row by row, with raw sockets against a real deckd."""
import gzip
import shutil
import subprocess
import time

import pytest

from conftest import get, parse_http

APP_JS = "export const answer = 42;\n" + "// padding so gzip is worth it\n" * 40


@pytest.fixture
def web_root(tmp_root):
    root = tmp_root / "web"
    (root / "engine").mkdir(parents=True)
    (root / "index.html").write_text("<!doctype html><title>deck</title><script type=module src=app.js></script>\n" * 20)
    (root / "app.js").write_text(APP_JS)
    (root / "style.css").write_text("body { margin: 0 }\n")
    (root / "manifest.webmanifest").write_text('{"name": "deck", "display": "standalone"}')
    (root / "engine" / "geometry.mjs").write_text("export function f() { return 1 }\n")
    (root / "icon.png").write_bytes(b"\x89PNG\r\n\x1a\n" + b"\0" * 40)
    (root / ".secret").write_text("hidden")
    return root


@pytest.fixture
def app(deck, web_root):
    return deck(web_root=web_root)


def one(host, data):
    [response] = parse_http(host.http(data))
    return response


def test_every_response_has_the_security_headers(app):
    for path in ["/", "/app.js", "/nothing", "/icons/none"]:
        status, headers, _ = one(app, get(path))
        assert headers["x-content-type-options"] == "nosniff", path
        assert headers["referrer-policy"] == "no-referrer", path
        assert "content-length" in headers, path
    status, headers, _ = one(app, get("/", method="POST"))
    assert status == 405 and headers["x-content-type-options"] == "nosniff"


def test_the_page_with_its_policy(app, web_root):
    status, headers, body = one(app, get("/"))
    assert status == 200
    assert headers["content-type"] == "text/html; charset=utf-8"
    assert headers["cache-control"] == "no-cache"
    assert body == (web_root / "index.html").read_bytes()
    csp = headers["content-security-policy"]
    assert "default-src 'none'" in csp and "script-src 'self'" in csp and "style-src 'self'" in csp
    assert "connect-src 'self' ws://127.0.0.1/ws;" in csp  # its own socket, by the Host it was asked by; wss only under TLS
    assert "img-src 'self';" in csp  # only the page's own origin (WEB.md §2): no data: images


@pytest.mark.parametrize("path,kind", [
    ("/app.js", "text/javascript; charset=utf-8"),
    ("/engine/geometry.mjs", "text/javascript; charset=utf-8"),
    ("/style.css", "text/css; charset=utf-8"),
    ("/manifest.webmanifest", "application/manifest+json"),
    ("/icon.png", "image/png"),
])
def test_files_by_type_with_a_strong_etag(app, web_root, path, kind):
    status, headers, body = one(app, get(path))
    assert status == 200 and headers["content-type"] == kind
    assert body == (web_root / path.lstrip("/")).read_bytes()
    assert headers["etag"].startswith('"') and not headers["etag"].startswith("W/")
    assert "content-security-policy" not in headers


def test_if_none_match_gets_304(app):
    _, headers, _ = one(app, get("/app.js"))
    status, again, body = one(app, get("/app.js", extra=f"If-None-Match: {headers['etag']}\r\n"))
    assert status == 304 and body == b"" and again["etag"] == headers["etag"]
    status, _, _ = one(app, get("/app.js", extra='If-None-Match: "other"\r\n'))
    assert status == 200


def test_gzip_when_allowed_compressed_once(app):
    status, headers, body = one(app, get("/app.js", extra="Accept-Encoding: gzip, deflate\r\n"))
    assert status == 200 and headers["content-encoding"] == "gzip" and headers["vary"] == "Accept-Encoding"
    assert gzip.decompress(body).decode() == APP_JS
    _, second, body2 = one(app, get("/app.js", extra="Accept-Encoding: gzip\r\n"))
    assert body2 == body and second["etag"] == headers["etag"]  # the same bytes: made once
    _, plain, raw = one(app, get("/app.js", extra="Accept-Encoding: gzip;q=0\r\n"))
    assert "content-encoding" not in plain and raw.decode() == APP_JS and plain["etag"] != headers["etag"]
    _, refused, _ = one(app, get("/app.js", extra="Accept-Encoding: gzip;q=0, *\r\n"))
    assert "content-encoding" not in refused  # named and refused: * does not bring it back (RFC 9110 §12.5.3)
    _, anything, _ = one(app, get("/app.js", extra="Accept-Encoding: br;q=1, *;q=0.5\r\n"))
    assert anything["content-encoding"] == "gzip"
    status, _, _ = one(app, get("/app.js", extra=f"Accept-Encoding: gzip\r\nIf-None-Match: {headers['etag']}\r\n"))
    assert status == 304


def test_a_changed_file_is_served_fresh(app, web_root):
    _, first, _ = one(app, get("/style.css"))
    (web_root / "style.css").write_text("body { margin: 1px }\n/* longer */\n")
    _, headers, body = one(app, get("/style.css"))
    assert body == b"body { margin: 1px }\n/* longer */\n" and headers["etag"] != first["etag"]


def test_head_has_the_headers_and_no_body(app, web_root):
    data = app.http(get("/app.js", method="HEAD"))
    head, _, rest = data.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 200") and rest == b""
    assert f"Content-Length: {len(APP_JS)}".encode() in head


def test_unknown_paths_hidden_files_and_escapes_are_404(app):
    for path in ["/nothing", "/.secret", "/../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd", "/engine/../../x", "/engine"]:
        status, _, _ = one(app, get(path))
        assert status == 404, path


def test_other_methods_405_with_allow(app):
    for method in ["POST", "PUT", "DELETE", "OPTIONS"]:
        status, headers, _ = one(app, get("/", method=method))
        assert status == 405 and headers["allow"] == "GET, HEAD", method


def test_any_other_method_is_405_with_a_body_or_unknown_to_the_parser(app):
    # WEB.md §2: another method 405 with Allow — also with a body (curl -d), and for a method token
    # the HTTP parser has no name for; the connection closes after it (a body or a tunnel may follow).
    for head in [b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc",
                 b"PUT / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nx\r\n0\r\n\r\n",
                 b"FOO / HTTP/1.1\r\nHost: x\r\n\r\n", b"get / HTTP/1.1\r\nHost: x\r\n\r\n",
                 b"CONNECT x:443 HTTP/1.1\r\nHost: x:443\r\n\r\n"]:
        status, headers, _ = one(app, head)
        assert (status, headers["allow"], headers["connection"]) == (405, "GET, HEAD", "close"), head
    s = app.raw()
    for byte in b"BREW / HTTP/1.1\r\nHost: x\r\n\r\n":
        s.send(bytes([byte]))  # however the method is cut
    assert s.recv(65536).startswith(b"HTTP/1.1 405")


def test_heads_rfc_9112_refuses_are_400(app):
    for head in [b"GET / HTTP/1.1\r\n\r\n",  # no Host
                 b"GET / HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n",
                 b"GET / HTTP/1.1\r\nHost : x\r\n\r\n",  # white space before the colon
                 b"GET / HTTP/1.1\r\nHost: x\r\nBad Header: y\r\n\r\n",
                 b"GET / HTTP/1.1\r\nHost: a b\r\n\r\n"]:
        status, headers, _ = one(app, head)
        assert status == 400 and headers["connection"] == "close", head
    assert one(app, b"GET / HTTP/9.9\r\nHost: x\r\n\r\n")[0] == 505
    assert one(app, b"GET / HTTP/1.0\r\n\r\n")[0] == 200  # HTTP/1.0 needs no Host


def test_a_head_over_8_kib_is_431(app):
    data = b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * (9 * 1024) + b"\r\n\r\n"
    status, _, _ = one(app, data)
    assert status == 431


def test_a_malformed_head_is_400_and_closed(app):
    s = app.raw()
    s.sendall(b"GET / HTTP/1.1\r\nHost x no colon\r\n\r\n")
    data = b""
    while chunk := s.recv(65536):
        data += chunk  # recv returns b"" at the host's close
    assert data.startswith(b"HTTP/1.1 400")
    assert one(app, b"\x16\x03\x01\x02\x00garbage\r\n\r\n")[0] == 400


def test_a_body_on_get_is_400(app):
    status, _, _ = one(app, b"GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello")
    assert status == 400
    status, _, _ = one(app, b"GET / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n")
    assert status == 400


def test_pipelined_requests_answered_in_order(app, web_root):
    data = get("/app.js", close=False) + get("/style.css", close=False) + get("/nothing", close=False) + get("/")
    responses = parse_http(app.http(data))
    assert [r[0] for r in responses] == [200, 200, 404, 200]
    assert responses[0][2].decode() == APP_JS and responses[1][2] == (web_root / "style.css").read_bytes()


def test_keep_alive_serves_requests_one_after_another(app):
    s = app.raw()
    for path in ["/app.js", "/style.css"]:
        s.sendall(get(path, close=False))
        data = b""
        while b"\r\n\r\n" not in data:
            data += s.recv(65536)
        head, _, body = data.partition(b"\r\n\r\n")
        length = int([l for l in head.split(b"\r\n") if l.lower().startswith(b"content-length")][0].split(b":")[1])
        while len(body) < length:
            body += s.recv(65536)
        assert head.startswith(b"HTTP/1.1 200")
    s.close()


def test_a_slow_head_is_closed_and_others_are_not_disturbed(deck, web_root):
    host = deck(web_root=web_root, extra=["--hello-timeout", "400"])
    slow = host.raw()
    slow.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")  # never finished
    device = host.ws(hello=True)
    bad = host.raw()
    bad.sendall(b"BREW / HTCPCP/1.0\r\n\r\n")
    started = time.time()
    slow.settimeout(10)
    assert slow.recv(65536) == b""  # closed, nothing sent
    assert time.time() - started < 8
    assert device.request({"type": "ping"})["type"] == "pong"
    assert one(host, get("/"))[0] == 200


def test_without_the_web_app_the_page_says_so(deck, tmp_root):
    empty = tmp_root / "empty-web"
    empty.mkdir()
    host = deck(web_root=empty)
    status, headers, body = one(host, get("/"))
    assert status == 200 and body and headers["content-type"].startswith("text/html")
    assert b"not installed" in body and "content-security-policy" in headers
    # Nothing of the layout or a token over HTTP.
    for word in [b"Files", b"Terminal", b"Mail", b"token"]:
        assert word not in body


def test_the_ws_path_without_an_upgrade(app):
    status, headers, _ = one(app, get("/ws"))
    assert status == 426 and headers["sec-websocket-version"] == "13"


def test_curl_gets_the_page(app):
    curl = shutil.which("curl")
    if not curl:
        pytest.skip("curl is not installed")
    r = subprocess.run([curl, "-s", "-i", "--compressed", f"http://127.0.0.1:{app.web_port}/app.js"],
                       capture_output=True, timeout=20)
    assert r.stdout.startswith(b"HTTP/1.1 200") and APP_JS.encode() in r.stdout
