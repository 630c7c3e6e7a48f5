"""TLS on the device port (SECURITY.md §2) with real clients: Python's ssl
module and `openssl s_client`, pinning by fingerprint, a local CA."""
import json
import os
import re
import signal
import socket
import ssl
import stat
import subprocess
import time

import pytest

from tls_host import (Host, Lines, closed_without_answer, fingerprint, hello, issue, make_ca, pinning_context,
                      tls_connect)


@pytest.fixture
def auto_host():
    host = Host("--tls", "auto", "--require-token")
    yield host
    host.stop()


def paired_token(host, name="phone"):
    return json.loads(host.deckctl("pair", name, "--json"))["token"]


def test_python_client_pins_the_fingerprint_and_is_a_device(auto_host):
    expected = auto_host.fingerprint_from_log()
    token = paired_token(auto_host)
    with tls_connect(auto_host.port) as tls:
        assert fingerprint(tls) == expected, "the certificate served is not the one whose fingerprint was shown"
        assert tls.version() in ("TLSv1.2", "TLSv1.3")
        lines = Lines(tls)
        lines.send(hello(token=token))
        welcome = lines.recv()
        assert welcome["type"] == "welcome", welcome
        lines.send({"type": "ping", "id": 2})
        assert lines.until("pong")["id"] == 2


def test_a_device_pinning_another_fingerprint_would_refuse(auto_host):
    # What a native app does with fp=: compare before it sends its token.
    with tls_connect(auto_host.port) as tls:
        assert fingerprint(tls) != "0" * 64
        assert re.fullmatch(r"[0-9a-f]{64}", fingerprint(tls))


def test_openssl_s_client_speaks_ndjson_over_tls(auto_host):
    token = paired_token(auto_host)
    request = json.dumps(hello(token=token)) + "\n" + json.dumps({"type": "ping", "id": 5}) + "\n"
    process = subprocess.Popen(["openssl", "s_client", "-connect", f"127.0.0.1:{auto_host.port}", "-quiet",
                                "-verify_quiet"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE)
    process.stdin.write(request.encode())
    process.stdin.flush()
    seen = b""
    deadline = time.monotonic() + 20
    while b'"pong"' not in seen and time.monotonic() < deadline:
        chunk = process.stdout.read1(65536)
        if not chunk:
            break
        seen += chunk
    process.kill()
    process.wait()
    assert b'"welcome"' in seen and b'"pong"' in seen, seen


def test_plain_client_on_the_tls_port_gets_nothing_and_is_closed(auto_host):
    token = paired_token(auto_host)
    plain = socket.create_connection(("127.0.0.1", auto_host.port), timeout=10)
    plain.sendall((json.dumps(hello(token=token)) + "\n").encode())
    assert closed_without_answer(plain)
    plain.close()
    # Nothing reached the session layer: no device named tls-test connected.
    assert "tls-test" not in auto_host.deckctl("status")


@pytest.mark.filterwarnings("ignore::DeprecationWarning")  # offering them is the point
@pytest.mark.parametrize("version", [ssl.TLSVersion.TLSv1, ssl.TLSVersion.TLSv1_1])
def test_old_protocol_versions_are_refused(auto_host, version):
    context = pinning_context()
    try:
        context.minimum_version = version
        context.maximum_version = version
        context.set_ciphers("ALL:@SECLEVEL=0")
    except (ValueError, ssl.SSLError) as error:
        pytest.skip(f"this Python's OpenSSL cannot even offer {version}: {error}")
    with pytest.raises((ssl.SSLError, ConnectionResetError)):
        tls_connect(auto_host.port, context=context).close()


def test_non_forward_secret_suite_is_refused(auto_host):
    context = pinning_context()
    context.maximum_version = ssl.TLSVersion.TLSv1_2
    context.set_ciphers("AES128-GCM-SHA256:AES256-GCM-SHA384:AES128-SHA")  # RSA key exchange only
    with pytest.raises((ssl.SSLError, ConnectionResetError)):
        tls_connect(auto_host.port, context=context).close()


def test_handshake_counts_toward_the_hello_timeout():
    host = Host("--tls", "auto", "--hello-timeout", "400")
    try:
        silent = socket.create_connection(("127.0.0.1", host.port), timeout=10)
        started = time.monotonic()
        assert closed_without_answer(silent, timeout=10)
        assert time.monotonic() - started < 8, "a client that never finished its handshake was kept past the timeout"
        # Half a ClientHello: a record header promising more than is sent.
        half = socket.create_connection(("127.0.0.1", host.port), timeout=10)
        half.sendall(bytes([0x16, 0x03, 0x01, 0x02, 0x00, 0x01]))
        assert closed_without_answer(half, timeout=10)
        silent.close()
        half.close()
    finally:
        host.stop()


def test_auto_certificate_is_kept_across_restarts_with_a_private_key():
    first = Host("--tls", "auto")
    folder = first.folder
    try:
        fp = first.fingerprint_from_log()
        assert first.lines_with("made a self-signed certificate")
    finally:
        first.stop()
    key = folder / "state" / "tls" / "key.pem"
    assert stat.S_IMODE(os.stat(key).st_mode) == 0o600
    second = Host("--tls", "auto", folder=folder)
    try:
        assert second.fingerprint_from_log() == fp
        assert not second.lines_with("made a self-signed certificate")
        with tls_connect(second.port) as tls:
            assert fingerprint(tls) == fp
    finally:
        second.stop()


def test_certificate_from_a_trusted_ca_verifies_without_a_warning(tmp_path):
    ca, certificate, key = make_ca(tmp_path / "ca")
    host = Host("--tls-cert", str(certificate), "--tls-key", str(key))
    try:
        trusting = ssl.create_default_context(cafile=str(ca))  # verifies chain and host name
        with tls_connect(host.port, context=trusting, server_hostname="localhost") as tls:
            lines = Lines(tls)
            lines.send(hello())
            assert lines.recv()["type"] == "welcome"
        # The same client refuses a certificate no CA it trusts signed (the self-signed one).
        other = Host("--tls", "auto")
        try:
            with pytest.raises(ssl.SSLCertVerificationError):
                tls_connect(other.port, context=trusting, server_hostname="localhost")
        finally:
            other.stop()
    finally:
        host.stop()


def test_sighup_rereads_the_certificate_files(tmp_path):
    ca, certificate, key = make_ca(tmp_path / "ca")
    host = Host("--tls-cert", str(certificate), "--tls-key", str(key))
    try:
        old = host.fingerprint_from_log()
        kept = tls_connect(host.port)
        kept_lines = Lines(kept)
        kept_lines.send(hello(name="kept"))
        assert kept_lines.recv()["type"] == "welcome"
        renewed_cert, renewed_key = issue(tmp_path / "ca", "renewed")
        os.replace(renewed_key, key)
        os.replace(renewed_cert, certificate)
        host.process.send_signal(signal.SIGHUP)
        line = host.wait_for("serving the new TLS certificate")
        new = re.search(r"[0-9a-f]{64}", line).group(0)
        assert new != old
        with tls_connect(host.port) as tls:
            assert fingerprint(tls) == new
        # A connection made before the renewal keeps working.
        kept_lines.send({"type": "ping", "id": 9})
        assert kept_lines.until("pong")["id"] == 9
        # A broken file keeps the certificate in use.
        certificate.write_text("not a certificate\n")
        host.process.send_signal(signal.SIGHUP)
        host.wait_for("still serving the certificate read before")
        with tls_connect(host.port) as tls:
            assert fingerprint(tls) == new
        kept.close()
    finally:
        host.stop()


def test_bad_certificate_files_are_a_clear_start_error(tmp_path):
    missing = tmp_path / "missing.pem"
    from tls_host import bin_dir
    result = subprocess.run([str(bin_dir() / "deckd"), "--layouts", str(tmp_path), "--state", str(tmp_path / "s"),
                             "--control", str(tmp_path / "c.sock"), "--listen", "127.0.0.1:0",
                             "--tls-cert", str(missing), "--tls-key", str(missing)],
                            capture_output=True, text=True, timeout=30)
    assert result.returncode == 78, result.stderr
    assert str(missing) in result.stderr and "--tls-cert" in result.stderr


def test_tls_cert_without_key_is_a_usage_error(tmp_path):
    from tls_host import bin_dir
    result = subprocess.run([str(bin_dir() / "deckd"), "--tls-cert", str(tmp_path / "a.pem")],
                            capture_output=True, text=True, timeout=30)
    assert result.returncode == 2
    assert "--tls-cert needs --tls-key FILE as well" in result.stderr


def test_plain_listener_off_loopback_warns_once_and_tls_does_not():
    plain = Host(listen="0.0.0.0:0")
    try:
        warnings = plain.lines_with("without TLS")
        assert len(warnings) == 1 and "--tls auto" in warnings[0]
    finally:
        plain.stop()
    secure = Host("--tls", "auto", listen="0.0.0.0:0")
    try:
        assert not secure.lines_with("without TLS")
    finally:
        secure.stop()
    loopback = Host()
    try:
        assert not loopback.lines_with("without TLS")
    finally:
        loopback.stop()


def test_status_and_pair_show_the_fingerprint(auto_host):
    expected = auto_host.fingerprint_from_log()
    status = json.loads(auto_host.deckctl("status", "--json"))
    assert status["tls"] == {"fingerprint": expected}
    assert f"tls:       on, certificate SHA-256 {expected}" in auto_host.deckctl("status")
    text = auto_host.deckctl("pair", "tablet")
    assert expected in text and "pin" in text
    # --json prints the one reply, nothing after it.
    assert json.loads(auto_host.deckctl("pair", "tablet2", "--json"))["type"] == "paired"


def test_status_says_tls_is_off_on_a_plain_host():
    host = Host()
    try:
        assert "tls" not in json.loads(host.deckctl("status", "--json"))
        assert "tls:       off" in host.deckctl("status")
    finally:
        host.stop()
