"""A pair the student's words hold across a cut of our pre-tokenizer (bpe.check_cuts): the classes of characters
their pattern keeps together, told from the text, and the Check naming it on a trainer whose pattern has \\w."""

from __future__ import annotations

from check_support import check, first_difference
from faulty_trainers import ASCII_CLASS, CORPORA, WORD_CLASS, train

from bpe.check_cuts import cut_words


def test_a_word_class_pattern_is_told_as_words_kept_whole_with_their_underscore():
    # the old Check said the merge loop puts (um, _) side by side where they are not
    text, n = CORPORA["prose"], 190
    merges, result = check(text, WORD_CLASS, n)
    step = first_difference(train(text, n)[1], merges)
    assert step is not None
    assert (result.kind, result.step) == ("pre-tokenizer", step), result.cause
    assert "keeps ASCII letters and '_' in one word" in result.cause
    assert "'num_merges' is one word for you, and ours cuts it into 'num', '_', 'merges'" in result.cause
    assert "\\w" in result.cause


def test_an_ascii_letter_class_on_text_is_told_as_ascii_classes_not_only_as_a_pattern_on_bytes():
    # the old Check said only 'your pre-token pattern runs on the UTF-8 bytes', which this trainer never does
    text, n = CORPORA["bytes"], 80
    merges, result = check(text, ASCII_CLASS, n)
    step = first_difference(train(text, n)[1], merges)
    assert step is not None
    assert (result.kind, result.step, result.fault) == ("reading", step, "bytes-pattern"), result.cause
    assert "letter and digit classes match ASCII only" in result.cause and "[a-zA-Z]" in result.cause


def test_the_classes_at_our_cut_are_named():
    text = "x2y is x2y; café, et café, voilà"
    digits = cut_words(b"x2", text, "gpt2")
    assert digits is not None and "ASCII letters and digits" in digits and "'x2y' is one word" in digits
    accent = cut_words("é,".encode(), text, "gpt2")
    assert (
        accent is not None
        and "letters outside ASCII and punctuation (',')" in accent
        and "ASCII letters only" in accent
    )


def test_a_pair_inside_one_of_our_words_is_not_a_cut():
    text = "foo_bar and foobar"
    assert cut_words(b"oo", text, "gpt2") is None  # one of our words holds it
    assert cut_words(b"o_", "foo_bar o_x", "whitespace") is None  # whitespace words keep '_' too
    assert cut_words(b"zz", text, "gpt2") is None  # nowhere in the text
    assert cut_words(b"o_", {"foo_bar": 2}, "gpt2") is None  # word counts: no text to look at
