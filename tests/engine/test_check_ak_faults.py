"""Faults of set AK's classes (tests/ak_trainers.py), pasted as the Check page reads them: each is named at the step
where it acts, and the trainers without a fault are "same"."""

from __future__ import annotations

import pytest
from ak_trainers import BASE, ak_train
from check_support import PastedSet
from faulty_trainers import CORPORA

from bpe.check import Setup

SETUPS = {"gpt2-first": Setup("first", "gpt2", True), "words-first": Setup("first", "whitespace", False)}
CHECKS = PastedSet(ak_train, SETUPS, BASE)


@pytest.mark.parametrize(("corpus", "kind"), [(c, k) for c in CORPORA for k in SETUPS])
def test_the_trainers_without_a_fault_are_same(corpus, kind):
    _, result = CHECKS.check(corpus, kind)
    assert result.kind == "same", result.cause


@pytest.mark.parametrize("corpus", list(CORPORA))
def test_bytes_written_by_their_place_in_gpt2s_list_are_read_back(corpus):
    # the old Check told merges from another text: 'e' written '¨' and a space 'A'
    _, result = CHECKS.check(corpus, "gpt2-indexed")
    assert (result.kind, result.fault, result.step) == ("vocabulary", "gpt2-indexed", 1), result.cause
    assert "dict(zip(bs, cs))" in result.cause and "same" not in result.cause[:20], result.cause


def test_ties_to_the_smallest_right_id_first_are_named():
    # the old Check told a cut of words as the whitespace pre-tokenizer makes them
    student, result = CHECKS.check("handout", "second-id")
    assert (result.kind, result.rule) == ("tie", "second-first-id"), result.cause
    assert result.step == CHECKS.first_difference("handout", student, "second-id"), result.cause
