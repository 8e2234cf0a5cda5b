"""Runs of Sennrich et al.'s snippet ('</w>' a symbol of its own), pasted as the Check page reads them (bpe.check):
the snippet's own run is "same", and its students' faults are named at the step where they act."""

from __future__ import annotations

import pytest
from check_support import SNIPPET_MERGES, check_snippet
from faulty_trainers import CORPORA
from line_trainers import line_train
from snippet_trainers import pasted, snippet_train

from bpe.check import Setup, diagnose
from bpe.check_notation import show_pair
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
    # the merge named is the one that joined two symbols across their boundary: on the bytes, (d, é) made the token
    # 'nïcödé' from 'nïcöd' and 'é' at its step; the old Check named the merge before the step, whose left symbol
    # is in the pair (sets BO and BR)
    culprit = {"prose": "(e, r)", "bytes": "(d, é)"}[corpus]
    assert f"your merge for {culprit} also joins two symbols" in result.cause, result.cause


@pytest.mark.parametrize("corpus", CORPORA)
@pytest.mark.parametrize("fault", ["end-underscore", "end-dollar", "space-start"])
def test_words_marked_otherwise_are_told_where_a_mark_is_first_merged(corpus, fault):
    # the old Check said the merges are not from this corpus, or that a different byte base or pre-tokenizer
    # cuts the words
    text, n = CORPORA[corpus], SNIPPET_MERGES[corpus]
    merges, result = check_snippet(text, fault, n)
    step = _first_difference(text, merges, n)
    assert (result.kind, result.step) == ("word-marks", step), result.cause
    mark = "$" if fault == "end-dollar" else "_"
    assert f"end in the symbol '{mark}' where ours end in '</w>'" in result.cause
    assert ("start with a space symbol" in result.cause) == (fault == "space-start")
    assert f"your run equals ours: all {len(merges)} merges agree" in result.cause


def test_a_correct_run_of_words_holding_underscores_is_not_read_as_marked():
    text = "num_ num_ size_ size_ size_ low low lower _ _ a$ a$ a$ a$"
    setup = Setup("first", "whitespace", False)
    corpus = corpus_of("text", "", text, "")
    merges = history_bytes(train_setup(corpus, setup, 8))
    assert any(a.endswith(b"_") or b == b"_" for a, b in merges) and any(b"$" in a + b for a, b in merges)
    pasted = "\n".join(f"{a.decode()} {b.decode()}" for a, b in merges)
    result, _ = diagnose(corpus, read_student_text(pasted), setup, (), num_merges=8)
    assert result.kind == "same", result.cause


@pytest.mark.parametrize("corpus", CORPORA)
def test_a_run_of_one_merge_leads_with_the_merge_that_never_changes_a_word(corpus):
    # the old Check said only that the run stops short; then it led with that symptom and named the merge only as
    # what such a run "is"
    text, n = CORPORA[corpus], SNIPPET_MERGES[corpus]
    merges, result = check_snippet(text, "noop", n)
    assert len(merges) == 1
    assert (result.kind, result.step) == ("stops-early", 2), result.cause
    first = show_pair(tuple(t.encode() for t in merges[0]))
    assert result.cause.startswith(
        f"Your run makes one merge, {first}, and no more because your merge never changes a word"
    ), result.cause
    assert f"it ends after step 1 where a target of {n} merges asks for {n} merges" in result.cause


@pytest.mark.parametrize("corpus", CORPORA)
def test_a_text_kept_to_the_letters_a_z_is_named(corpus):
    # the old Check told it as a count that is off
    text, n = CORPORA[corpus], SNIPPET_MERGES[corpus]
    merges, result = check_snippet(text, "letters", n)
    step = _first_difference(text, merges, n)
    if step is None:  # the handout is lowercase letters only
        assert result.kind == "same", result.cause
        return
    assert (result.kind, result.step) == ("letters", step), result.cause
    assert "keeps only the letters a-z of the lowercased text" in result.cause


@pytest.mark.parametrize("corpus", CORPORA)
def test_counts_of_one_per_word_under_another_end_symbol_are_named_on_the_marked_words(corpus):
    # the old Check said the merges are not from this corpus, or that a count is off
    text, n = CORPORA[corpus], SNIPPET_MERGES[corpus]
    merges, result = check_snippet(text, "each-word-once+end-dollar", n)
    step = _first_difference(text, merges, n)
    assert result.step == step, result.cause
    if "$" in "".join(merges[step - 1]):  # the mark is merged first: said first, the counts after it
        assert result.kind == "word-marks" and result.later_kind == "reading", result.cause
    else:
        assert (result.kind, result.fault) == ("reading", "each-word-once"), result.cause
        assert "end in the symbol '$'" in result.cause
    assert "your pair counts add 1 for each distinct word" in result.cause


@pytest.mark.parametrize("corpus", ["prose", "bytes"])
def test_a_text_kept_to_a_z_and_a_courses_letters_names_the_letters_kept(corpus):
    # the old Check told it as a count that is off
    text, n = CORPORA[corpus], SNIPPET_MERGES[corpus]
    merges, result = check_snippet(text, "letters-umlaut", n)
    step = _first_difference(text, merges, n)
    assert (result.kind, result.step) == ("letters", step), result.cause
    if corpus == "bytes":  # its words hold ö and ü
        assert "keeps only the letters a-z and ö, ü of the lowercased text" in result.cause


def _check_lines(text, fault, n):
    merges = line_train(text, n, fault)
    corpus = corpus_of("text", "", text, "")
    result, _ = diagnose(
        corpus, read_student_text(pasted(merges)), Setup("first", "whitespace", False), (), num_merges=n
    )
    return merges, result


@pytest.mark.parametrize("corpus", CORPORA)
def test_a_course_trainer_over_lists_of_characters_is_same(corpus):
    text, n = CORPORA[corpus], SNIPPET_MERGES[corpus]
    merges, result = _check_lines(text, None, n)
    assert len(merges) == n and result.kind == "same", result.cause


@pytest.mark.parametrize("corpus", CORPORA)
def test_the_words_of_a_line_run_together_are_named_where_a_pair_across_words_is_first_merged(corpus):
    # ANNI90123 (set Q): the old Check said a pair no word holds, put side by side by the merge loop
    text, n = CORPORA[corpus], SNIPPET_MERGES[corpus]
    merges, result = _check_lines(text, "flattened", n)
    ours = line_train(text, n)
    step = next(k for k, (a, b) in enumerate(zip(ours, merges), start=1) if a != b)
    assert (result.kind, result.step, result.fault) == ("reading", step, "lines-flattened"), result.cause
    assert "the words of a line are run together into one word" in result.cause
    assert "becomes the one word" in result.cause
