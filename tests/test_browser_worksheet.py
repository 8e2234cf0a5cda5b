"""The worksheet printed by Chromium (Playwright's page.pdf) on A4 and Letter: nothing cut at the right edge,
several pages, the answer key starting a page of its own; and the page opens by its URL on a fresh server.
Run with ``.venv/bin/python -m pytest tests/test_browser_worksheet.py -q`` (needs Debian's chromium)."""

from __future__ import annotations

import io
from urllib.parse import urlencode

import pytest
from browser_support import TIMEOUT_MS, AppServer, assert_no_exception, wait_for_app
from pypdf import PdfReader

pytestmark = pytest.mark.browser

CSS_PX_PER_MM = 96 / 25.4
MARGIN_MM = 15  # pages/worksheet.css: @page { margin: 15mm }
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


def test_the_worksheet_opens_directly_on_a_fresh_server(page):
    """Its URL is the fresh server's first request (as after a restart): the router runs, the page is ours."""
    server = AppServer()
    url = server.start()
    try:
        _open_worksheet(page, url + WORKSHEET)
        page.wait_for_function("document.title === 'BPE Explorer'", timeout=TIMEOUT_MS)
        body = page.locator("body").inner_text()
        assert "does not seem to exist" not in body and "Answer key" in body
        page.goto(url + "/check")
        wait_for_app(page)
        page.get_by_role("heading", name="Check my implementation").wait_for(timeout=TIMEOUT_MS)
        assert "does not seem to exist" not in page.locator("body").inner_text()
    finally:
        server.stop()


@pytest.mark.parametrize("paper", list(PAPERS))
def test_the_worksheet_prints_on_paper_without_cutting_the_right_edge(app_server, page, paper):
    width_mm, height_mm = PAPERS[paper]
    content_px = int((width_mm - 2 * MARGIN_MM) * CSS_PX_PER_MM)
    page.set_viewport_size({"width": content_px, "height": int((height_mm - 2 * MARGIN_MM) * CSS_PX_PER_MM)})
    _open_worksheet(page, app_server + PRINTED)
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
