"""AppTest: the vocabulary panel on large alphabets and in presenter mode, the splits in presenter mode."""

from __future__ import annotations

import html
import re

from apptest_support import page_html, start

_VOCAB = re.compile(r'<div class="bpe-scroll"[^>]*>(.*?)</div>', re.S)
_CHIP = re.compile(r'<span class="tok[^"]*"(?: title="[^"]*")?(?: style="[^"]*")?>(.*?)</span>', re.S)


def vocabulary(at) -> tuple[list[str], str | None]:
    """The chips of the vocabulary panel before its folded part, and the folded part's summary (or None)."""
    body = _VOCAB.search(page_html(at)).group(1)
    shown, _, folded = body.partition("<details")
    summary = re.search(r"<summary>(.*?)</summary>", folded)
    return [html.unescape(c) for c in _CHIP.findall(shown)], summary and html.unescape(summary.group(1))


def test_a_byte_level_vocabulary_shows_learned_tokens_newest_first_and_folds_the_alphabet():
    """On byte-level corpora the base symbols filled the box and the learned tokens started below it."""
    at = start(preset="multilingual", step="12")
    chips, summary = vocabulary(at)
    assert summary is not None and re.fullmatch(r"\+ \d+ base symbols", summary), summary
    assert int(summary.split()[1]) > 40
    history = re.search(r'data-table="history">(.*?)</table>', page_html(at), re.S).group(1)
    newest_first = [html.unescape(t) for t in re.findall(r'<td class="new-token[^"]*"[^>]*>(.*?)</td>', history)]
    assert len(newest_first) == 12
    assert chips == newest_first  # the learned tokens, newest first, and no base symbol before the fold


def test_the_courses_small_alphabet_keeps_the_courses_order():
    chips, summary = vocabulary(start(preset="hug", step="3"))
    assert summary is None
    assert chips == ["b", "g", "h", "n", "p", "s", "u", "ug", "un", "hug"]


def test_presenter_mode_folds_the_alphabet_and_lists_rewritten_words_first():
    at = start(preset="hug", step="3", present="1")
    chips, summary = vocabulary(at)
    assert chips == ["hug", "un", "ug"] and summary == "+ 7 base symbols"
    splits = re.search(r'<table class="bpe-table" data-table="splits">(.*?)</table>', page_html(at), re.S).group(1)
    words = re.findall(r'<td class="word[^"]*"[^>]*>(.*?)</td>', splits)
    # Step 3 merges h + ug: "hug" (10) and "hugs" (5) are rewritten; "pug" and "pun" are more frequent than "hugs".
    assert [html.unescape(w) for w in words[:2]] == ["✱ hug", "✱ hugs"], words
