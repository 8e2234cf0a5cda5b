"""An axe-core scan of every page and mode in a real browser: no violation of serious or critical impact
(WCAG 2.2 AA rules: contrast, names, roles, headings...), and the keyboard's short way to the step controls.

axe-core is the npm package's ``axe.min.js``, put in the user's cache by scripts/test.sh (``BPE_AXE_JS``
names it); the scan runs offline in the page. Pages: Train (normal, presenter, a phone's width), Encode
(alone and side by side), Check (empty and with a result) and the worksheet.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from browser_support import TIMEOUT_MS, assert_no_exception, open_train, wait_for_app, wait_for_layout
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

AXE_VERSION = "4.14.1"
AXE_JS = Path(
    os.environ.get("BPE_AXE_JS", Path.home() / ".cache" / "bpe-explorer" / f"axe-core-{AXE_VERSION}" / "axe.min.js")
)
BLOCKING = ("serious", "critical")
FIXED = ("heading-order",)  # moderate, but fixed: headings follow each other in order on every page

# Every violation, with the elements it names (the first five) and what axe says to fix.
AXE_RUN_JS = """async () => {
  const result = await axe.run(document, {resultTypes: ['violations'],
    runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice']}});
  return result.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.slice(0, 5).map(n => n.target.join(' ') + ': ' + (n.failureSummary || '').replace(/\\s+/g, ' '))}));
}"""


@pytest.fixture(scope="module")
def axe_source() -> str:
    if not AXE_JS.is_file():
        pytest.fail(
            f"axe-core's axe.min.js is not at {AXE_JS}: run scripts/test.sh once (it installs axe-core {AXE_VERSION} "
            "from npm), or set BPE_AXE_JS to the file",
            pytrace=False,
        )
    return AXE_JS.read_text(encoding="utf-8")


def _train(page, url):
    open_train(page, url + "/")
    page.locator('[data-testid="stVegaLiteChart"]').first.wait_for(timeout=TIMEOUT_MS)


def _presenter(page, url):
    open_train(page, url + "/?present=1")
    page.locator('[data-testid="stVegaLiteChart"]').first.wait_for(timeout=TIMEOUT_MS)


def _encode(page, url):
    page.goto(url + "/encode?preset=course")
    expect(page.locator(".bpe-tokens").first).to_contain_text("Ġtoken", timeout=TIMEOUT_MS)
    wait_for_app(page)


def _side_by_side(page):
    page.get_by_text("Side by side with other tokenizers").click()
    wait_for_app(page)
    expect(page.locator(".bpe-tokens")).to_have_count(3, timeout=TIMEOUT_MS)  # the first, and both columns


def _check(page, url):
    page.goto(url + "/check")
    wait_for_app(page)
    page.get_by_role("heading", name="Check my implementation").wait_for(timeout=TIMEOUT_MS)


def _check_result(page):
    box = page.locator(".st-key-chk_paste textarea")
    box.fill("e s\nes t\n")
    box.press("Control+Enter")
    page.get_by_role("link", name="Go to step 1").wait_for(timeout=TIMEOUT_MS)
    wait_for_app(page)


def _worksheet(page, url):
    page.goto(url + "/worksheet?preset=course&ws_from=3&ws_steps=6")
    wait_for_app(page)
    page.locator(".bpe-ws-key").wait_for(state="attached", timeout=TIMEOUT_MS)


# A view: how it is opened, its viewport, and what a student does next in the same page, scanned again after it
# (Encode side by side, the Check with a result): a page load less than opening that state afresh.
VIEWS = {
    "train": (_train, (1280, 800), None),
    "train-presenter": (_presenter, (1280, 800), None),
    "train-phone": (_train, (390, 844), None),
    "encode-then-side-by-side": (_encode, (1280, 800), _side_by_side),
    "check-then-result": (_check, (1280, 800), _check_result),
    "worksheet": (_worksheet, (1280, 800), None),
}


def assert_no_blocking_violation(page, axe_source: str, where: str) -> None:
    wait_for_layout(page)
    assert_no_exception(page)
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.add_script_tag(content=axe_source)
    violations = page.evaluate(AXE_RUN_JS)
    blocking = [v for v in violations if v["impact"] in BLOCKING or v["id"] in FIXED]
    assert not blocking, f"{where}:\n" + "\n".join(
        f"{v['id']} ({v['impact']}): {v['help']}\n  " + "\n  ".join(v["nodes"]) for v in blocking
    )


@pytest.mark.parametrize("view", list(VIEWS))
def test_no_serious_or_critical_axe_violation(app_server, browser, axe_source, view):
    opened, (width, height), then = VIEWS[view]
    context = browser.new_context(viewport={"width": width, "height": height})
    try:
        page = context.new_page()
        opened(page, app_server)
        assert_no_blocking_violation(page, axe_source, view)
        if then is not None:
            then(page)
            assert_no_blocking_violation(page, axe_source, f"{view}, after {then.__name__.strip('_')}")
    finally:
        context.close()


def test_the_step_controls_are_two_tab_presses_from_the_top(app_server, page):
    """Streamlit's "Skip to main content", then ours: Enter on it puts the focus on Next (at step 0 the first
    step button that can be pressed), past the sidebar's settings and the page's toggles."""
    open_train(page, app_server + "/")
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")  # Streamlit's own skip link: the focus moves to the main column
    page.keyboard.press("Tab")
    skip = page.locator("a.bpe-skip")
    expect(skip).to_be_focused()
    assert skip.bounding_box()["width"] > 20  # drawn while it has the focus
    page.keyboard.press("Enter")
    expect(page.locator(".st-key-next button")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.get_by_text("Step 1 of").first).to_be_visible()


def test_the_charts_toolbar_and_a_headings_link_show_while_they_have_the_focus(app_server, page):
    """Streamlit's chart toolbar ("Show data", "Download as PNG"...) and its "Link to heading" icon beside a title
    are drawn on hover only; a keyboard user reaching them sees them (one page, each focused in turn)."""
    _train(page, app_server)
    button = page.locator('[data-testid="stElementToolbar"] button').first
    button.focus()
    toolbar = page.locator('[data-testid="stElementToolbar"]').first
    page.wait_for_function("(e) => getComputedStyle(e).opacity === '1'", arg=toolbar.element_handle())
    link = page.get_by_role("link", name="Link to heading").first
    link.focus()
    page.wait_for_function("(e) => getComputedStyle(e).opacity === '1'", arg=link.element_handle())
