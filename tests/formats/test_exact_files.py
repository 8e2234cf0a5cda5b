"""Real files of unusual shapes open and encode exactly as their own library.

Each case reproduces the shape of a published file with a small file made here (the published ones
are too large to keep): GPT-2's ``vocab.json`` holds ``"model"`` as an ordinary token (id 19849);
Whisper's vocabulary has an empty token (id 50256, in its rank file the line ``= 50256``); Llama 3's
``tokenizer.model`` has 678 tokens no merge of lower ranks builds; T5's ``tokenizer.json`` is a
Unigram model without a ``"type"``. Oracles: ``tokenizers`` and tiktoken, ids, tokens and offsets.
"""

from __future__ import annotations

import json

import pytest
import tiktoken
import tokenizers
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_support import examples
from tokenizer_families import ASSIGNED, TEXTS, check_same, random_text
from tokenizer_files import (
    KIMI_K2,
    added_token,
    byte_level_bpe,
    byte_level_file,
    rank_file,
    unreachable,
    with_empty_token,
)
from tokenizers import models, normalizers

import bpe
from bpe import formats
from bpe import pre_tokenizers as pt
from bpe.corpora import corpus_lines
from bpe.formats import rank_files
from bpe.formats.rank_files import PATTERNS, from_tiktoken, merges_from_ranks
from server import uploads


# -- a byte-level BPE trained here, as tokenizers writes it -------------------------------------------
@pytest.fixture(scope="module")
def trained() -> tokenizers.Tokenizer:
    return byte_level_bpe(corpus_lines(20_000) + ["model: the model of a model is a model"] * 50, 1000)


# -- 1. uploads told apart by structure ----------------------------------------------------------------
@pytest.fixture(scope="module")
def gpt2_files(trained, tmp_path_factory) -> dict[str, bytes]:
    """GPT-2's two files: its vocab.json holds the ordinary token "model" (GPT-2's id 19849)."""
    folder = tmp_path_factory.mktemp("gpt2")
    vocab_path, merges_path = trained.model.save(str(folder))
    vocab = json.loads(open(vocab_path, encoding="utf-8").read())
    assert "model" in vocab  # trained from text full of it, as GPT-2's was
    return {"vocab.json": json.dumps(vocab).encode(), "merges.txt": open(merges_path, "rb").read()}


def test_gpt2_vocab_and_merges_with_the_token_model_open_together(gpt2_files, trained):
    """Was refused: "merges.txt holds merges without their vocabulary" (the vocab.json, holding the key
    "model", was taken for a tokenizer.json)."""
    tok, used, _ = uploads.tokenizer_from_files(dict(gpt2_files), "gpt2")
    assert used == "vocab.json + merges.txt"
    for text in ["the model of a model", *TEXTS[:12]]:
        assert tok.encode(text) == trained.encode(text).ids, text


def test_a_vocab_json_alone_is_named_as_a_vocabulary(gpt2_files):
    with pytest.raises(ValueError, match="vocab.json is a vocabulary without its merges"):
        uploads.tokenizer_from_files({"vocab.json": gpt2_files["vocab.json"]}, "gpt2")


@pytest.mark.parametrize(
    ("data", "kind"),
    [
        (b'{"model": 19849, "the": 1}', "vocab"),
        (b'{"model": {"type": "BPE", "vocab": {}, "merges": []}}', "tokenizer"),
        (b'{"model": {"vocab": {"a": 0}}}', "tokenizer"),
        (b'{"model": "BPE"}', "json"),
        (b'{"model": true}', "json"),
        (b"[1, 2]", "json"),
        (b"{}", "json"),
        (b'{"a": ', "invalid"),
    ],
)
def test_json_uploads_are_told_apart_by_structure(data, kind):
    assert uploads.json_kind(data) == kind


@pytest.mark.parametrize(
    ("files", "says"),
    [
        ({"notes.json": b'{"model": "gpt2"}'}, "notes.json is neither a tokenizer.json"),
        ({"broken.json": b'{"model": '}, "The file broken.json is not valid JSON"),
        ({"t5.json": b'{"model": {"type": "BPE"}}'}, "^t5.json: "),
        ({"w.tiktoken": b"YQ== x\n"}, "Line 1 of w.tiktoken"),
        ({"vocab.json": b'{"a": 0}', "merges.txt": b"a b\n"}, "^vocab.json \\+ merges.txt: "),
    ],
)
def test_every_message_names_its_file(files, says):
    with pytest.raises(ValueError, match=says):
        uploads.tokenizer_from_files(files, "gpt2")


# -- 7. Unigram, named ---------------------------------------------------------------------------------
def test_a_unigram_file_without_a_type_is_named_unigram():
    """T5's tokenizer.json: its model has no "type", only Unigram's [piece, score] vocabulary."""
    t5 = {"model": {"unk_id": 2, "vocab": [["<pad>", 0.0], ["</s>", 0.0], ["<unk>", 0.0], ["▁the", -3.1]]}}
    with pytest.raises(ValueError, match="a Unigram model"):
        formats.from_tokenizer_json(json.dumps(t5))
    typed = json.loads(tokenizers.Tokenizer(models.Unigram([("a", -1.0), ("b", -2.0)])).to_str())
    with pytest.raises(ValueError, match="a Unigram model"):
        formats.from_tokenizer_json(json.dumps(typed))


# -- 2. empty tokens (Whisper) -------------------------------------------------------------------------
@pytest.mark.parametrize("normalizer", [None, normalizers.NFC()], ids=["plain", "pipeline"])
def test_a_tokenizer_json_with_an_empty_token_encodes_like_tokenizers(trained, normalizer):
    """Was refused: "holds an empty token"."""
    text = with_empty_token(trained, normalizer)
    ours, theirs = formats.from_tokenizer_json(text), tokenizers.Tokenizer.from_str(text)
    empty = theirs.token_to_id("")
    assert ours.vocab[""] == empty
    for t in TEXTS:
        check_same(ours, theirs, t)
    assert ours.decode([empty, 100]) == theirs.decode([empty, 100])


@pytest.fixture(scope="module")
def ranks(trained) -> dict[bytes, int]:
    """The trained tokenizer as a rank table: bytes by value, then each merge's token in order."""
    out = {bytes([b]): b for b in range(256)}
    for a, b in json.loads(trained.to_str())["model"]["merges"]:
        out.setdefault(pt.symbols_to_bytes(a) + pt.symbols_to_bytes(b), len(out))
    return out


def check_tiktoken(ours: bpe.Tokenizer, theirs: tiktoken.Encoding, text: str) -> None:
    """Ids, token bytes and offsets (each token's first character, as tiktoken's decode_with_offsets)."""
    ids = theirs.encode(text, allowed_special="all")
    enc = ours.encode_full(text)
    assert list(enc.ids) == ids, text
    assert [ours.token_bytes(t) for t in enc.tokens] == [theirs.decode_single_token_bytes(i) for i in ids], text
    if theirs.decode(ids) == text:  # tiktoken's offsets count the decoded text
        assert [a for a, _ in enc.offsets] == theirs.decode_with_offsets(ids)[1], text
    for (a, b), i in zip(enc.offsets, ids):  # a pattern that skips text: each token's offsets hold its text
        whole = theirs.decode_single_token_bytes(i).decode("utf-8", errors="ignore")
        assert whole in text[a:b], (text, a, b, i)
    assert ours.decode(ids) == theirs.decode(ids), text


def test_a_rank_file_with_an_empty_token_encodes_like_tiktoken(ranks):
    """Whisper's multilingual.tiktoken has the line "= 50256" (base64 of nothing); it was refused."""
    with_empty = {**ranks, b"": len(ranks)}
    data = rank_file(with_empty)
    assert f"= {len(ranks)}\n" in data
    ours = from_tiktoken(data, "gpt2", special_tokens={})
    theirs = tiktoken.Encoding(
        name="whisper-like", pat_str=PATTERNS["gpt2"], mergeable_ranks=with_empty, special_tokens={}
    )
    for text in TEXTS:
        check_tiktoken(ours, theirs, text)
    assert ours.decode([len(ranks)]) == theirs.decode([len(ranks)]) == ""


# -- 3. rank files with tokens no merge builds (Llama 3's tokenizer.model) -------------------------------
@pytest.fixture(scope="module")
def unreachable_pair(ranks):
    table = unreachable(ranks)
    specials = {"<|endoftext|>": len(table)}
    ours = from_tiktoken(rank_file(table), "cl100k", special_tokens=specials)
    theirs = tiktoken.Encoding(
        name="llama3-like", pat_str=PATTERNS["cl100k"], mergeable_ranks=table, special_tokens=specials
    )
    return table, ours, theirs


def test_a_rank_file_with_unreachable_tokens_is_read_and_says_so(unreachable_pair):
    """Was refused: "cannot be built from lower-ranked tokens, so this is not a BPE rank file"."""
    table, ours, _ = unreachable_pair
    merges, unreachable = rank_files.reachable_merges(table)
    assert len(unreachable) >= 30 and len(merges) + len(unreachable) == len(table) - 256
    assert ours.merge_by_rank and "cannot be built by merging lower ranks" in ours.notes[0]
    first = ours.id_to_token[unreachable[0]]
    assert ours.unreachable(first) and ours.merge_tree(first) == first
    built = ours.id_to_token[table[pt.symbols_to_bytes(ours.merges[0][0] + ours.merges[0][1])]]
    assert not ours.unreachable(built) and ours.merge_tree(built) == ours.merges[0]
    with pytest.raises(ValueError, match="cannot be built from lower-ranked tokens"):
        merges_from_ranks(table)


def test_a_rank_file_with_unreachable_tokens_encodes_like_tiktoken(unreachable_pair):
    table, ours, theirs = unreachable_pair
    made = set()
    for text in [*TEXTS, *corpus_lines(300)]:
        check_tiktoken(ours, theirs, text)
        made.update(theirs.encode(text, allowed_special="all"))
    assert made & set(range(256, 256 + 30)), "the texts should meet some of the unreachable tokens"


WORDS = sorted({w for line in corpus_lines(2_000) for w in line.split()})[:400]


@given(
    text=st.lists(st.sampled_from(WORDS) | st.sampled_from([" ", "  ", "\n", "'s", "日本", "é"]), max_size=30).map(
        "".join
    )
    | random_text
)
@settings(max_examples=examples(150), deadline=None)
def test_random_text_with_unreachable_tokens_encodes_like_tiktoken(unreachable_pair, text):
    _, ours, theirs = unreachable_pair
    check_tiktoken(ours, theirs, text)


def test_merge_replay_and_first_k_merges_of_a_rank_file_merged_by_rank(unreachable_pair):
    table, ours, theirs = unreachable_pair
    for text in corpus_lines(40):
        assert [t for w in ours.trace(text) for t in w.tokens] == list(ours.encode_full(text).tokens), text
    full = ours.with_merges(len(ours.merges))
    assert full.encode(corpus_lines(1)[0]) == ours.encode(corpus_lines(1)[0])
    none = ours.with_merges(0)
    limit = min(table[pt.symbols_to_bytes(a + b)] for a, b in ours.merges[:1])
    cut = {t: r for t, r in table.items() if r < limit}
    small = tiktoken.Encoding(name="cut", pat_str=PATTERNS["cl100k"], mergeable_ranks=cut, special_tokens={})
    for text in corpus_lines(20):
        assert none.encode(text) == small.encode(text), text


def test_a_rank_file_merged_by_rank_comes_back_from_the_reading_process(unreachable_pair):
    """Uploads are read in a process of their own and pickled back: the rank table and the note travel."""
    table, ours, theirs = unreachable_pair
    (tok, used, hint), _ = uploads.parse("files", {"llama3.tiktoken": rank_file(table).encode()}, "gpt2", "cl100k")
    assert used == "llama3.tiktoken" and tok.merge_by_rank and "cannot be built by merging lower ranks" in hint
    for text in corpus_lines(30):
        assert tok.encode(text) == theirs.encode(text), text


def test_a_reachable_rank_file_is_encoded_by_rank_and_says_nothing_about_unreachable_tokens(ranks):
    """Every rank file is encoded by rank (tiktoken's rule is its definition); a file whose tokens are all
    built from lower ranks has no note, and its merges (derived on first use) rebuild every token."""
    tok = from_tiktoken(rank_file(ranks), "cl100k", special_tokens={})
    assert tok.merge_by_rank and tok.notes == ()
    assert tok.merges == [(pt.bytes_to_symbols(a), pt.bytes_to_symbols(b)) for a, b in merges_from_ranks(ranks)]


# -- 6. added tokens whose ids leave a gap (GPT-4o) ------------------------------------------------------
@pytest.mark.parametrize("normalizer", [None, {"type": "NFC"}], ids=["plain", "pipeline"])
def test_added_tokens_leaving_a_gap_keep_the_files_ids_and_say_tokenizers_differs(trained, normalizer):
    """GPT-4o's file: <|endoftext|> 199999 and <|endofprompt|> 200018 after a 199,998-token model;
    tokenizers renumbers them to 199998 and 199999 (and only logs a warning). Here: the model's 1,000
    tokens, then ids 1,001 and 1,020."""
    data = json.loads(trained.to_str())
    size = len(data["model"]["vocab"])
    data["added_tokens"] = [
        {**added_token("<|endoftext|>", size + 1), "normalized": False, "special": True},
        {**added_token("<|endofprompt|>", size + 20), "normalized": False, "special": True},
    ]
    data["normalizer"] = normalizer
    text = json.dumps(data)
    ours, theirs = formats.from_tokenizer_json(text), tokenizers.Tokenizer.from_str(text)
    assert [theirs.token_to_id("<|endoftext|>"), theirs.token_to_id("<|endofprompt|>")] == [size, size + 1]
    assert [ours.vocab["<|endoftext|>"], ours.vocab["<|endofprompt|>"]] == [size + 1, size + 20]
    (note,) = ours.notes
    assert "would renumber 2 of them" in note and f"{size + 20:,} → {size + 1:,}" in note
    renumber = {size: size + 1, size + 1: size + 20}
    for t in ["a<|endoftext|>b <|endofprompt|>", *TEXTS]:
        ref = theirs.encode(t, add_special_tokens=False)
        enc = ours.encode_full(t)
        assert list(enc.ids) == [renumber.get(i, i) for i in ref.ids], t
        assert (list(enc.tokens), list(enc.offsets)) == (ref.tokens, ref.offsets), t
    files = {"tokenizer.json": text.encode()}
    assert "would renumber" in uploads.tokenizer_from_files(files, "gpt2")[2]


def test_added_tokens_without_a_gap_say_nothing(trained):
    data = json.loads(trained.to_str())
    data["added_tokens"] = [{**added_token("<|endoftext|>", len(data["model"]["vocab"])), "special": True}]
    assert formats.from_tokenizer_json(json.dumps(data)).notes == ()


# -- 4. regex constructs of published patterns ---------------------------------------------------------
# Each construct once, in patterns both tiktoken (Rust's regex syntax) and tokenizers (Oniguruma) read alike.
CONSTRUCTS = {
    "kimi-k2": KIMI_K2,
    "negated intersection": r"""[^\s&&[^\p{Han}]]+|[^\p{L}&&[^\s]]+|\s+""",
    "nested union": r"""[\p{N}[\p{Greek}\p{Han}]]+|[^\s[\p{Greek}]]+|\s+|\p{Greek}+""",
    "possessive and atomic": r"""(?>\p{L}+)(?:'s)?|\p{N}++|\s++|[^\s\p{L}\p{N}]+""",
    "scripts and categories": r"""\p{Han}+|\p{Hiragana}+|\p{Katakana}+|\p{Greek}+|\p{Lu}\p{Ll}*|\P{L}""",
}
REGEX_TEXTS = [
    " quick brown fox",
    "The quick brown fox jumps. 中文文本，没有空格。 日本語のテキスト ΑΒΓ αβγ",
    "Ἀθῆναι ΣΊΣΥΦΟΣ café naïve e\u0301 123456 2026-11-24 I'm we'll THEY'RE",
    "mixed中文and English単語 カタカナ ひらがな",
    "tabs\tand\r\nnewlines\n\n  spaces  ",
    "brackets [x] 12] α] 中] && ^ [^a]",
    *TEXTS,
]
regex_text = st.text(
    st.sampled_from(list("aZé 9\t\n'sΣαβ中文日本ひカ-.,[]&^\u0301ß")) | ASSIGNED,
    max_size=30,
)


@pytest.fixture(scope="module", params=list(CONSTRUCTS))
def construct(request, ranks):
    pattern = CONSTRUCTS[request.param]
    ours_tt = from_tiktoken(rank_file(ranks), pattern, special_tokens={})
    theirs_tt = tiktoken.Encoding(name=request.param, pat_str=pattern, mergeable_ranks=ranks, special_tokens={})
    data = json.loads(ours_tt and byte_level_file(ranks, pattern))
    text = json.dumps(data)
    return ours_tt, theirs_tt, formats.from_tokenizer_json(text), tokenizers.Tokenizer.from_str(text)


def test_published_regex_constructs_split_like_tiktoken_and_tokenizers(construct):
    """Kimi K2's rank file with its own pattern was mis-split (" quick" -> " " + "quick": the class
    intersection read as characters), and a tokenizer.json with && in a Split the same way."""
    ours_tt, theirs_tt, ours_hf, theirs_hf = construct
    for text in REGEX_TEXTS:
        check_tiktoken(ours_tt, theirs_tt, text)
        check_same(ours_hf, theirs_hf, text)
        check_words(ours_hf, theirs_hf, text)


def check_words(ours: bpe.Tokenizer, theirs: tokenizers.Tokenizer, text: str) -> None:
    """The words the pattern cuts (before any merge), with their spans: ids alone can agree by chance."""
    assert [(w.word, w.span) for w in ours.trace(text)] == theirs.pre_tokenizer.pre_tokenize_str(text), text


@given(text=regex_text)
@settings(max_examples=examples(120), deadline=None)
def test_random_text_through_published_regex_constructs(construct, text):
    ours_tt, theirs_tt, ours_hf, theirs_hf = construct
    check_tiktoken(ours_tt, theirs_tt, text)
    check_same(ours_hf, theirs_hf, text)
    check_words(ours_hf, theirs_hf, text)


def test_kimi_k2_pattern_keeps_the_space_with_the_word(ranks):
    tok = from_tiktoken(rank_file(ranks), KIMI_K2, special_tokens={})
    assert [w.word for w in tok.trace(" quick")] == ["Ġquick"]  # was " " + "quick"


def test_an_intersection_with_an_empty_side_is_refused_by_name(ranks):
    with pytest.raises(ValueError, match=r"empty side of its intersection \(&&\)"):
        from_tiktoken(rank_file(ranks), r"[a&&]+|\s", special_tokens={})


# -- 5. offsets after normalizers that compose starters or reorder marks ---------------------------------
COMPOSING = (
    [chr(c) for c in range(0x1100, 0x1113)]  # Hangul leading jamo
    + [chr(c) for c in range(0x1161, 0x1176)]  # vowels
    + [chr(c) for c in range(0x11A8, 0x11C3)]  # trailing
    + ["가", "각", "한", "\u0b95", "\u0bc6", "\u0bc7", "\u0bbe", "\u0bd7", "\u0995", "\u09c7", "\u09be", "\u09d7"]
    + ["\u0300", "\u0301", "\u0316", "\u0323", "\u0327", "\u0345", "\u05b0", "\u0f71", "\u0f72"]  # marks, mixed classes
    + list("中文ﬁ½Ａé e")
)
composing_text = st.lists(st.sampled_from(COMPOSING), max_size=20).map("".join)
UNICODE_NORMALIZERS = [
    {"type": "NFC"},
    {"type": "NFD"},
    {"type": "NFKC"},
    {"type": "NFKD"},
    {
        "type": "BertNormalizer",
        "clean_text": True,
        "handle_chinese_chars": True,
        "strip_accents": None,
        "lowercase": True,
    },
    {
        "type": "BertNormalizer",
        "clean_text": True,
        "handle_chinese_chars": False,
        "strip_accents": True,
        "lowercase": False,
    },
    {"type": "Sequence", "normalizers": [{"type": "NFD"}, {"type": "StripAccents"}, {"type": "NFC"}]},
]
COMPOSING_TEXTS = [
    "ab \u1100\u1161 cd",  # jamo composed by NFC: offsets (0,2),(3,4)
    "\u1100\u1161\u11a8 \u1100\u1161 x",
    "한국어 \u1112\u1161\u11ab\u1100\u116e\u11a8\u110b\u1165",  # NFD Korean
    "\u0b95\u0bc6\u0bbe \u0b95\u0bca",  # Tamil two-part vowel
    "\u0995\u09c7\u09be \u0995\u09c7\u09d7",  # Bengali
    "가\u0301\u0323 e\u0301\u0323 a\u0300\u0316\u0301",  # a Hangul syllable, then reordered marks
]


@pytest.fixture(scope="module")
def normalized_files(trained):
    out = {}
    for norm in UNICODE_NORMALIZERS:
        data = json.loads(trained.to_str())
        data["normalizer"] = norm
        text = json.dumps(data)
        out[json.dumps(norm)] = (formats.from_tokenizer_json(text), tokenizers.Tokenizer.from_str(text))
    return out


@pytest.mark.parametrize("norm", UNICODE_NORMALIZERS, ids=lambda n: n.get("type") + str(n.get("strip_accents", "")))
def test_offsets_after_composing_normalizers(normalized_files, norm):
    """Offsets were wrong wherever two starters compose (every offset of the stretch shifted) and after a
    Hangul syllable with reordered marks under BertNormalizer; ids and tokens were right."""
    ours, theirs = normalized_files[json.dumps(norm)]
    for text in COMPOSING_TEXTS:
        check_same(ours, theirs, text)


@given(text=composing_text, norm=st.sampled_from(UNICODE_NORMALIZERS))
@settings(max_examples=examples(400), deadline=None)
def test_random_composing_text_through_every_normalizer(normalized_files, text, norm):
    ours, theirs = normalized_files[json.dumps(norm)]
    check_same(ours, theirs, text)


def _every_piece_a_token(texts: list[str]) -> dict[bytes, int]:
    """The 256 bytes and every substring of the texts' bytes: each piece a pattern cuts becomes one
    token, so the ids show the split itself."""
    table = {bytes([b]): b for b in range(256)}
    for t in texts:
        data = t.encode()
        for s in sorted({data[i:j] for i in range(len(data)) for j in range(i + 2, len(data) + 1)}, key=len):
            table.setdefault(s, len(table))
    return table


@pytest.mark.parametrize(
    "pattern",
    [
        r"\w+|\W",
        r"[[:alpha:]]+|[^[:alpha:]]",
        r"[[:^alpha:]\d]+|.",
        r"\b\w+\b|.",
        r"\B.|.",
        r"[^\w\s]+|.",
        r"\d+|\s+|.",
    ],
)
def test_typed_rank_file_patterns_read_as_rust_reads_them(pattern, tmp_path):
    """A typed tiktoken pattern is Rust's regex syntax: its \\w has the joiners U+200C/U+200D and not
    ² or ½, its \\b follows that \\w, and its POSIX classes are ASCII (all were read otherwise). Saved
    as tokenizer.json, tokenizers (Oniguruma) reads the written pattern alike."""
    texts = ["a\u200db ² x½ é日 ٣ 𝟙 foo_bar", "ſS K\u212a 12 ab", "x\u200cy z9 Ａb"]
    table = _every_piece_a_token(texts)
    ours = from_tiktoken(rank_file(table), pattern, special_tokens={})
    theirs = tiktoken.Encoding(name="typed", pat_str=pattern, mergeable_ranks=table, special_tokens={})
    bpe.save(ours, tmp_path / "t.json")
    saved = tokenizers.Tokenizer.from_file(str(tmp_path / "t.json"))
    for text in texts:
        check_tiktoken(ours, theirs, text)
        assert saved.encode(text, add_special_tokens=False).ids == theirs.encode(text), text


def test_an_unknown_posix_class_is_refused_by_name():
    with pytest.raises(ValueError, match=r"POSIX class \[:letters:\]"):
        from_tiktoken(rank_file({bytes([b]): b for b in range(256)}), r"[[:letters:]]+|.", special_tokens={})
