"""A pasted or uploaded corpus is checked and cut into its documents by the engine, with a sentence for each
thing to fix: over its size limit, empty, only special tokens, a word too long to train."""

from __future__ import annotations

import pytest

from bpe.corpus_text import (
    MAX_WORD_CHARS,
    check_word_lengths,
    counts_table,
    documents,
    preset_documents,
    text_documents,
)
from bpe.presets import PRESETS

EOT = "<|endoftext|>"


def test_a_text_is_one_document_as_written_or_the_pieces_between_its_special_tokens():
    text = "line one\n    indented\r\n\nlast"
    assert documents(text) == [text]
    assert documents(f"a{EOT}b{EOT}{EOT}c", [EOT]) == ["a", "b", "c"]
    # the longer token first: "<|end|>" inside "<|endoftext|>" does not cut it
    assert documents(f"x{EOT}y<|end|>z", ["<|end|>", EOT]) == ["x", "y", "z"]


def test_each_bad_text_gets_its_sentence():
    with pytest.raises(ValueError, match=r"larger than 1 MB; paste or upload less text"):
        text_documents("é" * 600_000, max_bytes=1_000_000)  # 1.2 MB of UTF-8 in 600,000 characters
    with pytest.raises(ValueError, match="The corpus is empty"):
        text_documents(" \n\t", max_bytes=100)
    with pytest.raises(ValueError, match="only special tokens"):
        text_documents(f"{EOT} {EOT}", [EOT], max_bytes=100)
    assert text_documents(f"ab{EOT}ab", [EOT], max_bytes=100) == ["ab", "ab"]


def test_a_word_count_table_is_read_within_its_limit():
    assert counts_table("hug 10\npug 5", max_bytes=100) == {"hug": 10, "pug": 5}
    with pytest.raises(ValueError, match=r"word-count table is larger than 5 MB; give fewer rows"):
        counts_table("hug 10\n" * 1_000_000, max_bytes=5_000_000)


def test_a_preset_keeps_its_texts_and_an_unknown_one_is_named():
    assert preset_documents("course") == PRESETS["course"].corpus()
    with pytest.raises(ValueError, match="There is no preset called 'nope'"):
        preset_documents("nope")


def test_a_word_longer_than_the_limit_is_refused_in_any_corpus():
    long = "x" * (MAX_WORD_CHARS + 1)
    with pytest.raises(ValueError, match="a word of 10,001 characters"):
        check_word_lengths([f"short\n{long}\nmore"], "gpt2")
    with pytest.raises(ValueError, match="a word of 10,001 characters"):
        check_word_lengths({long: 1, "hug": 3}, "whitespace")
    check_word_lengths(["y" * MAX_WORD_CHARS + " z"], "gpt2")
    check_word_lengths({"hug": 3}, "whitespace")
