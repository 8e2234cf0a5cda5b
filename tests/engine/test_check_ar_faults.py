"""Faults of set AR's classes (tests/ar_trainers.py), pasted as the Check page reads them: each is named at the step
where it acts, and the trainer without a fault is "same"."""

from __future__ import annotations

import pytest
from ar_trainers import BASE, ar_train
from check_support import PastedSet
from faulty_trainers import CORPORA

from bpe.check import Setup

CHECKS = PastedSet(ar_train, {"words-first": Setup("first", "whitespace", False)}, BASE)


@pytest.mark.parametrize("corpus", list(CORPORA))
def test_the_trainer_without_a_fault_is_same(corpus):
    _, result = CHECKS.check(corpus, "words-first")
    assert result.kind == "same", result.cause


def test_a_lazy_heap_compared_on_counts_alone_is_named():
    # the old Check told a loop that never merges the words, with ties to the greatest pair of bytes
    student, result = CHECKS.check("prose", "lazy-count-heap")
    assert result.step == CHECKS.first_difference("prose", student, "lazy-count-heap"), result.cause
    assert (result.kind, result.fault) == ("merge-loop", "count-only-heap"), result.cause
    assert "your heap lost (e, n)" in result.cause and "its entry still says 64" in result.cause, result.cause
    assert f"every one of your {len(student.merges)} merges is the heap's choice" in result.cause, result.cause


@pytest.mark.parametrize("corpus", ["handout", "bytes"])
def test_a_lazy_heap_that_loses_no_pair_is_told_by_its_ties(corpus):
    # on these texts no pair's count falls before it would be taken: only the heap's order of ties shows
    student, result = CHECKS.check(corpus, "lazy-count-heap")
    assert result.step == CHECKS.first_difference(corpus, student, "lazy-count-heap"), result.cause
    assert result.kind == "tie", result.cause
