# SPDX-License-Identifier: ISC
"""cdp.py: drive headless Chromium over the DevTools protocol.

Standard library only.  Chromium is started with --remote-debugging-pipe:
it reads commands on its file descriptor 3 and writes answers and events
on 4, each a JSON text ended by a NUL byte, so no port and no websocket
are needed.  One Browser, one or more Page objects (flat sessions).
"""

import base64
import fcntl
import json
import os
import select
import shutil
import subprocess
import time


class CDPError(Exception):
    """A protocol error, a timeout, or a browser that went away."""


def find_chromium():
    """The Chromium binary: $CHROMIUM, else the usual names; or None."""
    env = os.environ.get("CHROMIUM")
    if env:
        return env
    for name in ("/usr/lib/chromium/chromium", "chromium",
                 "chromium-browser", "google-chrome"):
        path = shutil.which(name) if not name.startswith("/") else name
        if path and os.access(path, os.X_OK):
            return path
    return None


class Browser:
    """A Chromium process and the pipe to it."""

    FLAGS = ["--headless", "--no-sandbox", "--disable-gpu",
             "--disable-quic", "--no-first-run",
             "--disable-background-networking", "--disable-component-update",
             "--disable-sync", "--disable-extensions",
             "--disable-default-apps", "--mute-audio",
             "--no-default-browser-check", "--password-store=basic",
             "--use-mock-keychain", "--hide-scrollbars",
             # No name is looked up: the pages are on 127.0.0.1, and what
             # Chromium looks up on its own (services, the entries' links)
             # left the machine: 414 packets on eth0 a run, 1 without.
             "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, "
             "EXCLUDE localhost",
             "--dns-prefetch-disable",
             "--remote-debugging-pipe"]

    def __init__(self, exe, user_data_dir, log_path, extra=()):
        to_r, to_w = os.pipe()
        from_r, from_w = os.pipe()
        # Above 10, so that putting them on 3 and 4 clobbers nothing.
        child_in = fcntl.fcntl(to_r, fcntl.F_DUPFD_CLOEXEC, 10)
        child_out = fcntl.fcntl(from_w, fcntl.F_DUPFD_CLOEXEC, 10)
        os.close(to_r)
        os.close(from_w)

        def on_3_and_4():
            os.dup2(child_in, 3)
            os.dup2(child_out, 4)

        args = [exe] + self.FLAGS + ["--user-data-dir=" + user_data_dir]
        args += list(extra) + ["about:blank"]
        self.log = open(log_path, "ab")
        self.proc = subprocess.Popen(
            args, stdin=subprocess.DEVNULL, stdout=self.log,
            stderr=self.log, preexec_fn=on_3_and_4, pass_fds=(3, 4),
            start_new_session=True)
        os.close(child_in)
        os.close(child_out)
        self.wfd = to_w
        self.rfd = from_r
        self.buf = b""
        self.next_id = 0
        self.answers = {}
        self.listeners = []

    def close(self, timeout=5):
        """Ask the browser to quit, then kill it; bounded."""
        try:
            self.send("Browser.close", timeout=2)
        except CDPError:
            pass
        try:
            self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            try:
                os.killpg(self.proc.pid, 9)
            except OSError:
                pass
            self.proc.wait(timeout)
        for fd in (self.wfd, self.rfd):
            try:
                os.close(fd)
            except OSError:
                pass
        self.log.close()

    def _read(self, deadline):
        """Read what is there (until deadline); dispatch whole messages."""
        left = deadline - time.monotonic()
        if left <= 0:
            return
        ready, _, _ = select.select([self.rfd], [], [], left)
        if not ready:
            return
        data = os.read(self.rfd, 1 << 20)
        if not data:
            raise CDPError("the browser closed the pipe (crashed?)")
        self.buf += data
        while b"\0" in self.buf:
            raw, self.buf = self.buf.split(b"\0", 1)
            msg = json.loads(raw)
            if "id" in msg:
                self.answers[msg["id"]] = msg
            else:
                for fn in list(self.listeners):
                    fn(msg.get("method"), msg.get("params", {}),
                       msg.get("sessionId"))

    def pump(self, seconds):
        """Let events arrive for a while."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            self._read(deadline)

    def send(self, method, params=None, session=None, timeout=15):
        """A command; its result, or CDPError."""
        self.next_id += 1
        mid = self.next_id
        msg = {"id": mid, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        data = json.dumps(msg).encode() + b"\0"
        try:
            while data:
                n = os.write(self.wfd, data)
                data = data[n:]
        except OSError as e:
            raise CDPError("write to the browser: %s" % e)
        deadline = time.monotonic() + timeout
        while mid not in self.answers:
            if time.monotonic() >= deadline:
                raise CDPError("%s: no answer in %d s" % (method, timeout))
            self._read(deadline)
        ans = self.answers.pop(mid)
        if "error" in ans:
            raise CDPError("%s: %s" % (method, ans["error"].get("message")))
        return ans.get("result", {})

    def wait(self, cond, timeout, what):
        """Read events until cond() is true; CDPError after timeout."""
        deadline = time.monotonic() + timeout
        while not cond():
            if time.monotonic() >= deadline:
                raise CDPError("timed out waiting for " + what)
            self._read(min(deadline, time.monotonic() + 0.1))


class Page:
    """A tab, attached with a flat session; collects console errors."""

    # Reports CSP violations on the console, where they are collected.
    CSP_HOOK = """
document.addEventListener('securitypolicyviolation', function (e) {
    console.error('CSP violation: ' + e.violatedDirective + ' blocked ' +
        (e.blockedURI || 'inline') + ' at ' + e.sourceFile + ':' +
        e.lineNumber);
});
"""

    def __init__(self, browser):
        self.b = browser
        tid = browser.send("Target.createTarget", {"url": "about:blank"})
        self.target = tid["targetId"]
        att = browser.send("Target.attachToTarget",
                           {"targetId": self.target, "flatten": True})
        self.sid = att["sessionId"]
        self.loads = 0
        self.errors = []
        self.console = []
        browser.listeners.append(self._event)
        for dom in ("Page", "Runtime", "Log", "Network"):
            self.send(dom + ".enable")
        self.send("Page.addScriptToEvaluateOnNewDocument",
                  {"source": self.CSP_HOOK})

    def _event(self, method, params, session):
        if session != self.sid:
            return
        if method == "Page.loadEventFired":
            self.loads += 1
        elif method == "Runtime.consoleAPICalled":
            text = " ".join(str(a.get("value", a.get("description", "")))
                            for a in params.get("args", []))
            self.console.append((params.get("type"), text))
            if params.get("type") in ("error", "assert"):
                self.errors.append("console." + params["type"] + ": " +
                                   text)
        elif method == "Runtime.exceptionThrown":
            d = params.get("exceptionDetails", {})
            exc = d.get("exception", {}).get("description") or d.get("text")
            self.errors.append("exception: %s (%s:%s)" % (
                exc, d.get("url", "?"), d.get("lineNumber", "?")))
        elif method == "Log.entryAdded":
            e = params.get("entry", {})
            if e.get("level") == "error":
                self.errors.append("%s: %s %s" % (
                    e.get("source"), e.get("text"), e.get("url", "")))

    def send(self, method, params=None, timeout=15):
        return self.b.send(method, params, self.sid, timeout)

    def navigate(self, url, timeout=15):
        """Load url and wait for its load event."""
        before = self.loads
        res = self.send("Page.navigate", {"url": url})
        if res.get("errorText"):
            raise CDPError("navigate %s: %s" % (url, res["errorText"]))
        self.b.wait(lambda: self.loads > before, timeout, "load of " + url)

    def eval(self, expr, timeout=15):
        """The value of a JS expression (promises awaited)."""
        res = self.send("Runtime.evaluate", {
            "expression": expr, "returnByValue": True,
            "awaitPromise": True}, timeout)
        if "exceptionDetails" in res:
            d = res["exceptionDetails"]
            raise CDPError("eval %r: %s" % (
                expr[:60], d.get("exception", {}).get("description") or
                d.get("text")))
        return res.get("result", {}).get("value")

    def wait_for(self, expr, timeout=10):
        """Poll until the expression is truthy; its value."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                v = self.eval(expr)
            except CDPError:
                v = None        # the page may be between documents
            if v:
                return v
            if time.monotonic() >= deadline:
                raise CDPError("timed out waiting for " + expr)
            self.b.pump(0.05)

    def acting(self, fn, timeout=15):
        """Run fn(), which triggers a navigation; wait for the new load."""
        before = self.loads
        fn()
        self.b.wait(lambda: self.loads > before, timeout,
                    "the page after an action")

    KEYS = {"Enter": (13, "Enter", "\r"), "Escape": (27, "Escape", ""),
            "ArrowDown": (40, "ArrowDown", ""), "ArrowUp": (38, "ArrowUp", ""),
            "/": (191, "Slash", "/"), "?": (191, "Slash", "?"),
            "[": (219, "BracketLeft", "["), "]": (221, "BracketRight", "]")}

    def key(self, k, modifiers=0):
        """Press and release one key, as a person would."""
        if k in self.KEYS:
            code, name, text = self.KEYS[k]
        else:
            code = ord(k.upper())
            name = ("Key" + k.upper()) if k.isalpha() else ("Digit" + k)
            text = k
        base = {"key": k, "code": name, "windowsVirtualKeyCode": code,
                "nativeVirtualKeyCode": code, "modifiers": modifiers}
        down = dict(base, type="keyDown" if text else "rawKeyDown")
        if text:
            down["text"] = text
            down["unmodifiedText"] = text
        self.send("Input.dispatchKeyEvent", down)
        self.send("Input.dispatchKeyEvent", dict(base, type="keyUp"))

    def viewport(self, width, height, mobile=False):
        self.send("Emulation.setDeviceMetricsOverride", {
            "width": width, "height": height, "deviceScaleFactor": 1,
            "mobile": mobile})

    def color_scheme(self, scheme):
        """Emulate prefers-color-scheme: "light" or "dark"."""
        self.send("Emulation.setEmulatedMedia", {
            "features": [{"name": "prefers-color-scheme", "value": scheme}]})

    def screenshot(self, path):
        """A PNG of the viewport into path."""
        res = self.send("Page.captureScreenshot", {"format": "png"}, 30)
        with open(path, "wb") as f:
            f.write(base64.b64decode(res["data"]))
