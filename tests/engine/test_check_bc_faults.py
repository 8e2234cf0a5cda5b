"""Faults of set BC's classes (tests/bc_trainers.py), pasted as the Check page reads them: each is named at the step
where it acts, and the trainer without a fault is "same" or told by its tie rule."""

from __future__ import annotations

import pytest
from bc_trainers import BASE, bc_train
from check_support import PastedSet
from faulty_trainers import CORPORA

from bpe.check import Setup

CHECKS = PastedSet(
    bc_train, {"whole-reached": Setup("first", "none", False), "set-once": Setup("first", "sennrich", False)}, BASE
)


@pytest.mark.parametrize("corpus", list(CORPORA))
def test_counts_never_cleared_with_the_best_kept_while_scanning_are_named(corpus):
    # the old Check told an update that adds a merged word's kept pairs again, or counts never reset whose merged
    # pairs still win, which a best kept while scanning never takes
    student, result = CHECKS.check(corpus, "present-accumulated")
    assert result.step == CHECKS.first_difference(corpus, student, "present-accumulated"), result.cause
    assert result.fault == "accumulated-present", result.cause


def test_on_the_handout_where_no_word_repeats_a_pair_the_sets_order_alone_is_told():
    student, result = CHECKS.check("handout", "set-once")
    assert result.step == CHECKS.first_difference("handout", student, "set-once"), result.cause
    assert result.kind == "tie" and "order of the container" in result.cause, result.cause


def test_pairs_counted_once_per_word_with_ties_in_a_sets_order_are_named():
    # the old Check told a count that differs by no known fault (on the prose the runs part first at a tie, which the
    # set's order decides before the count per word acts)
    student, result = CHECKS.check("bytes", "set-once")
    assert result.step == CHECKS.first_difference("bytes", student, "set-once"), result.cause
    assert (result.kind, result.fault) == ("merge-loop", "once-per-word"), result.cause
    assert "order of the container" in result.cause, result.cause
