"""Faults of set AG's class (tests/ag_trainers.py), pasted as the Check page reads them: named at the step where it
acts, and the trainer without a fault is "same"."""

from __future__ import annotations

import pytest
from ag_trainers import BASE, ag_train
from check_support import PastedSet
from faulty_trainers import CORPORA

from bpe.check import Setup

SETUPS = {"words-lex": Setup("lexicographic", "whitespace", False)}
CHECKS = PastedSet(ag_train, SETUPS, BASE)


@pytest.mark.parametrize("corpus", list(CORPORA))
def test_the_trainer_without_a_fault_is_same(corpus):
    _, result = CHECKS.check(corpus, "words-lex")
    assert result.kind == "same", result.cause


@pytest.mark.parametrize("corpus", ["prose", "bytes"])
def test_words_cut_at_every_change_from_ascii_identifier_characters_are_named(corpus):
    # the old Check told a text not cut into words at all: on prose the cut makes only the first merge, and the
    # loop's two new tokens side by side, counted twice, make the next; the fault is now tried after the cut
    student, result = CHECKS.check(corpus, "id-runs")
    assert (result.kind, result.step) == ("cleaning", CHECKS.first_difference(corpus, student, "id-runs"))
    assert "[A-Za-z0-9_]+|[^A-Za-z0-9_]+" in result.cause, result.cause


def test_the_loop_fault_after_the_cut_is_told_second():
    _, result = CHECKS.check("prose", "id-runs")
    assert result.later_step == 2 and result.fault == "adjacent-cross", result.cause
    assert "twice" in result.cause, result.cause
