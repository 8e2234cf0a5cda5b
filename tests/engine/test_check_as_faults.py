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


def test_a_dicts_order_of_ties_with_a_loop_fault_is_named_before_a_rarer_rule():
    # the old Check stopped at the first rule that made the whole run with the fault ('second-first', tried first as
    # it takes the student's pair where the runs part), where a dict's order (Counter.most_common) makes it too
    from bpe.check import diagnose
    from bpe.check_setup import student_words
    from bpe.fault_replay import faulty_merges
    from bpe.formats.student_runs import StudentRun
    from bpe.merge_faults import FAULTS
    from server.jobs import corpus_of

    setup = Setup("first", "none", True)
    corpus = corpus_of("text", "", CORPORA["handout"], "")
    _, words, freqs = student_words(corpus, setup)
    merges = faulty_merges(words, freqs, 10, FAULTS["adjacent"], tie="first-added")
    result, _ = diagnose(corpus, StudentRun("pasted", tuple(merges), byte_level=True), setup, num_merges=10)
    assert (result.kind, result.fault, result.rule) == ("merge-loop", "adjacent", "first-added"), result.cause
