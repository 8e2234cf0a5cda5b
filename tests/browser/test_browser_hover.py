"""Hovering a token chip on the Encode page marks the characters it stands for in the text.

In a real browser (Debian's chromium): each chip of a text with an emoji (four byte tokens over one
character, two UTF-16 units), an accented letter and a newline is hovered in turn, and the marked
stretch must be exactly the token's characters as the tokenizer's offsets give them (the oracle: the
same run trained here with ``bpe.train``); moving away puts the plain text back. The text also holds
HTML, which must stay text.
"""

from __future__ import annotations

import pytest
from browser_support import wait_for_app, wait_until
from playwright.sync_api import expect

import bpe
from bpe.presets import PRESETS

pytestmark = pytest.mark.browser

TEXT = "Hug 🙂 wörld\n<b>x</b> token"


def course_tokenizer() -> bpe.Tokenizer:
    preset = PRESETS["course"]
    return bpe.train(preset.corpus(), **preset.options)


def test_hovering_a_chip_marks_its_characters_in_the_text(app_server, page):
    page.goto(f"{app_server}/encode?preset=course")
    expect(page.locator(".bpe-tokens").first).to_contain_text("token", timeout=60_000)
    wait_for_app(page)
    area = page.get_by_label("Text to tokenize (up to 100 KB)")
    area.fill(TEXT)
    area.press("Control+Enter")
    source = page.locator(".bpe-source-text")
    expect(source).to_have_count(1, timeout=60_000)
    wait_until(lambda: source.text_content() == TEXT, 60, "the text under the chips")
    wait_for_app(page)
    encoding = course_tokenizer().encode_full(TEXT)
    expected = [TEXT[s:e] for s, e in encoding.offsets]
    chips = page.locator(".bpe-tokens").first.locator(".tok")
    assert chips.count() == len(expected)
    assert "🙂" in expected and any("\n" in t for t in expected)
    marked = source.locator("mark.bpe-hl")
    for i, characters in enumerate(expected):
        chips.nth(i).hover()
        wait_until(
            lambda c=characters: marked.count() == 1 and marked.text_content() == c,
            10,
            lambda i=i, c=characters: f"chip {i} to mark {c!r} (marked: {marked.all_text_contents()!r})",
        )
        assert source.text_content() == TEXT  # the mark only wraps; nothing is added or lost
    page.get_by_text("Encode: how the tokenizer cuts your text").hover()
    wait_until(lambda: marked.count() == 0, 10, "the mark to go when the pointer leaves the chips")
    assert source.text_content() == TEXT
    assert page.locator('[data-testid="stApp"] b', has_text="x").count() == 0  # the text's HTML stayed text
