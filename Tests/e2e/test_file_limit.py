"""deckd and the open-file limit (docs/host.md, "Options"): a soft limit too low
for --max-connections is raised towards the hard one at start; what cannot be had
is one warning, in the log and in status. Run under prlimit(1)."""
import shutil

import pytest

from conftest import Host

pytestmark = pytest.mark.skipif(shutil.which("prlimit") is None, reason="needs prlimit (util-linux)")


def started_under(bindir, root, nofile):
    host = Host(bindir, root)
    host.args = ["prlimit", f"--nofile={nofile}", "--"] + host.args
    return host.start()


def soft_nofile(pid):
    for line in open(f"/proc/{pid}/limits"):
        if line.startswith("Max open files"):
            return int(line.split()[3])
    raise AssertionError("no open-file limit in /proc")


def test_a_low_soft_limit_is_raised_to_what_the_connections_need(bindir, tmp_root):
    host = started_under(bindir, tmp_root / "raised", "256:4096")
    try:
        assert soft_nofile(host.proc.pid) == 2 * 256 + 64
        assert "may open only" not in host.log.read_text()
    finally:
        host.stop()


def test_a_hard_limit_too_low_is_said_in_the_log_and_in_status(bindir, tmp_root):
    host = started_under(bindir, tmp_root / "short", "256:256")
    try:
        warning = ("deckd may open only 256 files, and --max-connections 256 needs about 576")
        assert warning in host.log.read_text()
        assert warning in host.ctl("status").stdout
    finally:
        host.stop()
