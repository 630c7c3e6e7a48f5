"""Power cuts during edits (README.md): a deckd records every file operation
on its state folder through recorder.c while devices edit; crashmodel.py
turns the log into the states a power cut may leave; a fresh deckd must
start on each and serve every acknowledged edit.

    DECK_BIN=.build/debug python3 -m pytest -q Tests/powercut
    DECK_POWERCUT_STATES=600 DECK_POWERCUT_SECONDS=8 DECK_BIN=... python3 -m pytest -q Tests/powercut   # the full run

Environment: DECK_BIN (deckd and deckctl; else `swift build` as Tests/e2e
does), DECK_POWERCUT_STATES (crash states checked, default 120),
DECK_POWERCUT_PER_POINT (states per crash point: the durable one, the kill -9
one, and random ones; default 4), DECK_POWERCUT_SECONDS (how long the devices
edit, default 2.5), DECK_POWERCUT_DEVICES (2-4, default 4), DECK_POWERCUT_JOBS
(deckd checks at once, default 2), DECK_POWERCUT_SEED, DECK_POWERCUT_ARGS
(more deckd options for both runs, e.g. `--no-journal` or `--keep 5`), DECK_POWERCUT_KEEP (a
folder where failing states are kept; default a temporary folder that is
named in the failure).
"""
import json
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "e2e"))
import conftest as e2e  # noqa: E402  Tests/e2e's device client, the same wire
import crashmodel  # noqa: E402


def env_int(name, default):
    return int(os.environ.get(name, default))


STATES = env_int("DECK_POWERCUT_STATES", 120)
PER_POINT = max(1, env_int("DECK_POWERCUT_PER_POINT", 4))
SECONDS = float(os.environ.get("DECK_POWERCUT_SECONDS", "2.5"))
DEVICES = min(4, max(2, env_int("DECK_POWERCUT_DEVICES", 4)))
JOBS = max(1, env_int("DECK_POWERCUT_JOBS", 2))
SEED = env_int("DECK_POWERCUT_SEED", int(time.time()) % 100000)
EXTRA_ARGS = os.environ.get("DECK_POWERCUT_ARGS", "").split()

SLOTS = 6


def profile_yaml():
    """Page d belongs to device d: three buttons it moves around its own six slots."""
    lines = ["name: default", f"slotsPerPage: {SLOTS}", "pages:"]
    for d in range(4):
        lines.append("  - buttons:")
        for i, c in enumerate("abc"):
            lines.append(f'      {i}: {{name: "d{d} {c}", action: {{run: "true"}}}}')
    return "\n".join(lines) + "\n"


# ---- binaries ----

bin_dir = e2e._bin_dir  # DECK_BIN, else `swift build`, as Tests/e2e finds them


def build_recorder(dest):
    lib = dest / "recorder.so"
    subprocess.run(["gcc", "-shared", "-fPIC", "-O2", "-Wall", "-o", str(lib), str(HERE / "recorder.c"),
                    "-ldl", "-lpthread"], check=True)
    return lib


# ---- a device: the line protocol over TCP (PROTOCOL.md) ----

class LineClient(e2e.LineClient):
    """Tests/e2e's NDJSON device, with the hello these devices say."""

    def hello(self, name):
        rid = self.send({"type": "hello", "protocol": 7, "device": {"name": name, "kind": "terminal"}})
        while True:
            m = self.recv()
            if m.get("id") == rid:
                return m

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass


# ---- deckd ----

class Deckd:
    """One deckd on a state folder; `ready` waits for its `deckd ready` line."""

    def __init__(self, bindir, work, state, layouts, env=None):
        self.work = Path(work)
        run = self.work / "run"
        run.mkdir(parents=True, exist_ok=True)
        os.chmod(run, 0o700)
        (self.work / "plugins").mkdir(exist_ok=True)
        self.control = run / "control.sock"
        self.log = self.work / "deckd.log"
        self.args = [str(bindir / "deckd"), "--layouts", str(layouts), "--state", str(state),
                     "--listen", "127.0.0.1:0", "--no-web", "--control", str(self.control),
                     "--plugins", str(self.work / "plugins")] + EXTRA_ARGS
        self.env = dict(os.environ, XDG_RUNTIME_DIR=str(run), HOME=str(self.work), **(env or {}))
        self.proc = None
        self.port = None

    def start(self, timeout=30):
        with open(self.log, "ab") as logf:
            self.proc = subprocess.Popen(self.args, stdout=logf, stderr=logf, env=self.env,
                                         stdin=subprocess.DEVNULL)
        deadline = time.time() + timeout
        while time.time() < deadline:
            text = self.output()
            ready = re.search(r"deckd ready on .*?127\.0\.0\.1:(\d+) \(devices\)", text)
            if ready:
                self.port = int(ready.group(1))
                return True
            if self.proc.poll() is not None:
                return False
            time.sleep(0.01)
        return False

    def output(self):
        try:
            return self.log.read_text(errors="replace")
        except FileNotFoundError:
            return ""

    def kill(self):
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
        if self.proc:
            self.proc.wait()


# ---- the recording: devices editing while deckd records ----

@dataclass
class Device:
    index: int
    region: list  # its page's slots now (buttons or None)
    initial: list = None
    sent: list = field(default_factory=list)  # (t_send_ns, region after the move)
    acked: list = field(default_factory=list)  # (t_recv_ns, revision, move number 1..)
    errors: list = field(default_factory=list)


@dataclass
class Recording:
    root: str
    ops: list
    devices: list
    layouts: dict  # revision -> (when a device first saw it, monotonic ns; the layout)
    initial_revision: int
    conflicts: list
    workdir: Path
    layouts_dir: Path
    kill_time: int
    deckd_output: str
    by_revision: dict = None  # revision -> the layout it had, rebuilt from the oks (reconstruct)

    @property
    def acks(self):
        return sorted((t, rev, d.index, n) for d in self.devices for (t, rev, n) in d.acked)

    def reconstruct(self):
        """The layout of every revision up to the newest acknowledged one.

        Devices see only the newest layout of a group commit, not each
        revision's; but each ok names its revision, each device's moves touch
        only its page, and so revision r is the first layout with each page
        as its device left it by its last move acknowledged at r or before."""
        moves = {rev: (d, n) for _, rev, d, n in self.acks}
        base = self.layouts[self.initial_revision][1]
        done = [0] * len(self.devices)
        self.by_revision = {self.initial_revision: base}
        r = self.initial_revision + 1
        while r in moves:
            d, n = moves[r]
            done[d] = n
            layout = json.loads(json.dumps(base))
            for dev in self.devices:
                layout["pages"][dev.index]["buttons"] = (dev.initial if done[dev.index] == 0
                                                         else dev.sent[done[dev.index] - 1][1])
            self.by_revision[r] = layout
            r += 1


def page_of(layout, page):
    return [layout["pages"][page]["buttons"][i] if page < len(layout["pages"]) else None for i in range(SLOTS)]


def run_devices(port, n, rng, layouts, conflicts, stop):
    """The devices' threads; returns the Device list once deckd is gone."""
    lock = threading.Lock()
    clients = [LineClient(port) for _ in range(n)]
    devices = []
    for d, client in enumerate(clients):
        welcome = client.hello(f"editor {d}")
        assert welcome["type"] == "welcome", welcome
        seen_at = time.monotonic_ns()
        with lock:
            layouts.setdefault(welcome["revision"], (seen_at, welcome["layout"]))
        region = page_of(welcome["layout"], d)
        devices.append(Device(d, region, list(region)))
    start = time.monotonic()
    seeds = [rng.randrange(1 << 30) for _ in range(n)]

    def saw_layout(m, seen_at):
        with lock:
            old = layouts.setdefault(m["revision"], (seen_at, m["layout"]))
            if old[1] != m["layout"]:
                conflicts.append((m["revision"], old[1], m["layout"]))
            elif seen_at < old[0]:
                layouts[m["revision"]] = (seen_at, m["layout"])

    def device_loop(device, client, seed):
        r = random.Random(seed)
        try:
            while not stop.is_set():
                # Bursts with quiet moments between them (longer than the host's
                # 50 ms idle checkpoint delay), and now and then a lone edit.
                phase = (time.monotonic() - start) % 0.7
                if phase > 0.5:
                    time.sleep(0.7 - phase + 0.001)
                    continue
                if r.random() < 0.03:
                    time.sleep(r.uniform(0.06, 0.12))
                filled = [i for i, b in enumerate(device.region) if b is not None]
                src = r.choice(filled)
                dst = r.choice([i for i in range(SLOTS) if i != src])
                after = list(device.region)
                after[src], after[dst] = after[dst], after[src]
                msg = {"type": "moveButton", "fromPage": device.index, "fromIndex": src, "toPage": device.index,
                       "toIndex": dst, "button": device.region[src]}
                t_send = time.monotonic_ns()
                device.sent.append((t_send, after))
                rid = client.send(msg)
                while True:
                    m = client.recv(timeout=15)
                    if m.get("type") == "layout":
                        saw_layout(m, time.monotonic_ns())
                    elif m.get("id") == rid:
                        t_recv = time.monotonic_ns()
                        break
                if m.get("type") == "ok":
                    device.acked.append((t_recv, m["revision"], len(device.sent)))
                    device.region = after
                else:
                    device.errors.append(m)
                    return
        except (ConnectionError, OSError, TimeoutError, json.JSONDecodeError):
            return

    threads = [threading.Thread(target=device_loop, args=(dv, c, s), daemon=True)
               for dv, c, s in zip(devices, clients, seeds)]
    for t in threads:
        t.start()
    return devices, clients, threads, start


def record_session(bindir, recorder, workdir, seconds, n_devices, seed):
    workdir = Path(os.path.realpath(workdir))
    layouts_dir = workdir / "layouts"
    layouts_dir.mkdir(parents=True)
    (layouts_dir / "default.yaml").write_text(profile_yaml())
    state = workdir / "state"
    state.mkdir()
    log = workdir / "ops.log"
    host = Deckd(bindir, workdir / "host", state, layouts_dir,
                 env={"LD_PRELOAD": str(recorder), "DECK_RECORD_ROOT": str(state), "DECK_RECORD_LOG": str(log)})
    assert host.start(), "the recorded deckd did not start:\n" + host.output()[-3000:]
    rng = random.Random(seed)
    layouts, conflicts, stop = {}, [], threading.Event()
    devices, clients, threads, start = run_devices(host.port, n_devices, rng, layouts, conflicts, stop)
    initial_revision = min(layouts)
    # Kill in a burst, at a random moment of it.
    time.sleep(seconds)
    while (time.monotonic() - start) % 0.7 > 0.3:
        time.sleep(0.01)
    time.sleep(rng.uniform(0.0, 0.2))
    kill_time = time.monotonic_ns()
    host.kill()
    stop.set()
    for t in threads:
        t.join(20)
    for c in clients:
        c.close()
    root, ops = crashmodel.parse_log(str(log))
    assert root == str(state), (root, state)
    rec = Recording(root, ops, devices, layouts, initial_revision, conflicts, workdir, layouts_dir, kill_time,
                    host.output())
    rec.reconstruct()
    return rec


# ---- checking one crash state ----

@dataclass
class Served:
    started: bool
    revision: int = None
    layout: dict = None
    output: str = ""
    after: str = ""  # the state folder's files after the start (what was set aside)
    problem: str = ""


def serve(bindir, layouts_dir, state, workdir):
    """Starts a plain deckd on a materialised state and asks what it serves."""
    host = Deckd(bindir, workdir, state, layouts_dir)
    try:
        served = ask(host)
    finally:
        host.kill()
    served.output = host.output()
    after = []
    for dirpath, _, files in os.walk(state):
        for name in files:
            path = os.path.join(dirpath, name)
            after.append(f"  {os.path.relpath(path, state)}  {os.path.getsize(path)} bytes")
    served.after = "\n".join(sorted(after))
    return served


def ask(host):
    if not host.start():
        return Served(False, problem="deckd did not say ready" + (
            f" (exit status {host.proc.returncode})" if host.proc.poll() is not None else " within 30 s"))
    try:
        client = LineClient(host.port)
        welcome = client.hello("checker")
        client.close()
    except (OSError, ConnectionError, TimeoutError, ValueError) as error:
        return Served(True, problem=f"no welcome: {error!r}")
    if welcome.get("type") != "welcome":
        return Served(True, problem=f"no welcome: {welcome}")
    return Served(True, welcome["revision"], welcome["layout"])


def check(rec, point, served):
    """The invariants (README.md); returns the broken ones."""
    broken = []
    if not served.started or served.problem:
        return [f"(a) {served.problem or 'deckd did not start'}"]
    acked = [(t, rev) for t, rev, _, _ in rec.acks if t < point.t_crash]
    need = max((rev for _, rev in acked), default=0)
    if served.revision < need:
        lost = sorted({rev for _, rev in acked if rev > served.revision})
        broken.append(f"(b) serves revision {served.revision}, but revisions up to {need} were acknowledged "
                      f"before the crash (lost: {lost[:20]}{' …' if len(lost) > 20 else ''})")
    # Revisions count edits; a start that falls back past a damaged (never
    # acknowledged) newest generation serves it as a new revision, one above
    # the highest it found (ProfileResolver's "restore").
    sent_before = sum(1 for d in rec.devices for (t, _) in d.sent if t < point.t_upper)
    possible = rec.initial_revision + sent_before
    if served.revision > possible + 1:
        broken.append(f"(b) serves revision {served.revision}, more than the {rec.initial_revision} at start "
                      f"plus the {sent_before} edits sent before the crash (plus one for a restore)")
    # (c) A revision handed out before the crash (its ok or its layout
    # received) is that layout. One handed out only later (in the session
    # that went on) never existed in this crash; a start that fell back past a
    # torn newest generation may serve its layout at such a number. Then the
    # layout must be one of a revision that could be on disk: from the newest
    # acknowledged one to the newest sent.
    handed = (any(rev == served.revision and t < point.t_crash for t, rev, _, _ in rec.acks)
              or (served.revision in rec.layouts and rec.layouts[served.revision][0] < point.t_crash))
    if handed:
        expected = rec.by_revision.get(served.revision)
        if expected is None:
            expected = rec.layouts[served.revision][1]
        if expected != served.layout:
            broken.append(f"(c) the layout of revision {served.revision} differs from the one the devices had:\n"
                          f"    had    {json.dumps(expected, sort_keys=True)[:700]}\n"
                          f"    serves {json.dumps(served.layout, sort_keys=True)[:700]}")
    else:
        window = range(max(need, rec.initial_revision), possible + 1)
        known = [r for r in window if r in rec.by_revision]
        if known and not any(rec.by_revision[r] == served.layout for r in known) and len(known) == len(window):
            broken.append(f"(c) serves revision {served.revision}, not handed out before the crash, with a layout "
                          f"that is none of revisions {window.start}..{window.stop - 1}'s: "
                          f"{json.dumps(served.layout, sort_keys=True)[:700]}")
    # (d) Each device's page holds its own moves: every one acknowledged before
    # the crash, perhaps one sent and not yet answered, nothing else.
    for d in rec.devices:
        region = page_of(served.layout, d.index)
        lo = sum(1 for (t, _, _) in d.acked if t < point.t_crash)
        hi = sum(1 for (t, _) in d.sent if t < point.t_upper)
        states = [d.initial] + [after for _, after in d.sent]
        allowed = range(lo, max(lo, hi) + 1)
        if not any(states[j] == region for j in allowed if j < len(states)):
            found = [j for j, s in enumerate(states) if s == region]
            broken.append(f"(d) device {d.index}: its page is its state after move "
                          f"{found[-1] if found else '?'} (all matching: {found[-5:]}), "
                          f"but only moves {lo}..{hi} are possible ({lo} acknowledged before the crash)")
    return broken


def check_recording(rec, bindir, n_states, per_point, seed, broken_model=None, points=None, jobs=JOBS,
                    keep_dir=None):
    """Checks crash states of a recording; returns (states checked, distinct states, failure reports, points)."""
    rng = random.Random(seed)
    if points is None:
        points = crashmodel.choose_points(rec.ops, max(1, n_states // per_point), rng, rec.root)
    cache = {}  # state digest -> Served (the checks depend on the crash point, deckd's answer does not)
    cache_lock = threading.Lock()
    failures = []
    scratch = Path(tempfile.mkdtemp(prefix="deck-powercut-check-"))
    keep_dir = Path(keep_dir) if keep_dir else None

    def verify(index, point, how, state, digest, context, pending):
        with cache_lock:
            entry = cache.get(digest)
            if entry is None:
                entry = cache[digest] = {"event": threading.Event(), "served": None}
                mine = True
            else:
                mine = False
        if mine:
            work = scratch / f"s{index}"
            target = work / "state"
            try:
                crashmodel.materialise(state, str(target))
                served = serve(bindir, rec.layouts_dir, target, work / "deckd")
            except Exception as error:  # reported as a failure of this state, never a hang of the others
                served = Served(False, problem=f"the check itself failed: {error!r}")
            finally:
                shutil.rmtree(work, ignore_errors=True)
            entry["served"] = served
            entry["event"].set()
        else:
            entry["event"].wait()
            served = entry["served"]
        problems = check(rec, point, served)
        if problems:
            where = ""
            if keep_dir:
                where = keep_dir / f"k{point.k}-{how}"
                if not where.exists():
                    crashmodel.materialise(state, str(where))
            t_crash = "after the last op" if point.t_crash == float("inf") else f"{point.t_crash / 1e9:.6f}"
            acked = [(t, rev) for t, rev, _, _ in rec.acks if t < point.t_crash]
            report = "\n".join([
                f"POWER CUT at op #{point.k} of {len(rec.ops)} ({point.why}), state '{how}'"
                + (f" [model broken on purpose: {broken_model}]" if broken_model else ""),
                f"crash time {t_crash}; {len(acked)} oks received before it, newest revision "
                f"{max((r for _, r in acked), default=None)}",
                *("  ! " + p for p in problems),
                "operations around the crash point (>> = the op the power cut interrupts):",
                context,
                "not durable at the crash point (pending changes per file or folder): " + pending,
                "the crash state (as materialised):",
                crashmodel.listing(state),
                "its files after deckd ran:",
                served.after,
                f"kept in {where}" if where else "",
                "deckd's output:",
                served.output[-2500:],
            ])
            failures.append(report)

    total = 0
    try:
        with ThreadPoolExecutor(max_workers=jobs) as pool:
            futures = []
            for point, how, state, model in crashmodel.crash_states(rec.root, rec.ops, points, per_point, rng,
                                                                    broken_model):
                digest = crashmodel.state_digest(state)
                context = crashmodel.context(rec.ops, point.k, rec.root)
                pending = "; ".join(f"{name}: {n}" for name, n in model.pending_summary()) or "nothing"
                futures.append(pool.submit(verify, total, point, how, state, digest, context, pending))
                total += 1
                # Keep a bounded number of states in memory.
                while sum(1 for f in futures if not f.done()) > jobs * 3:
                    time.sleep(0.005)
                for f in [f for f in futures if f.done()]:
                    f.result()
                    futures.remove(f)
            for f in futures:
                f.result()
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return total, len(cache), failures, points


# ---- the tests ----

@pytest.fixture(scope="module")
def bindir():
    d = bin_dir()
    for exe in ("deckd", "deckctl"):
        assert (d / exe).exists(), f"no {exe} in {d}"
    return d


@pytest.fixture(scope="module")
def recording(bindir):
    work = Path(tempfile.mkdtemp(prefix="deck-powercut-"))
    try:
        recorder = build_recorder(work)
        rec = record_session(bindir, recorder, work / "session", SECONDS, DEVICES, SEED)
        yield rec
    finally:
        shutil.rmtree(work, ignore_errors=True)


def summary(rec):
    kinds = {}
    for op in rec.ops:
        kinds[op.name] = kinds.get(op.name, 0) + 1
    acks = rec.acks
    return (f"seed {SEED}: {len(rec.ops)} ops ({', '.join(f'{k} {v}' for k, v in sorted(kinds.items()))}); "
            f"{len(acks)} oks from {len(rec.devices)} devices, revisions {rec.initial_revision}.."
            f"{max((r for _, r, _, _ in acks), default=rec.initial_revision)}")


def coverage(points):
    counts = {}
    for p in points:
        key = re.sub(r" \(#\d+\)$", "", p.why)
        counts[key] = counts.get(key, 0) + 1
    return "\n".join(f"  {n:4d}  {key}" for key, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))


def test_recording_is_usable(recording):
    """The session did what the model needs: edits acknowledged, the journal
    written, flushes recorded, devices agreeing on every revision's layout."""
    rec = recording
    print(summary(rec))
    assert not rec.conflicts, f"two layouts for one revision: {rec.conflicts[:2]}"
    # The layouts rebuilt from the oks are the ones the devices were sent.
    checked = [r for r in rec.layouts if r in rec.by_revision]
    assert len(checked) >= len(rec.layouts) - 4, (len(checked), len(rec.layouts))
    for r in checked:
        assert rec.by_revision[r] == rec.layouts[r][1], f"revision {r}: rebuilt {rec.by_revision[r]}, sent {rec.layouts[r][1]}"
    for d in rec.devices:
        assert not d.errors, f"device {d.index} got {d.errors}"
        assert d.acked, f"device {d.index} had no edit acknowledged"
    names = {op.name for op in rec.ops}
    assert {"fdatasync", "fsync", "rename"} <= names, names
    if "--no-journal" not in EXTRA_ARGS:
        assert any(op.path.endswith(".journal") and op.name == "pwrite" for op in rec.ops)
    # Every ok followed a flush: the newest acknowledged revision's flush is in the log.
    last_ok = max(t for t, _, _, _ in rec.acks)
    assert any(op.is_flush and op.t_end < last_ok for op in rec.ops)


def test_power_cut_never_loses_an_acknowledged_edit(recording, bindir):
    rec = recording
    keep = os.environ.get("DECK_POWERCUT_KEEP") or tempfile.mkdtemp(prefix="deck-powercut-failed-")
    started = time.monotonic()
    total, distinct, failures, points = check_recording(rec, bindir, STATES, PER_POINT, SEED, keep_dir=keep)
    print(f"{summary(rec)}\n{total} crash states at {len(points)} crash points ({distinct} distinct, "
          f"each one deckd start) in {time.monotonic() - started:.1f} s; {len(failures)} broke an invariant")
    print("crash points by what they are next to:\n" + coverage(points))
    if not failures:
        if not os.environ.get("DECK_POWERCUT_KEEP"):
            shutil.rmtree(keep, ignore_errors=True)
        return
    pytest.fail(f"{len(failures)} of {total} crash states broke an invariant ({summary(rec)}); the first:\n\n"
                + "\n\n".join(failures[:3]), pytrace=False)


@pytest.mark.parametrize("broken", ["nosync", "droplast", "nodirsync"])
def test_checker_fails_with_a_wrong_model(recording, bindir, broken):
    """The checker can fail: a model in which fdatasync does nothing, or
    leaves the last write before it pending, or in which a folder's fsync does
    nothing (as if deckd skipped it), must break an invariant at the end of
    the session (every ok was received before it)."""
    rec = recording
    last_ok = max(t for t, _, _, _ in rec.acks)
    # After the last op, and just after the last few flushes before the last ok.
    flushes = [op.index for op in rec.ops if op.is_flush and not op.aux and op.t_end < last_ok]
    ks = sorted({len(rec.ops), *[f + 1 for f in flushes[-3:]]})
    points = [crashmodel.crash_point(rec.ops, k, "self-check") for k in ks]
    total, _, failures, _ = check_recording(rec, bindir, 0, 1, SEED, broken_model=broken, points=points)
    assert failures, f"the {broken} model broke nothing at {ks}: the checker cannot fail"
    assert any("(b)" in f or "(a)" in f or "(d)" in f for f in failures), failures[0]


def test_model_on_a_hand_written_log():
    """The model's rules on the steps of one snapshot write (docs/snapshots.md),
    without deckd: what is durable after each flush, and what may be."""
    root = "/s"
    O = crashmodel.Op

    def op(i, kind, path="", fd=-1, data=b"", offset=0, path2="", aux=0, flags=0):
        return O(i, kind, 1, 1, i, i, fd, aux, flags, 0, offset, 0, path, path2, data, len(data))

    ops = [
        op(0, crashmodel.OP_MKDIR, "/s/p"),
        op(1, crashmodel.OP_OPEN, "/s", fd=3, aux=1),
        op(2, crashmodel.OP_FSYNC, "/s", fd=3, aux=1),
        op(3, crashmodel.OP_CLOSE, "/s", fd=3, aux=1),
        op(4, crashmodel.OP_OPEN, "/s/p/.tmp-1", fd=4, flags=0o1 | 0o100 | 0o200),
        op(5, crashmodel.OP_WRITE, "/s/p/.tmp-1", fd=4, data=b"hello world"),
        op(6, crashmodel.OP_FDATASYNC, "/s/p/.tmp-1", fd=4),
        op(7, crashmodel.OP_CLOSE, "/s/p/.tmp-1", fd=4),
        op(8, crashmodel.OP_RENAME, "/s/p/.tmp-1", path2="/s/p/1.json.gz"),
        op(9, crashmodel.OP_OPEN, "/s/p", fd=3, aux=1),
        op(10, crashmodel.OP_FSYNC, "/s/p", fd=3, aux=1),
        op(11, crashmodel.OP_CLOSE, "/s/p", fd=3, aux=1),
        op(12, crashmodel.OP_OPEN, "/s/p/1.json.gz", fd=5, flags=0o2),
        op(13, crashmodel.OP_PWRITE, "/s/p/1.json.gz", fd=5, data=b"HELLO", offset=0),
        op(14, crashmodel.OP_PWRITE, "/s/p/1.json.gz", fd=5, data=b"!!", offset=11),
        op(15, crashmodel.OP_UNLINK, "/s/p/1.json.gz"),
    ]

    def at(k, how, broken=None, seed=0):
        model = crashmodel.Model(root, broken)
        for o in ops[:k]:
            model.apply(o)
        return model.state(how, random.Random(seed))

    assert at(1, "durable") == {}  # the folder's name is not durable before its parent's flush
    assert at(1, "full") == {"p": None}
    assert at(3, "durable") == {"p": None}
    assert at(6, "full") == {"p": None, "p/.tmp-1": b"hello world"}
    assert at(6, "durable") == {"p": None}  # its name was never flushed
    assert at(10, "durable") == {"p": None}  # renamed, not yet durable: neither name
    assert at(11, "durable") == {"p": None, "p/1.json.gz": b"hello world"}  # content flushed, then the name
    assert at(11, "durable", broken="nosync") == {"p": None, "p/1.json.gz": b""}
    assert at(16, "full") == {"p": None}
    assert at(16, "durable") == {"p": None, "p/1.json.gz": b"hello world"}  # the unlink and the writes may be lost
    # Random states keep prefixes: the second write never without the first,
    # a torn write keeps the old bytes after its cut.
    contents = {at(16, "random", seed=s).get("p/1.json.gz") for s in range(300)}
    assert b"hello world" in contents and b"HELLO world!!" in contents and None in contents
    for c in contents - {None}:
        assert c.startswith((b"HELLO", b"hello", b"H", b"HE", b"HEL", b"HELL")), c
        if c.endswith(b"!") or len(c) > 11:
            assert c.startswith(b"HELLO"), c
    # A file's flush does not make a rename durable; a folder's flush does.
    model = crashmodel.Model(root)
    for o in ops[:9]:
        model.apply(o)
    assert "p/1.json.gz" not in model.state("durable") and "p/.tmp-1" not in model.state("durable")
