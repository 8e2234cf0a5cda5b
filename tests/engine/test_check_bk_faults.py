"""Set BK's class (tests/bk_trainers.py), pasted as the Check page reads it: a start tag before each word."""

from __future__ import annotations

import pytest
from bk_trainers import bk_specials, bk_train
from check_support import check_pasted
from faulty_trainers import CORPORA

from bpe.check import Setup


@pytest.mark.parametrize("corpus", list(CORPORA))
def test_words_started_by_a_tag_of_the_students_own_are_compared_marked_so(corpus):
    # the old Check told a pair our corpus never has, or merges not from this corpus: a run holding our '</w>' was
    # never looked at for other marks
    _, result = check_pasted(corpus, bk_train, Setup("first", "sennrich", False))
    assert result.kind == "word-marks", result.cause
    assert "start with the symbol '<w>'" in result.cause and "your run equals ours" in result.cause, result.cause


@pytest.mark.parametrize("corpus", list(CORPORA))
def test_special_tokens_written_as_tags_and_kept_as_words_are_no_start_tags(corpus):
    # a first try at start tags took '<s>' merged with '</w>' for a word-start symbol and told word marks
    _, result = check_pasted(corpus, bk_specials, Setup("first", "sennrich", False))
    assert (result.kind, result.fault, result.step) == ("specials", "special-words", 1), result.cause
