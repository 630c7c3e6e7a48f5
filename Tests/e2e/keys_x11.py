"""The real X parts of the keys plugin's end-to-end tests (test_keys_x11.py):
an Xvfb server on a free display, and xrecord.c, a real X client that records
every KeyPress/KeyRelease with its keysym, text and modifier state."""
import json
import os
import queue
import shutil
import subprocess
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def build_recorder(folder: Path) -> Path:
    """Compiles xrecord.c (xcb, xcb-xkb, xkbcommon-x11) into folder."""
    flags = subprocess.run(["pkg-config", "--cflags", "--libs", "xcb", "xcb-xkb", "xkbcommon", "xkbcommon-x11"],
                           check=True, capture_output=True, text=True).stdout.split()
    out = folder / "xrecord"
    subprocess.run(["cc", "-O1", "-o", str(out), str(HERE / "keys" / "xrecord.c"), *flags], check=True)
    return out


class Xvfb:
    """Xvfb on a display it picks itself (-displayfd): no fixed number, safe in
    parallel; or on `display` again, once the server that had it is gone."""

    def __init__(self, display=None):
        read_end, write_end = os.pipe()
        self.proc = subprocess.Popen(["Xvfb"] + ([display] if display else []) +
                                     ["-displayfd", str(write_end), "-nolisten", "tcp", "-noreset"],
                                     pass_fds=(write_end,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(write_end)
        number = b""
        with os.fdopen(read_end, "rb") as pipe:
            while not number.endswith(b"\n"):
                chunk = pipe.read(1)
                if not chunk:
                    raise RuntimeError("Xvfb ended before it named its display")
                number += chunk
        self.display = ":" + number.decode().strip()
        self.env = dict(os.environ, DISPLAY=self.display)

    def layout(self, name):
        subprocess.run(["setxkbmap", "-layout", name], env=self.env, check=True)

    def stop(self):
        end(self.proc)


def end(proc, grace=2.0):
    """SIGTERM, then SIGKILL after a short wait: a child of a Swift test
    inherits a blocked SIGTERM (docs/reliability.md), and a recorder or Xvfb
    left running would keep the bench's output pipe open."""
    proc.terminate()
    try:
        proc.wait(grace)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(10)


class Recorder:
    """xrecord on a display: its lines read by a thread into a queue."""

    def __init__(self, binary, env):
        self.proc = subprocess.Popen([str(binary)], env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True, bufsize=1)
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        assert self.next(10) == {"ready": True}

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put(json.loads(line))
        self.lines.put(None)

    def next(self, timeout=10.0):
        item = self.lines.get(timeout=timeout)
        if item is None:
            raise EOFError("xrecord ended")
        return item

    def events(self, count, timeout=10.0):
        deadline = time.time() + timeout
        return [self.next(max(0.01, deadline - time.time())) for _ in range(count)]

    def presses_until(self, pred, timeout=10.0):
        """Key events until pred(all so far) holds; returns them."""
        seen = []
        deadline = time.time() + timeout
        while not pred(seen):
            seen.append(self.next(max(0.01, deadline - time.time())))
        return seen

    def text_of(self, expected, timeout=10.0):
        """The text the KeyPresses typed, read until it is as long as expected."""
        typed = []
        deadline = time.time() + timeout
        while len("".join(typed)) < len(expected):
            event = self.next(max(0.01, deadline - time.time()))
            if event.get("type") == "press" and event["text"]:
                typed.append(event["text"] if event["text"] != "\r" else "\n")
        return "".join(typed)

    def down(self):
        """The keycodes the server has down now (events before it are skipped)."""
        self.proc.stdin.write("keymap\n")
        while True:
            item = self.next()
            if "down" in item:
                return item["down"]

    def stop(self):
        self.proc.stdin.close()
        end(self.proc)


def keys_plugin_folder(root: Path, bindir: Path) -> Path:
    """A plugins folder with the keys plugin's manifest pointing at the built binary."""
    folder = root / "keys-plugins" / "keys"
    folder.mkdir(parents=True)
    repo = HERE.parents[1] / "plugins" / "keys"
    manifest = (repo / "plugin.yaml").read_text().replace("exec: [./keys]", f"exec: [{bindir / 'deck-plugin-keys'}]")
    (folder / "plugin.yaml").write_text(manifest)
    for words in ("keysyms.txt", "aliases.txt"):  # the words of press's keys setting (plugin.yaml)
        shutil.copy(repo / words, folder / words)
    return folder.parent
