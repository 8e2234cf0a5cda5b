"""Runs of Sennrich et al.'s snippet ('</w>' a symbol of its own), pasted as the Check page reads them (bpe.check):
the snippet's own run is "same", and its students' faults are named at the step where they act."""

from __future__ import annotations

import pytest
from check_support import SNIPPET_MERGES, check_snippet
from faulty_trainers import CORPORA
from snippet_trainers import snippet_train

from bpe.check import Setup, diagnose
from bpe.check_setup import history_bytes, train_setup
from bpe.formats.student_runs import read_student_text
from server.jobs import corpus_of


def _first_difference(text, merges, n) -> int:
    ours = history_bytes(train_setup(corpus_of("text", "", text, ""), Setup("first", "sennrich", False), n))
    theirs = [(a.encode(), b.encode()) for a, b in merges]
    step = next((k for k, (a, b) in enumerate(zip(ours, theirs), start=1) if a != b), None)
    return step if step is not None or len(ours) == len(theirs) else min(len(ours), len(theirs)) + 1


@pytest.mark.parametrize("corpus", CORPORA)
def test_the_snippets_own_run_is_same(corpus):
    # the old Check read '</w>' as subword-nmt's (glued to the last character) and told the snippet's correct run
    # that it does not cut the text into words
    text, n = CORPORA[corpus], SNIPPET_MERGES[corpus]
    merges, result = check_snippet(text, None, n)
    assert any("</w>" in pair for pair in merges)
    assert result.kind == "same", result.cause


def test_a_run_with_end_of_word_alone_is_not_read_as_subword_nmt_codes():
    run = read_student_text("e s\nes t\nest </w>\nl o")
    assert run.format == "merges.txt" and not run.end_of_word
    assert read_student_text("e s\nes t</w>\nl o").end_of_word


def test_what_is_certain_counts_pairs_holding_end_of_word():
    # a pair with '</w>' counted in our words, not 0: the words hold '</w>' as a symbol of their own
    text = CORPORA["handout"]
    merges = snippet_train(text, 10)
    altered = "\n".join(f"{a} {b}" for a, b in [merges[0], ("t", "</w>")])
    corpus = corpus_of("text", "", text, "")
    result, _ = diagnose(corpus, read_student_text(altered), Setup("first", "sennrich", False), (), num_merges=2)
    assert result.step == 2 and result.their_count > 0, result.cause


@pytest.mark.parametrize("corpus", CORPORA)
def test_a_merge_by_str_replace_is_named_where_it_first_joins_other_symbols(corpus):
    # the old Check told it as a tie no rule follows (prose) or a pair our corpus never has (bytes)
    text, n = CORPORA[corpus], SNIPPET_MERGES[corpus]
    merges, result = check_snippet(text, "replace", n)
    step = _first_difference(text, merges, n)
    if step is None:  # the handout has no symbol the pair's text lies across
        assert result.kind == "same", result.cause
        return
    assert (result.kind, result.fault, result.step) == ("merge-loop", "replace", step), result.cause
    assert "str.replace" in result.cause
