"""Set BA's classes (tests/ba_trainers.py), pasted as the Check page reads them."""

from __future__ import annotations

import pytest
from ba_trainers import BASE, ba_train
from check_support import PastedSet
from faulty_trainers import CORPORA

from bpe.check import Setup

CHECKS = PastedSet(ba_train, {"whole-chars": Setup("first", "none", False)}, BASE)


@pytest.mark.parametrize("corpus", list(CORPORA))
def test_a_run_of_characters_that_writes_each_space_as_gpt2s_g_is_same(corpus):
    # the old Check read 'Ġ' as itself where a token held a line break (the run pasted as a Python list) and told a
    # pair our corpus never has
    student, result = CHECKS.check(corpus, "g-spaces")
    assert any("\u0120" in t for pair in ba_train("a b c a b", 2, "g-spaces") for t in pair)
    assert result.kind == "same", result.cause


@pytest.mark.parametrize("corpus", list(CORPORA))
def test_the_plain_trainer_is_same(corpus):
    _, result = CHECKS.check(corpus, "whole-chars")
    assert result.kind == "same", result.cause


def test_a_count_off_in_one_long_word_is_not_put_down_to_pairs_counted_once_per_word():
    # the old Check told pairs counted once per word with ties in a set's order: in the whole text, one word, every
    # pair counted once ties with every other, so any run follows that loop by chance
    student, result = CHECKS.check("prose", "underscore-spaces")
    assert result.step == CHECKS.first_difference("prose", student, "underscore-spaces"), result.cause
    assert result.fault != "once-per-word" and "order of the container" not in result.cause, result.cause


@pytest.mark.parametrize("corpus", list(CORPORA))
def test_a_whole_text_run_that_writes_each_space_as_a_hash_is_named(corpus):
    # the old Check told merges not from this corpus, or a pair our corpus never has
    student, result = CHECKS.check(corpus, "hash-spaces")
    assert result.step == CHECKS.first_difference(corpus, student, "hash-spaces"), result.cause
    assert result.kind == "cleaning" and "writes every space of the text as '#'" in result.cause, result.cause
