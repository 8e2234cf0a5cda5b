"""Faults of set AT's classes (tests/at_trainers.py), pasted as the Check page reads them: each is named at the step
where it acts, and the trainer without a fault is "same"."""

from __future__ import annotations

import pytest
from at_trainers import BASE, at_train
from check_support import PastedSet
from faulty_trainers import CORPORA

from bpe.check import Setup

CHECKS = PastedSet(
    at_train,
    {
        "bytes-first": Setup("first", "none", True),
        "gpt2-first": Setup("first", "gpt2", True),
        "words-bytes": Setup("first", "whitespace", True),
    },
    BASE,
)


@pytest.mark.parametrize(
    ("corpus", "kind"), [(c, k) for c in CORPORA for k in ("bytes-first", "gpt2-first", "words-bytes")]
)
def test_the_trainers_without_a_fault_are_same(corpus, kind):
    _, result = CHECKS.check(corpus, kind)
    assert result.kind == "same", result.cause


@pytest.mark.parametrize("corpus", list(CORPORA))
def test_ties_to_the_greatest_ids_compared_as_little_endian_memory_are_named(corpus):
    # the old Check told ties by no rule (a container's order), a rule of greatest bytes following a few steps
    student, result = CHECKS.check(corpus, "memcmp")
    assert result.step == CHECKS.first_difference(corpus, student, "memcmp"), result.cause
    assert (result.kind, result.rule) == ("tie", "greatest-le-ids"), result.cause


def test_bytes_cut_only_before_each_space_are_named():
    # the old Check told lines read stripped, or pairs of spaces counted without overlaps (on the byte corpus, with
    # no newline and no run of spaces, such a cut makes GPT-2's words)
    student, result = CHECKS.check("prose", "space-chunks")
    assert result.step == CHECKS.first_difference("prose", student, "space-chunks"), result.cause
    assert result.kind == "cleaning" and "only before each space" in result.cause, result.cause


def test_bytes_read_as_signed_char_are_named():
    # the old Check told a word joined by spaces and split back on ' ', which words cut at whitespace never allow
    student, result = CHECKS.check("bytes", "signed-char")
    assert result.step == CHECKS.first_difference("bytes", student, "signed-char"), result.cause
    assert result.kind == "empty-symbol" and "reads the text as char, which is signed" in result.cause, result.cause
