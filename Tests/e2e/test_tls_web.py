"""HTTPS and WSS on the web listener (SECURITY.md §2, WEB.md §4): the same
TLS layer as the device port, beneath HTTP and the WebSocket."""
import asyncio
import http.client
import json
import socket
import ssl

import pytest

from tls_host import Host, closed_without_answer, fingerprint, make_ca, pinning_context, tls_connect

websockets = pytest.importorskip("websockets")


@pytest.fixture(scope="module")
def host():
    running = Host("--tls", "auto", "--web", "127.0.0.1:0")
    yield running
    running.stop()


def https_get(port, path, context=None, server_hostname="127.0.0.1"):
    connection = http.client.HTTPSConnection("127.0.0.1", port, context=context or pinning_context(), timeout=10)
    if server_hostname != "127.0.0.1":
        connection = http.client.HTTPSConnection(server_hostname, port, context=context, timeout=10)
    connection.request("GET", path)
    response = connection.getresponse()
    body = response.read()
    headers = dict(response.getheaders())
    connection.close()
    return response.status, headers, body


def test_https_serves_the_page_with_the_same_certificate(host):
    status, headers, _ = https_get(host.web_port, "/")
    assert status == 200
    assert headers.get("X-Content-Type-Options") == "nosniff"
    with tls_connect(host.web_port) as tls:
        assert fingerprint(tls) == host.fingerprint_from_log()


def test_plain_http_on_the_https_port_gets_nothing(host):
    plain = socket.create_connection(("127.0.0.1", host.web_port), timeout=10)
    plain.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    assert closed_without_answer(plain)
    plain.close()


async def wss_hello(port, origin):
    uri = f"wss://127.0.0.1:{port}/ws"
    async with websockets.connect(uri, ssl=pinning_context(), origin=origin, open_timeout=10) as socket_:
        await socket_.send(json.dumps({"type": "hello", "id": 1, "protocol": 7,
                                       "device": {"name": "wss phone", "kind": "phone"}}))
        welcome = json.loads(await asyncio.wait_for(socket_.recv(), 10))
        await socket_.send(json.dumps({"type": "ping", "id": 2}))
        while True:
            reply = json.loads(await asyncio.wait_for(socket_.recv(), 10))
            if reply.get("type") == "pong":
                return welcome, reply


def test_wss_carries_the_device_protocol_with_an_https_origin(host):
    welcome, pong = asyncio.run(wss_hello(host.web_port, f"https://127.0.0.1:{host.web_port}"))
    assert welcome["type"] == "welcome"
    assert pong == {"type": "pong", "id": 2}


def test_wss_refuses_the_http_origin_once_tls_is_on(host):
    with pytest.raises(Exception) as refused:
        asyncio.run(wss_hello(host.web_port, f"http://127.0.0.1:{host.web_port}"))
    assert "403" in str(refused.value), refused.value


def test_a_real_certificate_serves_https_and_wss_without_a_warning(tmp_path):
    ca, certificate, key = make_ca(tmp_path / "ca")
    real = Host("--tls-cert", str(certificate), "--tls-key", str(key), "--web", "127.0.0.1:0")
    try:
        trusting = ssl.create_default_context(cafile=str(ca))
        status, _, _ = https_get(real.web_port, "/", context=trusting, server_hostname="localhost")
        assert status == 200

        async def verified():
            uri = f"wss://localhost:{real.web_port}/ws"
            async with websockets.connect(uri, ssl=trusting, origin=f"https://localhost:{real.web_port}") as ws:
                await ws.send(json.dumps({"type": "hello", "id": 1, "protocol": 7, "device": {"name": "ca", "kind": "phone"}}))
                return json.loads(await asyncio.wait_for(ws.recv(), 10))

        reply = asyncio.run(verified())
        assert reply["type"] == "welcome", reply
    finally:
        real.stop()


def test_pairing_link_is_https_with_the_fingerprint_and_pairs_over_wss(host):
    reply = json.loads(host.deckctl("pair", "phone", "--json"))
    fp = host.fingerprint_from_log()
    link = reply["pairing"]["link"] if "pairing" in reply else reply["link"]
    code = reply["pairing"]["code"] if "pairing" in reply else reply["code"]
    assert link.startswith(f"https://127.0.0.1:{host.web_port}/#pair="), link
    assert link.endswith(f"&fp={fp}"), link

    async def paired():
        uri = f"wss://127.0.0.1:{host.web_port}/ws"
        async with websockets.connect(uri, ssl=pinning_context(), origin=f"https://127.0.0.1:{host.web_port}") as ws:
            await ws.send(json.dumps({"type": "hello", "id": 1, "protocol": 7,
                                      "device": {"name": "scanned", "kind": "phone"}, "pairingCode": code}))
            return json.loads(await asyncio.wait_for(ws.recv(), 10))

    welcome = asyncio.run(paired())
    assert welcome["type"] == "welcome" and welcome["token"] == reply["token"], welcome
    text = host.deckctl("pair", "tablet", "--no-qr")
    assert f"&fp={fp}" in text and "https://" in text
