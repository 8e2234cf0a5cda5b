"""Helpers for the real-browser tests: run the Streamlit app, drive Debian's chromium.

Fixtures built on these live in conftest.py (``app_server``, ``browser``, ``page``, ``screenshot_dir``).
Tests import the waits and the Train page's helpers from here::

    from browser_support import open_train, wait_for_app, wait_until

A test waits for the condition it means, never a fixed time: Playwright's ``expect(...)``,
``page.wait_for_function(...)`` or ``locator.wait_for(...)`` in the page, ``wait_until`` for anything
else (a server's health, a file), ``wait_for_layout`` before a screenshot or a measurement.

Environment overrides:
  BPE_CHROMIUM    chromium binary (default Debian's chromium-headless-shell, else /usr/bin/chromium)
  BPE_APP_SCRIPT  script given to ``streamlit run`` (default app.py, relative to repo root)
"""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable
from contextlib import contextmanager
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")

REPO_ROOT = Path(__file__).resolve().parent.parent

# Debian's chromium-headless-shell is the same Blink as its chromium, built as the old headless shell (what
# Playwright itself runs headless): no GPU process or browser UI to feed, so a browser test costs about a
# quarter less CPU on a 2-core machine. scripts/test.sh installs both; the full browser stays the fallback.
HEADLESS_SHELL = "/usr/lib/chromium/chromium-headless-shell"
DEFAULT_CHROMIUM = HEADLESS_SHELL if os.path.exists(HEADLESS_SHELL) else "/usr/bin/chromium"

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
TIMEOUT_MS = APP_RUN_TIMEOUT_MS  # the default deadline of a wait in the page: generous, it returns at once
# How often a wait re-checks a condition that reads the whole page (``innerText`` lays the page out): at every
# animation frame, the default, chromium would spend the CPU the server needs to draw the step.
POLL_MS = 100
# A server a test starts (or restarts) for itself and that trains only small runs: one training worker starts
# with it, not one per core (each imports the engine while the page's first run waits for the CPU).
ONE_WORKER = {"BPE_TRAIN_WORKERS": "1"}


def wait_until(predicate: Callable[[], T], timeout: float, what: str | Callable[[], str], interval: float = 0.1) -> T:
    """Call ``predicate`` until it returns a true value, and return that value; after ``timeout`` seconds
    raise an AssertionError naming ``what`` was awaited (a string, or a function giving one, e.g. a log).
    For waits outside a page (a server's health, a process, a file); in a page use Playwright's waits."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() >= deadline:
            raise AssertionError(f"waited {timeout:g} s for {what() if callable(what) else what}")
        time.sleep(interval)  # the polling interval: the wait ends as soon as the predicate holds


def chromium_path() -> str:
    return os.environ.get("BPE_CHROMIUM", DEFAULT_CHROMIUM)


SERVE_SCRIPT = "serve.py"  # the pages and the corpus upload route beside them (server/corpus_route.py)


def app_script() -> str:
    return os.environ.get("BPE_APP_SCRIPT", "app.py")


def healthy(url: str) -> bool:
    """Whether a Streamlit server (or HAProxy in front of some) answers "ok" on its health endpoint."""
    try:
        with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as r:
            return r.status == 200 and r.read().decode().strip() == "ok"
    except OSError:
        return False


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
        try:
            wait_until(self._healthy, timeout, f"streamlit to answer at {self.url}/_stcore/health")
        except AssertionError as e:
            self.stop()
            raise RuntimeError(f"{e}:\n{self.log_tail()}") from None
        return self.url

    def _healthy(self) -> bool:
        if self.proc.poll() is not None:
            raise RuntimeError(
                f"streamlit exited with code {self.proc.returncode} before becoming healthy:\n{self.log_tail()}"
            )
        return healthy(self.url)

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


def in_own_loop(coroutine, timeout: float | None = None):
    """``coroutine`` run to its end on an event loop of its own, in a thread of its own: a browser test earlier in
    the same process (Playwright's sync API) leaves this thread a running loop, where asyncio.run refuses to start."""
    import asyncio
    import concurrent.futures

    with concurrent.futures.ThreadPoolExecutor(1) as ex:
        return ex.submit(asyncio.run, coroutine).result(timeout)


def run_protocol(session_work, url: str, timeout: float = 180):
    """``await session_work(url)`` (protocol sessions, benchmarks/st_client.py) and return its result, on a loop
    of its own (:func:`in_own_loop`)."""
    return in_own_loop(session_work(url), timeout)


def on_new_server(session_work, script: str | None = None, timeout: float = 180):
    """Start an app server, ``run_protocol(session_work, its url)`` and stop the server; returns what the
    coroutine returned and the server's log."""
    server = AppServer(script=script)
    server.start()
    try:
        result = run_protocol(session_work, server.url, timeout)
        return result, Path(server.log.name).read_text(errors="replace")
    finally:
        server.stop()


# -- waits in the page ----------------------------------------------------------------------------------

# A signature of the layout (the viewport, the main column's height, every chart, grid and table box) and
# how long it has stayed the same.
_LAYOUT_QUIET_JS = """(quietMs) => {
  const main = document.querySelector('[data-testid="stMain"]');
  const parts = [innerWidth, innerHeight, main ? main.scrollHeight : 0];
  for (const e of document.querySelectorAll('[data-testid="stVegaLiteChart"] svg, canvas, table, img')) {
    const r = e.getBoundingClientRect();
    parts.push(Math.round(r.left), Math.round(r.top), Math.round(r.width), Math.round(r.height));
  }
  const signature = parts.join(',');
  const now = performance.now();
  if (window.__bpeLayout !== signature) {
    window.__bpeLayout = signature;
    window.__bpeLayoutSince = now;
    return false;
  }
  return now - window.__bpeLayoutSince >= quietMs;
}"""


def wait_for_layout(page, quiet_ms: int = 500, timeout: float = TIMEOUT_MS) -> None:
    """Wait until the page's layout has stopped moving: no chart, grid, table or image box and not the main
    column's height changed for ``quiet_ms`` (charts redraw a moment after a run, a resize or a scroll).
    Before a screenshot, or before measuring boxes."""
    page.wait_for_function(_LAYOUT_QUIET_JS, arg=quiet_ms, timeout=timeout, polling="raf")


# Counts the times the page lost its server (Streamlit's connection state left CONNECTED).
_WATCH_CONNECTION_JS = """() => {
  const app = document.querySelector('[data-testid="stApp"]');
  window.__bpeDisconnects = 0;
  new MutationObserver(() => {
    if (app.getAttribute('data-test-connection-state') !== 'CONNECTED') window.__bpeDisconnects++;
  }).observe(app, {attributes: true, attributeFilter: ['data-test-connection-state']});
}"""


def watch_connection(page) -> None:
    """Start counting the page's disconnections; call before stopping its server (``wait_for_reconnect``)."""
    page.wait_for_selector('[data-testid="stApp"]', state="attached", timeout=TIMEOUT_MS)
    page.evaluate(_WATCH_CONNECTION_JS)


def wait_for_reconnect(page, timeout: float = TIMEOUT_MS) -> None:
    """After ``watch_connection``: wait until the page noticed its server went away and is connected again
    (to a new server), and the new session's run is over."""
    page.wait_for_function(
        """() => window.__bpeDisconnects > 0 && document.querySelector('[data-testid="stApp"]')
                   .getAttribute('data-test-connection-state') === 'CONNECTED'""",
        timeout=timeout,
    )
    wait_for_app(page, timeout)


# -- the Train page -------------------------------------------------------------------------------------

STEP_TEXT = re.compile(r"Step (\d[\d,]*) of (\d[\d,]*)")  # thousands separated: "Step 1,234 of 5,000"
# The step view is drawn: its Next, or a following student's line (a following phone has no step controls).
STEP_VIEW_DRAWN = ".st-key-next button, [data-bpe-serial]"


def open_train(page, url: str) -> None:
    """Open a URL of the app and wait until the run is over *and* the step view is drawn.

    ``wait_for_app`` alone is not enough on a first load: the run can be finished while the
    frontend still shows skeletons for a few seconds (it is loading its chart/table code).
    """
    response = page.goto(url)
    assert response is not None and response.ok, f"GET {url} failed"
    wait_for_app(page)
    page.locator(STEP_VIEW_DRAWN).first.wait_for(state="visible", timeout=TIMEOUT_MS)
    page.get_by_text(STEP_TEXT).first.wait_for(state="visible", timeout=TIMEOUT_MS)


def paste_corpus(page, text: str):
    """Paste ``text`` as the Train page's corpus in the sidebar and commit it (Ctrl+Enter, as on blur);
    returns the text box, which the accepted text leaves."""
    page.get_by_text("Paste or upload text", exact=True).click()
    wait_for_app(page)
    box = page.locator(".st-key-corpus_text textarea")
    box.fill(text)
    box.press("Control+Enter")
    wait_for_app(page)
    return box


def shown_step(page) -> int:
    """The step the "this step" box shows ("Step 3 of 7: ..." or "Step 0 of 7: ...")."""
    text = page.get_by_text(STEP_TEXT).first.inner_text()
    return int(STEP_TEXT.search(text).group(1).replace(",", ""))


def wait_for_step(page, n: int) -> None:
    """Wait until the page shows step ``n`` (written with thousands separators, "Step 5,000 of 5,000") and its
    run has finished."""
    page.wait_for_function(
        # document.body is null for a moment while a link click loads the next page: wait on through it
        """(n) => document.body !== null
            && new RegExp('Step ' + n.toLocaleString('en-US') + ' of \\\\d+').test(document.body.innerText)""",
        arg=n,
        timeout=TIMEOUT_MS,
        polling=POLL_MS,
    )
    wait_for_app(page)


def slider_value(page) -> int:
    return int(page.locator('.st-key-step input[type="range"]').get_attribute("aria-valuetext"))


def assert_no_exception(page) -> None:
    exceptions = page.locator('[data-testid="stException"]')
    assert exceptions.count() == 0, exceptions.first.inner_text()


# The pair chart's bars from top to bottom, as its y axis labels them.
CHART_ROWS_JS = """() => {
  const axis = [...document.querySelectorAll('[data-testid="stVegaLiteChart"] svg g.role-axis')]
    .find(a => (a.getAttribute('aria-label') || '').startsWith('Y-axis'));
  const labels = [...axis.querySelectorAll('g.role-axis-label text')].map(t => {
    const m = /translate\\(([-\\d.]+),([-\\d.]+)\\)/.exec(t.getAttribute('transform'));
    return [parseFloat(m[2]), t.textContent];
  });
  return labels.sort((a, b) => a[0] - b[0]).map(l => l[1]);
}"""


def save_full_page_screenshot(page, path: Path) -> None:
    """A screenshot of the whole page, not just the first 900 px.

    Streamlit scrolls inside its own containers (``stMain``, the sidebar), so Playwright's
    ``full_page`` alone stops at the viewport: grow the viewport to the content first.
    """
    size = page.viewport_size
    height = page.evaluate(
        """() => Math.max(...['[data-testid="stMain"]', '[data-testid="stSidebarContent"]']
            .map(s => document.querySelector(s)).filter(Boolean).map(e => e.scrollHeight))"""
    )
    page.set_viewport_size({"width": size["width"], "height": max(size["height"], min(height, 12_000))})
    try:
        wait_for_layout(page)  # charts and tables redraw at the new size
        path.parent.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(path), full_page=True)
    finally:
        page.set_viewport_size(size)


# What a class must see at every step on a 1280x720 projector, as a list of what is wrong (empty when all is):
# the new token (the step title's highlighted chip), the vocabulary's newest token, one rewritten (✱) word of the splits, and the chart's count
# of the merged pair written on its bar, inside the viewport; no chip, table or panel wider than its column.
PRESENTER_PROBLEMS_JS = """() => {
  const problems = [];
  const W = window.innerWidth, H = window.innerHeight;
  const inView = (e) => { const r = e.getBoundingClientRect();
    return r.width > 0 && r.left >= 0 && r.top >= 0 && r.right <= W + 0.5 && r.bottom <= H + 0.5; };
  const title = document.querySelector('.bpe-step-title');
  const m = title && /Step ([\\d,]+) of/.exec(title.textContent);
  const step = m ? +m[1].replaceAll(',', '') : -1;
  const chips = title ? title.querySelectorAll('.tok') : [];
  if (!chips.length || !inView(chips[chips.length - 1])) problems.push('new token not in view');
  // The vocabulary's newest token: the first chip of a newest-first vocabulary (the panel, or presenter mode's strip).
  const newest = [...document.querySelectorAll('[data-vocab]')].map(v => v.querySelector('.tok')).filter(Boolean);
  if (!newest.some(inView)) problems.push('newest vocabulary token not in view');
  const rewritten = [...document.querySelectorAll('table[data-table="splits"] td.word')]
    .find(td => td.textContent.startsWith('✱'));
  if (!rewritten || !inView(rewritten)) problems.push('no rewritten word in view');
  const count = (document.querySelector('#merge-count') || {}).textContent || '';
  const want = count.replace('count ', '');
  const labels = [...document.querySelectorAll('[data-testid="stVegaLiteChart"] svg g.mark-text.role-mark text')];
  if (!labels.some(t => t.textContent === want && inView(t)))
    problems.push('the chart shows no count ' + want + ' in view: ' + labels.map(t => t.textContent).join(','));
  const columnOf = (e) => e.closest('[data-testid="stColumn"]') || e.closest('[data-testid="stMainBlockContainer"]');
  for (const e of document.querySelectorAll('[data-testid="stMain"] :is(.tok, table.bpe-table, .bpe-step, .bpe-scroll)')) {
    const r = e.getBoundingClientRect();
    if (!r.width) continue;  // in a folded part
    const c = columnOf(e).getBoundingClientRect();
    const cell = e.classList.contains('tok') && e.closest('td, .bpe-scroll, .bpe-step');
    const box = cell ? cell.getBoundingClientRect() : c;
    if (r.left < box.left - 0.5 || r.right > box.right + 0.5 || r.left < c.left - 0.5 || r.right > c.right + 0.5)
      problems.push('wider than its column: ' + e.className + ' ' + JSON.stringify(e.textContent.slice(0, 30)));
  }
  for (const e of document.querySelectorAll('.bpe-stack > div, .bpe-grid > div, .bpe-scroll'))
    if (e.scrollWidth > e.clientWidth + 1) problems.push('scrolls sideways: ' + e.className);
  return {step, problems: problems.slice(0, 8)};
}"""


# Records every time Streamlit draws its "page does not exist" notice (window.bpeNotices): add with
# page.add_init_script before the first goto.
NOTICE_WATCH_JS = """document.addEventListener('DOMContentLoaded', () => {
  window.bpeNotices = [];
  new MutationObserver(() => {
    if (document.body.innerText.includes('does not seem to exist')) window.bpeNotices.push(location.pathname);
  }).observe(document.documentElement, {subtree: true, childList: true, characterData: true});
})"""


# A pasted corpus too long for a link: the link names it by its digest in the corpus store.
LONG_CORPUS = (
    "Byte pair encoding merges the most frequent pair of symbols, again and again, until the vocabulary "
    "is as large as asked. The tokenizer then cuts new text with the same merges, in the same order.\n"
) * 26  # 5,096 characters


def paste_and_step(page, url: str, text: str, step: int) -> str:
    """Paste ``text`` on a fresh page, step to ``step`` with Next; returns the link (the page's URL)."""
    from playwright.sync_api import expect

    open_train(page, f"{url}/")
    box = paste_corpus(page, text)
    expect(page.get_by_test_id("bpe-corpus-summary")).to_contain_text(f"{len(text):,} characters", timeout=TIMEOUT_MS)
    expect(box).to_have_value("")  # the text left the box: a click does not carry it
    for n in range(1, step + 1):
        page.locator(".st-key-next button").click()
        wait_for_step(page, n)
    assert re.search(r"[?&]corpus=[0-9a-f]{64}(&|$)", page.url) and f"step={step}" in page.url
    assert len(page.url) < 300
    return page.url


def replica_of(context) -> str:
    """The replica HAProxy's sticky cookie sends this browser context to."""
    return next(c["value"] for c in context.cookies() if c["name"] == "BPE_REPLICA")


def open_encode(page, url: str) -> None:
    """The Encode page on the course preset, its first tokens drawn."""
    from playwright.sync_api import expect

    page.goto(f"{url}/encode?preset=course")
    expect(page.locator(".bpe-tokens").first).to_contain_text("Ġtoken", timeout=TIMEOUT_MS)
    wait_for_app(page)


def set_encode_text(page, text: str) -> None:
    """``text`` typed into the Encode page's text box and applied (a text area applies its value on Ctrl+Enter,
    or on blur)."""
    area = page.get_by_label("Text to tokenize (up to 100 KB)")
    area.fill(text)
    area.press("Control+Enter")
    wait_for_app(page)


@contextmanager
def drawn_at(page, cdp, scale: float):
    """The open page's 1280x720 CSS viewport drawn at ``scale`` device pixels per CSS pixel (as a context's
    device_scale_factor draws it), then at 1 again."""

    def draw(s: float) -> None:
        metrics = {"width": 1280, "height": 720, "deviceScaleFactor": s, "mobile": False}
        cdp.send("Emulation.setDeviceMetricsOverride", metrics)
        page.wait_for_function("(s) => window.devicePixelRatio === s", arg=s, timeout=TIMEOUT_MS)

    draw(scale)
    try:
        yield
    finally:
        draw(1)
