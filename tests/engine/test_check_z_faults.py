"""Faults of set Z's classes (tests/z_trainers.py), pasted as the Check page reads them: each is named at the step
where it acts, and the trainer without a fault is "same"."""

from __future__ import annotations

import pytest
from check_support import PastedSet
from faulty_trainers import CORPORA
from z_trainers import BASE, z_train

from bpe.check import Setup

SETUPS = {"words-eow": Setup("first", "sennrich", False)}


CHECKS = PastedSet(z_train, SETUPS, BASE)
check_z = CHECKS.check
first_difference = CHECKS.first_difference


@pytest.mark.parametrize("corpus", list(CORPORA))
def test_the_trainer_without_a_fault_is_same(corpus):
    _, result = check_z(corpus, "words-eow")
    assert result.kind == "same", result.cause


@pytest.mark.parametrize("corpus", ["prose", "bytes"])
def test_a_space_ending_every_word_but_a_lines_last_is_named_as_the_words_end_mark(corpus):
    # the old Check told the whitespace pre-tokenizer (no end mark at all) on bytes, whitespace kept on words on prose
    student, result = check_z(corpus, "space-end")
    assert (result.kind, result.step) == ("word-marks", first_difference(corpus, student, "space-end")), result.cause
    assert "end in a space character" in result.cause and "a line's last word in none" in result.cause, result.cause
    assert f"all {len(student.merges)} merges agree" in result.cause, result.cause


def test_a_space_end_mark_on_a_text_of_one_line_is_the_cut_that_keeps_whitespace():
    # one line: every word keeps the space after it, as the space-suffix cut makes them
    _, result = check_z("handout", "space-end")
    assert result.kind == "pre-tokenizer" and "space-suffix" in result.cause, result.cause


@pytest.mark.parametrize("corpus", ["prose", "bytes"])
def test_every_character_but_a_z_and_digits_made_a_space_is_named_with_its_pattern(corpus):
    # the old Check told only a-z kept (every digit made a space too), which the digit-free texts cannot tell apart
    student, result = check_z(corpus, "alnum-space")
    assert (result.kind, result.step) == ("letters", first_difference(corpus, student, "alnum-space")), result.cause
    assert "re.sub(r'[^a-zA-Z0-9]+', ' ', text)" in result.cause, result.cause


@pytest.mark.parametrize("corpus", ["prose", "bytes"])
def test_a_tie_to_the_pair_whose_count_reaches_the_top_first_is_named(corpus):
    # the old Check told an even-chunk split of the text at the step (a cut it invented), or lowercasing
    student, result = check_z(corpus, "first-to-top")
    assert (result.kind, result.step) == ("tie", first_difference(corpus, student, "first-to-top")), result.cause
    assert result.rule == "first-reached" and "keeps the best pair as it counts" in result.cause, result.cause


@pytest.mark.parametrize("corpus", ["prose", "bytes"])
def test_that_tie_over_every_word_in_the_texts_order_is_named_with_the_text_order(corpus):
    # a list of every word (not a dict of counts): the pair whose last occurrence in the text comes first wins; on
    # bytes the dict's first-seen order of words makes the same choices, and the loop is named either way
    student, result = check_z(corpus, "first-to-top-text")
    assert (result.kind, result.step) == ("tie", first_difference(corpus, student, "first-to-top-text")), result.cause
    text_only = ("first-reached-in-text", "last occurrence comes first in the text")
    rule, told = text_only if corpus == "prose" else ("first-reached", "keeps the best pair as it counts")
    assert result.rule == rule and told in result.cause, result.cause


def test_the_words_text_order_is_that_of_their_last_occurrence_with_special_tokens_split_out():
    from bpe.check_setup import last_seen, text_order

    assert last_seen("b a b c a", "whitespace") == ["b", "c", "a"]
    assert last_seen("b a<|x|>b c<|x|>a", "whitespace", ["<|x|>"]) == ["b", "c", "a"]
    assert last_seen({"a": 2, "b": 1}, "whitespace") is None  # word counts: no order to read
    assert text_order("b a b c a", Setup("first", "whitespace", False), (), ["a", "b", "c"]) == (1, 2, 0)
