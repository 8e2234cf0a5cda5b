"""Byte-level tokens that cut a character are drawn as bytes (``<E4><B8>``), never as U+FFFD, on Chinese,
Arabic and emoji text; their tooltip names the character they belong to."""

from __future__ import annotations

import html

import pytest

import bpe
from bpe import display
from bpe.presets import PRESETS

TEXTS = {"Chinese": "你好，世界。今天天气很好", "Arabic": "مرحبا بالعالم، كيف حالك؟", "emoji": "🙂🚀 👩‍🔬 🇫🇷"}


@pytest.fixture(scope="module")
def course() -> bpe.Tokenizer:
    """The course's English sentences at GPT-2's byte level: every non-ASCII character is cut into bytes."""
    return bpe.train(PRESETS["course"].corpus(), **PRESETS["course"].options)


@pytest.mark.parametrize("script", list(TEXTS))
def test_chips_of_cut_characters_show_bytes_and_no_replacement_character(course, script):
    text = TEXTS[script]
    encoding = course.encode_full(text)
    cut = [t for t in encoding.tokens if display.cuts_character(course, t)]
    assert cut  # the course never saw these characters: some tokens are a character's first bytes
    for as_text in (True, False):
        markup = display.encoding_html(course, encoding, text, as_text=as_text, hover=True)
        assert "\ufffd" not in html.unescape(markup)
    labels = [display.token_label(course, t) for t in cut]
    assert all(label.startswith("<") and label.endswith(">") for label in labels)
    assert all("\ufffd" not in display.byte_text(t) for t in encoding.tokens)


def test_the_tooltip_of_a_cut_token_names_its_character(course):
    encoding = course.encode_full("世")  # three bytes, E4 B8 96
    markup = display.encoding_html(course, encoding, "世")
    assert "&lt;E4&gt;" in markup or "&lt;96&gt;" in markup
    assert "part of the character(s) &#x27;世&#x27;" in markup
