"""Faults of set AI's classes (tests/ai_trainers.py), pasted as the Check page reads them: each is named at the step
where it acts, and the trainers without a fault are "same"."""

from __future__ import annotations

import pytest
from ai_trainers import BASE, ai_train
from check_support import PastedSet
from faulty_trainers import CORPORA

from bpe.check import Setup

SETUPS = {"words-eow-lex": Setup("lexicographic", "sennrich", False), "whole-chars": Setup("first", "none", False)}
CHECKS = PastedSet(ai_train, SETUPS, BASE)


@pytest.mark.parametrize(("corpus", "kind"), [(c, k) for c in CORPORA for k in SETUPS])
def test_the_trainers_without_a_fault_are_same(corpus, kind):
    _, result = CHECKS.check(corpus, kind)
    assert result.kind == "same", result.cause


def test_ties_to_the_longest_merged_token_are_named_with_a_four_character_end_symbol():
    # the old Check told the greatest pair, which follows three merges: a mark of several characters stands in our
    # words as one character, and a length is now measured with the mark's four
    _, result = CHECKS.check("handout", "eos-longest")
    assert (result.kind, result.step) == ("word-marks", 1), result.cause
    assert "'longest' rule" in result.cause, result.cause


@pytest.mark.parametrize("corpus", list(CORPORA))
def test_lines_normalized_as_sentencepiece_does_are_named(corpus):
    # the old Check told a pair our corpus never has
    student, result = CHECKS.check(corpus, "metaspace")
    assert (result.kind, result.step) == ("cleaning", CHECKS.first_difference(corpus, student, "metaspace"))
    assert "as SentencePiece does" in result.cause, result.cause
