"""The worksheet printed by Chromium (Playwright's page.pdf) on A4 and Letter: nothing cut at the right edge,
several pages, the answer key starting a page of its own; and the page opens by its URL on a fresh server.
Run with ``.venv/bin/python -m pytest tests/browser/test_browser_worksheet.py -q`` (needs Debian's chromium)."""

from __future__ import annotations

import io
from urllib.parse import urlencode

import pytest
from browser_support import (
    NOTICE_WATCH_JS,
    TIMEOUT_MS,
    AppServer,
    assert_no_exception,
    wait_for_app,
    wait_for_layout,
)
from pypdf import PdfReader

pytestmark = pytest.mark.browser

CSS_PX_PER_MM = 96 / 25.4
MARGIN_MM = 15  # ui/worksheet.css: @page { margin: 15mm }
PAPERS = {"A4": (210, 297), "Letter": (215.9, 279.4)}  # width, height in mm
WORKSHEET = "/worksheet?preset=course&ws_from=3&ws_steps=6"
# A word far wider than the paper, in the word column and as one symbol after its merges.
LONG_WORD = "pneumonoultramicroscopicsilicovolcanoconiosis" * 3
PRINTED = "/worksheet?" + urlencode(
    {"text": f"the cat sat on the mat, the cat sat {LONG_WORD} {LONG_WORD}", "ws_from": "3", "ws_steps": "6"}
)

# Every element the print shows (a box with a size), and how far right it reaches.
RIGHT_EDGES_JS = """() => Array.from(document.querySelectorAll('body *'))
  .map(e => [e, e.getBoundingClientRect()])
  .filter(([e, r]) => r.width > 0 && r.height > 0 && getComputedStyle(e).visibility !== 'hidden')
  .map(([e, r]) => [e.tagName + '.' + (e.className && e.className.baseVal === undefined ? e.className : '')
                    + (e.dataset.testid ? '#' + e.dataset.testid : ''), Math.ceil(r.right)])"""


def _open_worksheet(page, url: str) -> None:
    page.goto(url)
    wait_for_app(page)
    page.locator(".bpe-ws-key").wait_for(state="attached", timeout=TIMEOUT_MS)
    assert_no_exception(page)


# Streamlit's "Page not found ... Running the app's main page." notice, caught whenever it is drawn.


def test_the_worksheet_and_check_pages_open_directly_without_a_page_not_found_notice(page):
    """Their URLs, as the fresh server's first request (as after a restart) and again later: the router runs,
    the page is ours, and Streamlit never says the page does not exist."""
    server = AppServer()
    url = server.start()
    page.add_init_script(NOTICE_WATCH_JS)
    try:
        for path in (WORKSHEET, "/check", WORKSHEET):
            page.goto(url + path)
            wait_for_app(page)
            page.wait_for_function("document.title === 'BPE Explorer'", timeout=TIMEOUT_MS)
            heading = "Answer key" if path == WORKSHEET else "Check my implementation"
            page.get_by_role("heading", name=heading).wait_for(timeout=TIMEOUT_MS)
            assert_no_exception(page)
            assert page.evaluate("window.bpeNotices") == [], path
            assert page.url == url + path
    finally:
        server.stop()


def printed_size(paper_mm: tuple[float, float]) -> dict[str, int]:
    """The CSS pixels inside the margins of a paper (width, height in mm)."""
    width_mm, height_mm = paper_mm
    return {
        "width": int((width_mm - 2 * MARGIN_MM) * CSS_PX_PER_MM),
        "height": int((height_mm - 2 * MARGIN_MM) * CSS_PX_PER_MM),
    }


@pytest.fixture(scope="module")
def printed(app_server, browser):
    """One page on the worksheet, for every paper: opened at the first paper's printed size (Streamlit folds
    the sidebar of a narrow page as it loads), each test sizes it to its own paper's (the worksheet is laid out
    again in the page, no page load)."""
    context = browser.new_context(viewport=printed_size(next(iter(PAPERS.values()))))
    try:
        page = context.new_page()
        _open_worksheet(page, app_server + PRINTED)
        yield page
    finally:
        context.close()


@pytest.mark.parametrize("paper", list(PAPERS))
def test_the_worksheet_prints_on_paper_without_cutting_the_right_edge(printed, paper):
    page = printed
    width_mm, height_mm = PAPERS[paper]
    size = printed_size((width_mm, height_mm))
    content_px = size["width"]
    page.emulate_media(media="screen")
    page.set_viewport_size(size)
    page.wait_for_function("(w) => window.innerWidth === w", arg=content_px, timeout=TIMEOUT_MS)
    wait_for_layout(page)
    page.emulate_media(media="print")
    # Streamlit's chrome is left out of the print, the worksheet is there.
    assert page.evaluate("() => getComputedStyle(document.querySelector('[data-testid=\"stHeader\"]')).display") == (
        "none"
    )
    assert page.evaluate("() => getComputedStyle(document.querySelector('.bpe-ws-key')).breakBefore") == "page"
    too_wide = [(name, right) for name, right in page.evaluate(RIGHT_EDGES_JS) if right > content_px]
    assert not too_wide, (content_px, too_wide[:10])

    pdf = PdfReader(io.BytesIO(page.pdf(format=paper, print_background=True)))
    box = pdf.pages[0].mediabox
    assert abs(float(box.width) - width_mm / 25.4 * 72) < 2  # the paper asked for
    texts = [p.extract_text() for p in pdf.pages]
    assert len(texts) > 1
    key_pages = [i for i, t in enumerate(texts) if "Answer key" in t]
    assert len(key_pages) == 1, texts
    key = key_pages[0]
    assert key > 0 and texts[key].lstrip().startswith("Answer key"), texts[key][:200]
    # Every step's exercise comes before the key, every answer after it.
    assert "Merge: ___" in "".join(texts[:key]) and "Merge: ___" not in "".join(texts[key:])
    assert all(f"Step {k}" in "".join(texts[key:]) for k in range(3, 9))
    assert LONG_WORD[:20] in "".join(texts[:key])
    # The app's menus are not printed.
    assert not any("Deploy" in t or "Train\nEncode" in t for t in texts)
