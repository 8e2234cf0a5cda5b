"""In the browser: a run file from ``python -m bpe train`` opens on the Train page, and a bad one gets a sentence."""

from __future__ import annotations

import re

import pytest
from browser_support import STEP_TEXT, TIMEOUT_MS, assert_no_exception, open_train, wait_for_app

import bpe
from bpe.formats import run_file

pytestmark = pytest.mark.browser


def test_a_saved_run_opens_and_steps_and_a_bad_file_gets_a_sentence(app_server, page, tmp_path):
    saved = bpe.run_training("low lower lowest newer wider " * 30, pre_tokenizer="gpt2", num_merges=12)
    good, bad = tmp_path / "tiny.bpe", tmp_path / "notes.bpe"
    run_file.save_run(saved, good)
    bad.write_bytes(b"hug 10\npug 5\n")
    open_train(page, f"{app_server}/")
    page.get_by_text("Open a saved run (.bpe)").click()
    file_input = page.locator('[class*="st-key-run_file_upload"] input[type="file"]')
    file_input.wait_for(state="attached", timeout=TIMEOUT_MS)

    file_input.set_input_files(str(good))
    page.get_by_text("Stepping through the saved run").wait_for(state="visible", timeout=TIMEOUT_MS)
    page.get_by_text("Step 0 of 12").first.wait_for(state="visible", timeout=TIMEOUT_MS)
    page.locator(".st-key-end button").click()
    page.get_by_text("Step 12 of 12").first.wait_for(state="visible", timeout=TIMEOUT_MS)
    wait_for_app(page)
    assert STEP_TEXT.search(page.locator("body").inner_text())
    assert_no_exception(page)

    # Close on the same page lets the file go (it does not open again from the uploader), and it opens again.
    page.locator(".st-key-close_run_file button").click()
    page.get_by_text("Stepping through the saved run").wait_for(state="detached", timeout=TIMEOUT_MS)
    wait_for_app(page)
    assert_no_exception(page)
    page.get_by_text("Open a saved run (.bpe)").click()
    file_input.set_input_files(str(good))
    page.get_by_text("Stepping through the saved run").wait_for(state="visible", timeout=TIMEOUT_MS)

    # Another page and back: the run stays open (the uploader forgets its file, the session does not).
    page.locator('[data-testid="stSidebarNav"] a').filter(has_text="Encode").click()
    wait_for_app(page)
    page.locator('[data-testid="stSidebarNav"] a').filter(has_text="Train").click()
    page.get_by_text("Stepping through the saved run").wait_for(state="visible", timeout=TIMEOUT_MS)
    page.get_by_text(re.compile(r"Step \d+ of 12")).first.wait_for(state="visible", timeout=TIMEOUT_MS)
    assert_no_exception(page)
    page.locator(".st-key-close_run_file button").click()  # back to a preset, which trains as before
    page.get_by_text("Stepping through the saved run").wait_for(state="detached", timeout=TIMEOUT_MS)
    wait_for_app(page)
    page.locator(".st-key-next button").wait_for(state="visible", timeout=TIMEOUT_MS)
    assert page.locator(".bpe-alert-error").count() == 0
    assert_no_exception(page)
    page.get_by_text("Open a saved run (.bpe)").click()

    file_input.set_input_files(str(bad))
    alert = page.locator(".bpe-alert-error").filter(has_text="not a BPE Explorer run file")
    alert.first.wait_for(state="visible", timeout=TIMEOUT_MS)
    assert "notes.bpe" in alert.first.inner_text()
    assert_no_exception(page)
