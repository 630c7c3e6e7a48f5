"""`follow` end to end (docs/faces.md §6): a real deckd runs a real follow
command, a shell loop that prints what the test writes into a FIFO, and a
real device sees each line as its button's face. Every wait is on something
that happens (a message, a status reply, a process gone), never a sleep."""
import json
import os
import textwrap
import time

# The follow: says where it runs, then echoes each line of the FIFO; `exit N` ends it with status N.
# The FIFO is opened read-write so the loop never sees an end of file between the test's writes.
FOLLOW = """echo $$ >> {pids}; echo "title started"; exec 3<>{fifo}; while read -r l <&3; do case $l in exit*) exit ${{l#exit }};; esac; echo "$l"; done"""


def layout(fifo, pids, extra=""):
    follow = FOLLOW.format(fifo=fifo, pids=pids).replace('"', '\\"')
    return textwrap.dedent(f"""\
        name: default
        pages:
          - buttons:
              0: {{name: Backup, action: {{run: "true", follow: "{follow}"}}, states: [{{id: idle}}, {{id: running}}]}}
              1: {{name: Plain, action: {{run: "true"}}}}
        """) + extra


def wait_for(condition, timeout=15.0, what="the condition"):
    deadline = time.time() + timeout
    while time.time() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.02)
    raise AssertionError(f"timed out waiting for {what}")


def alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie is not alive: deckd reaps its children, so this is brief.
    with open(f"/proc/{pid}/stat") as stat:
        return stat.read().split(") ")[1][0] != "Z"


def pids_of(path):
    return [int(p) for p in path.read_text().split()] if path.exists() else []


def level8(host):
    from conftest import LineClient
    client = LineClient(host.port)
    welcome = client.request({"type": "hello", "protocol": 8, "device": {"name": "level 8", "kind": "terminal"}})
    assert welcome["type"] == "welcome" and welcome["protocol"] == 8, welcome
    return client


def face_of(client, **wanted):
    return client.recv_until(lambda m: m.get("type") == "buttonFace" and all(m.get(k) == v for k, v in wanted.items()))


def title_of(client, index, title):
    return client.recv_until(lambda m: m.get("type") == "buttonState" and m.get("index") == index and m.get("title") == title)


def test_follow_lines_drive_the_face_restart_after_exit_and_stop_on_reload_and_exit(deck, tmp_root):
    fifo, pids = tmp_root / "follow.fifo", tmp_root / "follow.pids"
    os.mkfifo(fifo)
    host = deck(yaml=layout(fifo, pids))
    device = host.tcp()
    # It may have started (and said "started") before the device was there; a title line is seen live.
    with open(fifo, "w") as f:
        f.write("title Live\n")
    title_of(device, 0, "Live")
    with open(fifo, "w") as f:
        f.write("a line that is not a face\ntitle\n")
    title_of(device, 0, None)
    # State and flashes reach a level-8 device; an id the button does not declare is refused in the log.
    new = level8(host)
    with open(fifo, "w") as f:
        f.write("state running\nstate nope\nalert\n")
    # Changes within one 16 ms frame travel in one buttonFace (docs/faces.md §3), the flash with them.
    seen = face_of(new, index=0, state="running")
    if seen.get("flash") != "alert":
        face_of(new, index=0, flash="alert")
    assert "nope" in host.log_text()
    assert "wrote a line that is not state ID, title TEXT, alert or ok, ignored: a line that is not a face" in host.log_text()

    first = wait_for(lambda: pids_of(pids), what="the follow's pid")[0]
    with open(fifo, "w") as f:
        f.write("exit 3\n")
    # Started again after the 1 s backoff: a new process says so.
    title_of(device, 0, "started")
    assert "follow of 'Backup' at 0/0 exited with status 3; starting it again in 1 s" in host.log_text()
    second = wait_for(lambda: len(pids_of(pids)) == 2 and pids_of(pids)[1], what="the restarted follow")
    assert not alive(first)

    # A reload of the file: the follow stops (SIGTERM) and the new layout's starts. The face is kept
    # over a reload (the button did not change), so it shows another title first to see the new one's.
    with open(fifo, "w") as f:
        f.write("title before the reload\n")
    title_of(device, 0, "before the reload")
    (host.root / "layouts" / "default.yaml").write_text(layout(fifo, pids, extra="      2: {name: New, action: {run: \"true\"}}\n"))
    host.ctl("reload")
    wait_for(lambda: not alive(second), what="the old follow to stop on reload")
    third = wait_for(lambda: len(pids_of(pids)) == 3 and pids_of(pids)[2], what="the follow started anew")
    title_of(device, 0, "started")

    host.stop()
    assert host.proc.returncode == 0
    wait_for(lambda: not alive(third), timeout=5, what="the follow to stop with the host")


def test_a_follow_that_keeps_exiting_at_once_is_a_problem_in_status(deck):
    host = deck(yaml=textwrap.dedent("""\
        name: default
        pages:
          - buttons:
              0: {name: Broken, action: {run: "true", follow: "exit 7"}}
        """))

    def problems():
        status = json.loads(host.ctl("status", "--json").stdout)
        return [p for p in status.get("problems", []) if "keeps exiting at once" in p.get("message", "")]

    found = wait_for(problems, timeout=20, what="the follow's problem in status")
    assert found[0]["file"] == "default.yaml"
    assert "follow of 'Broken' at 0/0 keeps exiting at once (exited with status 7)" in found[0]["message"]
    text = host.ctl("status").stdout
    assert "keeps exiting at once" in text
