"""Faults of set AB's classes (tests/ab_trainers.py), pasted as the Check page reads them: each is named at the step
where it acts, and the trainers without a fault are "same"."""

from __future__ import annotations

import pytest
from ab_trainers import BASE, ab_train
from check_support import PastedSet
from faulty_trainers import CORPORA

from bpe.check import Setup

SETUPS = {"words-eow": Setup("first", "sennrich", False), "whole-chars": Setup("first", "none", False)}


CHECKS = PastedSet(ab_train, SETUPS, BASE)
check_ab = CHECKS.check
first_difference = CHECKS.first_difference


@pytest.mark.parametrize(("corpus", "kind"), [(c, k) for c in CORPORA for k in SETUPS])
def test_the_trainers_without_a_fault_are_same(corpus, kind):
    _, result = check_ab(corpus, kind)
    assert result.kind == "same", result.cause


@pytest.mark.parametrize("corpus", list(CORPORA))
def test_an_uppercased_text_is_named_as_uppercased(corpus):
    # the old Check told a pair our corpus never has (another byte base or pre-tokenizer), or a count that is off
    student, result = check_ab(corpus, "upper")
    assert (result.kind, result.step) == ("cleaning", first_difference(corpus, student, "upper")), result.cause
    assert "uppercases the text (str.upper)" in result.cause, result.cause


@pytest.mark.parametrize("corpus", ["prose", "bytes"])
def test_pairs_whose_token_would_hold_whitespace_inside_left_out_are_named(corpus):
    # the old Check told a tie that no known rule breaks
    student, result = check_ab(corpus, "space-ban")
    assert (result.kind, result.fault) == ("merge-loop", "space-ban"), result.cause
    assert result.step == first_difference(corpus, student, "space-ban"), result.cause
    assert "would hold whitespace inside it" in result.cause and f"all {len(student.merges)}" in result.cause


def test_the_whitespace_test_lets_a_token_start_or_end_with_a_space():
    from bpe.check_space_ban import holds_space

    assert not holds_space((b" t", b"he")) and not holds_space((b"the", b" "))
    assert holds_space((b"s", b" a")) and holds_space((b"a", b"\n")) and holds_space((b"\n", b"a"))
