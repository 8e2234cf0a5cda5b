"""Sets BO's, BP's, BQ's, BS's and BU's classes (tests/bo_trainers.py), pasted as the Check page reads them: words marked
with ``'</w>'`` before their first character, or with ``'-'`` after their last; spaces written ``'Ġ'``; words stripped of
ASCII punctuation; a text kept to a-z and a few marks under marks of the student's own."""

from __future__ import annotations

import pytest
from bo_trainers import (
    bo_eow_first,
    bp_dash_end,
    bq_strip_ascii,
    bs_g_words,
    bu_kept_marks,
    bw_marks_alone,
    bz_az_bounded,
    cb_spaces_led,
    cc_marks_underscored,
)
from check_support import check_pasted
from faulty_trainers import CORPORA
from line_trainers import train_sequences
from snippet_trainers import pasted

from bpe.check import Setup, diagnose
from bpe.formats.student_runs import read_student_text
from server.jobs import corpus_of


@pytest.mark.parametrize("corpus", list(CORPORA))
def test_our_end_symbol_put_before_each_word_is_told_as_a_start_mark(corpus):
    # the old Check told a loop fault, words run together or another pre-tokenizer: '</w>' was never a start mark
    _, result = check_pasted(corpus, bo_eow_first, Setup("first", "sennrich", False))
    assert result.kind == "word-marks", result.cause
    assert "start with the symbol '</w>'" in result.cause and "not before its first" in result.cause, result.cause
    assert "your run equals ours" in result.cause, result.cause


@pytest.mark.parametrize("corpus", list(CORPORA))
def test_a_dash_ending_each_word_is_told_as_an_end_mark(corpus):
    # the old Check told a pair our corpus never has, or merges not from this corpus
    _, result = check_pasted(corpus, bp_dash_end, Setup("first", "sennrich", False))
    assert result.kind == "word-marks", result.cause
    assert "end in the symbol '-'" in result.cause, result.cause


def test_a_space_written_as_gpt2s_g_is_read_as_a_space_where_the_first_merge_stands_in_the_text():
    # the old Check read 'Ġ' as itself, since the run's first merge, ('Ā', 'Ā'), stands in the text as written, and
    # told a pair our corpus never has at step 4
    student, result = check_pasted("bytes", bs_g_words, Setup("first", "gpt2", False))
    assert student.merges[0] == ("\u0100".encode(), "\u0100".encode())
    assert (result.kind, result.step) == ("cleaning", 58), result.cause
    assert "re.findall(r' ?\\S+', text)" in result.cause, result.cause


def test_words_stripped_of_ascii_punctuation_alone_are_told_so():
    # the old Check knew only a strip of every non-word character that drops the words left without a letter; a
    # student's word.strip(string.punctuation) keeps '—' and '«the»' (set BQ's heisen4rg)
    text = "the, the. the; «the» dog, don't, don't won't — cat. " * 4  # "don't" kept, '«' kept, '.' and ',' stripped
    student = read_student_text(pasted(bq_strip_ascii(text, 12)), "The pasted text")
    result, _ = diagnose(
        corpus_of("text", "", text, ""), student, Setup("first", "whitespace", False), (), num_merges=12
    )
    assert result.kind == "cleaning", result.cause
    assert "Your run strips ASCII punctuation from each word's ends (word.strip(string.punctuation))" in result.cause


def test_a_text_kept_to_a_z_and_some_marks_under_marks_of_the_students_own_is_told_with_the_marks():
    # the old Check told the marks, then merges not from this corpus: (r, _) stands nowhere until 'résumé' loses its
    # 'é' (set BU's sangHa0411)
    _, result = check_pasted("bytes", bu_kept_marks, Setup("first", "sennrich", False))
    assert result.kind == "word-marks", result.cause
    assert "keeps only the letters a-z and the marks '!', ',', '.'" in result.cause, result.cause
    assert "your run equals ours" in result.cause, result.cause


@pytest.mark.parametrize("merges", [8, 20])
def test_our_end_symbol_in_words_run_together_is_no_start_mark(merges):
    # a first try at '</w>' as a start mark took the words of one stream, each ending in '</w>', for words started by
    # it where few merges were asked for (no merged token ending in '</w>' yet)
    text = CORPORA["prose"]
    student = read_student_text(
        pasted(train_sequences([[s for w in text.split() for s in (*w, "</w>")]], merges)), "The pasted text"
    )
    result, _ = diagnose(
        corpus_of("text", "", text, ""), student, Setup("first", "sennrich", False), (), num_merges=merges
    )
    assert "start with the symbol '</w>'" not in result.cause, result.cause
    assert "joined into one sequence" in result.cause and f"all {merges} merges agree" in result.cause, result.cause


def test_a_filter_named_says_the_cut_that_makes_the_same_merges():
    # the old Check named the ASCII letters kept and nothing else, where each mark cut off as a word makes the same
    # merges (set BW's 281221karan, whose pattern makes each mark a word of its own)
    text = CORPORA["prose"]  # its first 44 merges: no digit merged yet, which the two would count apart
    student = read_student_text(pasted(bw_marks_alone(text, 44)), "The pasted text")
    result, _ = diagnose(
        corpus_of("text", "", text, ""), student, Setup("first", "whitespace", False), (), num_merges=44
    )
    assert result.kind in ("letters", "cleaning"), result.cause
    assert "cuts punctuation off its words as words of their own" in result.cause, result.cause


@pytest.mark.parametrize("corpus", ["prose", "bytes"])
def test_whole_words_of_a_z_alone_are_told_as_a_cleaning(corpus):
    # the old Check told counts that differ before any merge, or merges not from this corpus: 'café' and 'x2' are
    # dropped whole where keeping a-z makes 'caf' (set BZ's drmkn)
    student, result = check_pasted(corpus, bz_az_bounded, Setup("first", "sennrich", False))
    assert result.kind == "cleaning", result.cause
    assert "re.findall(r'\\b[a-z]+\\b', text)" in result.cause, result.cause


@pytest.mark.parametrize("corpus", ["handout", "bytes"])
def test_a_space_before_every_word_the_first_too_is_told_as_a_cleaning(corpus):
    # the old Check told a lost pair (handout) or a count off before any merge (bytes): GPT-2's words have no space
    # before the text's first word, the student's all have one (set CB's harikishants)
    student, result = check_pasted(corpus, cb_spaces_led, Setup("first", "gpt2", False))
    assert result.kind == "cleaning", result.cause
    assert "puts a space before every word, the text's first too" in result.cause, result.cause


@pytest.mark.parametrize("corpus", ["prose", "bytes"])
def test_marks_written_as_underscores_are_told_as_a_cleaning(corpus):
    # the old Check told a pair no word holds, put down to the merge loop (set CC's shiv-rna)
    student, result = check_pasted(corpus, cc_marks_underscored, Setup("first", "sennrich", False))
    assert (result.kind, result.step) == ("cleaning", 1), result.cause
    assert "re.sub(r'[^\\w\\s-]', '_', text)" in result.cause, result.cause
