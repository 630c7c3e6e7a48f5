"""Real OBS Studio for the obs plugin's tests (make test-obs): Xvfb, a private HOME with a
pre-seeded profile and scene collection, obs-websocket enabled on a free port with a password.

OBS 29 (Debian's obs-studio, obs-websocket 5.1) keeps the WebSocket server's settings in
global.ini's [OBSWebSocket] section; plugin_config/obs-websocket/config.json is read only from
obs-websocket 5.3 (OBS 30) on, so both are written. FirstRun=true in [General] means "the first
run is done" (no auto-configuration wizard); --disable-shutdown-check skips the safe-mode question
after a killed run; --multi skips the "already running" question.
"""
import base64
import hashlib
import json
import os
import shutil
import socket
import subprocess
import time
from pathlib import Path

from websockets.exceptions import WebSocketException

SCENES = ["Intro", "Live", "Outro"]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def obs_available():
    return shutil.which("obs") is not None and shutil.which("Xvfb") is not None


def seed_home(home: Path, port: int, password: str, recordings: Path):
    config = home / ".config" / "obs-studio"
    (config / "basic" / "profiles" / "Deck").mkdir(parents=True, exist_ok=True)
    (config / "basic" / "scenes").mkdir(parents=True, exist_ok=True)
    (config / "plugin_config" / "obs-websocket").mkdir(parents=True, exist_ok=True)
    recordings.mkdir(parents=True, exist_ok=True)
    (config / "global.ini").write_text(
        "[General]\nFirstRun=true\nLastVersion=486539264\nEnableAutoUpdates=false\nConfirmOnExit=false\n"
        "Pre19Defaults=false\nPre21Defaults=false\nPre23Defaults=false\nPre24.1Defaults=false\n\n"
        "[Basic]\nProfile=Deck\nProfileDir=Deck\nSceneCollection=Deck\nSceneCollectionFile=Deck\nConfigOnNewProfile=false\n\n"
        "[BasicWindow]\nSysTrayEnabled=false\nSysTrayWhenStarted=false\n\n"
        f"[OBSWebSocket]\nFirstLoad=false\nServerEnabled=true\nServerPort={port}\nAlertsEnabled=false\n"
        f"AuthRequired=true\nServerPassword={password}\n")
    (config / "plugin_config" / "obs-websocket" / "config.json").write_text(json.dumps(
        {"alerts_enabled": False, "auth_required": True, "first_load": False, "server_enabled": True,
         "server_password": password, "server_port": port}))
    (config / "basic" / "profiles" / "Deck" / "basic.ini").write_text(
        "[General]\nName=Deck\n\n[Video]\nBaseCX=320\nBaseCY=180\nOutputCX=320\nOutputCY=180\nFPSType=1\nFPSInt=30\n\n"
        f"[Output]\nMode=Simple\n\n[SimpleOutput]\nFilePath={recordings}\nRecFormat2=mkv\nVBitrate=300\n"
        "RecQuality=Stream\nRecEncoder=x264\nStreamEncoder=x264\n")
    (config / "basic" / "scenes" / "Deck.json").write_text(json.dumps({
        "name": "Deck", "current_scene": "Intro", "current_program_scene": "Intro",
        "scene_order": [{"name": n} for n in SCENES],
        "sources": [{"id": "scene", "versioned_id": "scene", "name": n, "settings": {"items": []}} for n in SCENES]}))


class Xvfb:
    def __init__(self):
        read, write = os.pipe()
        self.proc = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", "800x600x24", "-nolisten", "tcp"],
                                     pass_fds=(write,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(write)
        with os.fdopen(read) as f:
            self.display = ":" + f.readline().strip()  # Xvfb writes the number once it accepts clients

    def stop(self):
        # SIGTERM first; a process started from a Swift test (deck-bench --quick in DeckBenchTests) inherits
        # a blocked SIGTERM and never sees it, so SIGKILL after a short wait.
        self.proc.terminate()
        try:
            self.proc.wait(3)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(10)


class Obs:
    """One OBS process on a seeded HOME; start() waits until its WebSocket server greets."""

    def __init__(self, root: Path, display: str, port=None, password="deck-test-secret"):
        self.root, self.display = root, display
        self.port = port or free_port()
        self.password = password
        self.home = root / "obs-home"
        self.log = root / "obs.log"
        seed_home(self.home, self.port, password, root / "recordings")
        self.proc = None

    def start(self, timeout=60):
        env = dict(os.environ, HOME=str(self.home), XDG_CONFIG_HOME=str(self.home / ".config"), DISPLAY=self.display,
                   LIBGL_ALWAYS_SOFTWARE="1", QT_QPA_PLATFORM="xcb")
        env.pop("WAYLAND_DISPLAY", None)
        self.proc = subprocess.Popen(["obs", "--disable-shutdown-check", "--disable-updater", "--multi"],
                                     cwd=self.root, env=env, stdout=open(self.log, "ab"), stderr=subprocess.STDOUT)
        deadline = time.time() + timeout
        while time.time() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError("OBS exited: " + self.log.read_text(errors="replace")[-3000:])
            try:
                client = ObsClient(self.port, self.password)
                client.close()
                return self
            except (OSError, EOFError, WebSocketException):
                time.sleep(0.1)  # OBS is still starting; nothing to wait on but its port
        raise RuntimeError("OBS did not open its WebSocket port: " + self.log.read_text(errors="replace")[-3000:])

    def kill(self):
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)  # OBS saves its scene collection on SIGTERM; SIGTERM may also be blocked (see Xvfb.stop)
            except subprocess.TimeoutExpired:
                self.kill()


def authentication(password, salt, challenge):
    secret = base64.b64encode(hashlib.sha256((password + salt).encode()).digest()).decode()
    return base64.b64encode(hashlib.sha256((secret + challenge).encode()).digest()).decode()


class ObsClient:
    """A second obs-websocket client (the websockets package), as another app would be."""

    def __init__(self, port, password, events=(1 << 0) | (1 << 2) | (1 << 3) | (1 << 6)):
        from websockets.sync.client import connect
        self.ws = connect(f"ws://127.0.0.1:{port}", subprotocols=["obswebsocket.json"], open_timeout=5, max_size=None)
        hello = json.loads(self.ws.recv(timeout=5))["d"]
        identify = {"rpcVersion": 1, "eventSubscriptions": events}
        if "authentication" in hello:
            a = hello["authentication"]
            identify["authentication"] = authentication(password, a["salt"], a["challenge"])
        self.ws.send(json.dumps({"op": 1, "d": identify}))
        reply = json.loads(self.ws.recv(timeout=5))
        assert reply["op"] == 2, reply
        self.events = []
        self.next = 1

    def request(self, kind, data=None, timeout=10):
        rid = f"t{self.next}"
        self.next += 1
        self.ws.send(json.dumps({"op": 6, "d": {"requestType": kind, "requestId": rid, "requestData": data or {}}}))
        deadline = time.time() + timeout
        while True:
            m = json.loads(self.ws.recv(timeout=max(0.01, deadline - time.time())))
            if m["op"] == 5:
                self.events.append(m["d"])
            elif m["op"] == 7 and m["d"]["requestId"] == rid:
                return m["d"]

    def event(self, kind, pred=lambda data: True, timeout=15):
        for i, e in enumerate(self.events):
            if e["eventType"] == kind and pred(e.get("eventData", {})):
                del self.events[: i + 1]
                return e.get("eventData", {})
        deadline = time.time() + timeout
        while True:
            m = json.loads(self.ws.recv(timeout=max(0.01, deadline - time.time())))
            if m["op"] == 5:
                if m["d"]["eventType"] == kind and pred(m["d"].get("eventData", {})):
                    return m["d"].get("eventData", {})

    def close(self):
        self.ws.close()
