"""A device on another address than loopback, in a network namespace joined
to this one by a veth pair; tcpdump on the veth sees what crosses the "Wi-Fi".

Without TLS the token and the pairing code are in the capture (so the test
proves it can see them); with TLS they never are. Only this test's own
namespace addresses are targets.
"""
import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tls_host import Host

CLIENT = Path(__file__).with_name("netns_client.py")


def run(*args, check=True):
    return subprocess.run(args, capture_output=True, text=True, check=check, timeout=30)


@pytest.fixture
def veth():
    """(namespace, host-side interface, host address, device address); skipped loudly when namespaces cannot be made."""
    tag = f"{os.getpid() % 10000}{random.randrange(100)}"
    namespace, outside, inside = f"decktls{tag}", f"dkt{tag}a", f"dkt{tag}b"
    subnet = random.randrange(1, 250)
    host_address, device_address = f"10.231.{subnet}.1", f"10.231.{subnet}.2"
    made = run("ip", "netns", "add", namespace, check=False)
    if made.returncode != 0:
        message = f"SKIPPED LOUDLY: cannot make a network namespace here ({made.stderr.strip()}); " \
                  "the capture test of TLS did not run"
        print(message, file=sys.stderr)
        pytest.skip(message)
    try:
        run("ip", "link", "add", outside, "type", "veth", "peer", "name", inside)
        run("ip", "link", "set", inside, "netns", namespace)
        run("ip", "addr", "add", f"{host_address}/30", "dev", outside)
        run("ip", "link", "set", outside, "up")
        run("ip", "netns", "exec", namespace, "ip", "addr", "add", f"{device_address}/30", "dev", inside)
        run("ip", "netns", "exec", namespace, "ip", "link", "set", inside, "up")
        run("ip", "netns", "exec", namespace, "ip", "link", "set", "lo", "up")
        yield namespace, outside, host_address, device_address
    finally:
        run("ip", "link", "del", outside, check=False)
        run("ip", "netns", "del", namespace, check=False)


class Capture:
    def __init__(self, interface, folder):
        self.path = folder / f"{interface}.pcap"
        self.process = subprocess.Popen(["tcpdump", "-i", interface, "--immediate-mode", "-U", "-n", "-s", "0",
                                         "-w", str(self.path)],
                                        stderr=subprocess.PIPE, stdout=subprocess.DEVNULL)
        # tcpdump says "listening on IFACE" once it captures: the signal to start.
        line = self.process.stderr.readline().decode()
        assert "listening on" in line, f"tcpdump did not start: {line}"

    def stop(self, marker):
        """Stops once the client's closing marker datagram is in the file: everything before it is too."""
        deadline = time.monotonic() + 20
        while marker not in self.path.read_bytes():
            assert time.monotonic() < deadline, "the capture never saw the client's end marker"
            time.sleep(0.05)
        self.process.send_signal(signal.SIGINT)
        self.process.wait(10)
        return self.path.read_bytes()


def secrets_over_the_wire(host, namespace, host_address, token, code, use_tls, fingerprint, web_code):
    args = ["ip", "netns", "exec", namespace, sys.executable, str(CLIENT), host_address, str(host.port), token, code,
            "tls" if use_tls else "plain", fingerprint or "-", str(host.web_port or "-"), web_code or "-"]
    started = time.monotonic()
    result = subprocess.run(args, capture_output=True, text=True, timeout=60)
    if result.returncode != 0:
        # Said whole: what the client saw, how long it took, and what deckd logged (or how it ended).
        status = host.process.poll()
        raise AssertionError(
            f"client in the namespace failed after {time.monotonic() - started:.2f} s: {result.stdout}{result.stderr}\n"
            f"deckd {'still running' if status is None else f'ended with {status}'}; its log:\n" + "\n".join(host.log))
    return json.loads(result.stdout)


def pairing_code(host, name="phone-code"):
    reply = json.loads(host.deckctl("pair", name, "--json"))
    return (reply.get("pairing") or reply).get("code")


def pairing(host, name):
    reply = json.loads(host.deckctl("pair", name, "--json"))
    return (reply.get("pairing") or reply).get("code"), reply["token"]


@pytest.mark.parametrize("use_tls", [False, True], ids=["plain", "tls"])
def test_token_and_pairing_code_cross_the_veth_only_in_the_clear_without_tls(veth, tmp_path, use_tls):
    namespace, interface, host_address, _ = veth
    web = ["--web", f"{host_address}:0"]
    host = Host(*(["--tls", "auto"] if use_tls else []), *web, listen=f"{host_address}:0")
    try:
        token = json.loads(host.deckctl("pair", "phone", "--json"))["token"]
        code = pairing_code(host)
        # Before the web listener's pairing codes exist the hello still carries a code-shaped secret.
        code_sent = code or "K7Q2-9XMD"
        web_code, web_token = pairing(host, "browser") if host.web_port else (None, None)
        fingerprint = host.fingerprint_from_log() if use_tls else None
        capture = Capture(interface, tmp_path)
        outcome = secrets_over_the_wire(host, namespace, host_address, token, code_sent, use_tls, fingerprint, web_code)
        packets = capture.stop(outcome["marker"].encode())
    finally:
        host.stop()
    assert outcome["welcome"] == "welcome", outcome
    if code:
        assert outcome["paired"] == "welcome", outcome
    assert len(packets) > 200, "the capture saw nothing"
    seen = {"token": token.encode() in packets, "pairing code": code_sent.encode() in packets,
            "hello": b'"hello"' in packets}
    if web_code:
        assert outcome["webWelcome"] == "welcome" and outcome["webPaired"] == "welcome", outcome
        # A WebSocket client masks its frames (RFC 6455: not encryption, the key travels with the frame), so a
        # plain grep cannot see the code it sends; the host's welcome is unmasked and carries the token the
        # code paired: that secret is in the clear without TLS.
        seen["web token in the welcome"] = web_token.encode() in packets
        seen["web upgrade"] = b"Upgrade: websocket" in packets or b"upgrade: websocket" in packets
    if use_tls:
        assert b"\x16\x03" in packets, "no TLS handshake record in the capture"
        assert not any(seen.values()), f"visible through TLS: {seen}"
    else:
        assert all(seen.values()), f"the capture should see the plaintext secrets: {seen}"
