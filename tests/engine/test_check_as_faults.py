"""Faults of set AS's classes (tests/as_trainers.py), pasted as the Check page reads them: each is named at the step
where it acts, and the trainer without a fault is "same"."""

from __future__ import annotations

import pytest
from as_trainers import BASE, as_train
from check_support import PastedSet
from faulty_trainers import CORPORA

from bpe.check import Setup

CHECKS = PastedSet(as_train, {"sennrich": Setup("first", "sennrich", False)}, BASE)


@pytest.mark.parametrize("corpus", list(CORPORA))
def test_the_trainer_without_a_fault_is_same(corpus):
    _, result = CHECKS.check(corpus, "sennrich")
    assert result.kind == "same", result.cause


# on the byte corpus the update parts from the correct one before the counts show
@pytest.mark.parametrize(("corpus", "counts"), [("handout", "2 against 2"), ("prose", "15 against 11")])
def test_words_counted_once_each_under_an_update_of_their_own_are_said(corpus, counts):
    # the old Check said only that the counts differ before any merge
    student, result = CHECKS.check(corpus, "word-types")
    assert result.step == CHECKS.first_difference(corpus, student, "word-types") == 1, result.cause
    assert "Counted once per distinct word" in result.cause and counts in result.cause, result.cause
