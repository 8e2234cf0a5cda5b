"""The Encode page's side by side in a real browser: hovering a chip marks its characters in its own column,
in view; any number of uploaded tokenizers sit side by side; a byte-level tokenizer on Chinese, Arabic and
emoji draws bytes, never U+FFFD."""

from __future__ import annotations

import re

import pytest
from browser_support import TIMEOUT_MS, assert_no_exception, open_encode, set_encode_text, wait_for_app
from playwright.sync_api import expect
from tokenizer_files import big_tokenizer_json

pytestmark = pytest.mark.browser

MIXED = "你好，世界。 مرحبا بالعالم 🙂🚀 hugs"


def side_by_side(page) -> None:
    page.get_by_text("Side by side with other tokenizers").click()
    wait_for_app(page)


def test_hovering_a_chip_marks_its_characters_in_view_in_its_own_column(app_server, page):
    open_encode(page, app_server)
    set_encode_text(page, MIXED)
    page.get_by_text("Bytes as text").click()  # the course's preset starts with tokens as stored (ä½ł)
    wait_for_app(page)
    expect(page.locator(".bpe-tokens").first).to_contain_text("<E4>")  # bytes, drawn as bytes
    assert "\ufffd" not in page.locator('[data-testid="stMain"]').inner_text()
    side_by_side(page)
    columns = page.locator('[data-testid="stHtml"]:has(.bpe-source-col)')
    expect(columns).to_have_count(2, timeout=TIMEOUT_MS)
    assert "\ufffd" not in page.locator('[data-testid="stMain"]').inner_text()
    for i in range(2):
        column = columns.nth(i)
        chip = column.locator(".tok[data-s]").last  # "hugs", at the end of the text
        chip.scroll_into_view_if_needed()
        chip.hover()
        mark = column.locator(".bpe-source-text mark.bpe-hl")
        expect(mark).to_have_count(1)
        assert mark.inner_text().strip() in MIXED
        box, view = mark.bounding_box(), page.viewport_size
        assert box is not None and 0 <= box["y"] and box["y"] + box["height"] <= view["height"], (i, box)
        # Only its own column's text is marked.
        assert columns.nth(1 - i).locator("mark.bpe-hl").count() == 0
    assert_no_exception(page)


def test_three_uploaded_tokenizers_sit_side_by_side(app_server, page, tmp_path):
    files = []
    for i, size in enumerate((300, 400, 500)):
        path = tmp_path / f"tok{i + 1}.json"
        path.write_bytes(big_tokenizer_json(size, seed=i))
        files.append(str(path))
    open_encode(page, app_server)
    side_by_side(page)
    page.locator('.st-key-compare_files [data-testid="stFileUploaderDropzoneInput"]').set_input_files(files)
    for i in range(3):
        expect(page.get_by_text(re.compile(rf"Tokens, tok{i + 1}\.json"))).to_be_visible(timeout=TIMEOUT_MS)
    wait_for_app(page)
    # The first and its fewer-merges copy, then the three files: one chip row each, one under the other.
    expect(page.locator(".bpe-source-col")).to_have_count(5)
    assert_no_exception(page)
