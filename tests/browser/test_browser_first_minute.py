"""A newcomer's first minute on the Train page, in a real browser at 1280x800: what BPE is and the corpus in
view at step 0, nothing called "chosen" before a merge, the introduction hidden and remembered, and at the
end of a run a link to Encode with this tokenizer. Nothing is fetched from another host (the tab icon).
"""

from __future__ import annotations

import re

import pytest
from browser_support import TIMEOUT_MS, assert_no_exception, open_train, wait_for_app, wait_for_step
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

VIEWPORT = {"width": 1280, "height": 800}
# The legend's roles: its labels read "chosen (solid outline)", "tied (dashed outline)" (ui/pair_chart.py).
LEGEND_JS = """() => [...document.querySelectorAll('[data-testid="stVegaLiteChart"] svg g.role-legend text')]
  .map(t => t.textContent.split(' ')[0])"""


def in_view(locator) -> bool:
    box = locator.bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= VIEWPORT["height"]


@pytest.fixture
def desk(browser):
    context = browser.new_context(viewport=VIEWPORT)
    try:
        yield context
    finally:
        context.close()


def test_the_introduction_and_the_corpus_are_in_view_at_step_0_and_nothing_is_chosen(app_server, desk):
    page = desk.new_page()
    requests = []
    page.on("request", lambda r: requests.append(r.url))
    open_train(page, app_server + "/")
    page.locator('[data-testid="stVegaLiteChart"] svg').first.wait_for(timeout=TIMEOUT_MS)
    intro = page.locator(".st-key-intro")
    expect(intro).to_contain_text("Byte-pair encoding (BPE)")
    expect(intro).to_contain_text("hug ×10")  # the corpus, word and count, without opening anything
    assert in_view(intro.get_by_text("Byte-pair encoding")) and in_view(intro.get_by_text("The corpus"))
    # Step 0: no merge yet, so neither the table nor the chart marks a pair chosen or tied.
    pairs = page.locator('table[data-table="pairs"]')
    expect(pairs).to_be_visible()
    assert [h.strip() for h in pairs.locator("th").all_inner_texts()] == ["pair", "count", "from"]
    page.wait_for_function(
        "() => document.querySelector('[data-testid=\"stVegaLiteChart\"] svg g.mark-rect') !== null",
        timeout=TIMEOUT_MS,
    )
    assert page.evaluate(LEGEND_JS) == []
    assert "chosen" not in page.locator('[data-testid="stMain"]').inner_text()
    # Step 1: the winner is chosen, and the legend names only what the chart holds (no tie at step 1).
    page.locator(".st-key-next button").click()
    wait_for_step(page, 1)
    expect(pairs.locator("th", has_text="chosen")).to_have_count(1)
    page.wait_for_function(f"() => ({LEGEND_JS})().includes('chosen')", timeout=TIMEOUT_MS)
    assert "tied" not in page.evaluate(LEGEND_JS)
    outside = [u for u in requests if not u.startswith(app_server) and not u.startswith("data:")]
    assert outside == []  # the tab icon is ours, not Google's font site
    assert_no_exception(page)


def test_hiding_the_introduction_is_remembered_in_this_browser(app_server, desk):
    page = desk.new_page()
    open_train(page, app_server + "/")
    page.get_by_role("button", name="Hide this introduction").click()
    expect(page.locator(".st-key-intro")).to_have_count(0)
    page.wait_for_function("() => document.cookie.includes('bpe_intro=hidden')", timeout=TIMEOUT_MS)
    again = desk.new_page()  # a new session in the same browser
    open_train(again, app_server + "/")
    expect(again.locator(".st-key-next button")).to_be_visible()
    expect(again.locator(".st-key-intro")).to_have_count(0)


def test_the_end_of_a_run_links_to_encode_with_this_tokenizer(app_server, desk):
    page = desk.new_page()
    page.goto(app_server + "/encode")
    wait_for_app(page)
    page.get_by_text("Popular tokenizer", exact=True).first.click()  # Encode set to another tokenizer first
    wait_for_app(page)
    page.get_by_role("link", name=re.compile("Train")).first.click()  # back to Train in the same session
    page.locator(".st-key-end button").wait_for(timeout=TIMEOUT_MS)
    expect(page.locator(".st-key-next_steps")).to_have_count(0)  # only at the end
    page.locator(".st-key-end button").click()
    link = page.get_by_role("link", name="Encode your own text with this tokenizer")
    expect(link).to_be_visible(timeout=TIMEOUT_MS)
    expect(page.get_by_role("link", name="Check your own BPE code against this run")).to_be_visible()
    link.click()
    page.get_by_role("heading", name=re.compile("Encode")).wait_for(timeout=TIMEOUT_MS)
    wait_for_app(page)
    expect(page.get_by_role("radio", name="Trained on the Train page")).to_be_checked()
    expect(page.get_by_text(re.compile("Using the tokenizer trained on the Train page"))).to_be_visible()
    expect(page.locator(".bpe-tokens").first).to_contain_text("hug")
    assert_no_exception(page)
