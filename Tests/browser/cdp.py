"""A small Chrome DevTools Protocol client over websocket-client: one headless
Chromium for the whole test session, one page (tab) per simulated device,
phone or tablet sizes by Emulation.setDeviceMetricsOverride, touches by
Input.dispatchTouchEvent."""

import base64
import itertools
import json
import os
import queue
import re
import shutil
import subprocess
import tempfile
import threading
import time

import websocket

CHROMIUM = os.environ.get("DECK_CHROMIUM", "/usr/lib/chromium/chromium")


class CDPError(Exception):
    pass


class Browser:
    """Headless Chromium with one browser-level socket; pages are flattened sessions on it."""

    def __init__(self):
        self.profile = tempfile.mkdtemp(prefix="deck-chromium-")
        self.process = subprocess.Popen(
            [CHROMIUM, "--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
             "--remote-debugging-port=0", f"--user-data-dir={self.profile}", "--no-first-run",
             "--no-default-browser-check", "--disable-extensions", "--disable-background-networking",
             "--disable-renderer-backgrounding", "--disable-background-timer-throttling",
             "--disable-backgrounding-occluded-windows", "--lang=en-US", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        url = None
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            line = self.process.stderr.readline()
            if not line:
                break
            match = re.search(r"DevTools listening on (ws://\S+)", line)
            if match:
                url = match.group(1)
                break
        if not url:
            self.process.kill()
            raise CDPError("Chromium did not start (is the chromium package installed? make setup installs it)")
        threading.Thread(target=self._drain_stderr, daemon=True).start()
        self.ws = websocket.create_connection(url, timeout=60, suppress_origin=True)
        self.ids = itertools.count(1)
        self.waiting = {}
        self.events = {}
        self.lock = threading.Lock()
        self.front = None
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _drain_stderr(self):
        for _ in self.process.stderr:
            pass

    def _read(self):
        while True:
            try:
                message = json.loads(self.ws.recv())
            except Exception:
                for q in list(self.waiting.values()):
                    q.put({"error": {"message": "the browser's socket closed"}})
                return
            if "id" in message:
                q = self.waiting.pop(message["id"], None)
                if q:
                    q.put(message)
            else:
                sink = self.events.get(message.get("sessionId"))
                if sink is not None:
                    sink.put(message)

    def call(self, method, params=None, session=None, timeout=60):
        number = next(self.ids)
        q = queue.Queue()
        self.waiting[number] = q
        message = {"id": number, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        with self.lock:
            self.ws.send(json.dumps(message))
        try:
            reply = q.get(timeout=timeout)
        except queue.Empty:
            raise CDPError(f"{method}: no answer in {timeout} s")
        if "error" in reply:
            raise CDPError(f"{method}: {reply['error'].get('message')}")
        return reply.get("result", {})

    def new_page(self, width=390, height=844, scale=3, mobile=True):
        # Each device in its own window: a background tab of one window would get no frames and no input.
        target = self.call("Target.createTarget", {"url": "about:blank", "newWindow": True})["targetId"]
        session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        page = Page(self, target, session)
        page.size(width, height, scale, mobile)
        return page

    def close(self):
        try:
            self.ws.close()
        except Exception:
            pass
        self.process.terminate()
        try:
            self.process.wait(5)
        except subprocess.TimeoutExpired:
            self.process.kill()
        shutil.rmtree(self.profile, ignore_errors=True)


class Page:
    """One tab: evaluate JavaScript, wait on page state, touch, screenshot."""

    def __init__(self, browser, target, session):
        self.browser, self.target, self.session = browser, target, session
        self.events = queue.Queue()
        browser.events[session] = self.events
        self.call("Page.enable")
        self.call("Runtime.enable")

    def call(self, method, params=None, timeout=60):
        return self.browser.call(method, params, self.session, timeout)

    def size(self, width, height, scale=3, mobile=True):
        self.width, self.height, self.scale = width, height, scale
        self.call("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": scale, "mobile": mobile,
                   "screenWidth": width, "screenHeight": height})
        self.call("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})

    def goto(self, url):
        self.call("Page.navigate", {"url": url})

    def js(self, expression, await_promise=True):
        result = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                                "awaitPromise": await_promise})
        if "exceptionDetails" in result:
            details = result["exceptionDetails"]
            raise CDPError(f"{expression[:120]}: {details.get('exception', {}).get('description') or details.get('text')}")
        return result["result"].get("value")

    def wait(self, expression, timeout=20, what=None):
        """Polls a JavaScript condition until it is truthy; returns its value."""
        deadline = time.monotonic() + timeout
        last = None
        while time.monotonic() < deadline:
            try:
                last = self.js(expression)
            except CDPError as error:
                last = error
            if last and not isinstance(last, CDPError):
                return last
            time.sleep(0.02)
        raise AssertionError(f"timed out after {timeout} s waiting for {what or expression} (last: {last!r})")

    def touch(self, kind, x=None, y=None, timestamp=None):
        """touchStart / touchMove / touchEnd / touchCancel at a page point (CSS pixels).
        timestamp (seconds since the epoch, time.time()'s clock): the time the event carries
        into the page's event.timeStamp; without it Chromium stamps the moment it gets the
        command, which on a loaded machine can be long after the test sent it."""
        if self.browser.front is not self:
            self.call("Page.bringToFront")
            self.browser.front = self
        points = [] if kind in ("touchEnd", "touchCancel") else [{"x": x, "y": y, "id": 1}]
        params = {"type": kind, "touchPoints": points}
        if timestamp is not None:
            params["timestamp"] = timestamp
        self.call("Input.dispatchTouchEvent", params)

    def screenshot(self, path):
        """One frame as the screen shows it, in CSS pixels. Through a screencast
        rather than Page.captureScreenshot, which during an emulated touch makes
        Chromium send the page a stray touch move at another place."""
        while not self.events.empty():
            self.events.get_nowait()
        self.call("Page.startScreencast", {"format": "png", "everyNthFrame": 1})
        deadline = time.monotonic() + 20
        data = None
        while time.monotonic() < deadline and data is None:
            try:
                event = self.events.get(timeout=1)
            except queue.Empty:
                continue
            if event.get("method") == "Page.screencastFrame":
                self.call("Page.screencastFrameAck", {"sessionId": event["params"]["sessionId"]})
                data = event["params"]["data"]
        self.call("Page.stopScreencast")
        if data is None:
            raise CDPError("no screencast frame in 20 s")
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))

    def close(self):
        self.browser.events.pop(self.session, None)
        try:
            self.browser.call("Target.closeTarget", {"targetId": self.target})
        except CDPError:
            pass
