"""Faults of set AA's classes (tests/aa_trainers.py), pasted as the Check page reads them: each is named at the step
where it acts, and the trainer without a fault is "same"."""

from __future__ import annotations

import pytest
from aa_trainers import aa_train
from check_support import check_pasted, pasted_first_difference
from faulty_trainers import CORPORA

from bpe.check import Setup

GPT2_CHARS = Setup("first", "gpt2", False)


def check_aa(corpus: str, kind: str, setup: Setup = GPT2_CHARS):
    return check_pasted(corpus, lambda text, n: aa_train(text, n, kind), setup)


@pytest.mark.parametrize("corpus", list(CORPORA))
def test_the_trainer_without_a_fault_is_same(corpus):
    _, result = check_aa(corpus, "gpt2")
    assert result.kind == "same", result.cause


def test_every_run_of_spaces_put_whole_on_the_next_word_is_named():
    # the old Check told no pre-tokenization at all (the whole text one sequence follows a few merges)
    student, result = check_aa("prose", "ws-prefix")
    assert (result.kind, result.step) == ("cleaning", pasted_first_difference("prose", student, GPT2_CHARS))
    assert "every run of spaces and tabs whole onto the word after it" in result.cause, result.cause
    assert f"all {len(student.merges)} of yours" in result.cause, result.cause


def test_pieces_of_whitespace_kept_as_one_symbol_are_named_as_whitespace_never_paired():
    # the old Check told every run of whitespace collapsed to one space (following part of the run)
    student, result = check_aa("prose", "ws-whole")
    assert (result.kind, result.step) == ("cleaning", pasted_first_difference("prose", student, GPT2_CHARS))
    assert "no pair of two whitespace characters is ever counted" in result.cause, result.cause
    assert f"all {len(student.merges)} of yours" in result.cause, result.cause


@pytest.mark.parametrize("corpus", ["prose", "bytes"])
def test_words_of_a_space_and_a_run_of_non_space_characters_are_named(corpus):
    # the old Check told, on bytes, whitespace kept on words (another pre-tokenizer, or none); on prose, whitespace
    # collapsed to one space
    student, result = check_aa(corpus, "space-words")
    assert (result.kind, result.step) == ("cleaning", pasted_first_difference(corpus, student, GPT2_CHARS))
    assert "punctuation stays in its word" in result.cause, result.cause
