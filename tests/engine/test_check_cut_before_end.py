"""A text pre-tokenized in two pieces cut a few characters before its end (bpe.check): the reader is named with the
step, on every corpus, and its counts make the student's merges."""

from __future__ import annotations

import pytest
from check_support import check, first_difference
from faulty_trainers import CORPORA, CUT_BEFORE_END, train

from bpe.check import CS336_SETUP
from bpe.check_setup import setup_agreed

MERGES = {"handout": 12, "prose": 190, "bytes": 80}


@pytest.mark.parametrize("corpus", CORPORA)
def test_a_text_cut_before_its_end_is_named_as_a_reader_with_its_step(corpus):
    # shawnspitzel's reader pre-tokenizes buffer[:-10] and the last 10 characters apart: on the bytes corpus the old
    # Check said a set's order ('␣ππππ' cut in two makes (␣, ππ) 11 where it is 12), a tie or a count elsewhere
    text, n = CORPORA[corpus], MERGES[corpus]
    merges, result = check(text, CUT_BEFORE_END, n)
    step = first_difference(train(text, n)[1], merges)
    assert step is not None
    assert (result.kind, result.fault, result.step) == ("reading", "cut-before-end", step), result.cause
    assert "cut a few characters before its end" in result.cause
    assert "counted as two pieces" in result.cause
    cut = int(result.cause.split("before its end (")[1].split(" here")[0])
    assert 1 < cut <= 10
    # the text cut that many characters before its end, read as two pieces, makes every one of the student's merges
    pieces = [text[:-cut], text[-cut:]]
    assert setup_agreed(pieces, CS336_SETUP, merges, ["<|endoftext|>"]) == len(merges)
