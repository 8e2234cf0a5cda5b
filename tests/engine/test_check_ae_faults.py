"""Faults of set AE's classes (tests/ae_trainers.py), pasted as the Check page reads them: each is named at the step
where it acts, and the trainer without a fault is "same"."""

from __future__ import annotations

import pytest
from ae_trainers import BASE, ae_train
from check_support import PastedSet
from faulty_trainers import CORPORA

from bpe.check import Setup

SETUPS = {"whole-chars": Setup("first", "none", False)}
CHECKS = PastedSet(ae_train, SETUPS, BASE)


@pytest.mark.parametrize("corpus", list(CORPORA))
def test_the_trainer_without_a_fault_is_same(corpus):
    _, result = CHECKS.check(corpus, "whole-chars")
    assert result.kind == "same", result.cause


@pytest.mark.parametrize("corpus", ["handout", "prose"])
def test_a_pair_key_joined_with_a_space_and_split_back_is_told_where_the_run_ends(corpus):
    # the old Check told only that the run stops short (handout), or that its merge never changes a word (prose)
    student, result = CHECKS.check(corpus, "space-key")
    assert result.kind == "stops-early" and result.step == len(student.merges) + 1, result.cause
    assert "a + ' ' + b" in result.cause and "splits it back on ' '" in result.cause, result.cause
