"""Faults of set X's classes (tests/x_trainers.py), pasted as the Check page reads them: each is named at the step
where it acts, and the trainer without a fault is "same"."""

from __future__ import annotations

import pytest
from check_support import PastedSet
from faulty_trainers import CORPORA
from x_trainers import BASE, x_train

from bpe.check import Setup

SETUPS = {"words-eow": Setup("first", "sennrich", False), "whole-chars": Setup("first", "none", False)}


CHECKS = PastedSet(x_train, SETUPS, BASE)
check_x = CHECKS.check
first_difference = CHECKS.first_difference


@pytest.mark.parametrize(("corpus", "kind"), [(c, k) for c in CORPORA for k in SETUPS])
def test_the_trainer_without_a_fault_is_same(corpus, kind):
    _, result = check_x(corpus, kind)
    assert result.kind == "same", result.cause


@pytest.mark.parametrize("corpus", ["handout", "prose"])
def test_ties_in_a_dict_whose_recounted_pairs_go_to_its_end_are_named(corpus):
    # the old Check told the hf smallest-id rule, a 'left-symbol' loop fault or the plain dict order
    student, result = check_x(corpus, "recounted-to-end")
    assert result.step == first_difference(corpus, student, "recounted-to-end"), result.cause
    assert "'recounted-to-end'" in result.cause and "at the dict's end" in result.cause, result.cause


@pytest.mark.parametrize("corpus", ["handout", "prose"])
def test_ties_to_the_last_pair_of_the_greatest_count_are_named(corpus):
    # the old Check told a greatest-bytes or lexicographic rule that parts later, or a count
    student, result = check_x(corpus, "last-of-greatest")
    assert result.step == first_difference(corpus, student, "last-of-greatest"), result.cause
    assert "'last-recounted'" in result.cause and "the last pair of the greatest count" in result.cause, result.cause


@pytest.mark.parametrize("corpus", ["handout", "prose"])
def test_words_ending_in_eow_run_together_into_one_list_are_told(corpus):
    # the old Check told a merge loop that puts two tokens side by side where they are not
    student, result = check_x(corpus, "eow-stream")
    assert (result.kind, result.step) == ("word-marks", first_difference(corpus, student, "eow-stream")), result.cause
    assert "joined into one sequence" in result.cause and "'</w>'" in result.cause, result.cause


@pytest.mark.parametrize("corpus", ["prose", "bytes"])
def test_only_pairs_of_letters_a_z_counted_are_told(corpus):
    # the old Check told a count that is off, or the text kept to a-z with spaces merged (on the handout's text of
    # letters and spaces the run is whitespace pre-tokenization's, and is told so)
    student, result = check_x(corpus, "az-pairs")
    assert result.step == first_difference(corpus, student, "az-pairs"), result.cause
    assert "counts only the pairs of two letters a-z" in result.cause, result.cause


@pytest.mark.parametrize("corpus", ["handout", "prose"])
def test_an_end_tag_written_with_a_backslash_is_read_whole(corpus):
    # the old Check read the tag '<\w>' as the symbol '>', then said the merges are not from this corpus
    student, result = check_x(corpus, "tag-alnum")
    assert (result.kind, result.step) == ("word-marks", first_difference(corpus, student, "tag-alnum")), result.cause
    assert "the symbol '<\\w>'" in result.cause and "not from this corpus" not in result.cause, result.cause
