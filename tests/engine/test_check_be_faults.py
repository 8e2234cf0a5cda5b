"""Set BE's classes (tests/be_trainers.py), pasted as the Check page reads them."""

from __future__ import annotations

import pytest
from be_trainers import BASE, be_train
from check_support import PastedSet
from faulty_trainers import CORPORA

from bpe.check import Setup

CHECKS = PastedSet(be_train, {"bytes-gpt2": Setup("first", "none", True)}, BASE)


@pytest.mark.parametrize("corpus", list(CORPORA))
def test_the_plain_trainer_is_same(corpus):
    _, result = CHECKS.check(corpus, "bytes-gpt2")
    assert result.kind == "same", result.cause


def test_a_run_printed_through_decode_with_replace_is_read_as_ours_where_it_fits():
    # the old Check told the '�' tokens as UTF-16 surrogate halves, a pair our corpus never has
    student, result = CHECKS.check("bytes", "bytes-replaced")
    assert any("\ufffd".encode() in t for pair in student.merges for t in pair)
    assert result.kind == "same", result.cause
    assert "decode('utf-8', 'replace')" in result.cause, result.cause
