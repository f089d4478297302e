"""Browser tests: a real `marmite run` (waitress) in a subprocess, driven by Debian's Chromium."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

PIN = "1357"
CHROMIUM = "/usr/bin/chromium"
ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
AXE = Path(__file__).parent / "node_modules" / "axe-core" / "axe.min.js"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run", "--disable-quic"]
# Records every text handed to speech synthesis, before the page's own scripts run; each line "ends" at
# once (the page says one line at a time and waits for its end).
SPEECH_SPY = """
window.__spoken = [];
if ('speechSynthesis' in window) {
  window.speechSynthesis.speak = function (u) {
    window.__spoken.push(u.text);
    setTimeout(function () { u.dispatchEvent(new Event('start')); u.dispatchEvent(new Event('end')); }, 0);
  };
}
"""

playwright_sync = pytest.importorskip("playwright.sync_api")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class Server:
    """`marmite run` on a data dir; restartable on the same port."""

    def __init__(self, data: Path) -> None:
        self.data = data
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> Server:
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "marmite.cli", "run", "--host", "127.0.0.1", "--port", str(self.port),
             "--data", str(self.data), "--pin", PIN], cwd=ROOT, env=env,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(self.url + "/api/state", timeout=1).read()
                return self
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("marmite run did not start")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None

    def post(self, path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
        """POST JSON with the PIN header; the decoded answer."""
        request = urllib.request.Request(self.url + path, data=json.dumps(body or {}).encode(), method="POST",
                                         headers={"Content-Type": "application/json", "X-Table-Pin": PIN})
        with urllib.request.urlopen(request, timeout=10) as answer:
            result: dict[str, Any] = json.loads(answer.read())
            return result

    def get(self, path: str) -> Any:
        with urllib.request.urlopen(self.url + path, timeout=10) as answer:
            return json.loads(answer.read())


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    running = Server(tmp_path / "data").start()
    yield running
    running.stop()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not Path(CHROMIUM).exists():
        pytest.skip("Debian's chromium is not installed (scripts/test installs it)")
    with playwright_sync.sync_playwright() as play:
        launched = play.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield launched
        launched.close()


@pytest.fixture
def page(browser: Any, request: pytest.FixtureRequest) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="fr-FR")
    context.add_init_script(SPEECH_SPY)
    opened = context.new_page()
    yield opened
    ARTIFACTS.mkdir(exist_ok=True)
    opened.screenshot(path=str(ARTIFACTS / f"{request.node.name}-final.png"), full_page=True)
    context.close()


def shot(page: Any, name: str) -> None:
    """Keep a screenshot as a test artifact."""
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def unlock(page: Any, server: Server, target: str = "/") -> None:
    """Type the PIN on the unlock page, as a person would."""
    page.goto(f"{server.url}/unlock?next={target}")
    page.fill("#pin", PIN)
    page.click("button[type=submit]")
    page.wait_for_url(f"{server.url}{target}")


def audit(page: Any, name: str) -> list[dict[str, Any]]:
    """Run axe-core in the page; the serious and critical violations."""
    if not AXE.exists():
        pytest.skip("axe-core is not installed (scripts/test runs npm install in tests/browser)")
    page.evaluate(AXE.read_text(encoding="utf-8"))  # through DevTools: the page's CSP forbids inline scripts
    result = page.evaluate("async () => await axe.run(document, {runOnly: ['wcag2a','wcag2aa','wcag21aa','wcag22aa']})")
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / f"axe-{name}.json").write_text(json.dumps(result["violations"], indent=1))
    return [v for v in result["violations"] if v["impact"] in ("serious", "critical")]


def wait_log(page: Any, count: int) -> None:
    """Wait until the page has received `count` announcements from the stream."""
    page.wait_for_function("n => window.marmiteLog && window.marmiteLog.length >= n", arg=count, timeout=15000)


def spoken_once_quiet(page: Any) -> list[str]:
    """Every line handed to speech so far, once the page has said all it queued (it says one line at a time)."""
    page.wait_for_function("() => !window.MarmiteSpeech || !window.MarmiteSpeech.voice.busy()", timeout=15000)
    result: list[str] = page.evaluate("window.__spoken")
    return result


def wait_stream(page: Any) -> None:
    # document.body is null for a moment while the page reloads (a seat page reloads once it claims its seat)
    page.wait_for_function("() => document.body !== null && document.body.dataset.stream === 'open'", timeout=15000)


def events_of(path: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in Path(path).read_text().splitlines() if line.strip()]


class CuttingProxy:
    """A TCP proxy in front of the server whose `cut()` drops every open connection (a Wi-Fi blip)."""

    def __init__(self, target_port: int) -> None:
        import threading

        self.target_port = target_port
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self._open: list[socket.socket] = []
        self._lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        import threading

        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            try:
                upstream = socket.create_connection(("127.0.0.1", self.target_port))
            except OSError:
                client.close()
                continue
            with self._lock:
                self._open += [client, upstream]
            for source, sink in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(source, sink), daemon=True).start()

    @staticmethod
    def _pipe(source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for end in (source, sink):
                with contextlib.suppress(OSError):
                    end.shutdown(socket.SHUT_RDWR)

    def cut(self) -> None:
        """Drop every connection open now."""
        with self._lock:
            for end in self._open:
                try:
                    end.shutdown(socket.SHUT_RDWR)
                    end.close()
                except OSError:
                    pass
            self._open.clear()

    def close(self) -> None:
        self.cut()
        self.listener.close()


def choose_in_private(page: Any, player: str, menu: str) -> None:
    """A secret menu chosen on the tablet, the tablet passed to the player: open, show, pick, confirm."""
    page.get_by_role("button", name=f"Choisir en privé : {player}", exact=True).click()
    page.click("#private-ready")
    page.click(f".private-menu-btn[data-menu={menu}]")
    page.click("#private-confirm")


def refuse_then_accept(page: Any) -> list[str]:
    """Answer the page's confirm dialogs as a host who says no the first time and yes after: their messages."""
    asked: list[str] = []

    def answer(dialog: Any) -> None:
        asked.append(dialog.message)
        dialog.dismiss() if len(asked) == 1 else dialog.accept()

    page.on("dialog", answer)
    return asked
