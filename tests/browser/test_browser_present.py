"""Presenter mode for real text, sharing a step, and keys wherever the focus is, in a real browser.

Run with ``.venv/bin/python -m pytest tests/browser/test_browser_present.py -q`` (needs Debian's chromium).
"""

from __future__ import annotations

from urllib.parse import parse_qs, urlencode, urlparse

import pytest
from browser_support import (
    PRESENTER_PROBLEMS_JS,
    TIMEOUT_MS,
    assert_no_exception,
    drawn_at,
    open_train,
    shown_step,
    wait_for_app,
    wait_for_step,
)
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from server import corpus_form

pytestmark = pytest.mark.browser

SLIDER = '.st-key-step input[type="range"]'


def at_step(page, step: int) -> None:
    """The open page moved to ``step`` (from 1) by the step slider, as a scrub would, then the focus on the page."""
    slider = page.locator(SLIDER)
    slider.fill(str(step - 1))  # moves the thumb only: the arrow key then sends the step
    slider.press("ArrowRight")
    wait_for_step(page, step)
    page.locator(".bpe-step-title").click()  # the focus on the page, not a control


def test_n_p_and_space_step_with_the_step_slider_focused(hug_step_2):
    """The page focuses the slider at the last step and after a scrub: n, p and Space did nothing there."""
    page = hug_step_2
    at_step(page, 3)
    page.locator(SLIDER).focus()
    for key, step in [("n", 4), ("Space", 5), ("p", 4), ("N", 5), ("P", 4)]:
        page.keyboard.press(key)
        wait_for_step(page, step)
        assert shown_step(page) == step, key
    page.locator(SLIDER).focus()
    page.keyboard.press("ArrowRight")  # the slider's own keys keep their meaning (the same steps)
    wait_for_step(page, 5)


def test_space_steps_forward_after_a_click_on_back(hug_step_2):
    """After a mouse click on Back the focus stays on it, and Space pressed it again: backwards."""
    page = hug_step_2
    at_step(page, 4)
    page.locator(".st-key-back button").click()
    wait_for_step(page, 3)
    page.keyboard.press("Space")
    wait_for_step(page, 4)
    page.keyboard.press("Space")
    wait_for_step(page, 5)
    assert shown_step(page) == 5
    page.locator(".st-key-start button").click()
    wait_for_step(page, 0)
    page.keyboard.press("Space")  # Start disabled now, the focus moved: still forwards
    wait_for_step(page, 1)


def test_space_still_types_in_the_search_box_and_toggles_a_focused_switch(hug_step_2):
    page = hug_step_2
    at_step(page, 2)
    box = page.locator(".st-key-split_search input")
    box.click()
    box.type("u ")
    assert box.input_value() == "u " and shown_step(page) == 2
    toggle = page.locator('.st-key-predict input[type="checkbox"]')
    toggle.focus()
    page.keyboard.press("Space")  # a focused toggle keeps Space: the page stays usable from the keyboard
    question = page.get_by_text("Which pair will step 3 merge?")
    question.wait_for(timeout=TIMEOUT_MS)
    assert shown_step(page) == 2
    # the module's page as it was found: no prediction, no search
    toggle.focus()
    page.keyboard.press("Space")
    expect(question).to_have_count(0, timeout=TIMEOUT_MS)
    box.fill("")
    box.press("Enter")
    wait_for_app(page)


PARAGRAPH = (
    "The children walked to the harbour every morning before school. Their teacher said the boats were older "
    "than the town itself, and the children believed her, because the wood was grey and soft and smelled of "
    "salt. Hugging their coats against the wind, they counted the boats, the gulls and the nets hung out to "
    "dry, and wrote the numbers in their notebooks. On Mondays the fishermen came back with crates of "
    "herring; on Thursdays the ferry brought letters, newspapers and, once, a piano for the church. The "
    "children learned that a harbour is a kind of clock: the tide rises and falls, the boats go out and come "
    "back, and the town listens for them. When the storm came in November, the teacher kept the children "
    "inside and read to them about lighthouses, and about the keepers who trimmed the wicks and wound the "
    "clockwork that turned the lamps. Later, when the wind had dropped, they walked down to the harbour "
    "again and found every boat still there, rocking gently, and the gulls already arguing over the nets."
)
PARAGRAPH_URL = "/?" + urlencode(
    {"text": PARAGRAPH, "pre_tokenizer": "gpt2", "limit": "num_merges", "limit_value": "60", "present": "1"}
)


def check_presenter_steps(page, steps: range) -> None:
    """Step with the n key through ``steps`` (opened at the first), checking each in the page: every step in one
    page session. The check is waited for (the chart redraws a moment after the step), then asserted."""
    for step in steps:
        if step != steps[0]:
            page.keyboard.press("n")
        wait_for_step(page, step)
        try:
            page.wait_for_function(
                "(n) => { const r = (" + PRESENTER_PROBLEMS_JS + ")(); return r.step === n && !r.problems.length; }",
                arg=step,
                timeout=15_000,
            )
        except PlaywrightError:
            result = page.evaluate(PRESENTER_PROBLEMS_JS)
            raise AssertionError(f"step {step}: {result}") from None


def test_presenter_mode_shows_each_step_of_real_text_at_1280x720_and_at_150_percent_zoom(app_server, browser):
    """Every step of a 60-merge paragraph; its first five also at 150 % zoom on 1920x1080, a 1280x720 CSS viewport
    drawn at 1.5 device pixels per CSS pixel, in the same page. The presets' steps (the course's GPT-2 preset among
    them) get the same check in tests/browser/test_browser_fit.py, at each step it opens."""
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    try:
        page = context.new_page()
        cdp = context.new_cdp_session(page)
        open_train(page, f"{app_server}{PARAGRAPH_URL}&step=1")
        expect(page.locator('[data-testid="stSidebar"]')).to_have_attribute("data-collapsed", "true")
        page.locator(".bpe-step-title").click()  # focus the page, not a control
        with drawn_at(page, cdp, 1.5):
            check_presenter_steps(page, range(1, 6))
            assert page.evaluate("window.devicePixelRatio") == 1.5
        check_presenter_steps(page, range(5, 61))  # step 5 again at 1, where the page is; then on with the n key
        assert_no_exception(page)
    finally:
        context.close()


SHORT = PARAGRAPH[:300]  # a link short enough for a QR code a phone reads from across a room (share.QR_MAX_CHARS)
SHARE_URL = "/?" + urlencode({"text": SHORT, "pre_tokenizer": "gpt2", "present": "1"})


def test_share_shows_a_qr_code_of_the_link_and_copies_it(app_server, browser, tmp_path):
    """Presenter mode's Share: the QR code, read back from a screenshot of the page by a QR decoder, is the
    link to this step (without present=1); Copy link puts the same link on the clipboard; and the link opens
    this step in another browser context."""
    import zxingcpp
    from PIL import Image

    context = browser.new_context(
        viewport={"width": 1280, "height": 720}, permissions=["clipboard-read", "clipboard-write"]
    )
    try:
        page = context.new_page()
        open_train(page, f"{app_server}{SHARE_URL}&step=6")
        page.locator(".bpe-step-title").click()
        page.keyboard.press("n")
        wait_for_step(page, 7)
        page.get_by_role("button", name="Share").click()
        qr = page.locator(".bpe-qr img")
        qr.wait_for(timeout=TIMEOUT_MS)
        qr.screenshot(path=str(tmp_path / "qr.png"))
        decoded = [r.text for r in zxingcpp.read_barcodes(Image.open(tmp_path / "qr.png"))]
        expected = parse_qs(urlparse(page.url).query)
        del expected["present"]
        assert len(decoded) == 1, decoded
        link = decoded[0]
        assert link.startswith(f"{app_server}/?") and parse_qs(urlparse(link).query) == expected
        # The pasted text was stored on the server: the link carries its digest (server/corpus_store.py)
        assert expected["step"] == ["7"] and expected["corpus"] == [corpus_form.digest("text", SHORT)]
        page.locator("button.bpe-copy").click()
        expect(page.locator("button.bpe-copy")).to_have_text("Copied ✓")
        assert page.evaluate("navigator.clipboard.readText()") == link
        student = browser.new_context(viewport={"width": 1280, "height": 720})
        try:
            other = student.new_page()
            open_train(other, link)
            assert shown_step(other) == 7
            assert other.locator(".st-key-present input").is_checked() is False
        finally:
            student.close()
    finally:
        context.close()


SIZES_JS = """() => Object.fromEntries(Object.entries({
  question: '[class*="st-key-guess_"] label p', choice: '[class*="st-key-guess_"] [role="radiogroup"] label p',
  what_if: '.st-key-what_if_pair label p'}).map(([name, sel]) => {
    const e = document.querySelector(sel);
    return [name, e ? parseFloat(getComputedStyle(e).fontSize) : null]; }))"""


def test_predict_and_what_if_at_presenter_size(app_server, browser):
    """Predict stayed at 14 px in presenter mode."""
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    try:
        page = context.new_page()
        open_train(page, f"{app_server}/?preset=hug&step=2&present=1")
        page.locator(".st-key-predict label").click()
        page.get_by_text("Which pair will step 3 merge?").wait_for(timeout=TIMEOUT_MS)
        page.locator(".st-key-what_if label").click()
        page.locator(".st-key-what_if_pair").wait_for(timeout=TIMEOUT_MS)
        sizes = page.evaluate(SIZES_JS)
        assert all(size is not None and size >= 1.25 * 14 for size in sizes.values()), sizes
    finally:
        context.close()
