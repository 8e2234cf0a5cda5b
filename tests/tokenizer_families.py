"""Small real tokenizer.json files of each family (GPT-2, GPT-4o, Llama 2, Metaspace, Whitespace, BERT
prefix, ignore_merges, WordPiece), trained offline with the ``tokenizers`` library itself, the texts they are
read on, and the check that ours encodes a text exactly as ``tokenizers`` does."""

from __future__ import annotations

import json
import unicodedata

import tokenizers
from hypothesis import strategies as st
from tokenizers import AddedToken, Regex, decoders, models, normalizers, processors, trainers
from tokenizers import pre_tokenizers as hf_pre

import bpe
from bpe import formats as ser
from bpe.corpora import corpus_lines

O200K = "|".join(
    [
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""\p{N}{1,3}""",
        r""" ?[^\s\p{L}\p{N}]+[\r\n/]*""",
        r"""\s*[\r\n]+""",
        r"""\s+(?!\S)""",
        r"""\s+""",
    ]
)

WORLD = [
    "def f(x):\r\n\treturn x ** 2  # square\r\n",
    "if (a && b) { c = d[0]; }\n\n\n    else:   pass",
    "Emoji 👩‍👩‍👧‍👦 family, 👍🏽 thumbs, 🇫🇷🇯🇵 flags, 🙂🙂",
    "日本語のテキストです。中文文本，没有空格。",
    "مرحبا بالعالم، هذا نص عربي",
    "café naïve résumé — e\u0301 a\u0308 n\u0303 combining",
    "Ｆｕｌｌｗｉｄｔｈ ﬁ ﬂ ½ ²",
    "Numbers 1234567 3.14159 1,000,000 2026-11-23",
    "ALL CAPS and MiXeD cAsE, don't won't I'm we'll",
    "tabs\tand  double  spaces   and\u00a0nbsp\u3000ideographic",
    "hyphen-ated|piped|words_with_under-scores",
]
TEXTS = [
    *WORLD,
    "",
    " ",
    "  leading and trailing  ",
    "\n",
    "a",
    "<|endoftext|>",
    "<|endoftext|>hi<|endoftext|>",
    "start<|endoftext|> middle <|im_start|>end",
    "x <mask> y  <mask>  z<mask>",
    "ony only pony ony.",
    "Hello world! This is a test of the tokenizer.",
    "https://example.com/path?q=1&r=two#frag",
    "0xDEADBEEF 0b1010 \\u0041 \\n",
    "Σίσυφος ΣΊΣΥΦΟΣ İstanbul ß ẞ",
    "\u200b\u200d\ufeff zero widths",
    "line one  \nline two\t\n  \n",
    "a" * 300,
    "ab" * 150 + " " + "日本" * 80,
]


def training_lines() -> list[str]:
    return corpus_lines(30_000) + WORLD * 20


def _train(tok: tokenizers.Tokenizer, trainer) -> tokenizers.Tokenizer:
    tok.train_from_iterator(training_lines(), trainer=trainer)
    return tok


def gpt2() -> dict:
    tok = tokenizers.Tokenizer(models.BPE())
    tok.pre_tokenizer = hf_pre.ByteLevel(add_prefix_space=False)
    tok.post_processor = processors.ByteLevel(trim_offsets=True)
    tok.decoder = decoders.ByteLevel()
    _train(
        tok,
        trainers.BpeTrainer(
            vocab_size=1200,
            special_tokens=["<|endoftext|>"],
            show_progress=False,
            initial_alphabet=hf_pre.ByteLevel.alphabet(),
        ),
    )
    return json.loads(tok.to_str())


def gpt4o() -> dict:
    tok = tokenizers.Tokenizer(models.BPE())
    tok.pre_tokenizer = hf_pre.Sequence(
        [hf_pre.Split(Regex(O200K), "isolated"), hf_pre.ByteLevel(add_prefix_space=False, use_regex=False)]
    )
    tok.decoder = decoders.ByteLevel()
    _train(
        tok,
        trainers.BpeTrainer(
            vocab_size=1200,
            special_tokens=["<|endoftext|>", "<|im_start|>"],
            show_progress=False,
            initial_alphabet=hf_pre.ByteLevel.alphabet(),
        ),
    )
    return json.loads(tok.to_str())


def llama2() -> dict:
    """Prepend + Replace normalizer, no pre-tokenizer, byte fallback with <0xNN>, <unk>, fuse_unk."""
    tok = tokenizers.Tokenizer(models.BPE(unk_token="<unk>", byte_fallback=True, fuse_unk=True))
    tok.normalizer = normalizers.Sequence([normalizers.Prepend("▁"), normalizers.Replace(" ", "▁")])
    tok.decoder = decoders.Sequence(
        [decoders.Replace("▁", " "), decoders.ByteFallback(), decoders.Fuse(), decoders.Strip(" ", 1, 0)]
    )
    specials = ["<unk>", "<s>", "</s>"]
    _train(
        tok,
        trainers.BpeTrainer(
            vocab_size=900, special_tokens=specials, show_progress=False, limit_alphabet=150, max_token_length=16
        ),
    )
    return llama_layout(json.loads(tok.to_str()), specials)


def llama_layout(data: dict, specials: list[str]) -> dict:
    """A trained ``tokenizer.json`` renumbered as Llama's vocabulary is: the specials, then the 256 byte tokens
    (``<0xNN>``), then the learned tokens in their order."""
    old = data["model"]["vocab"]
    vocab = {t: i for i, t in enumerate(specials)}
    for b in range(256):
        vocab[f"<0x{b:02X}>"] = len(vocab)
    for t, _ in sorted(old.items(), key=lambda kv: kv[1]):
        vocab.setdefault(t, len(vocab))
    data["model"]["vocab"] = vocab
    for a in data["added_tokens"]:
        a["id"] = vocab[a["content"]]
    return data


def metaspace(scheme: str = "always", split: bool = True) -> dict:
    tok = tokenizers.Tokenizer(models.BPE(unk_token="<unk>"))
    tok.pre_tokenizer = hf_pre.Metaspace(prepend_scheme=scheme, split=split)
    tok.decoder = decoders.Metaspace(prepend_scheme=scheme, split=split)
    _train(
        tok,
        trainers.BpeTrainer(
            vocab_size=900,
            special_tokens=["<unk>", "<s>"],
            show_progress=False,
            limit_alphabet=200,
            max_token_length=12,
        ),
    )
    return json.loads(tok.to_str())


def whitespace() -> dict:
    """The tokenizers quicktour: Whitespace, NFD + Lowercase + StripAccents, [UNK], end-of-word suffix."""
    tok = tokenizers.Tokenizer(models.BPE(unk_token="[UNK]", end_of_word_suffix="</w>"))
    tok.normalizer = normalizers.Sequence([normalizers.NFD(), normalizers.Lowercase(), normalizers.StripAccents()])
    tok.pre_tokenizer = hf_pre.Whitespace()
    tok.decoder = decoders.BPEDecoder(suffix="</w>")
    _train(
        tok,
        trainers.BpeTrainer(
            vocab_size=900,
            special_tokens=["[UNK]", "[CLS]", "[SEP]"],
            show_progress=False,
            end_of_word_suffix="</w>",
            limit_alphabet=200,
        ),
    )
    return json.loads(tok.to_str())


def prefixed() -> dict:
    """BertNormalizer, BertPreTokenizer, a ## continuing-subword prefix."""
    tok = tokenizers.Tokenizer(models.BPE(unk_token="[UNK]", continuing_subword_prefix="##"))
    tok.normalizer = normalizers.BertNormalizer()
    tok.pre_tokenizer = hf_pre.BertPreTokenizer()
    tok.decoder = decoders.WordPiece()
    _train(
        tok,
        trainers.BpeTrainer(
            vocab_size=900,
            special_tokens=["[UNK]"],
            show_progress=False,
            continuing_subword_prefix="##",
            limit_alphabet=200,
        ),
    )
    return json.loads(tok.to_str())


def bert_wordpiece() -> dict:
    """A BERT-style WordPiece file (not BPE, but read too): BertNormalizer, BertPreTokenizer, [UNK]."""
    tok = tokenizers.Tokenizer(models.WordPiece(unk_token="[UNK]", max_input_chars_per_word=30))
    tok.normalizer = normalizers.BertNormalizer()
    tok.pre_tokenizer = hf_pre.BertPreTokenizer()
    tok.decoder = decoders.WordPiece()
    _train(
        tok,
        trainers.WordPieceTrainer(
            vocab_size=900, special_tokens=["[UNK]", "[CLS]", "[SEP]"], show_progress=False, limit_alphabet=200
        ),
    )
    return json.loads(tok.to_str())


def ignore_merges() -> dict:
    """Llama 3 style: the GPT-4o family with ignore_merges, and a whole word reachable only that way."""
    data = gpt4o()
    data["model"]["ignore_merges"] = True
    data["model"]["vocab"]["Ġtokenization"] = len(data["model"]["vocab"])
    return data


def with_added(data: dict, normalized_ok: bool = True) -> dict:
    """Added tokens with every option: lstrip + rstrip, single_word, normalized."""
    tok = tokenizers.Tokenizer.from_str(json.dumps(data))
    tok.add_special_tokens([AddedToken("<mask>", lstrip=True, rstrip=True, normalized=False)])
    tok.add_tokens([AddedToken("ony", single_word=True, normalized=normalized_ok)])
    return json.loads(tok.to_str())


FAMILIES = {
    "gpt2": lambda: with_added(gpt2()),
    "gpt4o": gpt4o,
    "llama2": lambda: with_added(llama2()),
    "metaspace-always": lambda: with_added(metaspace()),
    "metaspace-first-nosplit": lambda: metaspace("first", False),
    "metaspace-never": lambda: metaspace("never", True),
    "whitespace": lambda: with_added(whitespace()),
    "prefixed-bert": prefixed,
    "ignore-merges": ignore_merges,
    "bert-wordpiece": bert_wordpiece,
}

_files: dict[str, tuple[bpe.Tokenizer, tokenizers.Tokenizer, str]] = {}


def family(name: str):
    if name not in _files:
        text = json.dumps(FAMILIES[name]())
        _files[name] = (ser.from_tokenizer_json(text), tokenizers.Tokenizer.from_str(text), text)
    return _files[name]


def check_same(ours: bpe.Tokenizer, theirs: tokenizers.Tokenizer, text: str) -> None:
    enc = ours.encode_full(text)
    ref = theirs.encode(text, add_special_tokens=False)
    assert list(enc.tokens) == ref.tokens, text
    assert list(enc.ids) == ref.ids, text
    assert list(enc.offsets) == ref.offsets, text
    assert ours.decode(list(enc.ids)) == theirs.decode(ref.ids, skip_special_tokens=False), text


def variant(pre=None, norm=None, post=None) -> tuple[bpe.Tokenizer, tokenizers.Tokenizer]:
    data = json.loads(family("gpt2")[2])
    data["pre_tokenizer"] = (
        {
            "type": "Sequence",
            "pretokenizers": [
                pre,
                {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": False, "use_regex": False},
            ],
        }
        if pre and pre["type"] != "ByteLevel"
        else pre or data["pre_tokenizer"]
    )
    data["normalizer"] = norm
    if post is not None:
        data["post_processor"] = post
    text = json.dumps(data)
    return ser.from_tokenizer_json(text), tokenizers.Tokenizer.from_str(text)


# -- random text ------------------------------------------------------------------------------------
POOL = list("aZ ｡9 \t\r\n_-|.,'!?éß日本ع") + [
    "e\u0301",
    "👩\u200d👩\u200d👧",
    "👍🏽",
    "🇫🇷",
    "<|endoftext|>",
    "<mask>",
    "ony",
    "  ",
    "123",
    "İ",
    "ﬁ",
    "Σ",
    "\u3000",
    "\u0308",
]
# Random characters come from those Unicode 3.2 already had (the emoji come from POOL): the libraries'
# Unicode tables differ in age (the regex package's U+3D000 is a letter, unassigned to tokenizers' Rust
# regex; U+1CF00 is a mark to Python 3.11, not to tokenizers' unicode-normalization crate).
ASSIGNED = st.characters(exclude_categories=["Cn", "Cs"]).filter(
    lambda c: unicodedata.ucd_3_2_0.category(c) not in ("Cn", "Cs")
)
random_text = st.lists(st.sampled_from(POOL) | st.text(ASSIGNED, max_size=3), max_size=25).map("".join)
