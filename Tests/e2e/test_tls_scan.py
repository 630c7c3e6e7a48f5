"""A TLS scanner from PyPI (sslyze) against the device port and the web port:
SECURITY.md §2's rules as a third party checks them."""
import json
import subprocess
import sys

import pytest

from tls_host import Host

SCANS = ["--sslv2", "--sslv3", "--tlsv1", "--tlsv1_1", "--tlsv1_2", "--tlsv1_3", "--compression", "--reneg",
         "--heartbleed", "--fallback", "--elliptic_curves"]
OLD_VERSIONS = ["ssl_2_0_cipher_suites", "ssl_3_0_cipher_suites", "tls_1_0_cipher_suites", "tls_1_1_cipher_suites"]


@pytest.fixture(scope="module")
def host():
    running = Host("--tls", "auto", "--web", "127.0.0.1:0")
    yield running
    running.stop()


def scan(port, folder):
    out = folder / "sslyze.json"
    result = subprocess.run([sys.executable, "-m", "sslyze", f"127.0.0.1:{port}", *SCANS, f"--json_out={out}"],
                            capture_output=True, text=True, timeout=300)
    assert out.exists(), f"sslyze wrote no result: {result.stdout}\n{result.stderr}"
    report = json.loads(out.read_text())
    (server,) = report["server_scan_results"]
    assert server["scan_status"] == "COMPLETED", server
    return server["scan_result"]


def ports(host):
    yield "device", host.port
    if host.web_port is not None:
        yield "web", host.web_port


def check(results):
    for name, attempt in results.items():
        if name in ("certificate_info", "robot", "http_headers", "session_resumption", "tls_1_3_early_data",
                    "openssl_ccs_injection", "tls_extended_master_secret") or attempt["status"] == "NOT_SCHEDULED":
            continue
        assert attempt["status"] == "COMPLETED", f"{name}: {attempt['error_reason']}"
    for version in OLD_VERSIONS:
        assert results[version]["result"]["accepted_cipher_suites"] == [], f"{version} accepted"
    accepted = []
    for version in ("tls_1_2_cipher_suites", "tls_1_3_cipher_suites"):
        for suite in results[version]["result"]["accepted_cipher_suites"]:
            accepted.append((version, suite))
    assert accepted, "no TLS 1.2 or 1.3 suite accepted"
    assert results["tls_1_3_cipher_suites"]["result"]["is_tls_version_supported"]
    for version, suite in accepted:
        name = suite["cipher_suite"]["name"]
        assert not suite["cipher_suite"]["is_anonymous"], name
        assert suite["cipher_suite"]["key_size"] >= 128, name
        assert suite["ephemeral_key"] is not None, f"{name} is not forward-secret"
        assert not any(weak in name for weak in ("CBC", "RC4", "3DES", "DES_", "NULL", "EXPORT", "MD5")), name
        assert not name.endswith("_SHA"), f"{name} uses a SHA-1 MAC"
        if version == "tls_1_2_cipher_suites":
            assert name.startswith("TLS_ECDHE_"), f"{name} is not forward-secret"
    assert results["tls_compression"]["result"]["supports_compression"] is False
    renegotiation = results["session_renegotiation"]["result"]
    assert renegotiation["is_vulnerable_to_client_renegotiation_dos"] is False
    assert renegotiation["client_renegotiations_success_count"] == 0
    assert results["heartbleed"]["result"]["is_vulnerable_to_heartbleed"] is False
    assert results["tls_fallback_scsv"]["result"]["supports_fallback_scsv"] is True
    return [suite["cipher_suite"]["name"] for _, suite in accepted]


def test_sslyze_finds_nothing_weak(host, tmp_path):
    scanned = []
    for label, port in ports(host):
        folder = tmp_path / label
        folder.mkdir()
        suites = check(scan(port, folder))
        scanned.append(label)
        print(f"{label} port {port}: accepted {', '.join(suites)}")
    assert "device" in scanned
    assert "web" in scanned, "the web listener was not scanned"
