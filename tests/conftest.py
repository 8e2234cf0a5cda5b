"""Shared fixtures.

Browser tests (mark them ``@pytest.mark.browser``) use:
  app_server  (session)  base URL of a running ``streamlit run app.py``, e.g. "http://127.0.0.1:PORT"
  browser     (session)  Playwright sync-API chromium Browser (Debian's /usr/bin/chromium)
  page        (function) fresh context (1280x900) + Page; closed after the test
  screenshot_dir (session) where screenshots go: a temporary folder, or docs/ with UPDATE_SCREENSHOTS=1
and ``from browser_support import wait_for_app`` to wait for a script run to finish.

Every session checks that the tests left the checkout as they found it (``git status``).
The benchmarks' protocol client is importable as ``from st_client import Session``.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from browser_support import CHROMIUM_ARGS, REPO_ROOT, AppServer, chromium_path

sys.path.insert(0, str(REPO_ROOT / "benchmarks"))

UPDATE_SCREENSHOTS = os.environ.get("UPDATE_SCREENSHOTS") == "1"


def _git_status() -> list[str] | None:
    """``git status --porcelain`` of the checkout, or None when it is not a git checkout."""
    try:
        proc = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=all"],
            cwd=REPO_ROOT,
            capture_output=True,
            text=True,
            timeout=120,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    if proc.returncode != 0:
        return None
    lines = proc.stdout.splitlines()
    if UPDATE_SCREENSHOTS:  # asked for: the README's screenshots are rewritten
        lines = [line for line in lines if not (line[3:].startswith("docs/") and line.endswith(".png"))]
    return lines


@pytest.fixture(scope="session", autouse=True)
def checkout_stays_clean():
    """Tests never modify the checkout: they write under tmp_path, never into tracked (or untracked) files."""
    before = _git_status()
    yield
    if before is None:
        return
    after = _git_status()
    if after != before:
        changed = sorted(set(after or []) ^ set(before))
        pytest.fail(f"the tests changed the checkout (git status --porcelain): {changed}", pytrace=False)


@pytest.fixture(scope="session", autouse=True)
def corpus_store_dir(tmp_path_factory):
    """Pasted corpora go to a temporary corpus store (server/corpus_store.py), for the pages tested in this
    process and for every server a test starts (they inherit the environment), never the user's own."""
    from server import corpus_store

    os.environ["BPE_DATA_DIR"] = str(tmp_path_factory.mktemp("corpus-store"))
    os.environ.pop("BPE_REDIS_URL", None)
    corpus_store.use(None)
    yield Path(os.environ["BPE_DATA_DIR"])


@pytest.fixture(scope="session")
def screenshot_dir(tmp_path_factory) -> Path:
    """Where browser tests save screenshots: docs/ (the README's images) when UPDATE_SCREENSHOTS=1 is set,
    else a temporary folder, so a test run leaves the tracked images alone."""
    if UPDATE_SCREENSHOTS:
        return REPO_ROOT / "docs"
    return tmp_path_factory.mktemp("screenshots")


@pytest.fixture(scope="session")
def app_server():
    server = AppServer()
    try:
        yield server.start()
    finally:
        server.stop()


@pytest.fixture(scope="session")
def browser():
    path = chromium_path()
    if not Path(path).exists():
        msg = (
            f"chromium not found at {path} (install Debian's chromium: "
            "`apt-get install chromium`, or run scripts/test.sh; override with BPE_CHROMIUM)"
        )
        if os.environ.get("CI") == "true":
            pytest.fail(msg + " -- browser tests must not skip in CI", pytrace=False)
        pytest.skip(msg)

    from playwright.sync_api import sync_playwright

    pw = sync_playwright().start()
    try:
        b = pw.chromium.launch(executable_path=path, args=CHROMIUM_ARGS, headless=True)
        try:
            yield b
        finally:
            b.close()
    finally:
        pw.stop()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        yield context.new_page()
    finally:
        context.close()
