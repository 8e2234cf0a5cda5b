"""The engine's fast paths, each checked against ``tokenizers`` on the text it speeds
up, with hypothesis. A SentencePiece-style file (Prepend/Replace normaliser, no pre-tokenizer) merges a
long word stretch by stretch before each "▁" when no merge can cross one; a long word's byte-to-character
map is built in bulk; GPT-2's byte symbols come from one ``str.translate``."""

from __future__ import annotations

import json

import pytest
import tokenizers
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis_support import examples
from tokenizer_families import ASSIGNED, WORLD, family, llama2, llama_layout, training_lines, variant, with_added
from tokenizers import decoders, models, trainers
from tokenizers import pre_tokenizers as hf_pre

import bpe
from bpe import budget
from bpe import pre_tokenizers as pt
from bpe.columns import Columns
from bpe.units import _build_unit_to_char

SP_NORMALIZER = {
    "type": "Sequence",
    "normalizers": [
        {"type": "Prepend", "prepend": "▁"},
        {"type": "Replace", "pattern": {"String": " "}, "content": "▁"},
    ],
}


def sentencepiece_words() -> dict:
    """Llama 2's layout (Prepend + Replace, no pre-tokenizer, byte fallback, fuse_unk) with a vocabulary
    trained on Metaspace words, as SentencePiece's is: no token holds "▁" after its first character."""
    tok = tokenizers.Tokenizer(models.BPE(unk_token="<unk>", byte_fallback=True, fuse_unk=True))
    tok.pre_tokenizer = hf_pre.Metaspace(prepend_scheme="first", split=True)
    tok.decoder = decoders.Metaspace(prepend_scheme="first", split=True)
    specials = ["<unk>", "<s>", "</s>"]
    tok.train_from_iterator(
        training_lines(),
        trainers.BpeTrainer(vocab_size=900, special_tokens=specials, show_progress=False, limit_alphabet=120),
    )
    data = llama_layout(json.loads(tok.to_str()), specials)
    data["normalizer"] = SP_NORMALIZER
    data["pre_tokenizer"] = None
    return data


@pytest.fixture(scope="module")
def sp_pair(tmp_path_factory):
    path = tmp_path_factory.mktemp("sp") / "tokenizer.json"
    path.write_text(json.dumps(sentencepiece_words()), encoding="utf-8")
    return bpe.load(path), tokenizers.Tokenizer.from_file(str(path))


@pytest.fixture(scope="module")
def crossing_pair(tmp_path_factory):
    """tokenizers' own Llama 2-style training on whole lines: some tokens hold "▁" inside."""
    path = tmp_path_factory.mktemp("crossing") / "tokenizer.json"
    path.write_text(json.dumps(llama2()), encoding="utf-8")
    return bpe.load(path), tokenizers.Tokenizer.from_file(str(path))


def same(ours, hf, text: str) -> None:
    got = ours.encode_full(text)
    want = hf.encode(text, add_special_tokens=False)
    assert list(got.ids) == want.ids, text
    assert list(got.tokens) == want.tokens, text
    assert list(got.offsets) == want.offsets, text


def test_the_stretch_by_stretch_path_is_taken_only_where_no_merge_crosses_a_mark(sp_pair, crossing_pair):
    assert sp_pair[0].model.marker == "▁"
    crossing = crossing_pair[0]
    assert any(t.find("▁", 1) > 0 for t in crossing.vocab), "the whole-line training should cross marks"
    assert crossing.model.marker is None


def test_long_sentencepiece_text_is_exact(sp_pair, crossing_pair):
    text = " ".join(WORLD) * 3 + "  double  spaces ▁▁ marks▁inside  " + "x" * 300
    for ours, hf in (sp_pair, crossing_pair):
        same(ours, hf, text)
        same(ours, hf, text[:70])


ALPHABET = st.sampled_from(list("abcdeilnorst ▁▁  ,.é日本👍\u0301\n\t") + ["the ", " of ", "ing "])


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(ALPHABET, min_size=20, max_size=120).map("".join))
def test_random_sentencepiece_text_is_exact(sp_pair, crossing_pair, text):
    for ours, hf in (sp_pair, crossing_pair):
        same(ours, hf, text)


def naive_unit_to_char(word: str) -> tuple[int, ...]:
    out: list[int] = []
    for i, ch in enumerate(word):
        out.extend([i] * len(ch.encode("utf-8")))
    return tuple(out)


@given(st.text(max_size=300))
def test_unit_to_char_in_bulk_is_the_character_of_each_byte(word):
    assert tuple(_build_unit_to_char(word)) == naive_unit_to_char(word)


@given(st.binary(max_size=300))
def test_byte_symbols_by_translate_are_gpt2s(data):
    assert pt.bytes_to_symbols(data) == "".join(pt.bytes_to_unicode()[b] for b in data)


# -- the regex-driven normaliser and pre-tokenizer steps (BertNormalizer, StripAccents, BertPreTokenizer,
# Whitespace, WhitespaceSplit): characters each step treats specially, in runs and alone
SPECIAL_CHARS = list("aZ9 _.,!?-'`~|\t\n\r\x00\x07\x1f\x7f\ufffd\u200b\u200d\ue000\u00ad\u3000\u00a0\u2028")
SPECIAL_CHARS += list("日本語中文\u3400\uf900한국\u1100\u1161\u0301\u0308\u0903\u20dd\u093f\u0bca")
SPECIAL_CHARS += list("\u0327\u0323\u0b47\u0b3e\u11a8\uac00\u1100\u1161\u0bc6\u0bbe\u09c7\u09be")
SPECIAL_CHARS += ["e\u0301", "\u0915\u093f", "café", "ＡＢ", "ﬁ", "Σ", "  ", "...", "e\u0308\u0301"]
special_text = st.lists(st.sampled_from(SPECIAL_CHARS), max_size=40).map("".join)
BERT = {"type": "BertNormalizer", "clean_text": True, "handle_chinese_chars": True, "lowercase": True}
STEPS = [
    (BERT, {"type": "BertPreTokenizer"}),
    ({**BERT, "lowercase": False, "strip_accents": True}, {"type": "Whitespace"}),
    ({"type": "StripAccents"}, {"type": "WhitespaceSplit"}),
    ({"type": "Sequence", "normalizers": [{"type": "NFD"}, {"type": "StripAccents"}]}, {"type": "BertPreTokenizer"}),
    *(({"type": form}, None) for form in ("NFC", "NFD", "NFKC", "NFKD")),  # stretch by stretch around ASCII
]


@pytest.fixture(scope="module")
def step_pairs():
    return [variant(pre=pre, norm=norm) for norm, pre in STEPS]


@settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(special_text)
def test_regex_steps_are_exact(step_pairs, text):
    for ours, hf in step_pairs:
        same(ours, hf, text)


@settings(max_examples=examples(300), deadline=None)
@given(
    st.lists(st.binary(min_size=2, max_size=6), max_size=40),
    st.lists(st.sampled_from(b"abc"), min_size=1, max_size=16),
)
def test_the_short_token_scan_matches_the_plain_scan(extra, word):
    """A rank file's short tokens are split by a scan that updates only the merged pair's neighbours:
    the same parts as tiktoken's plain scan (tests/naive.py), ties and missing merges included."""
    from naive import naive_rank_split

    from bpe.formats.rank_files import _split

    ranks = {bytes([b]): b for b in range(256)}
    for token in [*extra, b"ab", b"bc", b"aa", b"abc", b"aab", b"bca"]:
        ranks.setdefault(token, len(ranks))
    token = bytes(word)
    for max_rank in (len(ranks), 256 + len(extra) // 2, 258, 256):
        # _split is asked for a token's parts below its own rank: a token in the table never merges whole
        max_rank = min(max_rank, ranks.get(token, max_rank))
        assert _split(ranks, token, max_rank) == naive_rank_split(ranks, token, max_rank)


# -- byte-level files whose pre-tokenizer is a Sequence of cutting steps: words cut straight from the text
def _byte(use_regex: bool = False) -> dict:
    return {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": False, "use_regex": use_regex}


O200K_SPLIT = {"type": "Split", "pattern": {"Regex": r"\p{N}{1,3}| ?\p{L}+| ?[^\s\p{L}\p{N}]+|\s+"}}
CUT_SEQUENCES = [
    (
        {"type": "NFC"},
        [{"type": "Digits", "individual_digits": True}, {**O200K_SPLIT, "behavior": "Isolated", "invert": False}],
        False,
    ),
    (None, [{"type": "Punctuation", "behavior": "MergedWithPrevious"}, {"type": "WhitespaceSplit"}], True),
    (
        {"type": "Sequence", "normalizers": [{"type": "NFKC"}]},
        [{"type": "Whitespace"}, {"type": "Digits", "individual_digits": False}],
        False,
    ),
    (None, [{"type": "CharDelimiterSplit", "delimiter": "-"}, {"type": "BertPreTokenizer"}], True),
    (
        None,
        [{**O200K_SPLIT, "behavior": "Removed", "invert": True}, {"type": "Digits", "individual_digits": True}],
        False,
    ),
    # Isolated Splits are cut straight from their matches: an empty match still ends a stretch, a
    # lookbehind sees only the stretch being cut, and invert changes nothing for Isolated
    (
        None,
        [
            {"type": "Split", "pattern": {"Regex": r"\d*"}, "behavior": "Isolated", "invert": True},
            {**O200K_SPLIT, "behavior": "Isolated", "invert": False},
        ],
        False,
    ),
    (
        None,
        [
            {"type": "WhitespaceSplit"},
            {"type": "Split", "pattern": {"Regex": r"(?<=a)b|\b9|(?<= )Z"}, "behavior": "Isolated", "invert": False},
        ],
        False,
    ),
]


@pytest.fixture(scope="module")
def cut_pairs():

    out = []
    for norm, steps, use_regex in CUT_SEQUENCES:
        data = json.loads(family("gpt2")[2])
        data["normalizer"] = norm
        data["pre_tokenizer"] = {"type": "Sequence", "pretokenizers": [*steps, _byte(use_regex)]}
        text = json.dumps(data)
        out.append((bpe.formats.from_tokenizer_json(text), tokenizers.Tokenizer.from_str(text)))
    return out


def test_cut_sequences_take_the_fast_path(cut_pairs):
    for ours, _ in cut_pairs:
        assert ours.pipeline.cuts, ours.pipeline.name
        assert ours.pipeline.fast_applies("plain text 123")


CUT_CHARS = (
    list("ab Z9 12345 -.,!?'\t\n\r_")
    + ["ab", "a b", " Z"]
    + ["<|endoftext|>", "e\u0301", "é", "日本", "👍🏽", "ＡＢ", "½", "  "]
)


@settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(CUT_CHARS), max_size=40).map("".join))
def test_cut_sequences_are_exact(cut_pairs, text):
    for ours, hf in cut_pairs:
        same(ours, hf, text)


# -- a trained tokenizer's words: one cache entry per word as matched, against the word-by-word loop ----
CACHE_CORPUS = "the hug pug hugs bun puns café naïve 日本語 👍🏽 it's 1234 <|end|> hug\t\nthe  end " * 3
SCHEMES = [(s, "bpe") for s in pt.PRE_TOKENIZERS] + [("whitespace", "wordpiece"), ("gpt2", "wordpiece")]


def word_by_word(tok: bpe.Tokenizer, text: str) -> bpe.Encoding:
    """What Tokenizer.encode_full computed before its per-word cache: every pre-tokenized word's tokens
    from the model's word_tokens, spans through the word's byte-to-character map."""
    ids, tokens, offsets, word_ids, word_no = [], [], [], [], 0
    for segment, (seg_start, _), special in tok.text.segments(text):
        if special:
            tokens.append(segment)
            ids.append(tok.vocab.get(segment, tok.vocab.get(tok.unk_token)))
            offsets.append((seg_start, seg_start + len(segment)))
            word_ids.append(None)
            continue
        for word, (w_start, w_end) in pt.pre_tokenize_with_offsets(segment, tok.pre_tokenizer):
            start = seg_start + w_start
            char = _build_unit_to_char(text[start : seg_start + w_end]) if tok.byte_level else None
            unit = 0
            for token, n in tok.model.word_tokens(word):
                a, b = (unit, unit + n) if char is None else (char[unit], char[unit + n - 1] + 1)
                unit += n
                tokens.append(token)
                ids.append(tok.vocab.get(token, tok.vocab.get(tok.unk_token)))
                offsets.append((start + a, start + b))
                word_ids.append(word_no)
            word_no += 1
    return bpe.Encoding(tuple(ids), tuple(tokens), tuple(offsets), tuple(word_ids))


@pytest.fixture(scope="module")
def scheme_toks():
    return {
        (s, a): bpe.train(CACHE_CORPUS, pre_tokenizer=s, algorithm=a, num_merges=40, special_tokens=["<|end|>"])
        for s, a in SCHEMES
    }


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.lists(
        st.sampled_from(["hug", "s", " ", "\t", "\n", "é", "日本", "👍🏽", "<|end|>", "'s", "12", "pun", "x", "  "]),
        max_size=30,
    ).map("".join)
)
def test_the_per_word_cache_encodes_as_word_by_word(scheme_toks, text):
    for tok in scheme_toks.values():
        tok.clear_caches()
        assert tok.encode_full(text) == word_by_word(tok, text)
        assert tok.encode_full(text) == word_by_word(tok, text)  # warm: from the cache


# -- files cut by one regex (BERT's pre-tokenizer, Whitespace): words read a part at a time ------------
PART_FAMILIES = ["whitespace", "prefixed-bert", "bert-wordpiece"]


def _parts_files():

    out = [family(name)[:2] for name in PART_FAMILIES]
    data = with_added(json.loads(family("bert-wordpiece")[2]), normalized_ok=False)  # added tokens between parts
    data["pre_tokenizer"] = {"type": "WhitespaceSplit"}
    text = json.dumps(data)
    out.append((bpe.formats.from_tokenizer_json(text), tokenizers.Tokenizer.from_str(text)))
    return out


@pytest.fixture(scope="module")
def parts_files():
    return _parts_files()


def test_regex_cut_files_take_the_parts_path(parts_files):
    for ours, _ in parts_files:
        assert ours.pipeline.word_pattern is not None and not ours.pipeline.fast_applies("a b")


PART_TEXT = st.lists(
    st.sampled_from(
        [
            "Hug",
            "ging",
            " ",
            "  ",
            "\t",
            "Face",
            "é",
            "e\u0301",
            "中文",
            "ﬁ",
            ",",
            "!",
            "[SEP]",
            "<mask>",
            "ony",
            "x" * 40,
        ]
    )
    | st.text(ASSIGNED, max_size=3),  # (characters of Unicode 3.2: newer ones differ between the libraries)
    max_size=30,
).map("".join)


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(PART_TEXT)
def test_the_parts_path_encodes_as_the_pieces_path_and_tokenizers(parts_files, text):
    for ours, hf in parts_files:
        ours.clear_caches()
        same(ours, hf, text)
        cols = Columns()
        with budget.request(len(text)):
            ours.text.encode_pieces(text, cols)  # every word as a piece of its own, one by one
        got = ours.encode_full(text)  # warm: from the cache
        offsets = ours.pipeline.trim(cols.tokens, cols.offsets) if ours.pipeline.trim_offsets else cols.offsets
        assert (list(got.ids), list(got.offsets), list(got.word_ids)) == (cols.ids, offsets, cols.word_ids)


def test_wordpiece_looks_up_the_models_vocabulary_only(parts_files):
    """Found by the test above: an added token (here "ony", single_word, so "onyHug" does not match it) is
    in the file's vocabulary but not the WordPiece model's, and tokenizers' longest match never gives it;
    ours gave "ony" + "##h" + ... instead of "on" + "##y" + "##h" + ..."""
    ours, hf = parts_files[-1]
    for text in ("onyHug", "ony Hug", "xony ony"):
        same(ours, hf, text)
    assert "ony" in ours.vocab and "ony" not in ours.model_vocab


@pytest.mark.parametrize("byte_fallback", [False, True])
def test_bpe_starts_from_the_models_vocabulary_only(byte_fallback):
    """A one-character added token outside the model ("y", single_word, so not matched inside "ony") is in
    the file's vocabulary, but tokenizers' BPE model starts a word from its own vocabulary: "y" in "ony"
    is unknown there (or its byte-fallback token). Ours gave the added token's id; so did a byte-fallback
    token added outside the model."""
    vocab = {c: i for i, c in enumerate("abcno")} | {"[UNK]": 5, "<0x79>": 6, "ab": 7}
    hf = tokenizers.Tokenizer(
        models.BPE(vocab=vocab, merges=[("a", "b")], unk_token="[UNK]", byte_fallback=byte_fallback)
    )
    hf.pre_tokenizer = hf_pre.Whitespace()
    hf.add_tokens([tokenizers.AddedToken("y", single_word=True), tokenizers.AddedToken("<0x7A>", single_word=True)])
    ours = bpe.formats.from_tokenizer_json(hf.to_str())
    for text in ("ony abc", "y ab", "abyc", "z<0x7A> abz", "<0x7A>"):
        same(ours, hf, text)
    assert "y" in ours.vocab and "y" not in ours.model_vocab
