"""A real deckd for the TLS end-to-end tests, and TLS clients to talk to it.

Each host gets its own temporary folders and ephemeral ports (port 0; the
`deckd ready` line says which), so tests run side by side.
"""
import hashlib
import json
import os
import re
import socket
import ssl
import subprocess
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def bin_dir():
    env = os.environ.get("DECK_BIN")
    if env:
        return Path(env)
    out = subprocess.run(["swift", "build", "--show-bin-path"], cwd=ROOT, check=True,
                         capture_output=True, text=True).stdout.strip()
    return Path(out)


class Host:
    """deckd in a temporary folder; `log` collects its stderr lines as they come."""

    def __init__(self, *args, listen="127.0.0.1:0", folder=None, ready_timeout=60):
        self.folder = Path(folder or tempfile.mkdtemp(prefix="deck-tls-e2e-"))
        os.chmod(self.folder, 0o700)
        (self.folder / "layouts").mkdir(exist_ok=True)
        (self.folder / "layouts" / "default.yaml").write_text(
            "name: default\npages:\n  - buttons:\n      0: {name: Files, action: {run: \"true\"}}\n")
        self.control = self.folder / "control.sock"
        self.state = self.folder / "state"
        command = [str(bin_dir() / "deckd"), "--layouts", str(self.folder / "layouts"),
                   "--state", str(self.state), "--control", str(self.control),
                   "--listen", listen, "--plugins", str(self.folder / "plugins"), *args]
        if "--web" not in args and "--no-web" not in args:
            command += ["--no-web"]
        self.process = subprocess.Popen(command, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
        self.log = []
        self._changed = threading.Condition()
        threading.Thread(target=self._drain, daemon=True).start()
        ready = self.wait_for("deckd ready", ready_timeout)
        self.port = int(re.search(r":(\d+) \(devices", ready).group(1))
        web = re.search(r":(\d+)/? \(web", ready)
        self.web_port = int(web.group(1)) if web else None

    def _drain(self):
        for raw in self.process.stderr:
            with self._changed:
                self.log.append(raw.decode(errors="replace").rstrip("\n"))
                self._changed.notify_all()
        with self._changed:
            self._changed.notify_all()

    def wait_for(self, text, timeout=30):
        """The first log line containing `text`, waiting for it to be written."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while True:
                for line in self.log:
                    if text in line:
                        return line
                left = deadline - time.monotonic()
                if left <= 0 or (self.process.poll() is not None and not self._pending()):
                    raise AssertionError(f"deckd never logged {text!r}; log:\n" + "\n".join(self.log))
                self._changed.wait(min(left, 0.5))

    def _pending(self):
        return False

    def lines_with(self, text):
        with self._changed:
            return [line for line in self.log if text in line]

    def deckctl(self, *args):
        result = subprocess.run([str(bin_dir() / "deckctl"), "--control", str(self.control), *args],
                                capture_output=True, text=True, timeout=30)
        assert result.returncode == 0, f"deckctl {args}: {result.stderr}"
        return result.stdout

    def fingerprint_from_log(self):
        line = self.wait_for("fingerprint")
        return re.search(r"\b([0-9a-f]{64})\b", line).group(1)

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def pinning_context():
    """A client context that trusts no CA: the test pins the certificate by its fingerprint instead."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    return context


def fingerprint(tls_socket):
    return hashlib.sha256(tls_socket.getpeercert(binary_form=True)).hexdigest()


class Lines:
    """NDJSON over any socket (plain or TLS)."""

    def __init__(self, sock):
        self.sock = sock
        self.buffer = b""

    def send(self, message):
        self.sock.sendall((json.dumps(message) + "\n").encode())

    def recv(self, timeout=10):
        deadline = time.monotonic() + timeout
        while b"\n" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("no line")
            self.sock.settimeout(left)
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("closed")
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return json.loads(line)

    def until(self, kind, timeout=10):
        deadline = time.monotonic() + timeout
        while True:
            message = self.recv(max(0.01, deadline - time.monotonic()))
            if message.get("type") == kind:
                return message


def hello(name="tls-test", token=None, pairing_code=None):
    message = {"type": "hello", "id": 1, "protocol": 7, "device": {"name": name, "kind": "phone"}}
    if token:
        message["token"] = token
    if pairing_code:
        message["pairingCode"] = pairing_code
    return message


def tls_connect(port, context=None, host="127.0.0.1", server_hostname=None, timeout=10):
    raw = socket.create_connection((host, port), timeout=timeout)
    raw.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return (context or pinning_context()).wrap_socket(raw, server_hostname=server_hostname)


def closed_without_answer(sock, timeout=10):
    """True when the peer closes (FIN or reset) having sent nothing."""
    sock.settimeout(timeout)
    try:
        return sock.recv(4096) == b""
    except ConnectionResetError:
        return True


def make_ca(folder, names=("localhost",), addresses=("127.0.0.1",)):
    """A local CA and a server certificate it signed, made with the openssl command."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)

    def run(*args):
        subprocess.run(["openssl", *args], check=True, capture_output=True, cwd=folder)

    run("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "2",
        "-subj", "/CN=deck test CA", "-keyout", "ca.key", "-out", "ca.pem",
        "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign")
    issue(folder, "server", names, addresses)
    return folder / "ca.pem", folder / "server.pem", folder / "server.key"


def issue(folder, stem, names=("localhost",), addresses=("127.0.0.1",)):
    """A new server key and certificate `stem`.pem/.key signed by the CA in `folder`."""
    folder = Path(folder)

    def run(*args):
        subprocess.run(["openssl", *args], check=True, capture_output=True, cwd=folder)

    san = ",".join([f"DNS:{n}" for n in names] + [f"IP:{a}" for a in addresses])
    (folder / f"{stem}.ext").write_text(f"subjectAltName={san}\nextendedKeyUsage=serverAuth\n")
    run("req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-subj", "/CN=localhost",
        "-keyout", f"{stem}.key", "-out", f"{stem}.csr")
    run("x509", "-req", "-in", f"{stem}.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
        "-days", "2", "-extfile", f"{stem}.ext", "-out", f"{stem}.pem")
    return folder / f"{stem}.pem", folder / f"{stem}.key"
