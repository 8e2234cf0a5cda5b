"""A tie rule that follows the student's run from the step where it parts from ours, though an earlier tie went
our way for another reason (bpe.check): the verdict names the rule, not a loop fault that makes the one choice by
chance."""

from __future__ import annotations

import pytest
from check_support import first_difference
from faulty_trainers import CORPORA, EOT, train

from bpe.check import CS336_SETUP, diagnose
from bpe.formats.student_runs import StudentRun

# JasonYao3's selection: the pairs sorted by (-count, a, b) and the first one taken that is no part of the special
# token: ties go to the smallest pair, and where (e, n) ties (n, t) at the prose's step 6, (e, n) is barred
FAULT = "smallest-bytes+special-ban"
MERGES = {"handout": 12, "prose": 190, "bytes": 80}


def check(corpus: str):
    text, n = CORPORA[corpus], MERGES[corpus]
    merges = train(text, n, FAULT)[1]
    student = StudentRun("CS336 pickle", tuple(merges), byte_level=True)
    return merges, first_difference(train(text, n)[1], merges), diagnose(text, student, CS336_SETUP, [EOT])[0]


@pytest.mark.parametrize("corpus", CORPORA)
def test_ties_to_the_smallest_pair_are_named_with_their_step_on_every_corpus(corpus):
    merges, step, result = check(corpus)
    assert result.step == step, result.cause
    assert result.kind == "tie", result.cause
    assert "smallest" in result.cause, result.cause


def test_a_tie_rule_from_the_parting_step_beats_a_loop_fault_that_makes_only_that_choice():
    # at the prose's step 7 (a, i) and (e, r) tie at 44; the smallest pair from the start parts at step 6, where the
    # special token's (e, n) is barred: the old Check named 'substring-counts', which makes step 7 and no more
    merges, step, result = check("prose")
    assert (result.kind, result.rule, result.step) == ("tie", "smallest-bytes", 7), result.cause
    assert "both counted 44: a tie broken by the 'smallest-bytes' rule" in result.cause
    assert "from this step on it makes your choices through step" in result.cause
    assert "at step 6, your run takes (n, t)" in result.cause
    assert merges[5] == (b"n", b"t")
