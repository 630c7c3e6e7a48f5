#!/usr/bin/env python3
"""A real HTTP(S) server for the media plugin's album-art tests (Tests/MediaPluginTests/ArtFetcherTests.swift,
Tests/e2e/test_media.py): python3's http.server on 127.0.0.1, an ephemeral port, printed as "port N" once
it listens. With --tls CERT KEY it speaks HTTPS with that certificate (a self-signed one the tests make,
which the plugin must refuse).

  /art/NAME.png    a real 1x1 PNG, distinct per NAME (NAME in a tEXt chunk); /art/NAME.svg an SVG
  /octet.png       the PNG of "octet", served as application/octet-stream (the bytes decide, not the type)
  /huge            50 MB announced by Content-Length, streamed until the client stops
  /huge-chunked    50 MB chunked, no length, streamed until the client stops
  /slow            headers and a PNG's first bytes, then nothing until the client leaves
  /loop            a redirect to itself, forever
  /hop/N           N redirects, then /art/hop.png
  /ftp             a redirect to ftp://
  /html            an HTML page with an inline <svg> (text/html)
  /missing         404
  /held/NAME.png   held until "release NAME" arrives on stdin, then the PNG of NAME

Each request is printed as "request PATH"; a held request the client leaves before its release prints
"closed PATH"; stdout is line-buffered so a test can wait on these lines.
"""
import http.server
import select
import socket
import ssl
import struct
import sys
import threading
import zlib

FIFTY_MB = 50 << 20
released = {}
lock = threading.Lock()


def event(name):
    with lock:
        return released.setdefault(name, threading.Event())


def png(name: str) -> bytes:
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0))
            + chunk(b"tEXt", b"Title\0" + name.encode()) + chunk(b"IDAT", zlib.compress(b"\0\xff\0\0"))
            + chunk(b"IEND", b""))


def say(line):
    print(line, flush=True)


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def send(self, status, body, kind="image/png", headers=()):
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        for key, value in headers:
            self.send_header(key, value)
        self.end_headers()
        self.wfile.write(body)

    def redirect(self, where):
        self.send(302, b"", "text/plain", [("Location", where)])

    def stream(self, chunked):
        self.send_response(200)
        self.send_header("Content-Type", "image/jpeg")
        if chunked:
            self.send_header("Transfer-Encoding", "chunked")
        else:
            self.send_header("Content-Length", str(FIFTY_MB))
        self.end_headers()
        piece = b"\xff\xd8\xff" + b"\0" * ((64 << 10) - 3)
        try:
            for _ in range(FIFTY_MB // len(piece)):
                if chunked:
                    self.wfile.write(b"%x\r\n" % len(piece) + piece + b"\r\n")
                else:
                    self.wfile.write(piece)
                piece = b"\0" * len(piece)
            if chunked:
                self.wfile.write(b"0\r\n\r\n")
        except (BrokenPipeError, ConnectionResetError, ssl.SSLError):
            pass

    def wait_until_gone(self):
        """Blocks until the client closes the connection (it reads EOF or an error)."""
        try:
            while True:
                select.select([self.connection], [], [])
                if not self.connection.recv(1, socket.MSG_PEEK):
                    return
        except (OSError, ssl.SSLError):
            return

    def do_GET(self):
        path = self.path
        say(f"request {path}")
        if path.startswith("/art/") and path.endswith(".png"):
            self.send(200, png(path[5:-4]))
        elif path.startswith("/art/") and path.endswith(".svg"):
            self.send(200, b'<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"/>', "image/svg+xml")
        elif path == "/octet.png":
            self.send(200, png("octet"), "application/octet-stream")
        elif path == "/huge":
            self.stream(chunked=False)
        elif path == "/huge-chunked":
            self.stream(chunked=True)
        elif path == "/slow":
            self.send_response(200)
            self.send_header("Content-Type", "image/png")
            self.send_header("Content-Length", "1000")
            self.end_headers()
            self.wfile.write(b"\x89PNG\r\n\x1a\n")
            self.wfile.flush()
            self.wait_until_gone()
        elif path == "/loop":
            self.redirect("/loop")
        elif path.startswith("/hop/"):
            left = int(path[5:])
            self.redirect(f"/hop/{left - 1}" if left > 1 else "/art/hop.png")
        elif path == "/ftp":
            self.redirect("ftp://127.0.0.1/art.png")
        elif path == "/html":
            self.send(200, b"<html><body><svg width='1' height='1'></svg></body></html>", "text/html")
        elif path.startswith("/held/") and path.endswith(".png"):
            name = path[6:-4]
            # Wait for the release, or for the client to leave first.
            gone = threading.Thread(target=self.wait_until_gone, daemon=True)
            gone.start()
            while not event(name).wait(0.05):
                if not gone.is_alive():
                    say(f"closed {path}")
                    return
            self.send(200, png(name))
        else:
            self.send(404, b"not here", "text/plain")


def main():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    if "--tls" in sys.argv:
        at = sys.argv.index("--tls")
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(sys.argv[at + 1], sys.argv[at + 2])
        server.socket = context.wrap_socket(server.socket, server_side=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    say(f"port {server.server_address[1]}")
    for line in sys.stdin:
        words = line.split()
        if len(words) == 2 and words[0] == "release":
            event(words[1]).set()
    server.shutdown()


if __name__ == "__main__":
    main()
