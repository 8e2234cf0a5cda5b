"""Sets BO's and BP's classes (tests/bo_trainers.py), pasted as the Check page reads them: words marked with
``'</w>'`` before their first character, or with ``'-'`` after their last."""

from __future__ import annotations

import pytest
from bo_trainers import bo_eow_first, bp_dash_end
from check_support import check_pasted
from faulty_trainers import CORPORA

from bpe.check import Setup


@pytest.mark.parametrize("corpus", list(CORPORA))
def test_our_end_symbol_put_before_each_word_is_told_as_a_start_mark(corpus):
    # the old Check told a loop fault, words run together or another pre-tokenizer: '</w>' was never a start mark
    _, result = check_pasted(corpus, bo_eow_first, Setup("first", "sennrich", False))
    assert result.kind == "word-marks", result.cause
    assert "start with the symbol '</w>'" in result.cause and "not before its first" in result.cause, result.cause
    assert "your run equals ours" in result.cause, result.cause


@pytest.mark.parametrize("corpus", list(CORPORA))
def test_a_dash_ending_each_word_is_told_as_an_end_mark(corpus):
    # the old Check told a pair our corpus never has, or merges not from this corpus
    _, result = check_pasted(corpus, bp_dash_end, Setup("first", "sennrich", False))
    assert result.kind == "word-marks", result.cause
    assert "end in the symbol '-'" in result.cause, result.cause
