"""Tests for bpe.pre_tokenizers: GPT-2's split equals the tokenizers library's, word for word."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_support import examples
from tokenizers import pre_tokenizers as hf

import bpe
from bpe import pre_tokenizers as pt

BYTE_LEVEL = hf.ByteLevel(add_prefix_space=False)


def assigned(text: str) -> bool:
    """The `regex` package knows newer Unicode than the tokenizers library's Oniguruma; on
    code points unassigned in Python's Unicode data the two may classify letters differently."""
    return all(unicodedata.category(c) != "Cn" for c in text)


@given(st.text(max_size=80).filter(assigned))
@settings(max_examples=examples(400), deadline=None)
def test_gpt2_equals_tokenizers_byte_level_word_for_word(text):
    assert bpe.pre_tokenize(text, "gpt2") == [w for w, _ in BYTE_LEVEL.pre_tokenize_str(text)]


@given(st.text(alphabet=" \n\t'sdmtlvre0123456789abcXYZ.,!?é你🙂", max_size=60))
@settings(max_examples=examples(300), deadline=None)
def test_gpt2_equals_tokenizers_on_tricky_characters(text):
    assert bpe.pre_tokenize(text, "gpt2") == [w for w, _ in BYTE_LEVEL.pre_tokenize_str(text)]


def test_gpt2_course_sentence():
    assert bpe.pre_tokenize("This is it.", "gpt2") == ["This", "Ġis", "Ġit", "."]
    assert bpe.pre_tokenize("a\nb", "gpt2") == ["a", "Ċ", "b"]


def test_byte_map_is_gpt2s():
    table = bpe.bytes_to_unicode()
    assert set(table.values()) == set(hf.ByteLevel.alphabet())
    assert table[ord(" ")] == "Ġ" and table[ord("\n")] == "Ċ" and table[ord("A")] == "A"
    # Every byte, as the tokenizers library maps it inside real text (all 256 bytes occur in UTF-8).
    text = "".join(chr(c) for c in range(0x21, 0x7F)) + "".join(chr(c) for c in range(0x80, 0x800, 7)) + "😀"
    for char in text:
        ((mapped, _),) = hf.ByteLevel(add_prefix_space=False, use_regex=False).pre_tokenize_str(char)
        assert mapped == "".join(table[b] for b in char.encode("utf-8"))


def test_gpt4_groups_numbers_by_three_and_keeps_contractions_case_insensitive():
    assert bpe.pre_tokenize("1234567", "gpt4") == ["123", "456", "7"]
    assert bpe.pre_tokenize("I'M here", "gpt4") == ["I", "'M", "Ġhere"]
    assert bpe.pre_tokenize("1234567", "gpt2") == ["1234567"]


def test_sennrich_and_space_suffix():
    assert bpe.pre_tokenize("low  lower", "sennrich") == ["low", "lower"]
    assert pt.word_symbols("low", "sennrich") == ("l", "o", "w", "</w>")
    assert bpe.pre_tokenize("aa abc abc", "space-suffix") == ["aa ", "abc ", "abc"]
    assert "".join(bpe.pre_tokenize("  a  b c ", "space-suffix")) == "  a  b c "


def test_offsets_point_into_the_original_text():
    text = "héllo wörld"
    for word, (s, e) in bpe.pre_tokenize_with_offsets(text, "gpt2"):
        assert pt.bytes_to_symbols(text[s:e].encode()) == word


def test_count_words_keeps_first_seen_order():
    assert list(bpe.count_words(["b a b", "c a"], "whitespace").items()) == [("b", 2), ("a", 2), ("c", 1)]


def test_unknown_pre_tokenizer_lists_the_known_ones():
    with pytest.raises(ValueError, match="whitespace, gpt2, gpt4, sennrich, space-suffix"):
        bpe.pre_tokenize("x", "bert")


def test_binary_and_non_utf8_files_are_refused_with_a_sentence():
    with pytest.raises(ValueError, match="binary"):
        bpe.text_from_bytes(bytes(range(256)), "'data.txt'")
    with pytest.raises(ValueError, match="not UTF-8"):
        bpe.text_from_bytes("café".encode("latin-1"), "'notes.txt'")
    assert bpe.text_from_bytes("\ufeffhug 10".encode("utf-8")) == "hug 10"
