"""A big file sent to the corpus upload route (``serve.py``), from ``curl``'s side and from the Train page's
"Send a big file": the server's memory while 40 MB arrive (its RSS, read from ``/proc``), the corpus opened
on the page by its digest, and a refusal's sentence with the file's name shown as text.
Run with ``.venv/bin/python -m pytest tests/browser/test_browser_corpus_send.py -q``."""

from __future__ import annotations

import json
import threading
import urllib.request
from pathlib import Path

import pytest
from browser_support import ONE_WORKER, SERVE_SCRIPT, TIMEOUT_MS, AppServer, open_train, wait_for_app
from playwright.sync_api import expect

from server import corpus_form

pytestmark = pytest.mark.browser

LINE = "the cat sat on the mat, said the old man été\n"


@pytest.fixture(scope="module")
def served():
    server = AppServer(script=SERVE_SCRIPT, env=ONE_WORKER)
    server.start()
    try:
        yield server
    finally:
        server.stop()


def rss(pid: int) -> int:
    """The process's resident memory in bytes (``VmRSS`` in ``/proc/<pid>/status``)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise AssertionError(f"no VmRSS for {pid}")


def post_file(url: str, path: Path) -> tuple[int, str]:
    with path.open("rb") as body:
        request = urllib.request.Request(
            f"{url}/corpus-upload?name={path.name}",
            data=body,
            method="POST",
            headers={"Content-Length": str(path.stat().st_size)},
        )
        try:
            with urllib.request.urlopen(request, timeout=300) as answer:
                return answer.status, answer.read().decode()
        except urllib.error.HTTPError as exc:
            return exc.code, exc.read().decode()


def test_a_40_mb_upload_raises_the_servers_rss_by_far_less_than_its_size(served, tmp_path):
    size = 40_000_000
    corpus = tmp_path / "forty.txt"
    with corpus.open("w", encoding="utf-8") as f:
        f.write(LINE * (size // len(LINE.encode())))
    small = tmp_path / "small.txt"
    small.write_text(LINE * 30_000)  # the first upload's threads, store and imports: not the body's cost
    assert post_file(served.url, small)[0] == 200
    pid = served.proc.pid
    before, peak, done = rss(pid), [0], threading.Event()

    def sample() -> None:
        while not done.is_set():
            peak[0] = max(peak[0], rss(pid))
            done.wait(0.005)

    sampler = threading.Thread(target=sample)
    sampler.start()
    try:
        status, body = post_file(served.url, corpus)
    finally:
        done.set()
        sampler.join()
    assert status == 200, body
    assert json.loads(body)["digest"] == corpus_form.digest("text", corpus.read_text(encoding="utf-8"))
    grew = peak[0] - before
    # a few chunks, whatever the size (Streamlit's uploader holds the file twice while it arrives)
    assert grew < corpus.stat().st_size / 4, f"the server's RSS grew by {grew / 2**20:.1f} MiB for a 40 MB upload"


def text_source_with_sender(page, url: str):
    open_train(page, f"{url}/")
    page.locator(".st-key-source").get_by_text("Paste or upload text").click()
    wait_for_app(page)
    sender = page.get_by_test_id("bpe-corpus-send")
    sender.wait_for(state="attached", timeout=TIMEOUT_MS)
    return sender


def test_a_file_sent_from_the_page_is_opened_by_its_digest(served, page, tmp_path):
    corpus = tmp_path / "corpus.en"
    text = "the cat sat on the mat\n\n    the dog sat too\n" * 200
    corpus.write_text(text, encoding="utf-8")
    text_source_with_sender(page, served.url).set_input_files(str(corpus))
    key = corpus_form.digest("text", text)
    page.wait_for_url(f"**corpus={key}**", timeout=TIMEOUT_MS)
    wait_for_app(page)
    summary = page.get_by_test_id("bpe-corpus-summary").inner_text()
    assert f"Corpus: {len(text):,} characters" in summary and "stored on the server" in summary
    assert key[:12] in summary


def test_a_refused_file_gets_its_sentence_with_its_name_as_text(served, page, tmp_path):
    name = '<img src=x onerror="window.bpeInjected=1">.txt'
    bad = tmp_path / name
    bad.write_bytes(b"hug\xffpug")
    text_source_with_sender(page, served.url).set_input_files(str(bad))
    error = page.locator(".bpe-alert-error", has_text="not UTF-8")
    error.wait_for(state="visible", timeout=TIMEOUT_MS)
    assert f"The file {name!r} is not UTF-8 text: byte 3 (0xff) cannot be decoded." in error.inner_text()
    assert error.locator("img").count() == 0 and page.evaluate("window.bpeInjected") is None
    # The sentence shows early in the rerun; the run before it ("The corpus is empty" for the blank box) stays
    # on screen, greyed, until this rerun ends: read the page when it has.
    wait_for_app(page)
    expect(page.locator('[data-testid="stMain"]').get_by_text("The corpus is empty")).to_have_count(0)
