"""A protocol-faithful stand-in for obs-websocket 5.1 (docs/generated/protocol.md of
obsproject/obs-websocket), on raw sockets so a test can also make it misbehave: the WebSocket
upgrade, Hello with an authentication challenge, Identify checked with the v5 formula (close 4009
when wrong), Identified, the requests the obs plugin sends (single and RequestBatch), and events
to every identified client. Misbehaviours: `silence()` (stops answering requests), `send_raw()`
(any bytes, e.g. a frame that claims 64 MiB), `flood()` (scene changes as fast as it can send).

It is the pattern of obs-websocket-js's tests' dev server; what it answers is what OBS 29 answered
to the same requests (Tests/obs/test_obs_real.py runs the same plugin against the real one).
"""
import base64
import hashlib
import json
import os
import socket
import struct
import threading

from obs_support import authentication

GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"


def frame(payload: bytes, opcode=1):
    head = bytes([0x80 | opcode])
    n = len(payload)
    if n < 126:
        head += bytes([n])
    elif n < 1 << 16:
        head += bytes([126]) + struct.pack(">H", n)
    else:
        head += bytes([127]) + struct.pack(">Q", n)
    return head + payload


class Client:
    def __init__(self, server, sock):
        self.server, self.sock = server, sock
        self.identified = False
        self.lock = threading.Lock()
        self.buf = b""

    def send_json(self, obj):
        self.send_raw(frame(json.dumps(obj).encode()))

    def send_raw(self, data):
        with self.lock:
            try:
                self.sock.sendall(data)
            except OSError:
                pass

    def read_exact(self, n):
        while len(self.buf) < n:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise EOFError
            self.buf += chunk
        out, self.buf = self.buf[:n], self.buf[n:]
        return out

    def read_message(self):
        """One client frame (the plugin sends unfragmented, masked text); None for a close."""
        b0, b1 = self.read_exact(2)
        n = b1 & 0x7F
        if n == 126:
            n = struct.unpack(">H", self.read_exact(2))[0]
        elif n == 127:
            n = struct.unpack(">Q", self.read_exact(8))[0]
        assert b1 & 0x80, "a client frame must be masked (RFC 6455 5.3)"
        mask = self.read_exact(4)
        data = bytes(c ^ mask[i % 4] for i, c in enumerate(self.read_exact(n)))
        opcode = b0 & 0x0F
        if opcode == 8:
            return None
        if opcode == 9:
            self.send_raw(frame(data, 10))
            return self.read_message()
        return data.decode()

    def upgrade(self):
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise EOFError
            head += chunk
        head, _, self.buf = head.partition(b"\r\n\r\n")
        fields = {}
        for line in head.decode().split("\r\n")[1:]:
            k, _, v = line.partition(":")
            fields[k.strip().lower()] = v.strip()
        accept = base64.b64encode(hashlib.sha1((fields["sec-websocket-key"] + GUID).encode()).digest()).decode()
        self.sock.sendall(("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                           f"Sec-WebSocket-Accept: {accept}\r\nSec-WebSocket-Protocol: obswebsocket.json\r\n\r\n").encode())

    def run(self):
        try:
            self.upgrade()
            salt = base64.b64encode(os.urandom(32)).decode()
            challenge = base64.b64encode(os.urandom(32)).decode()
            self.send_json({"op": 0, "d": {"obsWebSocketVersion": "5.1.0", "rpcVersion": 1,
                                           "authentication": {"challenge": challenge, "salt": salt}}})
            while True:
                text = self.read_message()
                if text is None:
                    return
                msg = json.loads(text)
                self.server.received.append(msg)
                if msg["op"] == 1:
                    if msg["d"].get("authentication") != authentication(self.server.password, salt, challenge):
                        self.send_raw(frame(struct.pack(">H", 4009) + b"Authentication failed.", 8))
                        return
                    self.identified = True
                    self.send_json({"op": 2, "d": {"negotiatedRpcVersion": 1}})
                    self.server.identified.set()
                elif msg["op"] == 6 and not self.server.silent.is_set():
                    self.send_json({"op": 7, "d": self.server.answer(msg["d"])})
                elif msg["op"] == 8 and not self.server.silent.is_set():
                    results = [self.server.answer(r) for r in msg["d"]["requests"]]
                    self.send_json({"op": 9, "d": {"requestId": msg["d"]["requestId"], "results": results}})
        except (EOFError, OSError, ValueError):
            return
        finally:
            self.server.drop(self)


class StandIn:
    def __init__(self, password="stand-in-secret"):
        self.password = password
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(8)
        self.port = self.sock.getsockname()[1]
        self.clients = []
        self.received = []
        self.identified = threading.Event()
        self.silent = threading.Event()
        self.requested = threading.Condition()
        self.lock = threading.Lock()
        self.scene, self.recording, self.muted = "Intro", False, {"Mic": False}
        self.scenes = ["Intro", "Live", "Outro"]
        threading.Thread(target=self.accept, daemon=True).start()

    def accept(self):
        while True:
            try:
                sock, _ = self.sock.accept()
            except OSError:
                return
            c = Client(self, sock)
            with self.lock:
                self.clients.append(c)
            threading.Thread(target=c.run, daemon=True).start()

    def drop(self, client):
        with self.lock:
            if client in self.clients:
                self.clients.remove(client)
        client.sock.close()

    def broadcast(self, event_type, data):
        for c in list(self.clients):
            if c.identified:
                c.send_json({"op": 5, "d": {"eventType": event_type, "eventIntent": 1, "eventData": data}})

    def answer(self, d):
        kind, data = d["requestType"], d.get("requestData", {})
        ok, out, code, comment = True, None, 100, None
        if kind == "GetVersion":
            out = {"obsVersion": "29.0.2-standin", "obsWebSocketVersion": "5.1.0", "rpcVersion": 1}
        elif kind == "GetSceneList":
            out = {"currentProgramSceneName": self.scene, "currentPreviewSceneName": None,
                   "scenes": [{"sceneIndex": i, "sceneName": n} for i, n in enumerate(reversed(self.scenes))]}
        elif kind == "GetStudioModeEnabled":
            out = {"studioModeEnabled": False}
        elif kind in ("GetStreamStatus", "GetRecordStatus"):
            active = self.recording if kind == "GetRecordStatus" else False
            out = {"outputActive": active, "outputDuration": 0}
        elif kind == "GetInputMute":
            if data.get("inputName") in self.muted:
                out = {"inputMuted": self.muted[data["inputName"]]}
            else:
                ok, code, comment = False, 600, f"No source was found by the name of `{data.get('inputName')}`."
        elif kind == "SetCurrentProgramScene":
            if data.get("sceneName") in self.scenes:
                self.scene = data["sceneName"]
                self.broadcast("CurrentProgramSceneChanged", {"sceneName": self.scene})
            else:
                ok, code, comment = False, 600, f"No source was found by the name of `{data.get('sceneName')}`."
        elif kind == "ToggleRecord":
            self.recording = not self.recording
            out = {"outputActive": self.recording}
            state = "STARTED" if self.recording else "STOPPED"
            self.broadcast("RecordStateChanged", {"outputActive": self.recording, "outputState": f"OBS_WEBSOCKET_OUTPUT_{state}"})
        elif kind == "ToggleInputMute":
            name = data.get("inputName")
            self.muted[name] = not self.muted.get(name, False)
            out = {"inputMuted": self.muted[name]}
            self.broadcast("InputMuteStateChanged", {"inputName": name, "inputMuted": self.muted[name]})
        else:
            ok, code, comment = False, 204, f"Your request type is not valid here: {kind}"
        reply = {"requestType": kind, "requestStatus": {"result": ok, "code": code}}
        if "requestId" in d:
            reply["requestId"] = d["requestId"]
        if comment:
            reply["requestStatus"]["comment"] = comment
        if out is not None:
            reply["responseData"] = out
        return reply

    def silence(self):
        self.silent.set()

    def send_raw(self, data):
        for c in list(self.clients):
            c.send_raw(data)

    def flood(self, count, last):
        """`count` scene changes back to back, the last one naming `last`."""
        for i in range(count - 1):
            self.broadcast("CurrentProgramSceneChanged", {"sceneName": f"Flood {i}"})
        self.scene = last
        self.broadcast("CurrentProgramSceneChanged", {"sceneName": last})

    def hang_up(self):
        """Ends every connection at the TCP level (no close frame), as a crashed server would."""
        for c in list(self.clients):
            try:
                c.sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def close(self):
        self.hang_up()
        self.sock.close()
        for c in list(self.clients):
            c.sock.close()
