"""First contact and the classroom, in a real browser (issue 13): editing the word-count table,
keys, presenter mode at 1280x720, non-ASCII corpora, Encode's first view.

Run with ``.venv/bin/python -m pytest tests/test_browser_classroom.py -q`` (needs Debian's chromium).
"""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlparse

import pytest
from playwright.sync_api import expect

from browser_support import REPO_ROOT, wait_for_app
from test_browser_train import TIMEOUT_MS, assert_no_exception, open_train, shown_step, wait_for_step

pytestmark = pytest.mark.browser

ROW_PX = 35  # Streamlit's data grid: header and rows are 35 px high
GRID = '[data-testid="stSidebar"] [data-testid="stDataFrameResizable"]'


def url_counts(page) -> str:
    return parse_qs(urlparse(page.url).query).get("counts", [""])[0]


def edit_cell(page, row: int, column: int, value: str) -> None:
    """Type ``value`` into a cell of the word-count table (row 0 is the first data row; the row
    after the last is the grid's "add a row" line) and press Enter, as a user does."""
    grid = page.locator(GRID)
    box = grid.bounding_box()
    x = box["x"] + box["width"] * (0.35 if column == 0 else 0.8)
    y = box["y"] + ROW_PX * (row + 1) + ROW_PX / 2
    page.mouse.click(x, y)
    page.wait_for_timeout(300)
    page.keyboard.type(value, delay=50)  # typing on a selected cell opens its editor with the text typed
    page.wait_for_timeout(200)  # the grid's editor takes a moment to take the text
    page.keyboard.press("Enter")
    page.locator("textarea.gdg-input").wait_for(state="hidden", timeout=5_000)


def test_every_edit_of_the_word_count_table_applies_first_time(app_server, page):
    """Streamlit's data editor is a new widget whenever its data changes; the table was rebuilt from
    every edit, so every second edit snapped back (hug=20 applied, pug=7 lost, pug=8 applied, ...).
    A half-typed row (a word before its count) blanked the page with an error about spaces."""
    open_train(page, f"{app_server}/?step=0&counts=hug+10%0Apug+5&limit=none")
    page.locator(GRID).wait_for(timeout=TIMEOUT_MS)
    page.wait_for_timeout(1_000)
    for row, value, expected in [(0, "20", "hug 20\npug 5"), (1, "7", "hug 20\npug 7"), (1, "8", "hug 20\npug 8"),
                                 (0, "30", "hug 30\npug 8"), (0, "31", "hug 31\npug 8")]:
        edit_cell(page, row, 1, value)
        page.wait_for_function("(want) => new URLSearchParams(location.search).get('counts') === want",
                               arg=expected, timeout=15_000)
        wait_for_app(page)

    # A new row, typed word first: the page keeps training the other rows and says what is missing.
    edit_cell(page, 2, 0, "bug")
    expect(page.locator('[data-testid="stSidebar"]')).to_contain_text("row 3 (bug: no count yet)", timeout=15_000)
    wait_for_app(page)
    assert shown_step(page) == 0 and page.locator(".st-key-next button").is_visible()
    edit_cell(page, 2, 1, "3")  # its count applies on the first try too
    page.wait_for_function("(want) => new URLSearchParams(location.search).get('counts') === want",
                           arg="hug 31\npug 8\nbug 3", timeout=15_000)
    wait_for_app(page)
    assert_no_exception(page)
