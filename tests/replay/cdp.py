"""A small DevTools-protocol client for headless Chromium over ``--remote-debugging-pipe``
(no port, no network): open a file, press keys, click, read the page, take a screenshot.

Chromium reads commands on its fd 3 and writes answers on its fd 4, each a JSON message
ended by a NUL byte.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import shutil
import subprocess
import time
from pathlib import Path
from typing import Any

#: The flags the brief asks for: headless, no sandbox (CI runs as root), nothing fetched.
FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--disable-extensions", "--mute-audio", "--remote-debugging-pipe",
]

KEY_CODES = {"ArrowRight": 39, "ArrowLeft": 37, "Home": 36, "End": 35}


def chromium() -> str | None:
    """The Chromium binary on PATH (Debian's ``chromium`` package), if any."""
    return shutil.which("chromium") or shutil.which("chromium-browser")


class Browser:
    """One headless Chromium showing one page, driven over the pipe."""

    def __init__(self, url: str, profile: Path, size: tuple[int, int] = (1280, 1400)) -> None:
        binary = chromium()
        assert binary, "chromium is not installed"
        to_child_r, self._to_child = os.pipe()
        self._from_child, from_child_w = os.pipe()

        def wire() -> None:  # in the child: its fd 3 reads our commands, fd 4 writes answers
            # Copied out of the way first: either end may itself be fd 3 or 4.
            read_end, write_end = os.dup(to_child_r), os.dup(from_child_w)
            os.dup2(read_end, 3, inheritable=True)
            os.dup2(write_end, 4, inheritable=True)

        self.process = subprocess.Popen(
            [binary, *FLAGS, f"--user-data-dir={profile}", f"--window-size={size[0]},{size[1]}", url],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            preexec_fn=wire, close_fds=False,
        )
        os.close(to_child_r)
        os.close(from_child_w)
        self._buffer = b""
        self._next = 0
        self.session = self._attach()

    # -- the protocol ---------------------------------------------------------------------

    def send(self, method: str, params: dict[str, Any] | None = None, *, session: bool = True,
             timeout: float = 30.0) -> dict[str, Any]:
        """Send one command and wait for its answer (events meanwhile are dropped)."""
        self._next += 1
        message: dict[str, Any] = {"id": self._next, "method": method, "params": params or {}}
        if session and getattr(self, "session", None):
            message["sessionId"] = self.session
        os.write(self._to_child, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            answer = self._read()
            if answer.get("id") == self._next:
                if "error" in answer:
                    raise RuntimeError(f"{method}: {answer['error']}")
                return answer.get("result", {})
        raise TimeoutError(method)

    def _read(self) -> dict[str, Any]:
        while b"\0" not in self._buffer:
            chunk = os.read(self._from_child, 1 << 20)
            if not chunk:
                raise RuntimeError("chromium closed the pipe")
            self._buffer += chunk
        message, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(message)

    def _attach(self) -> str:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            targets = self.send("Target.getTargets", session=False)["targetInfos"]
            pages = [t for t in targets if t["type"] == "page"]
            if pages:
                return self.send("Target.attachToTarget", {"targetId": pages[0]["targetId"],
                                                           "flatten": True}, session=False)["sessionId"]
            time.sleep(0.1)
        raise TimeoutError("no page target")

    # -- what a test does -----------------------------------------------------------------

    def eval(self, expression: str) -> Any:
        """The value of a JavaScript expression in the page (promises awaited)."""
        result = self.send("Runtime.evaluate", {"expression": expression, "awaitPromise": True,
                                                "returnByValue": True})
        if "exceptionDetails" in result:
            raise RuntimeError(result["exceptionDetails"])
        return result["result"].get("value")

    def wait_for(self, expression: str, timeout: float = 20.0) -> Any:
        """Poll until ``expression`` is truthy; its value."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            value = self.eval(expression)
            if value:
                return value
            time.sleep(0.02)
        raise TimeoutError(expression)

    def key(self, name: str) -> None:
        """Press and release a key."""
        code = KEY_CODES[name]
        for kind in ("rawKeyDown", "keyUp"):
            self.send("Input.dispatchKeyEvent", {"type": kind, "key": name, "code": name,
                                                 "windowsVirtualKeyCode": code})

    def tap(self, x: float, y: float) -> None:
        """A touch on the page at ``(x, y)`` CSS pixels of the viewport."""
        for kind in ("touchStart", "touchEnd"):
            points = [{"x": x, "y": y}] if kind == "touchStart" else []
            self.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    def click(self, x: float, y: float) -> None:
        """A mouse click at ``(x, y)``."""
        for kind in ("mousePressed", "mouseReleased"):
            self.send("Input.dispatchMouseEvent", {"type": kind, "x": x, "y": y,
                                                   "button": "left", "clickCount": 1})

    def screenshot(self) -> bytes:
        """A PNG of the viewport."""
        return base64.b64decode(self.send("Page.captureScreenshot", {"format": "png"})["data"])

    def close(self) -> None:
        """End this Chromium (only the process this object started)."""
        with contextlib.suppress(RuntimeError, TimeoutError, OSError):  # already gone
            self.send("Browser.close", session=False, timeout=5)
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        os.close(self._to_child)
        os.close(self._from_child)
