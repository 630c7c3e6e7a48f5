"""A WebSocket-to-TCP relay that serves the web app, for the browser tests
until deckd's own web listener (`deckd --web`, branch webhost) is in the
build: each WebSocket at /ws becomes one TCP device connection to the real
deckd, each text message one line each way (WEB.md §4's mapping). It is the
test's wiring only: deckd, its protocol and Chromium are all real.
"""

import base64
import hashlib
import mimetypes
import os
import socket
import socketserver
import struct
import threading
from http import HTTPStatus

GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
TYPES = {".mjs": "text/javascript", ".js": "text/javascript", ".css": "text/css", ".html": "text/html; charset=utf-8",
         ".webmanifest": "application/manifest+json", ".svg": "image/svg+xml", ".png": "image/png"}


def read_frame(stream):
    """One WebSocket frame from a client: (opcode, payload), or None at the end."""
    head = stream.read(2)
    if len(head) < 2:
        return None
    opcode, length = head[0] & 0x0F, head[1] & 0x7F
    if length == 126:
        length = struct.unpack(">H", stream.read(2))[0]
    elif length == 127:
        length = struct.unpack(">Q", stream.read(8))[0]
    mask = stream.read(4) if head[1] & 0x80 else b"\0\0\0\0"
    data = bytearray(stream.read(length))
    for i in range(len(data)):
        data[i] ^= mask[i % 4]
    return opcode, bytes(data)


def frame(opcode, payload):
    """An unmasked server frame."""
    n = len(payload)
    if n < 126:
        head = struct.pack(">BB", 0x80 | opcode, n)
    elif n < 65536:
        head = struct.pack(">BBH", 0x80 | opcode, 126, n)
    else:
        head = struct.pack(">BBQ", 0x80 | opcode, 127, n)
    return head + payload


class Handler(socketserver.StreamRequestHandler):
    def handle(self):
        line = self.rfile.readline(8192).decode("latin-1")
        if not line:
            return
        method, path, _ = (line.split(" ") + ["", ""])[:3]
        headers = {}
        while True:
            header = self.rfile.readline(8192).decode("latin-1").strip()
            if not header:
                break
            name, _, value = header.partition(":")
            headers[name.strip().lower()] = value.strip()
        path = path.split("?")[0].split("#")[0]
        if path == "/ws" and headers.get("upgrade", "").lower() == "websocket":
            return self.relay(headers)
        self.serve_file(method, path)

    def serve_file(self, method, path):
        root = self.server.app_root
        if path.startswith("/icons/"):
            return self.answer(HTTPStatus.NOT_FOUND, b"no icons in the test relay", "text/plain")
        target = os.path.realpath(os.path.join(root, path.lstrip("/") or "index.html"))
        if not target.startswith(root + os.sep) or not os.path.isfile(target):
            return self.answer(HTTPStatus.NOT_FOUND, b"not found", "text/plain")
        with open(target, "rb") as f:
            body = f.read()
        kind = TYPES.get(os.path.splitext(target)[1]) or mimetypes.guess_type(target)[0] or "application/octet-stream"
        self.answer(HTTPStatus.OK, body if method != "HEAD" else b"", kind, len(body))

    def answer(self, status, body, kind, length=None):
        head = (f"HTTP/1.1 {status.value} {status.phrase}\r\nContent-Type: {kind}\r\n"
                f"Content-Length: {len(body) if length is None else length}\r\nCache-Control: no-cache\r\n"
                "Connection: close\r\n\r\n")
        self.wfile.write(head.encode() + body)

    def relay(self, headers):
        accept = base64.b64encode(hashlib.sha1((headers["sec-websocket-key"] + GUID).encode()).digest()).decode()
        upstream = socket.create_connection(("127.0.0.1", self.server.deck_port))
        self.server.track(upstream)
        self.wfile.write(("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                          f"Sec-WebSocket-Accept: {accept}\r\n\r\n").encode())
        lock = threading.Lock()

        def send(opcode, payload):
            with lock:
                try:
                    self.wfile.write(frame(opcode, payload))
                    self.wfile.flush()
                except (OSError, ValueError):  # the browser's side already closed
                    pass

        def host_to_browser():
            reader = upstream.makefile("rb")
            for line in reader:
                send(0x1, line.rstrip(b"\n"))
            send(0x8, struct.pack(">H", 1001))
            try:
                self.connection.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

        threading.Thread(target=host_to_browser, daemon=True).start()
        while True:
            got = read_frame(self.rfile)
            if got is None or got[0] == 0x8:
                break
            opcode, payload = got
            if opcode == 0x9:
                send(0xA, payload)
            elif opcode == 0x1:
                try:
                    upstream.sendall(payload + b"\n")
                except OSError:
                    break
        try:
            upstream.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        upstream.close()


class Relay(socketserver.ThreadingTCPServer):
    """Serves `app_root` and relays /ws to deckd's TCP port on an ephemeral port of its own."""
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, app_root, deck_port):
        super().__init__(("127.0.0.1", 0), Handler)
        self.app_root = os.path.realpath(app_root)
        self.deck_port = deck_port
        self.upstreams = []
        threading.Thread(target=self.serve_forever, daemon=True).start()

    def track(self, upstream):
        self.upstreams.append(upstream)

    @property
    def port(self):
        return self.server_address[1]

    def retarget(self, deck_port):
        """Points new connections at another deckd (after a restart on a new port)."""
        self.deck_port = deck_port

    def close(self):
        self.shutdown()
        self.server_close()
        for upstream in self.upstreams:
            try:
                upstream.close()
            except OSError:
                pass
