"""Shared fixtures.

Browser tests (mark them ``@pytest.mark.browser``) use:
  app_server  (session)  base URL of a running ``streamlit run app.py``, e.g. "http://127.0.0.1:PORT"
  browser     (session)  Playwright sync-API chromium Browser (Debian's /usr/bin/chromium)
  page        (function) fresh context (1280x900) + Page; closed after the test
and ``from browser_support import wait_for_app`` to wait for a script run to finish.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from browser_support import CHROMIUM_ARGS, AppServer, chromium_path


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
