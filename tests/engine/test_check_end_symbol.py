"""A run whose words end with '</w>' as a symbol of its own, on a CS336 upload (bpe.check): named as the end-of-word
symbol, not as another byte base, on the handout, the prose and the byte corpus."""

from __future__ import annotations

import pytest
from check_support import check, first_difference
from faulty_trainers import CORPORA, END_SYMBOL, train

MERGES = {"handout": 12, "prose": 80, "bytes": 80}


@pytest.mark.parametrize("corpus", CORPORA)
def test_an_end_of_word_symbol_is_named_where_its_first_pair_is_merged(corpus):
    # the old Check said 'a different byte base or pre-tokenizer', and on the byte corpus that the run starts from
    # characters, since (é, </w>) decodes whole
    text, n = CORPORA[corpus], MERGES[corpus]
    merges, result = check(text, END_SYMBOL, n)
    step = first_difference(train(text, n)[1], merges)
    assert step is not None and b"</w>" in merges[step - 1][1]
    assert (result.kind, result.step) == ("end-of-word", step), result.cause
    assert "your words end with </w>, a symbol of its own" in result.cause
    assert "characters" not in result.cause.split("your words end")[0]
