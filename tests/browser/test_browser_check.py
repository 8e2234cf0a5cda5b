"""The Check page and the CS336 downloads in a real browser: the handout preset's files arrive in CS336's
shapes, and "Go to step k" opens the Train page at that step.
Run with ``.venv/bin/python -m pytest tests/browser/test_browser_check.py -q`` (needs Debian's chromium)."""

from __future__ import annotations

import json
import pickle
from urllib.parse import urljoin

import pytest
from browser_support import assert_no_exception, open_train, shown_step, wait_for_app, wait_for_step

pytestmark = pytest.mark.browser

HANDOUT = ["s t", "e st", "o w", "l ow", "w est", "n e", "ne west", "w i", "wi d", "wid est", "low e", "lowe r"]


def test_cs336_preset_downloads_in_cs336_shapes(app_server, page):
    open_train(page, f"{app_server}/?preset=cs336&step=12")
    saved = {}
    for key in ("cs336_json", "cs336_pickle"):
        with page.expect_response(lambda r: "/media/" in r.url, timeout=15_000) as response:
            page.locator(f".st-key-dl_{key} button").click()
        assert response.value.ok
        saved[key] = response.value.body()
    data = json.loads(saved["cs336_json"])
    assert [" ".join(m) for m in data["merges"]] == HANDOUT
    assert data["vocab"]["0"] == "<|endoftext|>" and len(data["vocab"]) == 1 + 256 + 12
    plain = pickle.loads(saved["cs336_pickle"])  # our own file: plain types only
    assert plain["merges"][:2] == [(b"s", b"t"), (b"e", b"st")] and plain["vocab"][257] == b"st"


def test_go_to_step_opens_the_train_page_there(app_server, page):
    page.goto(f"{app_server}/check")
    wait_for_app(page)
    box = page.locator(".st-key-chk_paste textarea")
    box.fill("e s\nes t\n")  # the smallest-pair rule's first merges, against CS336's greatest-bytes
    box.press("Control+Enter")
    link = page.get_by_role("link", name="Go to step 1")
    link.wait_for(timeout=60_000)
    assert_no_exception(page)
    href = link.get_attribute("href")
    assert href.startswith("./?") and "step=1" in href
    page.goto(urljoin(page.url, href))  # relative to /check, as the browser resolves the link
    wait_for_step(page, 1)
    assert shown_step(page) == 1
    body = page.locator("body").inner_text()
    assert "Step 1 of 2" in body and "does not seem to exist" not in body  # the run as long as the student's
