"""WEB.md §4: the WebSocket carries the device protocol; a browser is a device like any other."""
import asyncio
import json
import socket
import struct
import os
import base64

import pytest
from websockets.exceptions import InvalidStatus


def strip_ids(message):
    return {k: v for k, v in message.items() if k != "id"}


def test_a_websocket_device_gets_what_a_tcp_device_gets(host):
    browser = host.ws(hello=True)
    tcp = host.tcp()
    assert strip_ids(browser.welcome) == strip_ids(tcp.welcome)
    for request in [{"type": "ping"}, {"type": "press", "page": 0, "index": 9},
                    {"type": "setButton", "page": 0, "index": 1, "button": {"name": ""}}]:
        assert strip_ids(browser.request(dict(request))) == strip_ids(tcp.request(dict(request)))


def as_javascript_reads_it(value):
    """What JSON.parse and JSON.stringify make of a value: every number is a double, so 2.0 goes back as 2."""
    if isinstance(value, dict):
        return {k: as_javascript_reads_it(v) for k, v in value.items()}
    if isinstance(value, list):
        return [as_javascript_reads_it(v) for v in value]
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def test_a_browser_echoing_a_settings_number_as_javascript_does_moves_the_button(deck):
    """docs/protocol.md §3: numbers compare by value in a stale check, so a web deck can move a button whose
    plugin settings say 2.0 (it sends them back as 2), and the setting stays as the profile wrote it."""
    host = deck(yaml="pages:\n  - buttons:\n      0: {name: Louder, action: {plugin: sound, command: volume, "
                     "settings: {step: 2.0, to: [1, 0.5]}}}\n")
    browser = host.ws(hello=True)
    button = browser.welcome["layout"]["pages"][0]["buttons"][0]
    assert button["action"]["settings"] == {"step": 2.0, "to": [1, 0.5]}
    echoed = as_javascript_reads_it(button)
    assert json.dumps(echoed) != json.dumps(button)  # the echo really is another form
    reply = browser.request({"type": "moveButton", "fromPage": 0, "fromIndex": 0, "toPage": 0, "toIndex": 4,
                             "button": echoed})
    assert reply["type"] == "ok", reply
    moved = browser.recv_until(lambda m: m["type"] == "layout")["layout"]["pages"][0]["buttons"][4]
    assert moved == button and isinstance(moved["action"]["settings"]["step"], float)
    other = dict(echoed, action=dict(echoed["action"], settings={"step": 2.5, "to": [1, 0.5]}))
    reply = browser.request({"type": "moveButton", "fromPage": 0, "fromIndex": 4, "toPage": 0, "toIndex": 0,
                             "button": other})
    assert reply["type"] == "error" and reply["code"] == "stale", reply


def test_a_move_from_a_browser_reaches_a_tcp_device(host):
    browser = host.ws(hello=True)
    tcp = host.tcp()
    files = browser.welcome["layout"]["pages"][0]["buttons"][0]
    reply = browser.request({"type": "moveButton", "fromPage": 0, "fromIndex": 0, "toPage": 0, "toIndex": 5,
                             "button": files})
    assert reply["type"] == "ok", reply
    for client in (browser, tcp):
        layout = client.recv_until(lambda m: m["type"] == "layout")
        assert layout["layout"]["pages"][0]["buttons"][5]["name"] == "Files"
    status = json.loads(host.ctl("--json", "status").stdout.splitlines()[0])
    kinds = sorted(c["kind"] for c in status["clients"] if c["kind"] != "control")
    assert kinds == ["phone", "terminal"]  # counted in status like any device


def test_the_lock_gate_holds_for_browsers(host):
    browser = host.ws(hello=True)
    host.ctl("lock")
    assert browser.recv_until(lambda m: m["type"] == "lock")["locked"] is True
    reply = browser.request({"type": "press", "page": 0, "index": 1})
    assert reply["type"] == "error" and reply["code"] == "locked"
    host.ctl("unlock")
    assert browser.recv_until(lambda m: m["type"] == "lock")["locked"] is False


def test_protocol_ping_and_websocket_ping(host):
    browser = host.ws(hello=True)
    assert browser.request({"type": "ping"})["type"] == "pong"
    browser.conn.ping(b"x").wait(10)  # answered with a pong frame by the host


def test_foreign_origins_get_403(host):
    for origin in ["http://evil.example", f"https://127.0.0.1:{host.web_port}", "null"]:
        with pytest.raises(InvalidStatus) as refused:
            host.ws(origin=origin)
        assert refused.value.response.status_code == 403, origin
    host.ws(origin=None, hello=True)  # a native client sends no Origin


def test_two_origins_are_refused_whichever_comes_first(host):
    own = f"http://127.0.0.1:{host.web_port}"
    for origins in [(own, "http://evil.example"), ("http://evil.example", own), (own, own)]:
        s = host.raw()
        key = base64.b64encode(os.urandom(16)).decode()
        s.sendall((f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{host.web_port}\r\nUpgrade: websocket\r\n"
                   f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
                   f"Origin: {origins[0]}\r\nOrigin: {origins[1]}\r\n\r\n").encode())
        assert s.recv(4096).startswith(b"HTTP/1.1 403"), origins


def test_an_allowed_extra_origin(deck):
    h = deck(extra=["--web-origin", "https://deck.example.org"])
    h.ws(origin="https://deck.example.org", hello=True)


def test_a_binary_message_is_closed_1003(host):
    browser = host.ws(hello=True)
    browser.conn.send(b"\x00\x01")
    assert browser.close_code() == 1003


def test_a_message_over_the_limit_gets_too_large_then_1009(deck):
    h = deck(extra=["--max-message", "4096"])
    browser = h.ws(hello=True)
    browser.conn.send(json.dumps({"type": "ping", "pad": "x" * 5000}))
    error = browser.recv_until(lambda m: m["type"] == "error")
    assert error["code"] == "tooLarge"
    assert browser.close_code() == 1009


def test_a_hello_over_64_kib_gets_too_large_then_1009(host):
    """Before hello a socket is anyone's: its first message may be 64 KiB, not --max-message."""
    browser = host.ws(hello=False)
    browser.conn.send(json.dumps({"type": "hello", "protocol": 7, "device": {"name": "x", "kind": "phone"},
                                  "pad": "x" * 70_000}))
    error = browser.recv_until(lambda m: m["type"] == "error")
    assert error["code"] == "tooLarge" and "65536 for the first line, hello" in error["message"], error
    assert browser.close_code() == 1009


def test_a_2_mib_message_is_one_message(deck):
    h = deck(extra=["--max-message", str(4 << 20)])
    browser = h.ws(hello=True)
    name = "n" * (2 << 20)
    reply = browser.request({"type": "setButton", "page": 1, "index": 3, "button": {"name": name, "action": {"run": "true"}}})
    assert reply["type"] in ("ok", "error"), reply  # answered as one message either way
    assert browser.request({"type": "ping"})["type"] == "pong"


def test_fragmented_messages_are_reassembled(host):
    browser = host.ws(hello=True)
    text = json.dumps({"type": "ping", "id": 77})
    browser.conn.send([text[:5], text[5:11], text[11:]])  # an iterable: one fragment each
    assert browser.recv_until(lambda m: m.get("id") == 77)["type"] == "pong"


def test_a_refused_token_closes_1008_after_the_error(deck):
    h = deck(extra=["--require-token"])
    browser = h.ws()
    reply = browser.hello(token="not-a-token")
    assert reply["type"] == "error" and reply["code"] == "unauthorized"
    assert browser.close_code() == 1008


def under_the_name(host, name):
    """A browser whose page came under `name` (its Host and Origin), connected to the loopback listener."""
    from conftest import WSClient
    from websockets.sync.client import connect
    sock = socket.create_connection(("127.0.0.1", host.web_port))
    return WSClient(connect(f"ws://{name}:{host.web_port}/ws", sock=sock, origin=f"http://{name}:{host.web_port}",
                            open_timeout=10))


def test_a_page_under_a_foreign_name_needs_a_token_even_on_loopback(deck):
    """DNS rebinding (docs/security.md): a site re-points its name to 127.0.0.1; its page's Origin matches
    its Host, so WEB.md §4's check passes, and the browser is a loopback peer. It got a welcome with no
    token and could press every button. Now only names of this machine make a loopback peer trusted."""
    h = deck()
    rebound = under_the_name(h, "evil.example")
    reply = rebound.hello()
    assert reply["type"] == "error" and reply["code"] == "unauthorized", reply
    assert rebound.close_code() == 1008
    assert "came under the name 'evil.example', not one of this machine's" in h.log_text()

    # Paired, such a page is a device like one on the network.
    token = json.loads(h.ctl("--json", "pair", "proxied").stdout.splitlines()[0])["token"]
    paired = under_the_name(h, "evil.example")
    assert paired.hello(token=token)["type"] == "welcome"

    # The names that can only mean this machine stay trusted without a token.
    for name in ["localhost", "deck.localhost", "127.0.0.1", "127.0.1.1", "[::1]", socket.gethostname().lower()]:
        assert under_the_name(h, name).hello()["type"] == "welcome", name


# Frames a browser never sends, written by hand on a raw socket.

def raw_socket(host):
    s = host.raw()
    key = base64.b64encode(os.urandom(16)).decode()
    s.sendall((f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{host.web_port}\r\nUpgrade: websocket\r\n"
               f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
    data = b""
    while b"\r\n\r\n" not in data:
        data += s.recv(4096)
    assert data.startswith(b"HTTP/1.1 101"), data
    return s, data.partition(b"\r\n\r\n")[2]


def frame(opcode, payload, fin=True, masked=True):
    head = bytes([(0x80 if fin else 0) | opcode])
    length = len(payload)
    mask_bit = 0x80 if masked else 0
    if length < 126:
        head += bytes([mask_bit | length])
    elif length < 65536:
        head += bytes([mask_bit | 126]) + struct.pack("!H", length)
    else:
        head += bytes([mask_bit | 127]) + struct.pack("!Q", length)
    if not masked:
        return head + payload
    mask = os.urandom(4)
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def close_code_of(s, already=b""):
    data = already
    s.settimeout(10)
    try:
        while chunk := s.recv(65536):
            data += chunk
    except (ConnectionResetError, socket.timeout):
        pass
    # Find the close frame (opcode 8) among what came.
    i = 0
    while i + 2 <= len(data):
        opcode, length = data[i] & 0x0F, data[i + 1] & 0x7F
        header = 2
        if length == 126:
            length, header = struct.unpack("!H", data[i + 2:i + 4])[0], 4
        elif length == 127:
            length, header = struct.unpack("!Q", data[i + 2:i + 10])[0], 10
        if opcode == 8:
            return struct.unpack("!H", data[i + header:i + header + 2])[0] if length >= 2 else None
        i += header + length
    return "no close frame"


@pytest.mark.parametrize("bad,code", [
    pytest.param(frame(1, b'{"type":"ping"}', masked=False), 1002, id="unmasked from the client"),
    pytest.param(frame(0x3, b"x"), 1002, id="a reserved opcode"),
    pytest.param(frame(0x9, b"p" * 126), 1002, id="a ping over 125 bytes"),
    pytest.param(frame(0x9, b"p", fin=False), 1002, id="a fragmented ping"),
    pytest.param(frame(0x8, b"\x03\xe8" + b"x" * 124), 1002, id="a close frame over 125 bytes"),
    pytest.param(frame(0x8, b"\x03"), 1002, id="a close frame whose body is one byte"),
    pytest.param(frame(0xA, b"p", fin=False), 1002, id="a fragmented pong"),
    pytest.param(frame(1, b'{"type":"ping","x":"\xff\xfe"}'), 1007, id="not UTF-8"),
    pytest.param(frame(0, b"continuation without a start"), 1002, id="a continuation without a start"),
])
def test_frames_the_rfc_forbids(host, bad, code):
    s, rest = raw_socket(host)
    s.sendall(bad)
    got = close_code_of(s, rest)
    assert got == code


def test_two_hundred_browsers_at_once(host):
    from websockets.asyncio.client import connect

    async def device(number, ready, go):
        async with connect(f"ws://127.0.0.1:{host.web_port}/ws", origin=host.origin, open_timeout=30) as ws:
            await ws.send(json.dumps({"type": "hello", "id": 1, "protocol": 7,
                                      "device": {"name": f"browser {number}", "kind": "phone"}}))
            welcome = json.loads(await asyncio.wait_for(ws.recv(), 30))
            assert welcome["type"] == "welcome"
            ready.append(number)
            await go.wait()
            while True:
                message = json.loads(await asyncio.wait_for(ws.recv(), 60))
                if message["type"] == "layout":
                    return message["revision"]

    async def main():
        ready, go = [], asyncio.Event()
        tasks = [asyncio.create_task(device(n, ready, go)) for n in range(200)]
        while len(ready) < 200:
            await asyncio.sleep(0.05)
            for t in tasks:
                if t.done() and t.exception():
                    raise t.exception()
        go.set()
        await asyncio.to_thread(host.ctl, "move", "0", "0", "0", "7")
        return await asyncio.gather(*tasks)

    revisions = asyncio.run(main())
    assert len(revisions) == 200 and len(set(revisions)) == 1


def test_browsers_and_tcp_devices_share_the_connection_limit(deck):
    h = deck(extra=["--max-connections", "3"])
    devices = [h.tcp(name="t1"), h.ws(hello=True), h.tcp(name="t2")]
    from websockets.exceptions import ConnectionClosed, InvalidHandshake
    with pytest.raises((ConnectionClosed, InvalidHandshake, OSError, TimeoutError)):
        extra = h.ws(hello=True)  # the fourth: refused, whatever its transport
    devices[0].close()
    import time
    deadline = time.time() + 10
    while True:  # the slot is given back once the host has closed its side
        try:
            h.ws(hello=True)
            break
        except (ConnectionClosed, InvalidHandshake, OSError, TimeoutError):
            assert time.time() < deadline
            time.sleep(0.05)


def test_a_stopping_host_closes_browsers_with_1001(host):
    """RFC 6455 §7.4.1: 1001, going away — the page knows the host stopped, not that the network failed."""
    browser = host.ws(hello=True)
    host.stop()
    assert host.proc.returncode == 0
    assert browser.close_code() == 1001
