"""An empty pattern is a pattern: ``tokenizers`` escapes ``{"String": ""}`` into an empty regex that matches
between every two characters, so a ``Replace`` normalizer or decoder inserts its content everywhere (found by the
classroom benchmark's hostile file, which our reader had taken as doing nothing)."""

from __future__ import annotations

import pytest
from tokenizers import Regex, decoders, normalizers, pre_tokenizers
from tokenizers import Tokenizer as HFTokenizer
from tokenizers.models import BPE

import bpe

VOCAB = {c: i for i, c in enumerate("abcxy -")}
TEXTS = ["abc", "a b", "", "ab-c"]


def reference(**components) -> HFTokenizer:
    tok = HFTokenizer(BPE(vocab=VOCAB, merges=[], unk_token=None))
    for name, component in components.items():
        setattr(tok, name, component)
    return tok


CASES = {
    "replace-normalizer": dict(normalizer=normalizers.Replace("", "x")),
    "replace-decoder": dict(decoder=decoders.Replace("", "y")),
    **{
        f"split-{behavior}": dict(pre_tokenizer=pre_tokenizers.Split("", behavior))
        for behavior in ("isolated", "removed", "merged_with_previous", "merged_with_next", "contiguous")
    },
}


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("text", TEXTS)
def test_an_empty_string_pattern_reads_as_tokenizers_reads_it(case, text):
    ref = reference(**CASES[case])
    ours = bpe.formats.from_tokenizer_json(ref.to_str())
    want = ref.encode(text)
    got = ours.encode_full(text)
    assert (list(got.tokens), list(got.offsets)) == (want.tokens, want.offsets)
    assert ours.decode(list(got.ids)) == ref.decode(want.ids)


# Patterns that can match empty inside a word: Oniguruma (what tokenizers runs) skips an empty match right
# where the last match ended and searches one character on; Python's finditer reports it, or a longer
# match from the same place. Merges make the difference visible ("ab" is one token only if a and b share a word).
MERGED_VOCAB = {c: i for i, c in enumerate(["a", "b", "c", "1", "2", "Ġ", "ab", "1c", "aab"])}
MERGES = [("a", "b"), ("1", "c"), ("a", "ab")]
EMPTY_MATCHING = [r"\d*", r"(?=a)|a+", r"(?=b)", r"a*?"]
GAP_TEXTS = ["ab1c", "aab", "abab 12", "a1a", "b1cab", "aaab1c"]


def merged_reference(**components) -> HFTokenizer:
    tok = HFTokenizer(BPE(vocab=MERGED_VOCAB, merges=MERGES, unk_token=None))
    for name, component in components.items():
        setattr(tok, name, component)
    return tok


EMPTY_CASES = {
    **{
        f"split-{behavior}-{pattern}": dict(pre_tokenizer=pre_tokenizers.Split(Regex(pattern), behavior))
        for behavior in ("isolated", "removed", "merged_with_previous", "merged_with_next", "contiguous")
        for pattern in EMPTY_MATCHING
    },
    # Split then ByteLevel: the fast path that reads words straight off the regex
    **{
        f"split-bytelevel-{pattern}": dict(
            pre_tokenizer=pre_tokenizers.Sequence(
                [
                    pre_tokenizers.Split(Regex(pattern), "isolated"),
                    pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False),
                ]
            ),
            decoder=decoders.ByteLevel(),
        )
        for pattern in EMPTY_MATCHING
    },
    **{f"replace-normalizer-{p}": dict(normalizer=normalizers.Replace(Regex(p), "c")) for p in EMPTY_MATCHING},
}


@pytest.mark.parametrize("case", EMPTY_CASES)
def test_patterns_matching_empty_read_as_oniguruma_reads_them(case):
    ref = merged_reference(**EMPTY_CASES[case])
    ours = bpe.formats.from_tokenizer_json(ref.to_str())
    for text in GAP_TEXTS:
        want = ref.encode(text)
        got = ours.encode_full(text)
        assert (list(got.tokens), list(got.offsets)) == (want.tokens, want.offsets), text


@pytest.mark.parametrize("pattern", EMPTY_MATCHING)
def test_a_replace_decoder_with_a_pattern_matching_empty(pattern):
    ref = merged_reference(decoder=decoders.Replace(Regex(pattern), "-"))
    ours = bpe.formats.from_tokenizer_json(ref.to_str())
    for text in GAP_TEXTS:
        ids = ref.encode(text).ids
        assert ours.decode(ids) == ref.decode(ids), text
