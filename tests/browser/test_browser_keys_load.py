"""Keys that step on the Train page in the cases a class meets: the first key right after a page
load, and → or Space right after answering a prediction (the radio keeps the focus).

Run with ``.venv/bin/python -m pytest tests/browser/test_browser_keys_load.py -q`` (needs Debian's chromium).
"""

from __future__ import annotations

import pytest
from browser_support import TIMEOUT_MS, open_train, shown_step, wait_for_app, wait_for_step

pytestmark = pytest.mark.browser

# A key pressed the moment ui/keys.js installs itself, before the step buttons are drawn or while the first
# run is still going: on a slow first run a teacher's remote press lands there. It is dispatched on the page as a browser would.
EARLY_KEY_JS = """(() => {
  let installed = false;
  Object.defineProperty(window, '__bpeKeys', {configurable: true, get: () => installed, set: (v) => {
    installed = v;
    // Early: before the step buttons are drawn, or while the first run is still going (keys.js is then
    // not ready, as on a slow first load), whichever this load's timing gives.
    const app = document.querySelector('[data-testid="stApp"]');
    window.__bpeEarly = !document.querySelector('.st-key-next button')
      || !app || app.getAttribute('data-test-script-state') !== 'notRunning';
    setTimeout(() => document.body.dispatchEvent(
      new KeyboardEvent('keydown', {key: 'ArrowRight', bubbles: true, cancelable: true})), 0);
  }});
})();"""


LOADS = 5


def test_the_first_key_right_after_a_page_load_steps(app_server, page):
    page.add_init_script(EARLY_KEY_JS)
    # whether the key comes before the page is ready is this load's timing: load again until one does
    for _ in range(LOADS):
        page.goto(f"{app_server}/?preset=course&step=1&present=1")
        wait_for_app(page)
        wait_for_step(page, 2)
        if page.evaluate("window.__bpeEarly") is True:
            break
    assert page.evaluate("window.__bpeEarly") is True, f"no key came before the page was ready in {LOADS} loads"
    assert shown_step(page) == 2 and "step=2" in page.url


def _answer(page, step: int) -> None:
    question = page.get_by_text(f"Which pair will step {step + 1} merge?")
    question.wait_for(timeout=TIMEOUT_MS)
    page.locator(f'.st-key-guess_{step} [role="radiogroup"] label').first.click()
    page.locator('[data-testid="stAlert"]').first.wait_for(timeout=TIMEOUT_MS)  # the answer's verdict
    wait_for_app(page)
    focused = page.evaluate("document.activeElement && document.activeElement.type")
    assert focused == "radio", focused  # the case that matters: the focus stays on the radio


def _turn_on_predict(page) -> None:
    """Switch on "predict the next merge". On a loaded machine a click can land while a rerun that follows the
    page load redraws the switch, and is lost (the question then never came in 60 s): the click is made again
    until the switch shows it, at most three times."""
    box = page.locator('.st-key-predict input[type="checkbox"]')
    for _ in range(3):
        box.click(force=True)
        wait_for_app(page)
        if box.is_checked():
            break
    assert box.is_checked(), "the predict switch did not turn on in three clicks"


def test_keys_step_after_answering_a_prediction(app_server, page):
    """After a guess the radio keeps the focus: → chose another answer and Space did nothing. Each key in turn on
    one page, each right after an answer of its own: → at step 2, Space at step 3, PageDown at step 4."""
    open_train(page, f"{app_server}/?preset=hug&step=2")
    _turn_on_predict(page)
    for step, key in ((2, "ArrowRight"), (3, "Space"), (4, "PageDown")):
        _answer(page, step)
        checked = page.locator(f'.st-key-guess_{step} input[type="radio"]:checked').get_attribute("value")
        page.keyboard.press(key)
        wait_for_step(page, step + 1)
        assert shown_step(page) == step + 1, key
        page.keyboard.press("ArrowLeft")  # back to the answered step: its answer is the one given
        wait_for_step(page, step)
        assert page.locator(f'.st-key-guess_{step} input[type="radio"]:checked').get_attribute("value") == checked, key
        page.locator(".st-key-next button").click()  # on to the next step's question
        wait_for_step(page, step + 1)
