"""A pasted corpus of any size on one link, in a real browser: a 5,000-character corpus shared by
link opens at step 7 in a second browser context, and again after a server restart (the embedded store is a
file); a forgotten digest gets its sentence and the paste box. (Through HAProxy on the other replica:
tests/server/test_replicas.py.)"""

from __future__ import annotations

import re

import pytest
from browser_support import LONG_CORPUS, ONE_WORKER, TIMEOUT_MS, AppServer, open_train, paste_and_step, wait_for_app
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def opens_at(browser, link: str, step: int) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = context.new_page()
        open_train(page, link)
        expect(page.get_by_role("heading", name=re.compile(rf"Step {step} of"))).to_be_visible(timeout=TIMEOUT_MS)
        expect(page.get_by_test_id("bpe-corpus-summary")).to_contain_text(f"{len(LONG_CORPUS):,} characters")
        expect(page.get_by_text("The corpus is empty")).to_have_count(0)
        expect(page.locator(".bpe-alert-warning")).to_have_count(0)
    finally:
        context.close()


def test_a_5000_character_corpus_shared_by_link_opens_at_step_7_and_after_a_restart(browser, page):
    server = AppServer(env=ONE_WORKER)
    server.start()
    try:
        link = paste_and_step(page, server.url, LONG_CORPUS, 7)
        opens_at(browser, link, 7)  # a student: another browser context, a new session
        port = server.port
        server.stop()
        server = AppServer(port=port, env=ONE_WORKER)
        server.start()
        opens_at(browser, link, 7)  # the store is a file in the data directory: it survives the restart
    finally:
        server.stop()


def test_a_forgotten_digest_says_so_and_offers_the_paste_box(page, app_server):
    page.goto(f"{app_server}/?corpus={'0' * 64}&step=7")
    wait_for_app(page)
    expect(page.get_by_text(re.compile("The corpus this link points to is no longer on the server"))).to_be_visible(
        timeout=TIMEOUT_MS
    )
    expect(page.locator(".st-key-corpus_text textarea")).to_be_visible()
    expect(page.get_by_text("The corpus is empty")).to_have_count(0)
    expect(page.locator(".bpe-alert-error")).to_have_count(0)
