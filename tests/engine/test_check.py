"""Tests for bpe.check and bpe.formats.student_runs: a student's run, made by an independent implementation
(tests/students.py) with one deliberate fault, is read from the file its code saves, and the comparison
names the fault and its step."""

from __future__ import annotations

import json
import pickle

import pytest
from students import (
    GPT2_PAT,
    course_loop,
    cs336_json,
    cs336_pickle,
    cs336_train,
    merges_txt,
    minbpe_model,
    minbpe_train,
    subword_nmt_codes,
    subword_nmt_train,
)
from tokenizers import Tokenizer, models

from bpe.check import Setup, best_settings, compare, raw_word_counts
from bpe.formats.student_runs import combine, read_student_file, read_student_text
from bpe.presets import CS336_TEXT

EOT = "<|endoftext|>"
HANDOUT = ["s t", "e st", "o w", "l ow", "w est", "n e", "ne west", "w i", "wi d", "wid est", "low e", "lowe r"]
CS336 = Setup("greatest-bytes", "whitespace", True)


def test_the_handout_list_pasted_agrees_with_the_cs336_settings():
    student = read_student_text(repr(HANDOUT))
    assert student.format == "pasted list" and len(student.merges) == 12
    result = compare(CS336_TEXT, student, CS336, [EOT])
    assert result.kind == "same" and result.step is None


def test_cs336_pickle_with_the_other_tie_rule_is_named_at_step_1():
    vocab, merges = cs336_train(CS336_TEXT, 12, pattern=None, fault="min")
    student = read_student_file(cs336_pickle(vocab, merges), "run.pkl")
    assert student.format == "CS336 pickle" and student.vocab_size == 257 + 12
    result = compare(CS336_TEXT, student, CS336, [EOT])
    assert (result.kind, result.step) == ("tie", 1)
    assert result.rule == "lexicographic"
    assert (result.ours, result.theirs) == ((b"s", b"t"), (b"e", b"s"))
    assert result.our_count == result.their_count == 9
    assert "a tie broken by the 'lexicographic' rule (the smallest pair wins)" in result.cause


def test_cs336_json_with_special_tokens_merged_is_named():
    text = f"the cat{EOT}{EOT}{EOT}the dog"
    vocab, merges = cs336_train(text, 6, fault="specials")
    student = read_student_text(cs336_json(vocab, merges), "run.json")
    assert student.format == "CS336 JSON"
    result = compare(text, student, Setup("greatest-bytes", "gpt2", True), [EOT])
    assert (result.kind, result.step) == ("specials", 1)
    assert (result.theirs, result.their_count) == ((b"d", b"o"), 1)  # "endoftext" x 3 + "dog" for the student
    assert "special token <|endoftext|>" in result.cause


def test_cs336_run_on_characters_is_named_a_missing_byte_base():
    text = "café café naïve café"
    vocab, merges = cs336_train(text, 4, special_tokens=(), fault="chars")
    student = read_student_file(pickle.dumps({"vocab": vocab, "merges": merges}))
    result = compare(text, student, Setup("greatest-bytes", "gpt2", True))
    assert result.kind == "byte-base" and result.step == 1
    assert "starts from characters" in result.cause


def test_course_loop_merges_txt_with_whitespace_kept_on_words():
    text = "low low low lower lower newest"
    # merges.txt cannot hold a token with a space in it: the student pastes their list of pairs
    student = read_student_text(repr(course_loop(text, 6, fault="whitespace")))
    assert student.format == "pasted list"
    result = compare(text, student, Setup("first", "whitespace", False))
    assert (result.kind, result.step) == ("whitespace", 3)
    assert result.theirs == (b"low", b" ")
    assert "holds whitespace" in result.cause


def test_the_settings_search_finds_the_pre_tokenizer_and_lists_the_words_that_differ():
    text = "low low low lower lower newest"
    student = read_student_text(repr(course_loop(text, 6, fault="whitespace")))
    ranked = best_settings(text, student)
    best, n = ranked[0]
    assert (best.pre_tokenizer, best.tie_break, n) == ("space-suffix", "first", 6)
    result = compare(text, student, Setup("first", "whitespace", False), alternative=best)
    assert result.words == (("low␣", 0, 3),)  # the student's words keep their space: "low " counts, "low" does not


def test_tokenizer_json_from_a_course_loop_counting_overlaps_once():
    text = "aaa aaa aaa ab ab ab ab"
    merges = course_loop(text, 3, fault="overlap")
    vocab = {c: i for i, c in enumerate(sorted(set(text) - {" "}))}
    for a, b in merges:
        vocab.setdefault(a + b, len(vocab))
    data = Tokenizer(models.BPE(vocab, merges)).to_str()
    student = read_student_text(data)
    assert student.format == "tokenizer.json"
    result = compare(text, student, Setup("first", "whitespace", False))
    assert (result.kind, result.step) == ("overlap", 1)
    assert (result.ours, result.theirs, result.our_count, result.their_count) == ((b"a", b"a"), (b"a", b"b"), 6, 4)
    assert result.words[0] == ("aaa", 6, 3)
    assert "overlapping" in result.cause


def test_minbpe_model_agrees_with_gpt4_bytes_and_names_whitespace_against_whitespace_splitting():
    text = "low low low lower"
    merges, _ = minbpe_train(text, 4)
    student = read_student_text(minbpe_model(merges))
    assert student.format == "minbpe .model" and student.byte_level
    assert compare(text, student, Setup("first", "gpt4", True)).kind == "same"
    result = compare(text, student, Setup("first", "whitespace", True))
    assert (result.kind, result.step, result.theirs) == ("whitespace", 3, (b" ", b"low"))


def test_subword_nmt_codes_compare_with_end_of_word_splits():
    counts = {"low": 5, "lower": 2, "newest": 6, "widest": 3}
    student = read_student_text(subword_nmt_codes(subword_nmt_train(counts, 10)))
    assert student.format == "subword-nmt codes" and student.end_of_word
    same = compare(counts, student, Setup("greatest", "whitespace", False))
    assert same.kind == "same"
    assert "glued to each word's last character" in same.cause, same.cause  # so a student knows how it was read
    assert "ours is a symbol of its own" not in same.cause  # our words cut at whitespace carry no '</w>'
    result = compare(counts, student, Setup("first", "whitespace", False))
    assert result.kind == "tie" and result.rule in ("greatest-bytes", "greatest")


def test_a_vocabulary_without_the_special_token_is_a_size_difference():
    vocab, merges = cs336_train(CS336_TEXT, 12, special_tokens=(), pattern=None)
    student = read_student_text(cs336_json(vocab, merges))
    result = compare(CS336_TEXT, student, CS336, [EOT])
    assert result.kind == "vocab-size"
    assert "268 tokens and ours 269" in result.cause and "leaves out the 1 special token" in result.cause


def test_vocab_json_beside_merges_txt_gives_the_vocabulary_size():
    runs = [read_student_text('{"<|endoftext|>": 0, "a": 1, "b": 2, "ab": 3}'), read_student_text("a b\n")]
    run = combine(runs)
    assert run.vocab_size == 4 and run.merges == ((b"a", b"b"),) and run.special_tokens == (EOT,)


def test_byte_level_merges_txt_is_read_as_bytes():
    run = read_student_text("#version: 0.2\nĠ t\nĠt he\n")
    assert run.byte_level and run.merges == ((b" ", b"t"), (b" t", b"he"))


@pytest.mark.parametrize(
    "text",
    ["hello", "{}", "minbpe v1\n\\w+\nx\n", '{"merges": "x"}', "a b c\n", "[1, 2]"],
)
def test_anything_else_gets_a_sentence_naming_what_was_expected(text):
    with pytest.raises(ValueError) as err:
        read_student_text(text, "upload.txt")
    assert "merge" in str(err.value) and "Traceback" not in str(err.value)


def test_a_pickle_naming_a_function_is_refused_and_nothing_runs(tmp_path):
    marker = tmp_path / "ran"

    class Evil:
        def __reduce__(self):
            import os

            return (os.system, (f"touch {marker}",))

    data = pickle.dumps({"vocab": {}, "merges": [Evil()]})
    with pytest.raises(ValueError, match="refuses any pickle that names a class or a function"):
        read_student_file(data, "run.pkl")
    assert not marker.exists()
    pickle.loads(data)  # the same bytes, loaded by plain pickle, would have run the command
    assert marker.exists()


def test_a_pickle_of_a_set_is_refused_by_type():
    with pytest.raises(ValueError, match="holds a set"):
        read_student_file(pickle.dumps({"merges": [], "vocab": {1: {b"a"}}}))


def test_special_tokens_are_split_out_of_our_corpus():
    assert raw_word_counts(f"ab{EOT}ab", "gpt2", [EOT]) == {"ab": 2}
    assert "<|" in raw_word_counts(f"ab{EOT}ab", "gpt2")


def test_the_settings_search_recovers_cs336_on_gpt2_text():
    text = "the cat sat on the mat, the cat ate the rat"
    vocab, merges = cs336_train(text, 10, pattern=GPT2_PAT)
    student = read_student_text(cs336_json(vocab, merges))
    best, n = best_settings(text, student, [EOT])[0]
    assert n == 10 and best.byte_base and best.tie_break == "greatest-bytes"


def test_a_lowercased_corpus_is_named_case():
    text = "The cat. the hat. The mat. ox ox ox"
    student = read_student_text(repr(course_loop(text, 3, fault="lower")))
    result = compare(text, student, Setup("first", "whitespace", False))
    assert result.kind == "case" and result.step == 1
    assert (result.ours, result.theirs, result.our_count, result.their_count) == ((b"h", b"e"), (b"t", b"h"), 3, 1)
    assert "lowercases the text" in result.cause


def test_a_pickle_of_shared_or_self_referencing_lists_is_read_quickly():
    shared = [b"a", b"b"]
    for _ in range(60):  # 2**60 paths through shared references if walked naively
        shared = [shared, shared]
    looped: list = []
    looped.append(looped)
    assert read_student_file(pickle.dumps({"merges": [], "vocab": {0: b"x"}, "x": shared})).merges == ()
    with pytest.raises(ValueError, match="should be a pair of byte strings"):
        read_student_file(pickle.dumps(looped))


def test_merges_txt_with_overlaps_counted_once_and_vocab_json_with_a_special_token():
    text = "aaa aaa aaa ab ab ab ab"
    merges = course_loop(text, 2, fault="overlap")
    vocab = {"<|endoftext|>": 0, "a": 1, "b": 2, "aa": 3, "ab": 4}
    student = combine([read_student_text(merges_txt(merges)), read_student_text(json.dumps(vocab))])
    assert student.format == "merges.txt + vocabulary" and student.vocab_size == 5
    result = compare(text, student, Setup("first", "whitespace", False))
    assert (result.kind, result.step) == ("overlap", 1)
    agreeing = read_student_text(merges_txt(course_loop(text, 2)))
    same = compare(text, combine([agreeing, read_student_text(json.dumps(vocab))]), Setup("first", "whitespace", False))
    assert same.kind == "vocab-size" and "counts special tokens that ours does not" in same.cause


def test_a_whole_document_named_as_a_word_is_shown_by_its_start_and_length():
    # with no pre-tokenization a "word" is a whole document: a verdict quoting it must stay a sentence
    from bpe.check_notation import WORD_CHARS, show_word

    document = "The tokenizer reads the text as bytes.\n" * 250
    shown = show_word(document)
    assert len(shown) < WORD_CHARS + 30
    assert shown.startswith("'The␣tokenizer␣reads") and shown.endswith("…' (9,750 characters)")
    assert show_word(" the") == "'␣the'"


def test_the_table_of_words_that_count_differently_cuts_a_whole_document():
    from bpe.check_notation import WORD_CHARS
    from bpe.check_result import words_that_differ

    document = "x y " * 1000
    rows = words_that_differ({document: 5, "␣the": 2}, {document: 3, "␣the": 2})
    assert rows == ((document[:WORD_CHARS] + "… (4,000 characters)", 5, 3),)
