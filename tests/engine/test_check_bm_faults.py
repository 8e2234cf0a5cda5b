"""Set BM's classes (tests/bm_trainers.py), pasted as the Check page reads them: a tag written into the text, and a
loop whose ties follow a dict kept beside an index of the words holding each pair."""

from __future__ import annotations

import pickle

import pytest
from bm_trainers import SPECIAL, bm_indexed, bm_tag_text, bw_in_place
from check_support import SNIPPET_MERGES, check_pasted
from faulty_trainers import CORPORA, train

from bpe.check import CS336_SETUP, Setup, diagnose
from bpe.formats.student_runs import read_student_file, read_student_text
from server.jobs import corpus_of


@pytest.mark.parametrize("corpus", list(CORPORA))
@pytest.mark.parametrize("family", [Setup("first", "sennrich", False), Setup("first", "none", True)])
def test_a_tag_written_after_each_word_in_one_text_is_told_so(corpus, family):
    # the old Check told merges not from this corpus: '<' and '/' stand side by side nowhere in the text
    text, n = CORPORA[corpus], SNIPPET_MERGES[corpus]
    student = read_student_text(repr(bm_tag_text(text, n)), "The pasted text")
    result, _ = diagnose(corpus_of("text", "", text, ""), student, family, (), num_merges=n)
    assert (result.kind, result.step) == ("word-marks", 1), result.cause
    assert "the four characters '</w>' written after them" in result.cause, result.cause
    assert "joined by spaces into one text" in result.cause, result.cause
    assert f"all {n} merges agree" in result.cause, result.cause


@pytest.mark.parametrize("corpus", list(CORPORA))
def test_a_tag_written_after_each_word_kept_apart_is_told_without_the_join(corpus):
    text, n = CORPORA[corpus], SNIPPET_MERGES[corpus]
    student = read_student_text(repr(bm_tag_text(text, n, joined=False)), "The pasted text")
    result, _ = diagnose(corpus_of("text", "", text, ""), student, Setup("first", "sennrich", False), (), num_merges=n)
    assert result.kind == "word-marks", result.cause
    assert "the four characters '</w>' written after them" in result.cause, result.cause
    assert "joined by spaces" not in result.cause and "your run equals ours" in result.cause, result.cause


def _indexed(text: str, patterned: bool):
    n = SNIPPET_MERGES["prose"]
    student = read_student_text(repr(bm_indexed(text, n, patterned)), "The pasted text")
    result, _ = diagnose(corpus_of("text", "", text, ""), student, Setup("first", "gpt4", True), (), num_merges=n)
    return n, result


def test_a_special_token_written_into_the_pattern_is_told_where_the_pattern_cuts_it():
    # the old Check told chunks cut at evenly spaced bytes: the special token after '.' is cut by the punctuation
    # alternative, the one after a line break dropped, and the ties follow the indexed dict's order
    text = CORPORA["prose"]
    assert f".{SPECIAL}" in text and f"\n{SPECIAL}" in text
    n, result = _indexed(text, patterned=True)
    assert (result.kind, result.rule, result.step) == ("split-specials", "indexed-dict", 5), result.cause
    assert "cut into '.<|', 'endoftext', '|>'" in result.cause, result.cause
    assert f"makes all {n} of your merges" in result.cause, result.cause


def test_a_special_token_split_out_under_the_indexed_dicts_ties_is_told_so():
    n, result = _indexed(CORPORA["prose"], patterned=False)
    assert (result.kind, result.rule) == ("split-specials", "indexed-dict"), result.cause
    assert "You split the special token <|endoftext|> out" in result.cause, result.cause
    assert f"makes all {n} of your merges" in result.cause, result.cause


def test_ties_in_the_indexed_dicts_order_are_told_where_no_rule_makes_the_run():
    n, result = _indexed(CORPORA["prose"].replace(SPECIAL, "\n"), patterned=False)
    assert (result.kind, result.rule) == ("tie", "indexed-dict"), result.cause
    assert "broken by your dict's order" in result.cause and f"makes all {n} of your merges" in result.cause


def test_ties_in_a_dict_updated_in_place_over_the_words_are_told_where_a_loop_fault_only_passes_them_on():
    # the old Check named a loop fault that counts both pairs at the step as we do (set BW's 07Codex07)
    student, result = check_pasted("handout", bw_in_place, Setup("first", "sennrich", False))
    assert (result.kind, result.rule, result.step) == ("tie", "indexed-dict", 2), result.cause
    assert f"makes all {len(student.merges)} of your merges" in result.cause, result.cause


def test_a_special_token_the_pattern_cuts_after_an_intact_one_is_still_told():
    # a first try looked only at the text's first special token, whole after a line break here, and told another cause
    n, result = _indexed(f"Intro line\n{SPECIAL}" + CORPORA["prose"], patterned=True)
    assert (result.kind, result.rule) == ("split-specials", "indexed-dict"), result.cause
    assert "cut into '.<|', 'endoftext', '|>'" in result.cause, result.cause


def test_a_special_token_in_the_pattern_checked_without_special_tokens_is_told_with_our_tie_rule():
    # the Check told two faults at once (a tie key and a lost scan) where the settings compared keep the special token
    # in the text; the words the pattern cuts make the whole run with our tie rule, with no dict's order to name
    text = CORPORA["prose"]
    vocab, merges = train(text, 150, "special-in-pattern")
    student = read_student_file(pickle.dumps((vocab, merges)), "run.pkl")
    result, _ = diagnose(text, student, CS336_SETUP, [])
    assert (result.kind, result.rule) == ("split-specials", None), result.cause
    assert "writing it first in one alternation with GPT-2's pattern" in result.cause, result.cause
    assert "our run makes all 150 of your merges" in result.cause and "dict" not in result.cause, result.cause
