"""Word counts pasted in a real browser: columns copied from a spreadsheet arrive as a
tab-separated block. Pasted with the table's first cell selected (not being edited), the data editor
itself spreads the block over both columns and adds rows; pasted into the sidebar's paste box, the
block fills the table the same way (a cell being edited takes the whole block as its text, so the box
is the way that always works)."""

from __future__ import annotations

import pytest
from browser_support import TIMEOUT_MS, assert_no_exception, open_train, wait_for_app
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

BLOCK = "low\t5\nlower\t2\nnewest\t6"


def trained_on_the_block(page) -> None:
    """The run trains on the pasted rows: its first pair counts name them."""
    expect(page.get_by_text("low 5 + lower 2").first).to_be_visible(timeout=TIMEOUT_MS)
    expect(page.get_by_text("Step 0 of 9").first).to_be_visible(timeout=TIMEOUT_MS)


def test_a_tab_separated_block_fills_both_columns(app_server, browser):
    context = browser.new_context(
        viewport={"width": 1400, "height": 1000}, permissions=["clipboard-read", "clipboard-write"]
    )
    try:
        page = context.new_page()
        open_train(page, f"{app_server}/?counts=hug%2010%0Apug%205")
        grid = page.locator(".st-key-counts_table [data-testid='stDataFrameResizable']")
        grid.wait_for(timeout=TIMEOUT_MS)
        box = grid.bounding_box()
        page.mouse.click(box["x"] + 40, box["y"] + 52)  # select the first row's word cell
        page.evaluate("text => navigator.clipboard.writeText(text)", BLOCK)
        page.keyboard.press("Control+V")
        trained_on_the_block(page)
        assert_no_exception(page)

        # The paste box: the same block, from a fresh table.
        open_train(page, f"{app_server}/?counts=hug%2010%0Apug%205")
        paste = page.locator(".st-key-counts_paste textarea")
        paste.fill(BLOCK)
        paste.press("Control+Enter")
        wait_for_app(page)
        trained_on_the_block(page)
        expect(paste).to_have_value("")
        assert_no_exception(page)
    finally:
        context.close()
