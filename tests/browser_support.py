"""Helpers for the real-browser tests: run the Streamlit app, drive Debian's chromium.

Fixtures built on these live in conftest.py (``app_server``, ``browser``, ``page``).
Tests import ``wait_for_app`` from here::

    from browser_support import wait_for_app

Environment overrides:
  BPE_CHROMIUM    chromium binary (default /usr/bin/chromium)
  BPE_APP_SCRIPT  script given to ``streamlit run`` (default app.py, relative to repo root)
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent

DEFAULT_CHROMIUM = "/usr/bin/chromium"

# Without the background-networking flags chromium hangs on the closed CI network.
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

SERVER_START_TIMEOUT_S = 60
APP_RUN_TIMEOUT_MS = 60_000


def chromium_path() -> str:
    return os.environ.get("BPE_CHROMIUM", DEFAULT_CHROMIUM)


def app_script() -> str:
    return os.environ.get("BPE_APP_SCRIPT", "app.py")


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class AppServer:
    """A ``streamlit run`` subprocess in its own process group."""

    def __init__(self, script: str | None = None, port: int | None = None, env: dict[str, str] | None = None):
        self.script = script or app_script()
        self.env = {**os.environ, **env} if env else None  # extra environment for the server
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen | None = None
        self.log = tempfile.NamedTemporaryFile(prefix="bpe-streamlit-", suffix=".log", delete=False)

    def start(self, timeout: float = SERVER_START_TIMEOUT_S) -> str:
        cmd = [
            sys.executable,
            "-m",
            "streamlit",
            "run",
            self.script,
            "--server.headless",
            "true",
            "--server.port",
            str(self.port),
            "--server.address",
            "127.0.0.1",
            "--browser.gatherUsageStats",
            "false",
        ]
        self.proc = subprocess.Popen(
            cmd,
            cwd=REPO_ROOT,
            env=self.env,
            stdin=subprocess.DEVNULL,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # own process group, killed as a whole in stop()
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(
                    f"streamlit exited with code {self.proc.returncode} before becoming healthy:\n{self.log_tail()}"
                )
            if self._healthy():
                return self.url
            time.sleep(0.25)
        self.stop()
        raise RuntimeError(f"streamlit not healthy at {self.url}/_stcore/health after {timeout}s:\n{self.log_tail()}")

    def _healthy(self) -> bool:
        try:
            with urllib.request.urlopen(f"{self.url}/_stcore/health", timeout=2) as r:
                return r.status == 200 and r.read().decode().strip() == "ok"
        except OSError:
            return False

    def log_tail(self, n: int = 40) -> str:
        try:
            lines = Path(self.log.name).read_text(errors="replace").splitlines()
        except OSError:
            return "(no log)"
        return "\n".join(lines[-n:])

    def stop(self) -> None:
        proc, self.proc = self.proc, None
        if proc is None:
            return
        if proc.poll() is None:
            for sig, wait in ((signal.SIGTERM, 10), (signal.SIGKILL, 5)):
                try:
                    os.killpg(proc.pid, sig)
                except ProcessLookupError:
                    break
                try:
                    proc.wait(timeout=wait)
                    break
                except subprocess.TimeoutExpired:
                    continue
        else:
            # Leader gone; make sure no stragglers survive in its group.
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        self.log.close()
        try:
            os.unlink(self.log.name)
        except OSError:
            pass


def wait_for_app(page, timeout: float = APP_RUN_TIMEOUT_MS) -> None:
    """Wait until Streamlit has finished running the script for ``page``.

    Call after ``page.goto(...)`` and after every interaction that triggers a rerun.
    Uses what the Streamlit frontend exposes: ``[data-testid="stApp"]`` carries
    ``data-test-script-state`` ("initial", "running", "rerunRequested", "notRunning",
    "compilationError", ...), and the ``stStatusWidgetRunningIcon`` in the
    ``stStatusWidget`` is shown while a run is in progress.
    """
    page.wait_for_selector('[data-testid="stApp"]', state="attached", timeout=timeout)
    page.wait_for_function(
        """() => {
            const app = document.querySelector('[data-testid="stApp"]');
            if (!app) return false;
            const s = app.getAttribute('data-test-script-state');
            return s === 'notRunning' || s === 'compilationError';
        }""",
        timeout=timeout,
    )
    page.wait_for_selector('[data-testid="stStatusWidgetRunningIcon"]', state="detached", timeout=timeout)


def on_new_server(session_work, script: str | None = None, timeout: float = 180):
    """Start an app server, run ``await session_work(url)`` (protocol sessions, benchmarks/st_client.py)
    and stop the server; returns what it returned and the server's log. The coroutine runs in a thread
    of its own: Playwright's sync API may own this thread's event loop."""
    import asyncio
    import concurrent.futures

    server = AppServer(script=script)
    server.start()
    try:
        with concurrent.futures.ThreadPoolExecutor(1) as ex:
            result = ex.submit(asyncio.run, session_work(server.url)).result(timeout)
        return result, Path(server.log.name).read_text(errors="replace")
    finally:
        server.stop()
