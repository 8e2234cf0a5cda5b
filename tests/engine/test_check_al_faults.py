"""The fault of set AL's class (tests/al_trainers.py), pasted as the Check page reads it: named at the step where it
acts, and the trainer without it is "same"."""

from __future__ import annotations

import pytest
from al_trainers import BASE, al_train
from check_support import PastedSet
from faulty_trainers import CORPORA

from bpe.check import Setup

CHECKS = PastedSet(al_train, {"whole-first": Setup("first", "none", False)}, BASE)


@pytest.mark.parametrize("corpus", list(CORPORA))
def test_the_trainer_without_a_fault_is_same(corpus):
    _, result = CHECKS.check(corpus, "whole-first")
    assert result.kind == "same", result.cause


@pytest.mark.parametrize("corpus", ["handout", "prose"])
def test_new_pairs_made_with_the_merged_pairs_own_symbols_are_named(corpus):
    # the old Check told a pair no word holds (handout) or whitespace kept on words (prose)
    student, result = CHECKS.check(corpus, "merged-sides")
    assert (result.kind, result.fault) == ("merge-loop", "merged-sides"), result.cause
    assert result.step == CHECKS.first_difference(corpus, student, "merged-sides"), result.cause
