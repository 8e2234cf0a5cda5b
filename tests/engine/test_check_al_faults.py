"""The fault of set AL's class (tests/al_trainers.py), pasted as the Check page reads it: named at the step where it
acts, and the trainer without it is "same"."""

from __future__ import annotations

import pytest
from al_trainers import BASE, al_train
from check_support import PastedSet
from faulty_trainers import CORPORA

from bpe.check import Setup

SETUPS = {"whole-first": Setup("first", "none", False), "words-eow": Setup("first", "sennrich", False)}
CHECKS = PastedSet(al_train, SETUPS, BASE)


@pytest.mark.parametrize(("corpus", "kind"), [(c, k) for c in CORPORA for k in SETUPS])
def test_the_trainers_without_a_fault_are_same(corpus, kind):
    _, result = CHECKS.check(corpus, kind)
    assert result.kind == "same", result.cause


@pytest.mark.parametrize("corpus", list(CORPORA))
def test_an_end_mark_glued_to_the_last_character_is_read_as_ours(corpus):
    # the old Check told a word-marks reading with the mark a symbol of its own, then a pair our corpus never has
    student, result = CHECKS.check(corpus, "glued-mark")
    assert (result.kind, result.step) == ("word-marks", CHECKS.first_difference(corpus, student, "glued-mark"))
    assert "'▁' glued to their last character" in result.cause, result.cause
    assert "your run equals ours: all" in result.cause, result.cause  # read as ours, nothing else differs


@pytest.mark.parametrize("corpus", ["handout", "prose"])
def test_new_pairs_made_with_the_merged_pairs_own_symbols_are_named(corpus):
    # the old Check told a pair no word holds (handout) or whitespace kept on words (prose)
    student, result = CHECKS.check(corpus, "merged-sides")
    assert (result.kind, result.fault) == ("merge-loop", "merged-sides"), result.cause
    assert result.step == CHECKS.first_difference(corpus, student, "merged-sides"), result.cause


@pytest.mark.parametrize("corpus", list(CORPORA))
def test_empty_symbols_from_words_joined_by_spaces_and_split_back_are_named(corpus):
    # the old Check told a pair our corpus never has: a different byte base or pre-tokenizer
    _, result = CHECKS.check(corpus, "space-joined")
    assert (result.kind, result.step) == ("empty-symbol", 1), result.cause
    assert ".split(' ')" in result.cause, result.cause
