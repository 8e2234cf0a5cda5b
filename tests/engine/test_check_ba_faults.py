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
