"""Faults of set AF's classes (tests/af_trainers.py), pasted as the Check page reads them: each is named at the step
where it acts, and the trainers without a fault are "same"."""

from __future__ import annotations

import pytest
from af_trainers import BASE, af_train
from check_support import PastedSet
from faulty_trainers import CORPORA

from bpe.check import Setup

SETUPS = {"whole-chars": Setup("first", "none", False), "words-eow": Setup("first", "sennrich", False)}
CHECKS = PastedSet(af_train, SETUPS, BASE)


@pytest.mark.parametrize(("corpus", "kind"), [(c, k) for c in CORPORA for k in SETUPS])
def test_the_trainers_without_a_fault_are_same(corpus, kind):
    _, result = CHECKS.check(corpus, kind)
    assert result.kind == "same", result.cause


@pytest.mark.parametrize("corpus", list(CORPORA))
def test_a_pair_key_split_back_on_a_space_that_repeats_its_pair_is_told(corpus):
    # the old Check told a merge that never changes a word (a pair built as a list), or whitespace kept on words
    student, result = CHECKS.check(corpus, "space-key-repeat")
    assert result.step == CHECKS.first_difference(corpus, student, "space-key-repeat"), result.cause
    assert "again, as at step" in result.cause and "a + ' ' + b" in result.cause, result.cause


def test_ties_to_the_last_pair_of_the_greatest_count_over_words_are_named():
    # the old Check told the greatest-bytes rule with a loop fault from step 7 on: the key was tried only on a whole
    # text; on words it is named where it makes every merge
    student, result = CHECKS.check("handout", "last-tie")
    assert (result.kind, result.rule) == ("tie", "last-recounted"), result.cause
    assert result.step == CHECKS.first_difference("handout", student, "last-tie"), result.cause


@pytest.mark.parametrize("corpus", ["prose", "bytes"])
def test_words_of_javascripts_ascii_word_class_or_one_other_character_are_named(corpus):
    # the old Check told a count that differs in how the text is read (bytes), or punctuation cut off words (prose)
    student, result = CHECKS.check(corpus, "ascii-chars")
    assert (result.kind, result.step) == ("cleaning", CHECKS.first_difference(corpus, student, "ascii-chars"))
    assert "whose \\w is ASCII" in result.cause, result.cause
