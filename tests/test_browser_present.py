"""Presenter mode for real text, sharing a step, and keys wherever the focus is (issue 20), in a real browser.

Run with ``.venv/bin/python -m pytest tests/test_browser_present.py -q`` (needs Debian's chromium).
"""

from __future__ import annotations

import pytest
from browser_support import TIMEOUT_MS, open_train, shown_step, wait_for_step

pytestmark = pytest.mark.browser

SLIDER = '.st-key-step input[type="range"]'


def test_n_p_and_space_step_with_the_step_slider_focused(app_server, page):
    """The page focuses the slider at the last step and after a scrub: n, p and Space did nothing there."""
    open_train(page, f"{app_server}/?preset=hug&step=3")
    page.locator(SLIDER).focus()
    for key, step in [("n", 4), ("Space", 5), ("p", 4), ("N", 5), ("P", 4)]:
        page.keyboard.press(key)
        wait_for_step(page, step)
        assert shown_step(page) == step, key
    page.locator(SLIDER).focus()
    page.keyboard.press("ArrowRight")  # the slider's own keys keep their meaning (the same steps)
    wait_for_step(page, 5)


def test_space_steps_forward_after_a_click_on_back(app_server, page):
    """After a mouse click on Back the focus stays on it, and Space pressed it again: backwards."""
    open_train(page, f"{app_server}/?preset=hug&step=4")
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


def test_space_still_types_in_the_search_box_and_toggles_a_focused_switch(app_server, page):
    open_train(page, f"{app_server}/?preset=hug&step=2")
    box = page.locator(".st-key-split_search input")
    box.click()
    box.type("u ")
    assert box.input_value() == "u " and shown_step(page) == 2
    toggle = page.locator('.st-key-predict input[type="checkbox"]')
    toggle.focus()
    page.keyboard.press("Space")  # a focused toggle keeps Space: the page stays usable from the keyboard
    page.get_by_text("Which pair will step 3 merge?").wait_for(timeout=TIMEOUT_MS)
    assert shown_step(page) == 2
