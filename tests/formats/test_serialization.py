"""bpe.formats: tokenizer.json, vocab.json + merges.txt, and the training-log CSV.

The differential tests load what we write with the real ``tokenizers`` library and
check that it cuts text into the same tokens, ids and offsets as our Tokenizer, and
the other way round for files the ``tokenizers`` library trained itself.
"""

from __future__ import annotations

import csv
import io
import json
import unicodedata

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis_support import examples

tokenizers = pytest.importorskip("tokenizers")
from tokenizers import decoders, models, trainers  # noqa: E402
from tokenizers import pre_tokenizers as hf_pre  # noqa: E402

import bpe  # noqa: E402
from bpe import formats as ser  # noqa: E402

COURSE = [
    "This is the Hugging Face Course.",
    "This chapter is about tokenization.",
    "This section shows several tokenizer algorithms.",
    "Hopefully, you will be able to understand how they are trained and generate tokens.",
]

FALLBACK_TEXT = (
    "The quick brown fox jumps over the lazy dog. Byte pair encoding merges the most frequent "
    "pair of symbols, again and again, until the vocabulary is large enough. It's what GPT-2 "
    "does; they've used it since 2019, and we'll keep using it in 2025 and 2026.\n\n"
) * 40


def english(n_bytes: int) -> str:
    try:
        from bpe.corpora import english_corpus
    except ImportError:  # the corpus module is optional for these tests
        return FALLBACK_TEXT[:n_bytes]
    return english_corpus(n_bytes)


TEXTS = [
    "This is the Hugging Face Course.",
    "Hopefully, you'll understand how they're trained!",
    "Hello, world! 😀 你好，世界 🇫🇷 café naïve",
    "line one\nline two\r\n\n  indented\tTAB   trailing   ",
    "<|endoftext|>Start<|endoftext|> middle<|endoftext|>",
    "numbers 1234567 and 3.14159, it'S I'M WE'LL",
    "   ",
    "",
    "a" * 130 + " " + "tokenization" * 12,
]

SPECIAL = "<|endoftext|>"


def hf_from(tmp_path, tok: bpe.Tokenizer, name: str = "tokenizer.json"):
    path = tmp_path / name
    bpe.save(tok, path)
    return tokenizers.Tokenizer.from_file(str(path))


def assert_same(tok: bpe.Tokenizer, hf, text: str) -> None:
    ours = tok.encode_full(text)
    theirs = hf.encode(text, add_special_tokens=False)
    assert list(ours.tokens) == theirs.tokens, text
    assert list(ours.ids) == theirs.ids, text
    assert [tuple(o) for o in ours.offsets] == [tuple(o) for o in theirs.offsets], text
    assert tok.decode(ours.ids) == hf.decode(theirs.ids, skip_special_tokens=False), text


# -- tokenizers trained by us, read by the tokenizers library -------------------------------------
TRAINED = {
    "course-gpt2": (COURSE, dict(pre_tokenizer="gpt2", special_tokens=[SPECIAL], vocab_size=50)),
    "english-gpt2": (
        None,
        dict(pre_tokenizer="gpt2", vocab_size=400, full_byte_alphabet=True, special_tokens=[SPECIAL]),
    ),
    "english-gpt4": (
        None,
        dict(pre_tokenizer="gpt4", vocab_size=500, full_byte_alphabet=True, special_tokens=[SPECIAL]),
    ),
    "english-whitespace": (None, dict(pre_tokenizer="whitespace", vocab_size=300, special_tokens=[SPECIAL])),
    "course-space-suffix": (COURSE, dict(pre_tokenizer="space-suffix", vocab_size=120, special_tokens=[SPECIAL])),
    "course-wordpiece": (
        COURSE,
        dict(pre_tokenizer="whitespace", vocab_size=70, algorithm="wordpiece", special_tokens=[SPECIAL]),
    ),
    "english-wordpiece": (None, dict(pre_tokenizer="whitespace", vocab_size=250, algorithm="wordpiece")),
    "english-space-suffix-wordpiece": (None, dict(pre_tokenizer="space-suffix", vocab_size=250, algorithm="wordpiece")),
}

_trained_cache: dict[str, bpe.Tokenizer] = {}


def trained(name: str) -> bpe.Tokenizer:
    if name not in _trained_cache:
        corpus, options = TRAINED[name]
        _trained_cache[name] = bpe.train(corpus if corpus is not None else english(50_000), **options)
    return _trained_cache[name]


@pytest.mark.parametrize("name", TRAINED)
def test_tokenizers_library_agrees_with_our_file(tmp_path, name):
    tok = trained(name)
    hf = hf_from(tmp_path, tok)
    for text in [*TEXTS, english(3_000)]:
        assert_same(tok, hf, text)


def test_course_file_looks_like_the_documented_format(tmp_path):
    tok = trained("course-gpt2")
    data = json.loads(ser.to_tokenizer_json(tok))
    assert data["version"] == "1.0"
    assert data["added_tokens"] == [
        {
            "id": tok.vocab[SPECIAL],
            "content": SPECIAL,
            "single_word": False,
            "lstrip": False,
            "rstrip": False,
            "normalized": False,
            "special": True,
        }
    ]
    assert data["pre_tokenizer"] == {
        "type": "ByteLevel",
        "add_prefix_space": False,
        "trim_offsets": True,
        "use_regex": True,
    }
    assert data["decoder"]["type"] == "ByteLevel"
    model = data["model"]
    assert model["type"] == "BPE" and model["unk_token"] is None and model["end_of_word_suffix"] is None
    assert model["merges"] == [list(m) for m in tok.merges]  # pairs, the modern format
    assert model["vocab"] == tok.vocab
    assert '["Ġ", "t"]' in ser.to_tokenizer_json(tok)  # merges stay on one line each, readable


def test_gpt4_and_whitespace_components():
    gpt4 = json.loads(ser.to_tokenizer_json(trained("english-gpt4")))["pre_tokenizer"]
    assert gpt4["type"] == "Sequence"
    split, byte_level = gpt4["pretokenizers"]
    assert split["pattern"] == {"Regex": bpe.pre_tokenizers.GPT4_PATTERN} and split["behavior"] == "Isolated"
    assert byte_level["type"] == "ByteLevel" and byte_level["use_regex"] is False
    ws = json.loads(ser.to_tokenizer_json(trained("english-whitespace")))
    assert ws["pre_tokenizer"] == {"type": "WhitespaceSplit"}
    assert ws["model"]["unk_token"] == "[UNK]"


def test_unknown_characters_become_unk_in_both(tmp_path):
    tok = trained("english-whitespace")
    hf = hf_from(tmp_path, tok)
    text = "zebra ☃ Ωmega"
    assert "[UNK]" in tok.tokenize(text)
    assert_same(tok, hf, text)


def test_truncated_tokenizer_with_merges_k(tmp_path):
    tok = trained("english-gpt2").with_merges(20)
    hf = hf_from(tmp_path, tok)
    for text in TEXTS:
        assert_same(tok, hf, text)


# Characters that Python 3.11's unicodedata (Unicode 14) does not know are left out: the `regex`
# package behind our pre-tokenizers has newer Unicode tables than the tokenizers library's
# Oniguruma, so letters added in recent Unicode versions (U+0558, U+11DE0, ...) are \p{L} or \p{N}
# for us but not for it. Every assigned character agrees.
KNOWN_TEXT = st.text(
    st.characters(blacklist_categories=("Cs", "Cn")) | st.sampled_from(list(" \n\t'sdtlmvre0123aA.,!😀")),
    max_size=60,
)


@pytest.mark.parametrize("name", ["english-gpt2", "english-gpt4"])
@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=KNOWN_TEXT)
def test_property_byte_level_ids_equal(tmp_path_factory, name, text):
    hf = _hf_cached(tmp_path_factory, name)
    tok = trained(name)
    assert tok.encode(text) == hf.encode(text, add_special_tokens=False).ids


@settings(max_examples=examples(200), deadline=None)
@given(
    text=st.text(
        st.sampled_from(list("thesiao nrg\n\t.,'")) | st.characters(blacklist_categories=("Cs", "Cn")), max_size=60
    )
)
def test_property_whitespace_and_space_suffix_tokens_equal(tmp_path_factory, text):
    for name in ("english-whitespace", "course-space-suffix", "english-wordpiece"):
        tok, hf = trained(name), _hf_cached(tmp_path_factory, name)
        assert tok.tokenize(text) == hf.encode(text, add_special_tokens=False).tokens


_hf_cache: dict[str, object] = {}


def _hf_cached(tmp_path_factory, name: str):
    if name not in _hf_cache:
        path = tmp_path_factory.mktemp("hf") / f"{name}.json"
        bpe.save(trained(name), path)
        _hf_cache[name] = tokenizers.Tokenizer.from_file(str(path))
    return _hf_cache[name]


def test_wordpiece_export_uses_the_wordpiece_model():
    data = json.loads(ser.to_tokenizer_json(trained("course-wordpiece")))
    model = data["model"]
    assert model["type"] == "WordPiece" and model["continuing_subword_prefix"] == "##"
    assert model["unk_token"] == "[UNK]" and "merges" not in model
    assert data["decoder"] == {"type": "WordPiece", "prefix": "##", "cleanup": False}


def test_sennrich_cannot_be_a_tokenizer_json_but_can_be_vocab_merges():
    tok = bpe.train(COURSE, pre_tokenizer="sennrich", vocab_size=80)
    with pytest.raises(ValueError, match="sennrich.*merges.txt"):
        ser.to_tokenizer_json(tok)
    vocab, merges = ser.to_vocab_merges(tok)
    back = ser.from_vocab_merges(vocab, merges, pre_tokenizer="sennrich")
    assert back.vocab == tok.vocab and back.merges == tok.merges
    for text in TEXTS:
        assert back.tokenize(text) == tok.tokenize(text)


# -- round trips ----------------------------------------------------------------------------------
@pytest.mark.parametrize("name", TRAINED)
def test_round_trip_tokenizer_json(tmp_path, name):
    tok = trained(name)
    path = tmp_path / "tokenizer.json"
    bpe.save(tok, path)
    back = bpe.load(path)
    assert back.vocab == tok.vocab
    assert back.special_tokens == tok.special_tokens
    assert back.pre_tokenizer == tok.pre_tokenizer and back.algorithm == tok.algorithm
    if tok.algorithm == "bpe":
        assert back.merges == tok.merges
    else:
        assert back.merges == []  # the WordPiece format has no merges; tokens do not need them
    for text in TEXTS:
        assert back.encode_full(text) == tok.encode_full(text)
    assert ser.from_tokenizer_json(path.read_bytes()).vocab == tok.vocab  # bytes work too
    assert ser.to_tokenizer_json(back) == ser.to_tokenizer_json(tok) or tok.algorithm == "wordpiece"


@pytest.mark.parametrize("name", ["course-gpt2", "english-gpt2", "english-gpt4", "english-whitespace"])
def test_round_trip_vocab_merges(tmp_path, name):
    tok = trained(name)
    vocab_text, merges_text = ser.to_vocab_merges(tok)
    assert merges_text.startswith("#version: 0.2\n")
    assert merges_text.splitlines()[1:] == [f"{a} {b}" for a, b in tok.merges]
    assert json.loads(vocab_text) == tok.vocab
    back = ser.from_vocab_merges(
        vocab_text, merges_text, pre_tokenizer=tok.pre_tokenizer, special_tokens=tok.special_tokens
    )
    assert back.vocab == tok.vocab and back.merges == tok.merges
    for text in TEXTS:
        assert back.encode(text) == tok.encode(text)
    # bytes in, and the tokenizers library reads the same two files
    assert (
        ser.from_vocab_merges(
            vocab_text.encode(), merges_text.encode(), tok.pre_tokenizer, special_tokens=tok.special_tokens
        ).merges
        == tok.merges
    )
    if tok.byte_level:
        (tmp_path / "vocab.json").write_text(vocab_text, encoding="utf-8")
        (tmp_path / "merges.txt").write_text(merges_text, encoding="utf-8")
        hf = tokenizers.Tokenizer(models.BPE.from_file(str(tmp_path / "vocab.json"), str(tmp_path / "merges.txt")))
        hf.pre_tokenizer = tokenizers.Tokenizer.from_str(ser.to_tokenizer_json(tok)).pre_tokenizer
        for text in TEXTS:
            if SPECIAL not in text:
                assert hf.encode(text).ids == tok.encode(text)


def test_vocab_merges_refuses_tokens_with_spaces():
    tok = trained("course-space-suffix")
    assert any(" " in t for a, b in tok.merges for t in (a, b))
    with pytest.raises(ValueError, match="whitespace"):
        ser.to_vocab_merges(tok)
    with pytest.raises(ValueError, match="BPE format"):
        ser.to_vocab_merges(trained("course-wordpiece"))


# -- files trained elsewhere ----------------------------------------------------------------------
def _hf_trained(tmp_path, *, byte_level: bool = True, vocab_size: int = 400):
    hf = tokenizers.Tokenizer(models.BPE(unk_token=None if byte_level else "[UNK]"))
    if byte_level:
        hf.pre_tokenizer = hf_pre.ByteLevel(add_prefix_space=False)
        hf.decoder = decoders.ByteLevel()
        trainer = trainers.BpeTrainer(
            vocab_size=vocab_size,
            special_tokens=[SPECIAL],
            show_progress=False,
            initial_alphabet=hf_pre.ByteLevel.alphabet(),
        )
    else:
        hf.pre_tokenizer = hf_pre.WhitespaceSplit()
        trainer = trainers.BpeTrainer(vocab_size=vocab_size, special_tokens=["[UNK]", SPECIAL], show_progress=False)
    hf.train_from_iterator(english(40_000).splitlines(), trainer=trainer)
    path = tmp_path / "trained-elsewhere.json"
    hf.save(str(path))
    return hf, path


@pytest.mark.parametrize("byte_level", [True, False], ids=["bytelevel", "whitespacesplit"])
def test_reads_a_tokenizer_json_trained_by_the_tokenizers_library(tmp_path, byte_level):
    hf, path = _hf_trained(tmp_path, byte_level=byte_level)
    tok = bpe.load(path)
    assert tok.pre_tokenizer == ("gpt2" if byte_level else "whitespace")
    assert SPECIAL in tok.special_tokens
    assert tok.vocab == hf.get_vocab()
    texts = TEXTS if byte_level else [t for t in TEXTS if "😀" not in t]
    for text in [*texts, english(5_000)[-2_000:]]:
        assert tok.tokenize(text) == hf.encode(text).tokens
        assert tok.encode(text) == hf.encode(text).ids
    if byte_level:
        assert tok.decode(tok.encode(TEXTS[2])) == TEXTS[2]


def test_reads_old_style_merges_as_strings(tmp_path):
    hf, path = _hf_trained(tmp_path)
    data = json.loads(path.read_text(encoding="utf-8"))
    data["model"]["merges"] = [" ".join(pair) for pair in data["model"]["merges"]]
    old = ser.from_tokenizer_json(json.dumps(data))
    new = bpe.load(path)
    assert old.merges == new.merges and old.vocab == new.vocab
    for text in TEXTS:
        assert old.tokenize(text) == hf.encode(text).tokens


def test_reads_gpt2_style_file_with_unrelated_post_processor(tmp_path):
    """GPT-2's own tokenizer.json has a ByteLevel post-processor and decoder; both are fine."""
    tok = trained("course-gpt2")
    data = json.loads(ser.to_tokenizer_json(tok))
    data["post_processor"] = {"type": "ByteLevel", "add_prefix_space": True, "trim_offsets": False, "use_regex": True}
    data["decoder"] = {"type": "ByteLevel", "add_prefix_space": True, "trim_offsets": True, "use_regex": True}
    assert ser.from_tokenizer_json(json.dumps(data)).vocab == tok.vocab


def test_split_gpt2_regex_then_bytelevel_reads_as_gpt2():
    data = json.loads(ser.to_tokenizer_json(trained("english-gpt4")))
    data["pre_tokenizer"]["pretokenizers"][0]["pattern"]["Regex"] = bpe.pre_tokenizers.GPT2_PATTERN
    assert ser.from_tokenizer_json(json.dumps(data)).pre_tokenizer == "gpt2"


# -- bad input ------------------------------------------------------------------------------------
def _course_json() -> dict:
    return json.loads(ser.to_tokenizer_json(trained("course-gpt2")))


def test_malformed_json():
    with pytest.raises(ValueError, match="not valid JSON"):
        ser.from_tokenizer_json('{"model": {"type": "BPE",')
    with pytest.raises(ValueError, match="empty"):
        ser.from_tokenizer_json("")
    with pytest.raises(ValueError, match="JSON object"):
        ser.from_tokenizer_json("[1, 2]")
    with pytest.raises(ValueError, match='no "model"'):
        ser.from_tokenizer_json('{"version": "1.0"}')
    with pytest.raises(ValueError, match="str or bytes"):
        ser.from_tokenizer_json(42)


def test_binary_bytes():
    with pytest.raises(ValueError, match="not UTF-8"):
        ser.from_tokenizer_json(b"\x89PNG\r\n\x1a\n\x00\x00\xff\xfe")
    with pytest.raises(ValueError, match="not UTF-8"):
        ser.from_vocab_merges(b"\xff{}", "#version: 0.2\n")


def test_bom_is_accepted():
    text = ser.to_tokenizer_json(trained("course-gpt2"))
    assert ser.from_tokenizer_json(("\ufeff" + text).encode("utf-8")).vocab == trained("course-gpt2").vocab


def test_unigram_and_wordlevel_models_are_refused(tmp_path):
    uni = tokenizers.Tokenizer(models.Unigram())
    uni.train_from_iterator(COURSE * 3, trainer=trainers.UnigramTrainer(vocab_size=40, show_progress=False))
    uni.save(str(tmp_path / "unigram.json"))
    with pytest.raises(ValueError, match="Unigram model; BPE Explorer reads BPE models only"):
        bpe.load(tmp_path / "unigram.json")
    data = _course_json()
    data["model"] = {"type": "WordLevel", "vocab": {"a": 0}, "unk_token": "a"}
    with pytest.raises(ValueError, match="WordLevel model"):
        ser.from_tokenizer_json(json.dumps(data))


def test_merge_with_unknown_token():
    data = _course_json()
    data["model"]["merges"].append(["Ġzebra", "s"])
    n = len(data["model"]["merges"])
    with pytest.raises(ValueError, match=f"Merge {n} .*'Ġzebra'.*not in the vocabulary"):
        ser.from_tokenizer_json(json.dumps(data))
    data = _course_json()
    data["model"]["merges"][0] = ["T", "h", "is"]
    with pytest.raises(ValueError, match="Merge 1 .*two tokens"):
        ser.from_tokenizer_json(json.dumps(data))
    data = _course_json()
    del data["model"]["vocab"]["Th"]
    with pytest.raises(ValueError, match="'Th'.*not in the vocabulary"):
        ser.from_tokenizer_json(json.dumps(data))


@pytest.mark.parametrize(
    ("change", "word"),
    [
        (lambda d: d.__setitem__("pre_tokenizer", {"type": "UnicodeScripts"}), "pre-tokenizer 'UnicodeScripts'"),
        (
            lambda d: d.__setitem__("normalizer", {"type": "Precompiled", "precompiled_charsmap": ""}),
            "normalizer 'Precompiled'",
        ),
        (lambda d: d.__setitem__("decoder", {"type": "CTC"}), "decoder 'CTC'"),
        (lambda d: d.__setitem__("post_processor", {"type": "Mystery"}), "post-processor 'Mystery'"),
        (lambda d: d["model"].__setitem__("dropout", 0.1), "dropout"),
        (
            lambda d: d.__setitem__(
                "pre_tokenizer", {"type": "Split", "pattern": {"Regex": "(?<"}, "behavior": "Isolated"}
            ),
            "not a regex",
        ),
        (lambda d: d["model"].__setitem__("vocab", {"a": 0, "b": 0}), "share the id"),
        (lambda d: d["model"].__setitem__("vocab", ["a", "b"]), "vocabulary"),
        (lambda d: d["model"].__setitem__("type", "Mystery"), "Mystery model"),
        (lambda d: d["model"].pop("merges"), "merges"),
        (lambda d: d["added_tokens"].append({"id": 0, "content": "<new>"}), "already belongs"),
    ],
)
def test_refused_files_name_the_reason(change, word):
    data = _course_json()
    change(data)
    with pytest.raises(ValueError, match=word):
        ser.from_tokenizer_json(json.dumps(data))


def test_files_with_any_pipeline_option_load_and_agree_with_tokenizers():
    """Metaspace, Whitespace, no pre-tokenizer, add_prefix_space, a normaliser and the model options load and cut
    like the tokenizers library (more in test_real_tokenizers.py)."""
    changes = [
        lambda d: d.__setitem__("pre_tokenizer", {"type": "Metaspace", "replacement": "▁"}),
        lambda d: d.__setitem__("pre_tokenizer", {"type": "Whitespace"}),
        lambda d: d.__setitem__("pre_tokenizer", None),
        lambda d: d["pre_tokenizer"].__setitem__("add_prefix_space", True),
        lambda d: d.__setitem__("normalizer", {"type": "Lowercase"}),
        lambda d: d.__setitem__("normalizer", {"type": "NFKC"}),
        lambda d: d["model"].__setitem__("byte_fallback", True),
        lambda d: d["model"].__setitem__("end_of_word_suffix", "</w>"),
        lambda d: d["model"].__setitem__("ignore_merges", True),
    ]
    text = "This is not a token. Ｔｈｉｓ  IS\tthe ﬁrst"
    for change in changes:
        data = _course_json()
        change(data)
        tok = ser.from_tokenizer_json(json.dumps(data))
        theirs = tokenizers.Tokenizer.from_str(json.dumps(data)).encode(text, add_special_tokens=False)
        ours = tok.encode_full(text)
        assert (list(ours.tokens), list(ours.ids), list(ours.offsets)) == (theirs.tokens, theirs.ids, theirs.offsets)


def test_vocab_merges_errors():
    vocab = json.dumps({"a": 0, "b": 1, "ab": 2})
    assert ser.from_vocab_merges(vocab, "#version: 0.2\na b\n", "whitespace").merges == [("a", "b")]
    with pytest.raises(ValueError, match="not valid JSON"):
        ser.from_vocab_merges("{'a': 0}", "a b")
    with pytest.raises(ValueError, match="Line 2 of merges.txt .*two tokens"):
        ser.from_vocab_merges(vocab, "#version: 0.2\na b ab\n")
    with pytest.raises(ValueError, match="Line 1 of merges.txt .*'c'.*not in the vocabulary"):
        ser.from_vocab_merges(vocab, "a c\n")
    with pytest.raises(ValueError, match="Unknown pre-tokenizer"):
        ser.from_vocab_merges(vocab, "a b\n", "bert")
    with pytest.raises(ValueError, match="special token"):
        ser.from_vocab_merges(vocab, "a b\n", special_tokens=["<s>"])
    with pytest.raises(ValueError, match="whole number"):
        ser.from_vocab_merges(json.dumps({"a": "zero"}), "")


def test_writing_refuses_inconsistent_tokenizers():
    tok = bpe.Tokenizer(["a", "b"], [("a", "b")])
    with pytest.raises(ValueError, match="'ab', which is not in the vocabulary"):
        ser.to_tokenizer_json(tok)
    with pytest.raises(ValueError, match="bpe.Tokenizer"):
        ser.to_tokenizer_json("not a tokenizer")


# -- training log ---------------------------------------------------------------------------------
def test_training_log_csv_hug_corpus():
    history = bpe.run_training(bpe.parse_word_counts("hug 10\npug 5\npun 12\nbun 4\nhugs 5"), num_merges=3)
    text = ser.training_log_csv(history)
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0] == ["step", "left", "right", "new_token", "count", "tied_with", "tied_pairs"]
    assert rows[1:] == [
        ["1", "u", "g", "ug", "20", "0", "[]"],
        ["2", "u", "n", "un", "16", "0", "[]"],
        ["3", "h", "ug", "hug", "15", "0", "[]"],
    ]
    assert text.startswith("step,left,right,new_token,count,tied_with,tied_pairs\n1,u,g,ug,20,0,[]\n")


def test_training_log_csv_ties_and_quoting():
    history = bpe.run_training({"ab": 3, "cd": 3, "e,f": 3}, num_merges=2)
    rows = list(csv.DictReader(io.StringIO(ser.training_log_csv(history))))
    assert (rows[0]["left"], rows[0]["right"]) == ("a", "b")
    assert rows[0]["tied_with"] == "3" and json.loads(rows[0]["tied_pairs"]) == [["c", "d"], ["e", ","], [",", "f"]]
    assert rows[1]["tied_with"] == "2" and json.loads(rows[1]["tied_pairs"]) == [["e", ","], [",", "f"]]


def test_training_log_csv_keeps_spaces_in_tied_pairs():
    """How BPE works merges trailing spaces: the tied pairs must read back exactly (found in a review:
    the old "a b | c d" text could not be split when a token was a space)."""
    history = bpe.run_training(["aa abc abc"], pre_tokenizer="space-suffix", num_merges=4)
    rows = list(csv.DictReader(io.StringIO(ser.training_log_csv(history))))
    assert [(r["left"], r["right"]) for r in rows] == [("a", "b"), ("ab", "c"), ("a", "a"), ("aa", " ")]
    assert json.loads(rows[3]["tied_pairs"]) == [["abc", " "]]


def test_training_log_csv_wordpiece_has_score():
    history = bpe.run_training({"hug": 10, "pug": 5, "pun": 12}, num_merges=2, algorithm="wordpiece")
    rows = list(csv.DictReader(io.StringIO(ser.training_log_csv(history))))
    assert list(rows[0]) == ["step", "left", "right", "new_token", "count", "tied_with", "tied_pairs", "score"]
    assert float(rows[0]["score"]) == pytest.approx(float(history.state(1).score))
    with pytest.raises(ValueError, match="History"):
        ser.training_log_csv("hug 10")


def test_all_assigned_characters_pre_tokenize_alike():
    """Spot-check of the Unicode-version note above: a sample of assigned characters from every
    plane pre-tokenizes the same in both libraries (the full scan takes minutes)."""
    hf = _hf_cached_plain("english-gpt4")
    chars = [chr(c) for c in range(0x20, 0x30000, 97) if unicodedata.category(chr(c)) not in ("Cs", "Cn")]
    text = " ".join(a + b for a, b in zip(chars, chars[1:]))
    tok = trained("english-gpt4")
    assert tok.encode(text) == hf.encode(text).ids


def _hf_cached_plain(name: str):
    return tokenizers.Tokenizer.from_str(ser.to_tokenizer_json(trained(name)))


def test_space_suffix_pattern_is_the_pre_tokenizers_one():
    assert ser.SPACE_SUFFIX_PATTERN == bpe.pre_tokenizers._PATTERNS["space-suffix"].pattern


def test_export_problems_names_formats_that_cannot_hold_a_tokenizer():
    sen = bpe.train({"low": 5, "lower": 2}, pre_tokenizer="sennrich", num_merges=3)
    assert "vocab.json + merges.txt" in bpe.export_problems(sen)["tokenizer.json"]
    assert bpe.export_problems(sen)["vocab.json + merges.txt"] is None
    suf = bpe.train("aa abc abc", pre_tokenizer="space-suffix", num_merges=4)
    assert "whitespace" in bpe.export_problems(suf)["vocab.json + merges.txt"]
    with pytest.raises(ValueError):
        bpe.to_vocab_merges(suf)
    hug = bpe.train({"hug": 10, "pug": 5}, num_merges=2)
    assert bpe.export_problems(hug) == {"tokenizer.json": None, "vocab.json + merges.txt": None}
