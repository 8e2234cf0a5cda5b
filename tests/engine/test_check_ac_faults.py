"""Faults of set AC's classes (tests/ac_trainers.py), pasted as the Check page reads them: each is named at the step
where it acts, and the trainers without a fault are "same"."""

from __future__ import annotations

import pytest
from ac_trainers import BASE, ac_train
from check_support import PastedSet
from faulty_trainers import CORPORA

from bpe.check import Setup

SETUPS = {
    "words": Setup("first", "whitespace", False),
    "words-eow": Setup("first", "sennrich", False),
    "gpt2-bytes": Setup("first", "gpt2", True),
}


CHECKS = PastedSet(ac_train, SETUPS, BASE)
check_ac = CHECKS.check
first_difference = CHECKS.first_difference


@pytest.mark.parametrize(("corpus", "kind"), [(c, k) for c in CORPORA for k in SETUPS])
def test_the_trainers_without_a_fault_are_same(corpus, kind):
    _, result = check_ac(corpus, kind)
    assert result.kind == "same", result.cause


@pytest.mark.parametrize("corpus", ["prose", "bytes"])
def test_a_lowercased_text_whose_tokens_end_in_a_special_tokens_last_character_is_told_lowercased(corpus):
    # the old Check read the '>' of '<|endoftext|>' glued to a word as an end-of-word symbol, and on the marked words
    # told lowercasing with a punctuation cut that made 37 of 150 merges, where lowercasing alone makes them all
    student, result = check_ac(corpus, "lower-words")
    assert (result.kind, result.step) == ("case", first_difference(corpus, student, "lower-words")), result.cause
    assert "Your run lowercases the text" in result.cause and "punctuation" not in result.cause, result.cause


# (the handout has no capital: lowercasing it changes nothing)
@pytest.mark.parametrize(
    ("corpus", "kind"), [(c, "eow-spelled") for c in CORPORA] + [(c, "lower-eow-spelled") for c in ("prose", "bytes")]
)
def test_an_end_symbol_split_into_its_characters_is_named(corpus, kind):
    # the old Check told merges not from this corpus: '<' and '/' stand side by side nowhere in the text
    student, result = check_ac(corpus, kind)
    assert (result.kind, result.step) == ("word-marks", 1), result.cause
    assert "'</w>' split into its four characters ('<', '/', 'w', '>')" in result.cause, result.cause
    if kind == "eow-spelled":
        assert f"your run equals ours: all {len(student.merges)} merges agree" in result.cause, result.cause
    else:
        assert "lowercases the text" in result.cause, result.cause


@pytest.mark.parametrize("corpus", ["prose"])  # the other corpora hold no whitespace but single spaces
def test_whitespace_runs_cut_as_words_of_their_own_are_named(corpus):
    # the old Check named a pre-tokenizer keeping the whitespace after each word, which followed for 2 merges
    student, result = check_ac(corpus, "ws-runs")
    assert (result.kind, result.step) == ("cleaning", first_difference(corpus, student, "ws-runs")), result.cause
    assert r"re.findall(r'\S+|\s+'" in result.cause, result.cause
    assert f"and all {len(student.merges)} of yours" in result.cause, result.cause


@pytest.mark.parametrize("corpus", ["prose"])
def test_a_whitespace_run_kept_whole_by_a_pattern_with_no_lookahead_is_named(corpus):
    # the old Check told a run with no pre-tokenization, with a tie rule and a fault of byte positions after it
    student, result = check_ac(corpus, "ws-whole")
    assert (result.kind, result.step) == ("cleaning", first_difference(corpus, student, "ws-whole")), result.cause
    assert r"\s+(?!\S)" in result.cause, result.cause


def test_a_whitespace_run_kept_whole_on_documents_cut_at_the_special_token_is_named_with_both():
    # (a newline for the token makes a run of whitespace with the lines around it, which a cut at the token does
    # not: the cleaning follows the run for 74 of its 150 merges)
    # the old Check told a run with no pre-tokenization (6 of 150 merges), then a tie rule with a fault of positions
    student, result = check_ac("prose", "docs-ws-whole")
    assert (result.kind, result.step) == ("cleaning", first_difference("prose", student, "docs-ws-whole")), result.cause
    assert r"\s+(?!\S)" in result.cause and "cuts the text at each special token" in result.cause, result.cause
