"""An empty pattern is a pattern: ``tokenizers`` escapes ``{"String": ""}`` into an empty regex that matches
between every two characters, so a ``Replace`` normalizer or decoder inserts its content everywhere (found by the
classroom benchmark's hostile file, which our reader had taken as doing nothing)."""

from __future__ import annotations

import pytest
from tokenizers import Tokenizer as HFTokenizer
from tokenizers import decoders, normalizers, pre_tokenizers
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
