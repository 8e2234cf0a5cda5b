"""Set BM's class (tests/bm_trainers.py), pasted as the Check page reads it: a tag written into the text."""

from __future__ import annotations

import pytest
from bm_trainers import bm_tag_text
from check_support import SNIPPET_MERGES
from faulty_trainers import CORPORA

from bpe.check import Setup, diagnose
from bpe.formats.student_runs import read_student_text
from server.jobs import corpus_of


@pytest.mark.parametrize("corpus", list(CORPORA))
@pytest.mark.parametrize("family", [Setup("first", "sennrich", False), Setup("first", "none", True)])
def test_a_tag_written_after_each_word_in_one_text_is_told_so(corpus, family):
    # the old Check told merges not from this corpus: '<' and '/' stand side by side nowhere in the text
    text, n = CORPORA[corpus], SNIPPET_MERGES[corpus]
    student = read_student_text(repr(bm_tag_text(text, n)), "The pasted text")
    result, _ = diagnose(corpus_of("text", "", text, ""), student, family, (), num_merges=n)
    assert (result.kind, result.step) == ("word-marks", 1), result.cause
    assert "the four characters '</w>' written after them" in result.cause, result.cause
    assert "joined by spaces into one text" in result.cause, result.cause
    assert f"all {n} merges agree" in result.cause, result.cause


@pytest.mark.parametrize("corpus", list(CORPORA))
def test_a_tag_written_after_each_word_kept_apart_is_told_without_the_join(corpus):
    text, n = CORPORA[corpus], SNIPPET_MERGES[corpus]
    student = read_student_text(repr(bm_tag_text(text, n, joined=False)), "The pasted text")
    result, _ = diagnose(corpus_of("text", "", text, ""), student, Setup("first", "sennrich", False), (), num_merges=n)
    assert result.kind == "word-marks", result.cause
    assert "the four characters '</w>' written after them" in result.cause, result.cause
    assert "joined by spaces" not in result.cause and "your run equals ours" in result.cause, result.cause
