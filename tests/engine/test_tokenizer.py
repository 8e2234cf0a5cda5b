"""Tests for bpe.tokenizer: the course's tokenization examples, ids, offsets, traces and round trips."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_support import examples

import bpe

HUG = "hug 10\npug 5\npun 12\nbun 4\nhugs 5"


@pytest.fixture(scope="module")
def hug_tok():
    return bpe.train(bpe.parse_word_counts(HUG), num_merges=3)


@pytest.fixture(scope="module")
def byte_tok():
    from bpe.corpora import corpus_lines

    return bpe.train(
        corpus_lines(60_000),
        pre_tokenizer="gpt2",
        vocab_size=256 + 300,
        full_byte_alphabet=True,
        special_tokens=["<|endoftext|>"],
    )


def test_course_examples_bug_mug_thug(hug_tok):
    """Course 6.5: bug -> b ug, mug -> [UNK] ug, thug -> [UNK] hug."""
    assert hug_tok.tokenize("bug") == ["b", "ug"]
    assert hug_tok.tokenize("mug") == ["[UNK]", "ug"]
    assert hug_tok.tokenize("thug") == ["[UNK]", "hug"]
    assert hug_tok.tokenize("unhug") == ["un", "hug"]


def test_ids_follow_the_vocabulary_and_unk_gets_the_last_id(hug_tok):
    assert hug_tok.encode("hug") == [hug_tok.vocab["hug"]] == [9]
    assert hug_tok.vocab["[UNK]"] == 10
    assert hug_tok.encode("mug") == [10, 7]


def test_trace_shows_each_merge_in_order(hug_tok):
    """The course: in thug, u+g merge first, then h+ug."""
    (trace,) = hug_tok.trace("thug")
    assert trace.initial == ("[UNK]", "h", "u", "g")
    assert [(s.rank, s.pair, s.split) for s in trace.steps] == [
        (0, ("u", "g"), ("[UNK]", "h", "ug")),
        (2, ("h", "ug"), ("[UNK]", "hug")),
    ]
    assert trace.tokens == ("[UNK]", "hug")


def test_merge_tree_breaks_a_token_into_its_pairs(hug_tok):
    assert hug_tok.merge_tree("hug") == ("h", ("u", "g"))
    assert hug_tok.merge_tree("b") == "b"
    assert hug_tok.token_rank("hug") == 2 and hug_tok.token_rank("b") is None


def test_with_merges_applies_only_the_first_k(hug_tok):
    assert hug_tok.with_merges(0).tokenize("hugs") == ["h", "u", "g", "s"]
    assert hug_tok.with_merges(1).tokenize("hugs") == ["h", "ug", "s"]
    assert hug_tok.with_merges(3).tokenize("hugs") == ["hug", "s"]
    with pytest.raises(ValueError, match="between 0 and 3"):
        hug_tok.with_merges(4)


def test_merges_apply_by_rank_not_by_position():
    # Rank 0 is (b, c): in "abc" it must win even though (a, b) comes first in the word.
    tok = bpe.Tokenizer(["a", "b", "c", "bc", "ab"], [("b", "c"), ("a", "b")])
    assert tok.tokenize("abc") == ["a", "bc"]


def test_offsets_point_into_the_original_text(byte_tok):
    text = "Héllo wörld 🙂 你好\n  tokens"
    enc = byte_tok.encode_full(text)
    for _token, (start, end) in zip(enc.tokens, enc.offsets):
        assert 0 <= start < end <= len(text)
    # Tokens tile the text: each starts where the previous ended (no byte is lost or repeated).
    assert all(prev[1] <= cur[0] + 1 for prev, cur in zip(enc.offsets, enc.offsets[1:]))
    assert byte_tok.decode(list(enc.ids)) == text
    assert enc.offsets[0][0] == 0 and enc.offsets[-1][1] == len(text)


def test_char_level_offsets(hug_tok):
    enc = hug_tok.encode_full("bug  thug")
    assert list(zip(enc.tokens, enc.offsets)) == [("b", (0, 1)), ("ug", (1, 3)), ("[UNK]", (5, 6)), ("hug", (6, 9))]


def test_special_tokens_are_matched_whole(byte_tok):
    tokens = byte_tok.tokenize("hi<|endoftext|>there")
    assert "<|endoftext|>" in tokens
    assert byte_tok.encode("<|endoftext|>") == [0]


@given(st.text(max_size=60))
@settings(max_examples=examples(200), deadline=None)
def test_byte_level_decode_inverts_encode(byte_tok, text):
    assert byte_tok.decode(byte_tok.encode(text)) == text


def test_byte_level_never_needs_unk():
    # Trained on 30 characters only, the byte-level tokenizer still has ids for all 256 bytes.
    tok = bpe.train(["This is it."], pre_tokenizer="gpt2", num_merges=3)
    text = "Ωmega 🙂 mug"
    assert "[UNK]" not in tok.tokenize(text) and tok.decode(tok.encode(text)) == text


def test_decode_rejects_unknown_ids(hug_tok):
    with pytest.raises(ValueError, match="not a token id"):
        hug_tok.decode([999])


def test_wordpiece_longest_match_and_whole_word_unk():
    """Course 6.6: hugs -> hug ##s with the course's vocabulary; mug and bum -> [UNK]."""
    tok = bpe.Tokenizer(["b", "h", "p", "##g", "##n", "##s", "##u", "##gs", "hu", "hug"], [], algorithm="wordpiece")
    assert tok.tokenize("hugs") == ["hug", "##s"]
    assert tok.tokenize("bugs") == ["b", "##u", "##gs"]
    assert tok.tokenize("mug") == ["[UNK]"] and tok.tokenize("bum") == ["[UNK]"]
    assert tok.decode(tok.encode("hugs bugs")) == "hugs bugs"


def test_trained_wordpiece_encodes_mug_as_unk():
    tok = bpe.train(bpe.parse_word_counts(HUG), algorithm="wordpiece", num_merges=2)
    assert tok.tokenize("mug") == ["[UNK]"]
    assert tok.tokenize("hug") == ["hu", "##g"]


def test_sennrich_and_space_suffix_decode():
    sen = bpe.train({"low": 5, "lower": 2, "newest": 6, "widest": 3}, pre_tokenizer="sennrich", num_merges=10)
    assert sen.decode(sen.encode("lowest newer")) == "lowest newer"
    suf = bpe.train("aa abc abc", pre_tokenizer="space-suffix", num_merges=4)
    assert suf.tokenize("aa abc") == ["aa ", "abc"]
    assert suf.decode(suf.encode("aa abc")) == "aa abc"


def test_from_state_matches_every_step():
    states = list(bpe.train_steps(bpe.parse_word_counts(HUG), num_merges=3))
    assert bpe.Tokenizer.from_state(states[2]).tokenize("hugs pun") == ["h", "ug", "s", "p", "un"]


@pytest.mark.parametrize("algorithm", ["bpe", "wordpiece"])
def test_with_merges_equals_the_tokenizer_of_that_step(algorithm):
    """k merges of the full run cut text like the run's own tokenizer at step k. WordPiece encodes from
    its vocabulary, so the tokens of later merges must leave it (found in a review: k did nothing)."""
    history = bpe.run_training({"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}, algorithm=algorithm)
    full = bpe.Tokenizer.from_state(history.state(history.num_merges))
    text = "hugs bugs pun mug thug"
    for k in range(history.num_merges + 1):
        at_step = bpe.Tokenizer.from_state(history.state(k))
        assert full.with_merges(k).tokenize(text) == at_step.tokenize(text), k
    assert full.with_merges(0).tokenize("hugs") != full.tokenize("hugs")
