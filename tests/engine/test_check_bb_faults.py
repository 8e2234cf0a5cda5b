"""Faults of set BB's classes (tests/bb_trainers.py), pasted as the Check page reads them: each is named at the step
where it acts, and the trainer without a fault is "same"."""

from __future__ import annotations

import pytest
from bb_trainers import BASE, bb_train
from check_support import PastedSet
from faulty_trainers import CORPORA

from bpe.check import Setup

CHECKS = PastedSet(bb_train, {"words-first": Setup("first", "whitespace", False)}, BASE)


@pytest.mark.parametrize("corpus", list(CORPORA))
def test_the_trainer_without_a_fault_is_same(corpus):
    _, result = CHECKS.check(corpus, "words-first")
    assert result.kind == "same", result.cause


@pytest.mark.parametrize("corpus", list(CORPORA))
def test_an_update_that_adds_the_pairs_a_word_keeps_again_is_named(corpus):
    # the old Check told pairs with a merged token never counted, or a count off by no known fault
    student, result = CHECKS.check(corpus, "kept-readded")
    assert result.step == CHECKS.first_difference(corpus, student, "kept-readded"), result.cause
    assert (result.kind, result.fault) == ("merge-loop", "kept-readded"), result.cause
