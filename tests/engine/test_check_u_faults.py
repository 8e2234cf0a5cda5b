"""Faults of set U's classes (tests/u_trainers.py), pasted as the Check page reads them: each is named at the step
where it acts, and the trainer without a fault is "same"."""

from __future__ import annotations

import pytest
from check_support import SNIPPET_MERGES
from faulty_trainers import CORPORA
from snippet_trainers import pasted
from u_trainers import u_train

from bpe.check import Setup, diagnose
from bpe.check_setup import history_bytes, train_setup
from bpe.formats.student_runs import read_student_text
from server.jobs import corpus_of

SENNRICH = Setup("first", "sennrich", False)
WHOLE = Setup("first", "none", False)
WORDS = Setup("first", "whitespace", False)
WORDS_ON_BYTES = Setup("first", "whitespace", True)


def check_u(corpus: str, fault: str | None, setup: Setup):
    text, n = CORPORA[corpus], SNIPPET_MERGES[corpus]
    merges = u_train(text, n, fault)
    student = read_student_text(pasted(merges), "The pasted text")
    result, _ = diagnose(corpus_of("text", "", text, ""), student, setup, (), num_merges=n)
    return merges, result


def first_difference(corpus: str, merges, setup: Setup) -> int | None:
    text = CORPORA[corpus]
    ours = history_bytes(train_setup(corpus_of("text", "", text, ""), setup, len(merges) + 1))
    theirs = [(a.encode(), b.encode()) for a, b in merges]
    return next((k for k, (a, b) in enumerate(zip(ours, theirs), start=1) if a != b), None)


# a run on characters is ours on bytes only where every character is one byte (not the bytes text)
PLAIN = [(None, SENNRICH), ("whole-text", WHOLE), ("no-end", WORDS), ("no-end", WORDS_ON_BYTES)]


@pytest.mark.parametrize(
    ("corpus", "plain", "setup"),
    [(c, plain, setup) for c in CORPORA for plain, setup in PLAIN if not (c == "bytes" and setup.byte_base)],
)
def test_the_trainer_without_a_fault_is_same(corpus, plain, setup):
    _, result = check_u(corpus, plain, setup)
    assert result.kind == "same", result.cause


@pytest.mark.parametrize("corpus", CORPORA)
def test_a_text_with_every_space_written_underscore_is_named(corpus):
    # the old Check told merges not from this corpus, or a pair the corpus never has
    merges, result = check_u(corpus, "space-underscore", WHOLE)
    assert (result.kind, result.step) == ("cleaning", first_difference(corpus, merges, WHOLE)), result.cause
    assert "writes every space of the text as '_'" in result.cause
    assert "whole text as one sequence" in result.cause


@pytest.mark.parametrize("corpus", CORPORA)
def test_words_ending_in_sentencepieces_mark_are_named(corpus):
    # the old Check told a pair our corpus never has: a different byte base or pre-tokenizer
    merges, result = check_u(corpus, "end-block", SENNRICH)
    assert (result.kind, result.step) == ("word-marks", first_difference(corpus, merges, SENNRICH)), result.cause
    assert "end in the symbol '\u2581'" in result.cause
    assert "your run equals ours" in result.cause


@pytest.mark.parametrize("corpus", ["prose", "bytes"])
def test_words_ending_in_underscore_with_punctuation_cut_off_are_told_with_both(corpus):
    # the old Check told merges not from this corpus where the marks alone explain no merge (the prose's step 1)
    merges, result = check_u(corpus, "punct-underscore", SENNRICH)
    assert (result.kind, result.step) == ("word-marks", first_difference(corpus, merges, SENNRICH)), result.cause
    assert "end in the symbol '_'" in result.cause and "cuts punctuation off its words" in result.cause


@pytest.mark.parametrize("corpus", ["handout", "prose"])
def test_a_word_start_symbol_is_named_where_the_page_counts_bytes(corpus):
    # the old Check looked for marks only on characters: it told a byte base, or merges not from this corpus
    merges, result = check_u(corpus, "start-underscore", WORDS_ON_BYTES)
    assert (result.kind, result.step) == ("word-marks", first_difference(corpus, merges, WORDS)), result.cause
    assert "start with the symbol '_'" in result.cause


@pytest.mark.parametrize("corpus", CORPORA)
def test_special_tokens_added_as_words_are_named_at_step_1(corpus):
    # the old Check told a pair no word holds: a merge loop that puts them side by side
    _, result = check_u(corpus, "special-words", SENNRICH)
    assert (result.kind, result.fault, result.step) == ("specials", "special-words", 1), result.cause
    assert "special tokens ([PAD], [UNK], [BOS], [EOS])" in result.cause
    assert "your run equals ours" in result.cause  # the rest of the run is ours


@pytest.mark.parametrize("corpus", ["prose", "bytes"])
def test_ties_in_an_order_no_rule_gives_name_a_hash_order(corpus):
    # the old Check named only the rules that match a step or two by chance (on the handout one rule makes all ten)
    merges, result = check_u(corpus, "hash-ties", SENNRICH)
    assert (result.kind, result.rule, result.step) == ("tie", None, first_difference(corpus, merges, SENNRICH))
    assert "your ties follow no rule we know" in result.cause and "a hash map or a set" in result.cause


@pytest.mark.parametrize("corpus", ["handout", "bytes"])
def test_gpt2_words_that_lose_their_leading_space_are_named(corpus):
    # the old Check named only words cut at whitespace, which a student who cut with GPT-2's pattern never wrote
    setup = Setup("first", "gpt2", False)
    merges, result = check_u(corpus, "gpt2-unspaced", setup)
    assert result.step == first_difference(corpus, merges, setup), result.cause
    assert result.kind == "pre-tokenizer", result.cause
    assert "each word loses its leading space" in result.cause


@pytest.mark.parametrize("corpus", ["prose", "bytes"])
def test_lowercasing_with_a_second_cause_later_names_both(corpus):
    # the old Check named the lowercasing only, though on the lowercased text the run parts from ours later
    merges, result = check_u(corpus, "lower-hash", SENNRICH)
    assert (result.kind, result.step) == ("case", first_difference(corpus, merges, SENNRICH)), result.cause
    assert "Your run lowercases the text first" in result.cause and "On the lowercased text, at step" in result.cause
    assert result.later_step is not None and result.later_step > result.step
    if corpus == "bytes":  # the ties there follow no rule for more than a step
        assert "your ties follow no rule we know" in result.cause and "a hash map or a set" in result.cause
