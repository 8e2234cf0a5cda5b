"""Text files as corpora in a real browser: a ``.en`` file and a 20 MB file on the Train page, and the Check
page's whole path (a corpus file and a CS336 pickle, the verdict, "Go to step k", the Train page at that
step on the same corpus). Run with ``.venv/bin/python -m pytest tests/browser/test_browser_corpus_files.py -q``."""

from __future__ import annotations

import pickle
import re
import time

import pytest
from browser_support import TIMEOUT_MS, assert_no_exception, open_train, wait_for_app, wait_for_step
from students import cs336_train

pytestmark = pytest.mark.browser

EOT = "<|endoftext|>"
CODE = "def f(x):\n    if x:\n        return x\n    return 0\n\n\nclass A:\n    pass\n"
BIG_RUN_MS = 600_000  # a 20 MB file trained to 1,000 merges on a busy two-core machine


def choose(page, widget, option: str) -> None:
    box = widget.get_by_role("combobox")
    box.click()
    box.fill(option)
    page.get_by_role("option", name=option, exact=True).click()
    wait_for_app(page)


def upload_corpus(page, path, key: str = "corpus_file") -> None:
    file_input = page.locator(f'.st-key-{key} input[type="file"]')
    file_input.wait_for(state="attached", timeout=TIMEOUT_MS)
    file_input.set_input_files(str(path))


def wait_for_run(page, timeout: float) -> None:
    """Until the uploaded corpus's run is trained and shown: the step view, no Stop button, and no error left
    from the empty text box."""
    page.wait_for_function(
        """() => /Step 0 of \\d/.test(document.body.innerText) && !document.querySelector('.bpe-alert-error')
                 && !document.querySelector('.st-key-stop_training')""",
        timeout=timeout,
    )
    wait_for_app(page)


def text_source(page, app_server) -> None:
    open_train(page, f"{app_server}/")
    page.locator(".st-key-source").get_by_text("Paste or upload text").click()
    wait_for_app(page)


def test_an_en_file_is_the_corpus(app_server, page, tmp_path):
    text_source(page, app_server)
    corpus = tmp_path / "corpus.en"
    corpus.write_text("the cat sat on the mat\n\n    the dog sat too\n" * 50)
    upload_corpus(page, corpus)
    summary = page.get_by_test_id("bpe-corpus-summary")
    summary.wait_for(state="visible", timeout=TIMEOUT_MS)
    assert f"Corpus: {len(corpus.read_text()):,} characters" in summary.inner_text()
    wait_for_run(page, TIMEOUT_MS)
    assert page.locator(".bpe-alert-error").count() == 0
    assert_no_exception(page)


def test_a_20_mb_file_trains_in_the_pool(app_server, page, tmp_path):
    """The first feedback (the corpus summary) comes before the run is trained; the run then shows its step."""
    text_source(page, app_server)
    paragraph = "".join(f"word{i % 5000} and some prose, line {i}\n    an indented line\n\n" for i in range(2000))
    big = tmp_path / "tiny_stories_valid.txt"
    big.write_text(paragraph * (20_000_000 // len(paragraph) + 1))
    size = big.stat().st_size
    started = time.monotonic()
    upload_corpus(page, big)
    summary = page.get_by_test_id("bpe-corpus-summary")
    summary.wait_for(state="visible", timeout=BIG_RUN_MS)
    first_feedback = time.monotonic() - started
    assert f"Corpus: {size:,} characters" in summary.inner_text()
    wait_for_run(page, BIG_RUN_MS)
    trained = time.monotonic() - started
    print(f"20 MB file ({size:,} bytes): corpus summary after {first_feedback:.1f} s, run shown after {trained:.1f} s")
    errors = page.locator(".bpe-alert-error")
    assert errors.count() == 0, errors.first.inner_text()
    assert_no_exception(page)


def test_the_check_path_from_a_corpus_file_to_the_train_page(app_server, page, tmp_path):
    text = (CODE * 40 + EOT + "low lower lowest newest widest\n\n") * 30
    vocab, merges = cs336_train(text, 30, special_tokens=(EOT,), fault="min")
    corpus, run = tmp_path / "corpus.en", tmp_path / "run.pkl"
    corpus.write_text(text)
    run.write_bytes(pickle.dumps((vocab, merges)))
    page.goto(f"{app_server}/check")
    wait_for_app(page)
    page.locator(".st-key-chk_source").get_by_text("Your text").click()
    wait_for_app(page)
    upload_corpus(page, corpus, "chk_corpus_file")
    page.get_by_test_id("bpe-check-corpus-summary").wait_for(state="visible", timeout=TIMEOUT_MS)
    choose(page, page.locator(".st-key-chk_pre"), "gpt2")
    special = page.locator(".st-key-chk_special input")
    special.fill(EOT)
    special.press("Enter")
    wait_for_app(page)
    upload_corpus(page, run, "chk_files")
    verdict = page.get_by_role("heading", name=re.compile("runs part at step"))
    # checks run one at a time on a server: on a loaded machine this one can wait behind an earlier test's
    try:
        verdict.wait_for(timeout=3 * TIMEOUT_MS)
    except Exception as exc:  # what the page shows instead, to tell a queue from a wrong verdict
        raise AssertionError(page.locator("body").inner_text()[-2000:]) from exc
    step = int(verdict.inner_text().rsplit(" ", 1)[1].replace(",", ""))
    link = page.get_by_role("link", name=f"Go to step {step:,}")
    assert "corpus=" in link.get_attribute("href") and "corpus=text" not in link.get_attribute("href")
    with page.context.expect_page() as opened:
        link.click()
    train = opened.value
    wait_for_step(train, step)
    body = train.locator("body").inner_text()
    assert f"Step {step} of {len(merges)}" in body and "too long to fit in a link" not in body
    assert f"Corpus: {len(text):,} characters" in train.get_by_test_id("bpe-corpus-summary").inner_text()
    assert_no_exception(train)


def test_the_check_pages_corpus_file_is_let_go_and_removing_it_returns_to_the_box(app_server, page, tmp_path):
    """Once read, the file's bytes leave the server (the uploader still shows its name); its text stays the corpus
    over reruns, and removing the file returns to the paste box."""
    corpus = tmp_path / "corpus.en"
    corpus.write_text((CODE + EOT) * 20)
    page.goto(f"{app_server}/check")
    wait_for_app(page)
    page.locator(".st-key-chk_source").get_by_text("Your text").click()
    wait_for_app(page)
    upload_corpus(page, corpus, "chk_corpus_file")
    summary = page.get_by_test_id("bpe-check-corpus-summary")
    summary.wait_for(state="visible", timeout=TIMEOUT_MS)
    choose(page, page.locator(".st-key-chk_pre"), "gpt2")  # another rerun: the text is still the corpus
    assert summary.is_visible() and page.locator(".st-key-chk_corpus_file").get_by_text("corpus.en").is_visible()
    page.locator(".st-key-chk_corpus_file").get_by_test_id("stFileChipDeleteBtn").click()
    page.locator(".st-key-chk_text textarea").wait_for(state="visible", timeout=TIMEOUT_MS)
    assert not summary.is_visible()
    assert_no_exception(page)


def test_a_long_paste_on_the_check_page_leaves_the_box_and_says_where_it_went(app_server, page):
    """A paste too long to edit is stored and held by its digest, as on the Train page: the box goes, the summary
    names the pasted text and how to replace it, and "Paste a new text" brings back an empty box."""
    text = "the cat sat on the mat; the dog sat too.\n" * 26_000  # over stored_text.HELD_CHARS
    page.goto(f"{app_server}/check")
    wait_for_app(page)
    page.locator(".st-key-chk_source").get_by_text("Your text").click()
    wait_for_app(page)
    box = page.locator(".st-key-chk_text textarea")
    box.focus()
    # as a paste does: one input event with the whole text (Playwright's fill types it into React for minutes)
    box.evaluate(
        """(el, text) => {
            Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, "value").set.call(el, text);
            el.dispatchEvent(new Event("input", { bubbles: true }));
        }""",
        text,
    )
    box.press("Tab")  # the box commits on leaving it
    summary = page.get_by_test_id("bpe-check-corpus-summary")
    summary.wait_for(state="visible", timeout=TIMEOUT_MS)
    assert f"Corpus: the pasted text, {len(text):,} characters" in summary.inner_text()
    assert "stored on the server" in summary.inner_text()
    assert page.get_by_text("paste or upload a bigger one anew").is_visible() and box.count() == 0
    page.locator(".st-key-chk_file_drop button").click()
    box.wait_for(state="visible", timeout=TIMEOUT_MS)
    assert box.input_value() == "" and not summary.is_visible()
    assert_no_exception(page)
