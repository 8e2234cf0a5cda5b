"""Faults of set AA's classes (tests/aa_trainers.py), pasted as the Check page reads them: each is named at the step
where it acts, and the trainer without a fault is "same"."""

from __future__ import annotations

import pytest
from aa_trainers import aa_train
from check_support import check_pasted, pasted_first_difference
from faulty_trainers import CORPORA

from bpe.check import Setup
from bpe.pre_tokenizers import bytes_to_symbols

GPT2_CHARS = Setup("first", "gpt2", False)


def check_aa(corpus: str, kind: str, setup: Setup = GPT2_CHARS):
    return check_pasted(corpus, lambda text, n: aa_train(text, n, kind), setup)


def check_aa_bytes(corpus: str, kind: str, setup: Setup):
    """The kind trained on the text's UTF-8 bytes (each a Latin-1 character), pasted in GPT-2's byte characters."""

    def train(text: str, n: int):
        merges = aa_train(text.encode("utf-8").decode("latin-1"), n, kind)
        return [tuple(bytes_to_symbols(t.encode("latin-1")) for t in pair) for pair in merges]

    return check_pasted(corpus, train, setup)


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


@pytest.mark.parametrize("corpus", ["prose", "bytes"])
def test_separators_deleted_and_cutting_a_text_not_cut_into_words_are_named(corpus):
    # the old Check told a faulty reader on prose, a merge-loop fault on bytes
    setup = Setup("first", "none", False)
    student, result = check_aa(corpus, "separators", setup)
    assert (result.kind, result.step) == ("cleaning", pasted_first_difference(corpus, student, setup)), result.cause
    assert "deletes each '.', ':', ';' and line break and cuts the text there" in result.cause, result.cause


def test_separators_that_take_our_pair_out_of_a_tie_left_to_a_students_rule_are_named():
    # over bytes, the text cut at '.' takes our (., ␣) out of a tie at step 4, and the smallest concatenation a + b
    # breaks the tie left: the old Check told two faults at once, a smallest-bytes tie and a lost last symbol
    setup = Setup("first", "none", True)
    student, result = check_aa_bytes("bytes", "separators-concat", setup)
    assert (result.kind, result.step) == ("cleaning", pasted_first_difference("bytes", student, setup)), result.cause
    assert "deletes each '.', ':', ';' and line break and cuts the text there" in result.cause, result.cause
    assert result.rule == "smallest-concat" and "no longer makes our merge here" in result.cause, result.cause
