"""AppTest: presenter mode's strip of the newest vocabulary tokens, above the splits (on a 1280x720
projector the vocabulary panel sits below the fold; tests/browser/test_browser_present.py checks the viewport)."""

from __future__ import annotations

import html
import re

from apptest_support import page_html, start

from ui.vocabulary import NEWEST_CHIPS, STRIP_FROM

_STRIP = re.compile(r'<div class="bpe-newest" data-vocab="newest">(.*?)</div>', re.S)
_CHIP = re.compile(r'<span class="tok ([^"]*)"(?: title="[^"]*")?>(.*?)</span>', re.S)


def strip(at) -> tuple[str, list[tuple[str, str]]]:
    """The strip's heading and its chips as (css class, text), or raise if there is no strip."""
    body = _STRIP.search(page_html(at)).group(1)
    head = re.search(r'<span class="bpe-newest-head">(.*?)</span>', body).group(1)
    return html.unescape(head), [(k, html.unescape(t)) for k, t in _CHIP.findall(body)]


def test_presenter_mode_shows_the_newest_tokens_newest_first_above_the_splits():
    at = start(preset="course", step="3", present="1")
    head, chips = strip(at)
    size = int(head.removeprefix("Vocabulary: ").removesuffix("; newest first").replace(",", ""))
    assert size > STRIP_FROM
    assert [t for _, t in chips] == ["er", "is", "Ġt"]  # the course's first three merges, newest first
    assert chips[0][0] == "hl" and all(k != "hl" for k, _ in chips[1:])  # this step's token highlighted
    body = page_html(at)
    assert body.index('data-vocab="newest"') < body.index('data-table="splits"')


def test_a_vocabulary_that_fits_the_screen_gets_no_strip():
    """The hug example's whole vocabulary panel is on a 1280x720 screen (tests/browser/test_browser_classroom.py):
    a strip above the splits pushed it below the fold."""
    for step in ("0", "3", "7"):
        assert 'data-vocab="newest"' not in page_html(start(preset="hug", step=step, present="1"))


def test_the_strip_holds_only_the_newest_few_of_a_long_run():
    at = start(preset="course", step="19", present="1")
    _, chips = strip(at)
    history = re.search(r'data-table="history">(.*?)</table>', page_html(at), re.S).group(1)
    newest_first = [html.unescape(t) for t in re.findall(r'<td class="new-token[^"]*"[^>]*>(.*?)</td>', history)]
    assert len(chips) == NEWEST_CHIPS < len(newest_first)
    assert [t for _, t in chips] == newest_first[:NEWEST_CHIPS]


def test_no_strip_outside_presenter_mode_and_a_sentence_at_step_0():
    assert 'data-vocab="newest"' not in page_html(start(preset="course", step="3"))
    at = start(preset="course", step="0", present="1")
    assert "no token learned yet" in _STRIP.search(page_html(at)).group(1)
