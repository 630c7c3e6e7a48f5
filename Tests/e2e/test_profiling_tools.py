"""Support/profiling/edits.py, the edit load the callgrind figures of
docs/performance.md are counted under, against a real deckd serving
deck-bench's desk profile: its devices' edits are all made and answered, the
command between the phases runs, and bad arguments are refused."""
import os
import re
import subprocess
import sys

from conftest import ROOT

EDITS = ROOT / "Support" / "profiling" / "edits.py"


def desk_profile(bindir, tmp_path):
    path = tmp_path / "desk.yaml"
    subprocess.run([str(bindir / "deck-bench"), "--desk-profile", str(path)], check=True)
    return path.read_text()


def test_every_device_edits_and_the_between_command_runs_after_the_warm_up(deck, bindir, tmp_path):
    host = deck(extra=["--no-web"], yaml=desk_profile(bindir, tmp_path))
    marker = tmp_path / "between"
    result = subprocess.run([sys.executable, str(EDITS), str(host.port), "--devices", "3", "--edits", "5",
                             "--warm-up", "2", "--between", f"touch {marker}"],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert re.search(r"^warm-up: 6 edits, median \d+ µs, p99 \d+ µs, \d+ edits/s$", result.stdout, re.M), result.stdout
    assert re.search(r"^measured: 15 edits, median \d+ µs, p99 \d+ µs, \d+ edits/s$", result.stdout, re.M), result.stdout
    assert marker.exists()
    # Every edit was a real move, acknowledged: 21 new revisions after the first.
    assert re.search(r"revision 22\b", host.ctl("status").stdout)


def test_too_many_devices_for_the_layout_are_refused_before_any_edit(deck):
    host = deck(extra=["--no-web"])  # the small default layout: one pair of filled slots
    result = subprocess.run([sys.executable, str(EDITS), str(host.port), "--devices", "4"],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert "fewer than 4 devices" in result.stderr
    assert re.search(r"revision 1\b", host.ctl("status").stdout)


def test_callgrind_edits_counts_the_measured_edits_per_thread(bindir):
    script = ROOT / "Support" / "profiling" / "callgrind-edits.sh"
    result = subprocess.run(["bash", str(script), "2", "10"], cwd=ROOT, capture_output=True, text=True, timeout=300,
                            env={**os.environ, "DECK_BIN": str(bindir)})
    assert result.returncode == 0, result.stdout + result.stderr
    assert re.search(r"^measured: 20 edits, ", result.stdout, re.M), result.stdout
    assert "instructions per edit over 20 edits" in result.stdout
    counts = {thread: int(count) for thread, count in re.findall(r"^  thread (\d+): (\d+)$", result.stdout, re.M)}
    # The loop decodes, decides and answers every edit; the disk thread writes each: both are counted.
    assert counts.get("01", 0) > 10_000 and counts.get("02", 0) > 10_000, result.stdout
