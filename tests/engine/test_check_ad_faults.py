"""Faults of set AD's classes (tests/ad_trainers.py), pasted as the Check page reads them: each is named at the step
where it acts, and the trainers without a fault are "same"."""

from __future__ import annotations

import pytest
from ad_trainers import BASE, ad_train
from check_support import PastedSet
from faulty_trainers import CORPORA

from bpe.check import Setup

SETUPS = {
    "whole-chars": Setup("first", "none", False),
    "gpt2-bytes": Setup("first", "gpt2", True),
    "words-eow": Setup("first", "sennrich", False),
}


CHECKS = PastedSet(ad_train, SETUPS, BASE)
check_ad = CHECKS.check
first_difference = CHECKS.first_difference


@pytest.mark.parametrize(("corpus", "kind"), [(c, k) for c in CORPORA for k in SETUPS])
def test_the_trainers_without_a_fault_are_same(corpus, kind):
    _, result = check_ad(corpus, kind)
    assert result.kind == "same", result.cause


@pytest.mark.parametrize("corpus", ["prose", "bytes"])
def test_a_whole_text_kept_to_letters_and_digits_with_its_whitespace_collapsed_says_the_collapse(corpus):
    # the old Check told a-z kept, every other character made a space, and never that runs of whitespace go
    student, result = check_ad(corpus, "alnum-collapse")
    assert result.step == first_difference(corpus, student, "alnum-collapse"), result.cause
    assert "run of whitespace" in result.cause and "one space" in result.cause, result.cause


@pytest.mark.parametrize("corpus", ["prose", "bytes"])
def test_a_pattern_taking_one_punctuation_character_a_piece_is_named(corpus):
    # the old Check told a count that differs with no known fault (bytes), or whitespace alone dropped (prose)
    student, result = check_ad(corpus, "word-or-mark")
    assert (result.kind, result.step) == ("cleaning", first_difference(corpus, student, "word-or-mark")), result.cause
    assert r"re.findall(r' ?\w+| ?[^\w\s]'" in result.cause, result.cause


@pytest.mark.parametrize("corpus", ["prose", "bytes"])
def test_a_text_cut_at_its_full_stops_is_named(corpus):
    # the old Check told sentences cut at '.', '!' and '?' (prose), or each word counted by its frequency twice (bytes)
    student, result = check_ad(corpus, "dot-split")
    assert (result.kind, result.step) == ("cleaning", first_difference(corpus, student, "dot-split")), result.cause
    assert "text.split('.')" in result.cause and f"and all {len(student.merges)} of yours" in result.cause, result.cause
