"""Faults of set V's classes (tests/v_trainers.py), pasted as the Check page reads them: each is named at the step
where it acts, and the trainer without a fault is "same"."""

from __future__ import annotations

import pytest
from check_support import SNIPPET_MERGES
from faulty_trainers import CORPORA
from snippet_trainers import pasted
from v_trainers import WHOLE, v_train

from bpe.check import Setup, diagnose
from bpe.check_setup import history_bytes, train_setup
from bpe.formats.student_runs import read_student_text
from server.jobs import corpus_of

SENNRICH = Setup("first", "sennrich", False)
NONE = Setup("first", "none", False)
WORDS = Setup("first", "whitespace", False)


def setup_of(fault: str | None) -> Setup:
    return NONE if fault in WHOLE else WORDS if fault == "space-led" else SENNRICH


def check_v(corpus: str, fault: str | None):
    text, n = CORPORA[corpus], SNIPPET_MERGES[corpus]
    merges = v_train(text, n, fault)
    student = read_student_text(pasted(merges), "The pasted text")
    result, _ = diagnose(corpus_of("text", "", text, ""), student, setup_of(fault), (), num_merges=n)
    return merges, result


def first_difference(corpus: str, merges, fault: str | None) -> int | None:
    text = CORPORA[corpus]
    ours = history_bytes(train_setup(corpus_of("text", "", text, ""), setup_of(fault), len(merges) + 1))
    theirs = [(a.encode(), b.encode()) for a, b in merges]
    return next((k for k, (a, b) in enumerate(zip(ours, theirs), start=1) if a != b), None)


@pytest.mark.parametrize(("corpus", "plain"), [(c, p) for c in CORPORA for p in (None, "whole-text")])
def test_the_trainer_without_a_fault_is_same(corpus, plain):
    _, result = check_v(corpus, plain)
    assert result.kind == "same", result.cause


@pytest.mark.parametrize("corpus", ["handout", "prose"])  # the bytes text ends in a space no merge within 60 takes
def test_a_merge_that_never_keeps_the_last_symbol_is_named(corpus):
    # the old Check told a count that is off, or chunks cut at evenly spaced bytes
    merges, result = check_v(corpus, "tail-lost")
    assert (result.kind, result.fault) == ("merge-loop", "tail-lost"), result.cause
    assert result.step == first_difference(corpus, merges, "tail-lost")
    assert "loses its last symbol at every merge that does not take it" in result.cause


def test_a_last_character_never_read_on_a_whole_text_is_named_so():
    # the old Check named the last character cut off as a word of its own, which on a text kept whole (a sequence of
    # one symbol holds no pair) counts alike. The bytes text is one line ending in a space, so line.strip() reads it
    # the same: every held-out student both readers fit had a strip (sets AM, AO, BO, CB), which is named first, with
    # the last character never read said beside it
    merges, result = check_v("bytes", "last-unread")  # the other texts end in a character no merge within ours takes
    assert (result.kind, result.fault) == ("reading", "lines-stripped"), result.cause
    assert result.step == first_difference("bytes", merges, "last-unread") == 1
    assert "range(len(text) - 1), reads the same here: its last character is never counted" in result.cause


@pytest.mark.parametrize("corpus", CORPORA)
def test_pairs_ending_in_the_end_symbol_never_counted_are_told(corpus):
    # the old Check told only that the run equals ours cut at whitespace, with no word of '</w>'
    merges, result = check_v(corpus, "end-uncounted")
    assert (result.kind, result.step) == ("pre-tokenizer", first_difference(corpus, merges, "end-uncounted"))
    assert "your loop never counts a pair that holds '</w>'" in result.cause


@pytest.mark.parametrize("corpus", CORPORA)
def test_words_that_keep_the_space_before_them_are_told_so(corpus):
    # the old Check told a space symbol of the words' own, or GPT-2's cut, never that a word keeps its space
    merges, result = check_v(corpus, "space-led")
    assert result.step == first_difference(corpus, merges, "space-led"), result.cause
    assert "keeps the space before it" in result.cause


def test_ties_by_greatest_ids_are_named_where_a_loop_fault_also_fits():
    # the old Check named only a loop fault (left-symbol) that makes the whole run too; at a tie a rule that makes it
    # on true counts cannot be told apart from it, so both are said
    setup = Setup("greatest-bytes", "none", True)
    text, n = CORPORA["handout"], SNIPPET_MERGES["handout"]
    merges = v_train(text, n, "greatest-id")
    student = read_student_text(pasted(merges), "The pasted text")
    result, _ = diagnose(corpus_of("text", "", text, ""), student, setup, (), num_merges=n)
    ours = history_bytes(train_setup(corpus_of("text", "", text, ""), setup, n + 1))
    step = next(k for k, (a, b) in enumerate(zip(ours, merges), start=1) if a != (b[0].encode(), b[1].encode()))
    assert result.step == step, result.cause
    assert "ties broken by the 'greatest-id' rule" in result.cause or result.rule == "greatest-id", result.cause


def test_ties_in_a_hash_order_a_rule_follows_for_a_while_are_said_so():
    # the old Check named the rule that matched the first steps by chance, with no word of where it stops
    merges, result = check_v("handout", "hash-ties")
    assert (result.kind, result.step) == ("tie", first_difference("handout", merges, "hash-ties")), result.cause
    assert "your ties follow no rule we know" in result.cause and "a hash map or a set" in result.cause
    assert "rule makes your choices through step" in result.cause, result.cause  # the rule that matched, and where
