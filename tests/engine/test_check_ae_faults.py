"""Faults of set AE's classes (tests/ae_trainers.py), pasted as the Check page reads them: each is named at the step
where it acts, and the trainer without a fault is "same"."""

from __future__ import annotations

import pytest
from ae_trainers import BASE, ae_train
from check_support import PastedSet
from faulty_trainers import CORPORA

from bpe.check import Setup

SETUPS = {"whole-chars": Setup("first", "none", False), "words-eow": Setup("first", "sennrich", False)}
BYTES = {"words-bytes": Setup("first", "sennrich", True)}  # no plain kind: ours writes no '</w>' on bytes
CHECKS = PastedSet(ae_train, SETUPS | BYTES, BASE)


@pytest.mark.parametrize(("corpus", "kind"), [(c, k) for c in CORPORA for k in SETUPS])
def test_the_trainers_without_a_fault_are_same(corpus, kind):
    _, result = CHECKS.check(corpus, kind)
    assert result.kind == "same", result.cause


@pytest.mark.parametrize("corpus", ["handout", "prose"])
def test_a_pair_key_joined_with_a_space_and_split_back_is_told_where_the_run_ends(corpus):
    # the old Check told only that the run stops short (handout), or that its merge never changes a word (prose)
    student, result = CHECKS.check(corpus, "space-key")
    assert result.kind == "stops-early" and result.step == len(student.merges) + 1, result.cause
    assert "a + ' ' + b" in result.cause and "splits it back on ' '" in result.cause, result.cause


@pytest.mark.parametrize("corpus", list(CORPORA))
def test_words_of_whitespace_ending_in_the_end_symbol_are_told_as_words_of_whitespace(corpus):
    # the old Check told only that the student's words keep their whitespace (another pre-tokenizer, or none)
    student, result = CHECKS.check(corpus, "ws-words-eow")
    assert result.step == CHECKS.first_difference(corpus, student, "ws-words-eow"), result.cause
    assert r"re.findall(r'\S+|\s+', text)" in result.cause, result.cause


@pytest.mark.parametrize("corpus", list(CORPORA))
def test_words_of_whitespace_ending_in_the_end_symbol_on_bytes_are_told_as_words_of_whitespace(corpus):
    # the old Check told only that the student's words keep their whitespace (another pre-tokenizer, or none);
    # neither bug can be compared on bytes, where ours writes no end symbol: the pair is read for what it shows
    student, result = CHECKS.check(corpus, "ws-words-eow-bytes")
    assert (result.kind, result.step) == ("whitespace", 1), result.cause
    assert r"re.findall(r'\S+|\s+', text) makes each run of spaces or newlines a word" in result.cause, result.cause
