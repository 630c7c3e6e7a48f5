"""The device in the network namespace (run by test_tls_netns.py with ip netns exec).

argv: HOST PORT TOKEN CODE plain|tls FINGERPRINT|- WEBPORT|- WEBCODE|-
Sends one hello with the token and one with the pairing code on the device
port, and the same over the web listener's WebSocket (ws:// or wss://) when
a web port is given; prints the types of the replies as JSON.
"""
import asyncio
import hashlib
import json
import socket
import ssl
import sys

host, port, token, code, mode, pinned = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5], sys.argv[6]
web_port, web_code = sys.argv[7], sys.argv[8]


def tls_context():
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    return context


def connect():
    raw = socket.create_connection((host, port), timeout=20)
    if mode == "plain":
        return raw
    wrapped = tls_context().wrap_socket(raw)
    served = hashlib.sha256(wrapped.getpeercert(binary_form=True)).hexdigest()
    if served != pinned:
        raise SystemExit(f"pinned {pinned}, served {served}: refusing to send the token")
    return wrapped


def exchange(field, value):
    sock = connect()
    hello = {"type": "hello", "id": 1, "protocol": 7, "device": {"name": "netns phone", "kind": "phone"}, field: value}
    sock.sendall((json.dumps(hello) + "\n").encode())
    buffer = b""
    while b"\n" not in buffer:
        chunk = sock.recv(65536)
        if not chunk:
            break
        buffer += chunk
    sock.close()
    return json.loads(buffer.split(b"\n")[0])["type"] if buffer else "closed"


def web_exchange(field, value):
    return asyncio.run(web_exchange_async(field, value))


async def web_exchange_async(field, value):
    # The asyncio client, not websockets.sync: the sync client reads on a thread of its own while the caller
    # writes, and one ssl.SSLSocket used by two threads at once is a race in OpenSSL. Under load (about 1 in
    # 100 connections) its upgrade request never left the client: deckd's socket had received only the
    # ClientHello and the Finished (597 bytes), and it closed the silent connection after its 10 s.
    from websockets.asyncio.client import connect as ws_connect
    scheme = "wss" if mode == "tls" else "ws"
    options = {"ssl": tls_context()} if mode == "tls" else {}
    async with ws_connect(f"{scheme}://{host}:{web_port}/ws", open_timeout=20, **options) as ws:
        if mode == "tls":
            certificate = ws.transport.get_extra_info("ssl_object").getpeercert(binary_form=True)
            served = hashlib.sha256(certificate).hexdigest()
            if served != pinned:
                raise SystemExit(f"pinned {pinned}, served {served}: refusing to send the token")
        hello = {"type": "hello", "id": 1, "protocol": 7, "device": {"name": "netns browser", "kind": "phone"},
                 field: value}
        await ws.send(json.dumps(hello))
        return json.loads(await asyncio.wait_for(ws.recv(), 20))["type"]


result = {"welcome": exchange("token", token), "paired": exchange("pairingCode", code)}
if web_port != "-":
    result["webWelcome"] = web_exchange("token", token)
    result["webPaired"] = web_exchange("pairingCode", web_code)
# A datagram after everything else: once the capture holds it, it holds all before it.
result["marker"] = f"deck-capture-end-{port}"
marker = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
marker.sendto(result["marker"].encode(), (host, 9))
print(json.dumps(result))
