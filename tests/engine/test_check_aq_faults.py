"""Faults of set AQ's classes (tests/aq_trainers.py), pasted as the Check page reads them: each is named at the step
where it acts, and the trainer without a fault is "same"."""

from __future__ import annotations

import pytest
from aq_trainers import BASE, aq_train
from check_support import PastedSet
from faulty_trainers import CORPORA

from bpe.check import Setup

CHECKS = PastedSet(aq_train, {"sennrich": Setup("first", "sennrich", False)}, BASE)


@pytest.mark.parametrize("corpus", list(CORPORA))
def test_the_trainer_without_a_fault_is_same(corpus):
    _, result = CHECKS.check(corpus, "sennrich")
    assert result.kind == "same", result.cause


@pytest.mark.parametrize(("corpus", "kind", "said"), [
    ("prose", "ascii-bar", "ASCII letters of the text, in their case"),
    ("bytes", "ascii-bar", "letters a-z"),  # no capital left on that text: the two filters make the same words
    ("prose", "az-underscore", "letters a-z of the lowercased text"),
    ("bytes", "az-underscore", "letters a-z of the lowercased text"),
])  # fmt: skip
def test_a_text_kept_to_its_letters_under_marks_of_its_own_is_named(corpus, kind, said):
    # the old Check named the marks, then a count that differs on the marked words (a filter drops the marks too)
    student, result = CHECKS.check(corpus, kind)
    assert result.step == CHECKS.first_difference(corpus, student, kind), result.cause
    assert result.kind == "word-marks" and said in result.cause, result.cause
    assert "your run equals ours" in result.cause, result.cause


def test_a_text_kept_to_its_ascii_letters_in_their_case_is_named():
    student, result = CHECKS.check("prose", "ascii-sennrich")
    assert result.step == CHECKS.first_difference("prose", student, "ascii-sennrich"), result.cause
    assert result.kind == "letters" and "ASCII letters of the text, in their case" in result.cause, result.cause
