"""Faults of set AY's classes (tests/ay_trainers.py), pasted as the Check page reads them: each is named at the step
where it acts, and the trainer without a fault is "same"."""

from __future__ import annotations

import pytest
from ay_trainers import BASE, ay_train
from check_support import PastedSet
from faulty_trainers import CORPORA

from bpe.check import Setup

CHECKS = PastedSet(ay_train, {"whole-chars": Setup("first", "none", False)}, BASE)


@pytest.mark.parametrize("corpus", list(CORPORA))
def test_the_trainer_without_a_fault_is_same(corpus):
    _, result = CHECKS.check(corpus, "whole-chars")
    assert result.kind == "same", result.cause


@pytest.mark.parametrize("corpus", list(CORPORA))
def test_pairs_that_go_on_past_a_tokens_trailing_space_left_out_are_named(corpus):
    # the old Check told a count off by no known fault, runs of spaces collapsed, or tokens holding whitespace inside
    student, result = CHECKS.check(corpus, "after-space")
    assert result.step == CHECKS.first_difference(corpus, student, "after-space"), result.cause
    assert (result.kind, result.fault) == ("merge-loop", "space-ban"), result.cause
    assert "whose left token, longer than one character, ends in a space" in result.cause, result.cause
