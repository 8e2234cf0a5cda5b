"""A server restart under an open page: the page reconnects by itself and shows the same
preset, settings and step from its URL; a pasted corpus the corpus store could not keep (a Redis that is
down: NO_STORE), too long for the URL, comes back from this browser's storage or says it must be pasted
again. The server is killed and started again on the same port while the browser stays open."""

from __future__ import annotations

import re

import pytest
from browser_support import (
    ONE_WORKER,
    STEP_TEXT,
    TIMEOUT_MS,
    AppServer,
    free_port,
    healthy,
    paste_corpus,
    wait_for_app,
    wait_for_reconnect,
    watch_connection,
)
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

# A corpus store that is down (nothing listens there): pasted corpora stay in the session, links say corpus=text.
NO_STORE = {"BPE_REDIS_URL": f"redis://127.0.0.1:{free_port()}/0"}

# Counts the times the page's restore script looks for a saved corpus (it checks every second).
COUNT_CORPUS_CHECKS_JS = """() => {
  window.__bpeCorpusChecks = 0;
  const get = Storage.prototype.getItem;
  Storage.prototype.getItem = function (key) {
    if (key === 'bpe-explorer:corpus_text') window.__bpeCorpusChecks++;
    return get.call(this, key);
  };
}"""


def wait_for_corpus_checks(page, n: int = 2) -> None:
    """Let the restore script look at the empty corpus box ``n`` times (it would fill it in by then)."""
    page.evaluate(COUNT_CORPUS_CHECKS_JS)
    page.wait_for_function("(n) => window.__bpeCorpusChecks >= n", arg=n, timeout=TIMEOUT_MS)


class KeptServers:
    """The module's servers, kept running from one test to the next by their environment: every test restarts
    its server, and the next test with the same environment starts on the restarted one instead of a new server
    (a start and the first page's imports cost seconds of CPU on a 2-core machine). A server that is down is
    replaced by a new one."""

    def __init__(self):
        self.kept: dict[tuple, AppServer] = {}

    def take(self, env: dict[str, str]) -> AppServer:
        server = self.kept.pop(tuple(sorted(env.items())), None)
        if server is not None and server.proc is not None and server.proc.poll() is None and healthy(server.url):
            return server
        if server is not None:
            server.stop()
        server = AppServer(env=env)
        server.start()
        return server

    def keep(self, server: AppServer, env: dict[str, str]) -> None:
        if (old := self.kept.pop(tuple(sorted(env.items())), None)) is not None and old is not server:
            old.stop()
        self.kept[tuple(sorted(env.items()))] = server

    def stop(self) -> None:
        for server in self.kept.values():
            server.stop()


@pytest.fixture(scope="module")
def servers():
    kept = KeptServers()
    try:
        yield kept
    finally:
        kept.stop()


def restart(server: AppServer) -> AppServer:
    """Kill the server (SIGTERM to its process group, as a restart would) and start it on the same port."""
    port = server.port
    server.stop()
    again = AppServer(port=port, env=server.env)
    again.start()
    return again


def test_an_open_page_says_the_server_is_down_and_comes_back_with_its_step_after_a_restart(page, servers):
    """While the server is down the page says so in its own words; then it reconnects by itself at its step."""
    server = servers.take(ONE_WORKER)
    banner = page.get_by_text(re.compile("The BPE Explorer server is restarting"))
    try:
        page.goto(f"{server.url}/?preset=course&tie_break=hf&step=5")
        wait_for_app(page)
        page.locator(".st-key-next button").wait_for(state="visible", timeout=TIMEOUT_MS)
        page.locator(".st-key-next button").click()
        expect(page.get_by_role("heading", name=re.compile(r"Step 6 of"))).to_be_visible(timeout=TIMEOUT_MS)
        wait_for_app(page)
        expect(banner).to_have_count(0)
        try:  # the page's own script has arrived (it comes with the first run's elements)
            page.wait_for_function("() => window.__bpeRestore === true", timeout=10_000)
        except PlaywrightTimeout:
            pass  # no such script (the code before it): the assertion below says what is missing
        watch_connection(page)
        port = server.port
        server.stop()
        expect(banner).to_be_visible(timeout=TIMEOUT_MS)
        assert "your typed text is kept in this browser" in banner.inner_text()
        server = AppServer(port=port, env=ONE_WORKER)
        server.start()
        # The page reconnects on its own (no reload); the new server session reads the URL.
        wait_for_reconnect(page)
        expect(banner).to_have_count(0, timeout=TIMEOUT_MS)
        expect(page.get_by_role("heading", name=re.compile(r"Step 6 of"))).to_be_visible(timeout=TIMEOUT_MS)
        wait_for_app(page)
        page.locator(".st-key-next button").click()  # a live session on the new server, not a stale page
        expect(page.get_by_role("heading", name=re.compile(r"Step 7 of"))).to_be_visible(timeout=TIMEOUT_MS)
        assert "tie_break=hf" in page.url and "step=7" in page.url and "preset=course" in page.url
        assert '"Tie rule": hf' in page.locator(".st-key-tie_break").aria_snapshot()
    finally:
        servers.keep(server, ONE_WORKER)


ENCODE_TYPED = "thug hugs bugs, mugs and pugs"


def before_a_step_click(page, url: str) -> None:
    """The page's last run before the restart is the whole page's (a load), not a step's."""
    page.goto(f"{url}/?preset=course&step=5")
    wait_for_app(page)
    expect(page.get_by_role("heading", name=re.compile(r"Step 5 of"))).to_be_visible(timeout=TIMEOUT_MS)


def before_the_encode_text(page, url: str) -> None:
    """Typed on Encode, then the Train page is open."""
    page.goto(f"{url}/encode?preset=hug")
    wait_for_app(page)
    box = page.locator(".st-key-encode_text textarea")
    box.fill(ENCODE_TYPED)
    box.press("Control+Enter")
    wait_for_app(page)
    page.get_by_role("link", name="Train").click()
    wait_for_app(page)
    page.locator(".st-key-next button").wait_for(state="visible", timeout=TIMEOUT_MS)


def before_an_upload_is_lost(page, url: str) -> None:
    """A tokenizer file uploaded on Encode, and listed there."""
    from tokenizer_files import big_tokenizer_json

    page.goto(f"{url}/encode")
    wait_for_app(page)
    page.get_by_text("Uploaded file", exact=True).click()
    wait_for_app(page)
    page.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(
        files=[{"name": "mine.json", "mimeType": "application/json", "buffer": big_tokenizer_json(300)}]
    )
    wait_for_app(page)
    expect(page.locator('[data-testid="stFileUploader"]')).to_contain_text("mine.json", timeout=TIMEOUT_MS)
    expect(page.get_by_text("Upload a tokenizer file to tokenize with it.")).to_have_count(0)


@pytest.fixture(scope="module")
def restarted(browser, servers):
    """Three pages on one server, each as its test needs it before a restart, and one restart under all three
    (a restart and the new server's first runs cost seconds of CPU): {name: page}. Each test then checks its
    page after the restart; the step click's comes first in the module, as soon as its page reconnects."""
    server = servers.take(ONE_WORKER)
    contexts, pages = [], {}
    try:
        for name, before in (
            ("step click", before_a_step_click),
            ("encode text", before_the_encode_text),
            ("upload", before_an_upload_is_lost),
        ):
            contexts.append(browser.new_context(viewport={"width": 1280, "height": 900}))
            pages[name] = contexts[-1].new_page()
            before(pages[name], server.url)
            watch_connection(pages[name])
        server = restart(server)
        yield pages
    finally:
        for context in contexts:
            context.close()
        servers.keep(server, ONE_WORKER)


def test_a_step_click_right_after_a_restart_is_not_lost(restarted):
    """The last run before the restart was the whole page's (not a step's): Streamlit's frontend then asks
    the new server for no run after reconnecting, and the new server drops a click on a step button (a
    fragment it has not registered yet). The page asks for that run itself and keeps the step controls
    waiting until it is done; the click then steps."""
    page = restarted["step click"]
    wait_for_reconnect(page)
    page.locator(".st-key-next button").click()  # as soon as a student could: it waits while dimmed
    expect(page.get_by_role("heading", name=re.compile(r"Step 6 of"))).to_be_visible(timeout=TIMEOUT_MS)
    wait_for_app(page)
    assert "step=6" in page.url
    # The keys step too (ui/keys.js), on the same new session.
    page.keyboard.press("n")
    expect(page.get_by_role("heading", name=re.compile(r"Step 7 of"))).to_be_visible(timeout=TIMEOUT_MS)


def paste_long_corpus(page, text: str) -> str:
    """Paste ``text`` in the sidebar, train it, step to 1; returns the run's "of N"."""
    paste_corpus(page, text)
    expect(page.get_by_text(re.compile("too long to put in a link"))).to_be_visible(timeout=TIMEOUT_MS)
    page.locator(".st-key-next button").click()  # a step click is a fragment run: the frontend alone forgot the text
    heading = page.get_by_role("heading", name=re.compile(r"Step 1 of"))
    expect(heading).to_be_visible(timeout=TIMEOUT_MS)
    return STEP_TEXT.search(heading.inner_text()).group(2)


def test_a_long_pasted_corpus_comes_back_by_itself_after_a_restart(page, servers):
    """2,200 characters cannot travel in the link (``corpus=text``): the browser's localStorage brings them
    back into the session, and the page trains the same run at the same step, after a restart and a reload."""
    server = servers.take({**NO_STORE, **ONE_WORKER})
    text = "the quick brown fox jumps over the lazy dog " * 50  # 2,200 characters: too long for a link
    try:
        page.goto(f"{server.url}/")
        wait_for_app(page)
        total = paste_long_corpus(page, text)
        server = restart(server)
        box = page.locator(".st-key-corpus_text textarea")
        held = page.get_by_test_id("bpe-corpus-summary")
        expect(held).to_contain_text(f"{len(text):,} characters", timeout=TIMEOUT_MS)
        expect(page.get_by_role("heading", name=f"Step 1 of {total}")).to_be_visible(timeout=TIMEOUT_MS)
        wait_for_app(page)
        expect(page.get_by_text(re.compile("paste or upload it again"))).to_have_count(0)
        assert "step=1" in page.url and "corpus=text" in page.url
        page.reload()  # a new session again, from the link alone
        wait_for_app(page)
        expect(held).to_contain_text(f"{len(text):,} characters", timeout=TIMEOUT_MS)
        expect(page.get_by_role("heading", name=f"Step 1 of {total}")).to_be_visible(timeout=TIMEOUT_MS)
        # Another corpus=text link (other settings: someone else's corpus) asks for its own text.
        assert "limit_value=1000" in page.url
        page.goto(page.url.replace("limit_value=1000", "limit_value=50"))
        wait_for_app(page)
        expect(page.get_by_text(re.compile("paste or upload it again"))).to_be_visible(timeout=TIMEOUT_MS)
        wait_for_corpus_checks(page)  # the script checks every second
        expect(box).to_have_value("")
        expect(held).to_have_count(0)
        page.go_back()
        wait_for_app(page)
        expect(held).to_contain_text(f"{len(text):,} characters", timeout=TIMEOUT_MS)
        # Choosing a preset forgets the pasted text: a later corpus=text link asks for it again.
        page.get_by_text("Preset", exact=True).first.click()
        wait_for_app(page)
        # forgotten on the radio's change event; the script's once-a-second watcher is the fallback
        page.wait_for_function("() => localStorage.getItem('bpe-explorer:corpus_text') === null", timeout=5_000)
    finally:
        servers.keep(server, {**NO_STORE, **ONE_WORKER})


def test_the_encode_text_comes_back_after_a_restart(restarted):
    """Typed on Encode, then the Train page is open when the server restarts: the new session would show
    the preset's sample on Encode (Streamlit's frontend resends only the widgets on screen); this browser's
    storage puts the typed text back."""
    page = restarted["encode text"]
    expect(page.locator(".st-key-next button")).to_be_visible(timeout=TIMEOUT_MS)
    wait_for_reconnect(page)
    page.get_by_role("link", name="Encode").click()
    wait_for_app(page)
    box = page.locator(".st-key-encode_text textarea")
    expect(box).to_have_value(ENCODE_TYPED, timeout=TIMEOUT_MS)
    wait_for_app(page)
    # the new session tokenizes the typed text, not the preset's sample
    expect(page.locator("[data-testid='stMain']").get_by_text("pugs").first).to_be_attached(timeout=TIMEOUT_MS)


FILL_STORAGE_JS = """() => {
  // Fill this origin's localStorage to its quota with other data, as a full browser profile would.
  let size = 1 << 20, i = 0;
  while (size >= 64) {
    try { localStorage.setItem('other-site-data-' + (i++), 'x'.repeat(size)); }
    catch (e) { size = size >> 1; }
  }
  return i;
}"""


def test_a_corpus_the_browser_refuses_to_keep_asks_to_be_pasted_again(page, servers):
    """The browser's storage is full: the new paste cannot be kept, and the text kept before it (another
    corpus) must not come back under the new corpus's link. After a restart the page says to paste again."""
    server = servers.take({**NO_STORE, **ONE_WORKER})
    first = "the quick brown fox jumps over the lazy dog " * 50
    second = "pack my box with five dozen liquor jugs " * 60  # 2,400 characters: also too long for a link
    try:
        page.goto(f"{server.url}/")
        wait_for_app(page)
        paste_long_corpus(page, first)
        page.wait_for_function(
            "(t) => localStorage.getItem('bpe-explorer:corpus_text') === t", arg=first, timeout=10_000
        )
        assert page.evaluate(FILL_STORAGE_JS) > 1
        box = page.locator(".st-key-corpus_text textarea")
        box.fill(second)
        box.press("Control+Enter")
        wait_for_app(page)
        page.locator(".st-key-next button").click()
        expect(page.get_by_role("heading", name=re.compile(r"Step 1 of"))).to_be_visible(timeout=TIMEOUT_MS)
        # refused: nothing is kept, not even the first corpus
        page.wait_for_function("() => localStorage.getItem('bpe-explorer:corpus_text') === null", timeout=10_000)
        server = restart(server)
        expect(page.get_by_text(re.compile("paste or upload it again"))).to_be_visible(timeout=TIMEOUT_MS)
        wait_for_corpus_checks(page)  # the script checks every second: it must not fill in the first corpus
        expect(box).to_have_value("")
    finally:
        servers.keep(server, {**NO_STORE, **ONE_WORKER})


def test_an_uploaded_tokenizer_lost_in_a_restart_is_asked_for_again_and_no_longer_listed(restarted):
    """After a restart the new server never gets the uploaded file the browser still lists (Streamlit 1.67 sends
    an empty list): the page says to upload again, and the list is cleared."""
    from ui.encode_sources import RESTARTED

    page = restarted["upload"]
    wait_for_reconnect(page)
    box = page.locator(".st-key-encode_text textarea")  # the student goes on typing: a run on the new server
    box.fill("hello again")
    box.press("Control+Enter")
    wait_for_app(page)
    expect(page.get_by_text(RESTARTED)).to_be_visible(timeout=TIMEOUT_MS)
    expect(page.locator('[data-testid="stFileUploader"]')).not_to_contain_text("mine.json")
    expect(page.get_by_text("Upload a tokenizer file to tokenize with it.")).to_be_visible()
