"""Faults of set W's classes (tests/w_trainers.py), pasted as the Check page reads them: each is named at the step
where it acts, and the trainer without a fault is "same"."""

from __future__ import annotations

import pytest
from check_support import PastedSet
from faulty_trainers import CORPORA
from w_trainers import BASE, w_train

from bpe.check import Setup

SETUPS = {
    "whole-bytes": Setup("first", "none", True),
    "whole-chars": Setup("first", "none", False),
    "whole-chars-lex": Setup("lexicographic", "none", False),  # a heap of (-count, ...) pops the smallest
    "words-bytes": Setup("first", "whitespace", True),
    "words-chars": Setup("first", "whitespace", False),
    "words-eow": Setup("first", "sennrich", False),
}


CHECKS = PastedSet(w_train, SETUPS, BASE)
check_w = CHECKS.check
first_difference = CHECKS.first_difference


@pytest.mark.parametrize(("corpus", "kind"), [(c, k) for c in CORPORA for k in SETUPS])
def test_the_trainer_without_a_fault_is_same(corpus, kind):
    _, result = check_w(corpus, kind)
    assert result.kind == "same", result.cause


@pytest.mark.parametrize("corpus", CORPORA)
def test_pairs_counted_only_at_even_positions_are_named(corpus):
    # the old Check told a count that is off, with bounds on the two counts
    student, result = check_w(corpus, "even-pairs")
    assert (result.kind, result.fault) == ("merge-loop", "even-pairs"), result.cause
    assert result.step == first_difference(corpus, student, "even-pairs")
    assert "only the pairs that start at an even position" in result.cause


@pytest.mark.parametrize("corpus", CORPORA)
def test_words_run_together_with_a_separator_byte_are_told(corpus):
    # the old Check told a byte base of characters, or merges not from this corpus
    student, result = check_w(corpus, "separator-stream")
    assert (result.kind, result.step) == ("word-marks", first_difference(corpus, student, "separator-stream"))
    assert "the byte 255" in result.cause and "joined into one sequence" in result.cause, result.cause
    assert "your run equals ours" in result.cause


@pytest.mark.parametrize("corpus", CORPORA)
def test_ties_to_the_smallest_merged_token_are_named(corpus):
    # the old Check told a tie no rule makes, a smallest-id rule, or only the first-seen rule that made the run
    student, result = check_w(corpus, "smallest-concat")
    assert result.step == first_difference(corpus, student, "smallest-concat"), result.cause
    assert "'smallest-concat'" in result.cause and "the smallest merged token wins" in result.cause


@pytest.mark.parametrize("corpus", CORPORA)
def test_each_punctuation_mark_a_word_of_its_own_is_named(corpus):
    # the old Check named punctuation made a space or stripped from word ends, which counts alike or as far here
    student, result = check_w(corpus, "mark-words")
    if corpus == "handout":  # no punctuation: the words are ours
        assert result.kind == "same", result.cause
        return
    assert (result.kind, result.step) == ("cleaning", first_difference(corpus, student, "mark-words")), result.cause
    assert "off its word as a word of its own, one character each" in result.cause


@pytest.mark.parametrize("corpus", CORPORA)
def test_utf16_surrogate_halves_are_told(corpus):
    # the old Check told a pair our corpus never has from a different byte base or pre-tokenizer, or another text
    student, result = check_w(corpus, "utf16")
    if not any(ord(c) > 0xFFFF for c in CORPORA[corpus]):  # every character one UTF-16 unit: the run is ours
        assert result.kind == "same", result.cause
        return
    assert (result.kind, result.step) == ("byte-base", first_difference(corpus, student, "utf16")), result.cause
    assert "UTF-16 code units" in result.cause and "surrogate halves" in result.cause


@pytest.mark.parametrize("corpus", CORPORA)
def test_occurrences_merged_in_a_set_of_list_indices_order_are_named(corpus):
    # the old Check replayed only positions numbered from 1 with ties to the greatest pair: it told a tie rule
    student, result = check_w(corpus, "position-sets")
    if corpus == "handout":  # no run of three equal symbols: the order changes nothing
        assert result.kind == "same", result.cause
        return
    assert (result.kind, result.fault) == ("merge-loop", "set-order"), result.cause
    assert result.step == first_difference(corpus, student, "position-sets")


@pytest.mark.parametrize("corpus", CORPORA)
def test_words_marked_with_an_underscore_on_the_first_line_only_are_told(corpus):
    # the old Check told the '_' marks alone on a text of one line, and on the prose a merge loop that makes pairs
    # where they are not
    student, result = check_w(corpus, "first-line-marked")
    assert (result.kind, result.step) == ("word-marks", first_difference(corpus, student, "first-line-marked"))
    assert "end in the symbol '_'" in result.cause, result.cause
    if "\n" in CORPORA[corpus].strip():
        assert "reads only the first line" in result.cause, result.cause
