"""200 slow or half-open TLS handshakes do not hold back a healthy device's ping
(SECURITY.md §3: a peer that breaks a limit never slows the others). The ratios
to the same pings without them are printed, not asserted: a ratio of timings
asserted in `make test` failed on a quiet clean-clone run (p99 6.1× the usual
p99, a few hundred microseconds) — timings are for reports, behaviour for tests.
What is asserted is behaviour: every ping is answered, in order, while the
attackers stay connected, and none waits anywhere near the hello timeout."""
import subprocess
import sys
import time
from pathlib import Path

from tls_host import Host, Lines, hello, tls_connect

ATTACKERS = 200
PINGS = 400


def ping_times(lines, count, start_id):
    times = []
    for number in range(count):
        started = time.perf_counter()
        lines.send({"type": "ping", "id": start_id + number})
        reply = lines.recv()
        times.append(time.perf_counter() - started)
        assert reply == {"type": "pong", "id": start_id + number}, reply
    return sorted(times)


def percentile(sorted_times, fraction):
    return sorted_times[min(len(sorted_times) - 1, int(len(sorted_times) * fraction))]


def test_slow_handshakes_do_not_delay_a_healthy_device(capsys):
    host = Host("--tls", "auto", "--max-connections", str(ATTACKERS + 20))
    attackers = None
    try:
        device = tls_connect(host.port)
        lines = Lines(device)
        lines.send(hello())
        assert lines.recv()["type"] == "welcome"
        ping_times(lines, 50, 10_000)  # warm up
        quiet = ping_times(lines, PINGS, 20_000)
        attackers = subprocess.Popen([sys.executable, str(Path(__file__).with_name("slow_handshakes.py")),
                                      "127.0.0.1", str(host.port), str(ATTACKERS)],
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        assert attackers.stdout.readline().strip() == "ready", attackers.stderr.read()
        attacked = ping_times(lines, PINGS, 30_000)
        assert attackers.poll() is None, "the attackers were cut off before the pings ended"
        quiet_again = ping_times_after(attackers, lines)
        usual_p99 = max(percentile(quiet, 0.99), percentile(quiet_again, 0.99))
        ratio_median = percentile(attacked, 0.5) / usual_p99
        ratio_p99 = percentile(attacked, 0.99) / usual_p99
        with capsys.disabled():
            print(f"\nping under {ATTACKERS} slow TLS handshakes: median {percentile(attacked, 0.5) * 1e6:.0f} µs, "
                  f"p99 {percentile(attacked, 0.99) * 1e6:.0f} µs; usual p99 {usual_p99 * 1e6:.0f} µs; "
                  f"ratios to it {ratio_median:.2f} (median), {ratio_p99:.2f} (p99)")
        # A ping stuck behind the attackers' handshakes would wait for their
        # hello timeout (10 s); a second is far beyond any scheduling jitter.
        assert attacked[-1] < 1.0, f"a ping under attack took {attacked[-1]:.2f} s"
        lines.send({"type": "ping", "id": 1})
        assert lines.recv() == {"type": "pong", "id": 1}
        device.close()
    finally:
        if attackers and attackers.poll() is None:
            attackers.kill()
            attackers.wait()
        host.stop()


def ping_times_after(attackers, lines):
    attackers.kill()
    attackers.wait()
    return ping_times(lines, PINGS, 40_000)
