"""Real tokenizer.json files of each family, read here: ids, tokens, offsets and decode equal ``tokenizers``' on
varied text and on random text (hypothesis), for every pre-tokenizer and normaliser option, and the Unicode tables
behind them agree with ``tokenizers``' over every code point."""

from __future__ import annotations

import json
import unicodedata

import pytest
import regex
import tokenizers
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis_support import examples
from tokenizer_families import FAMILIES, TEXTS, check_same, family, random_text, variant
from tokenizers import normalizers
from tokenizers import pre_tokenizers as hf_pre

import bpe
from bpe import formats as ser

CL100K = r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s"""


@pytest.mark.parametrize("name", list(FAMILIES))
def test_each_family_encodes_like_tokenizers(name):
    ours, theirs, _ = family(name)
    assert ours.pipeline is not None
    for text in TEXTS:
        check_same(ours, theirs, text)


@pytest.mark.parametrize("name", list(FAMILIES))
def test_saved_file_round_trips(name, tmp_path):
    ours, theirs, _ = family(name)
    bpe.save(ours, tmp_path / "t.json")
    again = bpe.load(tmp_path / "t.json")
    reread = tokenizers.Tokenizer.from_file(str(tmp_path / "t.json"))
    for text in TEXTS[:12]:
        check_same(again, reread, text)
        check_same(again, theirs, text)


def test_families_use_what_they_claim():
    llama, _, _ = family("llama2")
    assert llama.byte_fallback and "<0xF0>" in llama.tokenize("𓀀")  # a hieroglyph never seen in training
    assert "<unk>" not in llama.tokenize("𓀀")
    ign, ref, _ = family("ignore-merges")
    assert ign.tokenize(" tokenization") == ["Ġtokenization"] == ref.encode(" tokenization").tokens
    ws, _, _ = family("whitespace")
    assert ws.tokenize("Café!") == ref_tokens("whitespace", "Café!")


def ref_tokens(name: str, text: str) -> list[str]:
    return family(name)[1].encode(text, add_special_tokens=False).tokens


# -- every pre-tokenizer option, on one byte-level model --------------------------------------------
PRE_VARIANTS = [
    *[
        {"type": "Split", "pattern": {"Regex": r"\s+|\d"}, "behavior": b, "invert": inv}
        for b in ("Removed", "Isolated", "MergedWithPrevious", "MergedWithNext", "Contiguous")
        for inv in (False, True)
    ],
    {"type": "Split", "pattern": {"String": "-"}, "behavior": "MergedWithPrevious", "invert": False},
    {"type": "Split", "pattern": {"Regex": CL100K}, "behavior": "Isolated", "invert": False},
    {"type": "Split", "pattern": {"Regex": r"\s+$|^\w|\w+|[^\w\s]+|\s"}, "behavior": "Isolated", "invert": False},
    {"type": "Digits", "individual_digits": True},
    {"type": "Digits", "individual_digits": False},
    {"type": "Punctuation", "behavior": "Contiguous"},
    {"type": "Punctuation", "behavior": "Isolated"},
    {"type": "CharDelimiterSplit", "delimiter": "|"},
    {"type": "WhitespaceSplit"},
    {"type": "Whitespace"},
    {"type": "ByteLevel", "add_prefix_space": True, "trim_offsets": True, "use_regex": True},
    {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": False},
    {"type": "Metaspace", "replacement": "▁", "prepend_scheme": "first", "split": True},
]
NORM_VARIANTS = [
    {"type": "NFC"},
    {"type": "NFD"},
    {"type": "NFKC"},
    {"type": "NFKD"},
    {"type": "Lowercase"},
    {"type": "Strip", "strip_left": True, "strip_right": True},
    {"type": "StripAccents"},
    {"type": "Sequence", "normalizers": [{"type": "NFD"}, {"type": "StripAccents"}]},
    {"type": "Replace", "pattern": {"Regex": r"\s+"}, "content": " "},
    {"type": "Replace", "pattern": {"String": "ab"}, "content": "xyz"},
    {"type": "Prepend", "prepend": "▁▁"},
    {
        "type": "BertNormalizer",
        "clean_text": True,
        "handle_chinese_chars": True,
        "strip_accents": None,
        "lowercase": True,
    },
]


@pytest.mark.parametrize(
    "pre", PRE_VARIANTS, ids=lambda p: f"{p['type']}-{p.get('behavior', '')}-{p.get('invert', '')}"
)
def test_pre_tokenizer_options(pre):
    ours, theirs = variant(pre=pre)
    for text in TEXTS:
        check_same(ours, theirs, text)


@pytest.mark.parametrize("norm", NORM_VARIANTS, ids=lambda n: n["type"])
def test_normalizers(norm):
    ours, theirs = variant(norm=norm)
    for text in TEXTS:
        check_same(ours, theirs, text)


# characters whose category changed after Unicode 9, the tables tokenizers' normalisers read: marks
# assigned later (U+08D3, U+08CB) are kept there, so the word is [UNK]; U+1734 (Mn then) and
# U+1CF2 (Mc then) are dropped
LATE_MARKS = "a\u08d3 \u08cb c\u1734 d\u1cf2 e\u0301"


@pytest.mark.parametrize("name", ["whitespace", "prefixed-bert", "bert-wordpiece"])
def test_accents_are_stripped_by_tokenizers_own_unicode_tables(name):
    ours, theirs, _ = family(name)
    check_same(ours, theirs, LATE_MARKS)


@pytest.mark.parametrize(
    "norm",
    [
        {"type": "StripAccents"},
        {
            "type": "BertNormalizer",
            "clean_text": False,
            "handle_chinese_chars": False,
            "strip_accents": True,
            "lowercase": False,
        },
    ],
    ids=["StripAccents", "BertNormalizer"],
)
def test_the_marks_stripped_are_tokenizers_over_every_code_point(norm):
    from bpe.pipeline.normalizers import build_normalizer
    from bpe.pipeline.piece import Piece

    # every character of the planes that hold marks (0, 1 and 14), each alone between spaces, taken
    # as both sides' NFD leaves it (the NFD tables differ too, for U+11938: that is not compared here)
    planes = [*range(0x20000), *range(0xE0000, 0xE0200)]
    every = [chr(c) for c in planes if not 0xD800 <= c < 0xE000 and c != 0x20]
    every = [c for c in every if unicodedata.normalize("NFD", c) == c == normalizers.NFD().normalize_str(c)]
    text = " ".join(every)
    if norm["type"] == "StripAccents":
        theirs = normalizers.StripAccents()
    else:
        theirs = normalizers.BertNormalizer(
            clean_text=False, handle_chinese_chars=False, strip_accents=True, lowercase=False
        )
    ours = build_normalizer(norm)(Piece(text)).text
    assert ours.split(" ") == theirs.normalize_str(text).split(" ")


@pytest.mark.parametrize("name", ["prefixed-bert", "bert-wordpiece"])
def test_punctuation_is_tokenizers_own(name):
    """U+1B7D (Po since Unicode 14) stays in its word, U+166D (Po then, So now) stands alone."""
    ours, theirs, _ = family(name)
    check_same(ours, theirs, "ab\u1b7dcd ab\u166dcd a\u061db x,y")


@pytest.mark.parametrize("kind", ["BertPreTokenizer", "Punctuation"])
def test_the_punctuation_isolated_is_tokenizers_over_every_code_point(kind):
    from bpe.pipeline.piece import Piece
    from bpe.pipeline.pre_tokenizers import build_pre_tokenizer

    theirs, ours = getattr(hf_pre, kind)(), build_pre_tokenizer({"type": kind})
    planes = [*range(0x20000), *range(0xE0000, 0xE0200)]  # the planes that hold punctuation
    text = "b".join(chr(c) for c in planes if not 0xD800 <= c < 0xE000 and c != 0x62)
    assert [p.text for p in ours([Piece(text)])] == [w for w, _ in theirs.pre_tokenize_str(text)]


def test_clean_text_drops_what_tokenizers_drops_over_every_code_point():
    """Format characters added after tokenizers' Unicode tables (U+0890, U+13430) are kept, as there."""
    from bpe.pipeline.normalizers import build_normalizer
    from bpe.pipeline.piece import Piece

    norm = {"type": "BertNormalizer", "clean_text": True, "handle_chinese_chars": False, "strip_accents": False}
    theirs = normalizers.BertNormalizer(
        clean_text=True, handle_chinese_chars=False, strip_accents=False, lowercase=False
    )
    every = [chr(c) for c in range(0x110000) if not 0xD800 <= c < 0xE000 and c != 0x62]
    text = "b".join(every)
    assert build_normalizer({**norm, "lowercase": False})(Piece(text)).text == theirs.normalize_str(text)
    ours, ref, _ = family("prefixed-bert")
    check_same(ours, ref, "ab\u0890cd \U00013430 x\u200by")


def test_the_whitespace_pre_tokenizer_splits_as_tokenizers_over_every_code_point():
    """Its \\w and \\s are Oniguruma's: U+0558 (a letter since Unicode 11) ends a word there."""
    from bpe.pipeline.piece import Piece
    from bpe.pipeline.pre_tokenizers import build_pre_tokenizer

    ours, theirs = build_pre_tokenizer({"type": "Whitespace"}), hf_pre.Whitespace()
    planes = [*range(0x40000), *range(0xE0000, 0xE0200)]  # the planes holding letters, digits and marks
    text = "b".join(chr(c) for c in planes if not 0xD800 <= c < 0xE000 and c != 0x62)
    assert [p.text for p in ours([Piece(text)])] == [w for w, _ in theirs.pre_tokenize_str(text)]
    tok, ref, _ = family("whitespace")
    check_same(tok, ref, "ab\u0558cd \u1aedx")


@pytest.mark.parametrize(
    "name",
    ["gpt2", "gpt4o", "llama2", "metaspace-always", "whitespace", "prefixed-bert", "ignore-merges", "bert-wordpiece"],
)
@given(text=random_text)
@settings(
    max_examples=examples(60),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
def test_random_text_encodes_like_tokenizers(name, text):
    ours, theirs, _ = family(name)
    check_same(ours, theirs, text)


@given(text=random_text, norm=st.sampled_from(NORM_VARIANTS))
@settings(max_examples=examples(80), deadline=None)
def test_random_text_through_normalizers(text, norm):
    ours, theirs = variant(norm=norm)
    check_same(ours, theirs, text)


# -- refusals -----------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("part", "value", "named"),
    [
        ("normalizer", {"type": "Precompiled", "precompiled_charsmap": None}, "Precompiled"),
        ("normalizer", {"type": "Sequence", "normalizers": [{"type": "NFC"}, {"type": "Nmt"}]}, "Nmt"),
        ("pre_tokenizer", {"type": "UnicodeScripts"}, "UnicodeScripts"),
        (
            "pre_tokenizer",
            {"type": "Split", "pattern": {"Regex": "a"}, "behavior": "Sideways", "invert": False},
            "Sideways",
        ),
        ("decoder", {"type": "CTC", "pad_token": "<pad>"}, "CTC"),
    ],
)
def test_unknown_components_are_refused_by_name(part, value, named):
    data = json.loads(family("gpt2")[2])
    data[part] = value
    with pytest.raises(ValueError, match=named):
        ser.from_tokenizer_json(json.dumps(data))


@given(text=random_text, pre=st.sampled_from(PRE_VARIANTS))
@settings(max_examples=examples(80), deadline=None)
def test_random_text_through_pre_tokenizers(text, pre):
    ours, theirs = variant(pre=pre)
    check_same(ours, theirs, text)


@pytest.mark.parametrize("name", ["gpt2", "llama2", "prefixed-bert"])
def test_first_k_merges_of_a_file(name):
    """The Encode page's k slider on a real file: the view cuts like a tokenizer built with k merges."""
    ours, _, _ = family(name)
    for k in (0, 50, len(ours.merges) // 2):
        view = ours.with_merges(k)
        m = ours.model
        model = bpe.models.BPE(
            ours.vocab,
            ours.merges[:k],
            unk_token=m.unk_token,
            byte_fallback=m.byte_fallback,
            fuse_unk=m.fuse_unk,
            continuing_subword_prefix=m.continuing_subword_prefix,
            end_of_word_suffix=m.end_of_word_suffix,
            ignore_merges=m.ignore_merges,
            outside=ours.pipeline.outside_model,
        )
        built = bpe.Tokenizer.from_parts(model, ours.text, special_tokens=ours.special_tokens)  # a file's parts
        for text in TEXTS[:14]:
            assert view.encode_full(text) == built.encode_full(text), (k, text)


def test_the_fast_unicode_sets_equal_tokenizers_tables_over_every_code_point():
    """hf_unicode's patterns are today's properties less and plus short lists (fast); the tables they stand for
    are the long range lists read off tokenizers. They must agree on every code point, judged alone (a regex
    package with newer Unicode tables would move the lists)."""
    from bpe.pipeline import hf_unicode as H
    from bpe.pipeline import pre_tokenizers as P

    every = " ".join(chr(c) for c in range(0x110000) if not (0xD800 <= c < 0xE000) and c != 0x20)
    punct = H.ranges_chars(H.PUNCTUATION_RANGES)
    tables = {
        "StripAccents": (H.HF_MARKS, f"[{H.ranges_chars(H.STRIP_ACCENTS_RANGES)}]+"),
        "strip_accents": (H.HF_NONSPACING, f"[{H.ranges_chars(H.BERT_NONSPACING_RANGES)}]+"),
        "Punctuation": (P._PUNCT, f"[{punct}]+"),
        "BertPreTokenizer": (P._BERT_WORDS, f"[{punct}]|[^\\p{{White_Space}}{punct}]+"),
        "clean_text": (H.HF_UNCLEAN, f"[{H.ranges_chars(H.CLEAN_TEXT_RANGES)}]"),
    }
    for name, (fast, table) in tables.items():
        assert fast.findall(every) == regex.compile(table).findall(every), name
