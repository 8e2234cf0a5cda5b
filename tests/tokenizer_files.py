"""Tokenizer files the tests build in the shapes published files take: ``.tiktoken`` rank files, byte-level and
WordPiece ``tokenizer.json`` files written by the ``tokenizers`` library, and the odd shapes real files have
(an empty token, tokens no merge builds, added tokens leaving a gap, a published split pattern)."""

from __future__ import annotations

import base64
import json

import tokenizers
from tokenizers import decoders, models, normalizers, trainers
from tokenizers import pre_tokenizers as hf_pre

from bpe import pre_tokenizers as pt
from bpe.formats.rank_files import merges_from_ranks
from bpe.presets import COURSE_SENTENCES, MULTILINGUAL

COURSE_CORPUS = list(COURSE_SENTENCES + MULTILINGUAL) * 3  # what the small popular-file stand-ins train on


def rank_file(ranks: dict[bytes, int]) -> str:
    """The ``.tiktoken`` text of ``ranks``: one ``base64(token) rank`` line per token, in rank order."""
    lines = [f"{base64.b64encode(t).decode() or '='} {r}\n" for t, r in sorted(ranks.items(), key=lambda kv: kv[1])]
    return "".join(lines)  # an empty token is written "=", as in Whisper's multilingual.tiktoken


def big_tokenizer_json(n_tokens: int, seed: int = 0) -> bytes:
    """A valid byte-level BPE ``tokenizer.json`` of ``n_tokens`` tokens (the 256 bytes, then one merge
    per new token, each an earlier token of at most 22 characters and one byte): 400,000
    tokens make a file of about 20 MB, as big a vocabulary as real models have."""
    import random

    from bpe.pre_tokenizers import bytes_to_unicode

    rng = random.Random(seed)
    table = bytes_to_unicode()
    tokens = [table[b] for b in range(256)]
    short, seen, merges = list(tokens), set(tokens), []
    while len(tokens) < n_tokens:
        a, b = short[rng.randrange(len(short))], tokens[rng.randrange(256)]
        if a + b not in seen:
            seen.add(a + b)
            tokens.append(a + b)
            merges.append([a, b])
            if len(a) < 23:
                short.append(a + b)
    model = {"type": "BPE", "vocab": {t: i for i, t in enumerate(tokens)}, "merges": merges}
    data = {
        "version": "1.0",
        "added_tokens": [],
        "normalizer": None,
        "pre_tokenizer": {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": True},
        "post_processor": None,
        "decoder": {"type": "ByteLevel", "add_prefix_space": True, "trim_offsets": True, "use_regex": True},
        "model": model,
    }
    return json.dumps(data, ensure_ascii=False).encode()


def byte_level_bpe(lines: list[str], vocab_size: int):
    """A GPT-2-style byte-level BPE trained here by ``tokenizers`` on ``lines`` (a ``tokenizers.Tokenizer``)."""
    tok = tokenizers.Tokenizer(models.BPE())
    tok.pre_tokenizer = hf_pre.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    tok.train_from_iterator(
        lines,
        trainer=trainers.BpeTrainer(
            vocab_size=vocab_size, show_progress=False, initial_alphabet=hf_pre.ByteLevel.alphabet()
        ),
    )
    return tok


def with_empty_token(trained: tokenizers.Tokenizer, normalizer=None) -> str:
    """The trained file with an empty token in its vocabulary (as Whisper's id 50256), written by
    tokenizers itself (it accepts one)."""
    data = json.loads(trained.to_str())
    vocab = data["model"]["vocab"]
    vocab[""] = len(vocab)
    tok = tokenizers.Tokenizer(models.BPE(vocab=vocab, merges=[tuple(m) for m in data["model"]["merges"]]))
    tok.pre_tokenizer = hf_pre.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    if normalizer is not None:
        tok.normalizer = normalizer
    text = tok.to_str()
    assert json.loads(text)["model"]["vocab"][""] == len(vocab) - 1
    return text


def unreachable(ranks: dict[bytes, int], moved: int = 60) -> dict[bytes, int]:
    """``ranks`` with ``moved`` of its longer tokens moved to just after the 256 bytes: they now rank
    below the tokens they are made of, so no merge of lower ranks builds them, yet tiktoken makes them."""
    order = sorted(ranks, key=ranks.get)
    longer = [t for t in order[256:] if len(t) >= 3][::7][:moved]
    rest = [t for t in order[256:] if t not in set(longer)]
    return {t: i for i, t in enumerate(order[:256] + longer + rest)}


def added_token(content: str, i: int) -> dict:
    """An ``added_tokens`` entry of a tokenizer.json: ``content`` at id ``i``, no stripping."""
    return {"id": i, "content": content, "single_word": False, "lstrip": False, "rstrip": False}


# A published split pattern with a character-class intersection (``&&``), a construct Python's re lacks.
KIMI_K2 = "|".join(  # tokenization_kimi.py's pat_str (moonshotai/Kimi-K2-Instruct)
    [
        r"""[\p{Han}]+""",
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}&&[^\p{Han}]]*[\p{Ll}\p{Lm}\p{Lo}\p{M}&&[^\p{Han}]]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}&&[^\p{Han}]]+[\p{Ll}\p{Lm}\p{Lo}\p{M}&&[^\p{Han}]]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""\p{N}{1,3}""",
        r""" ?[^\s\p{L}\p{N}]+[\r\n]*""",
        r"""\s*[\r\n]+""",
        r"""\s+(?!\S)""",
        r"""\s+""",
    ]
)


def byte_level_file(ranks: dict[bytes, int], pattern: str) -> str:
    """A tokenizer.json splitting with ``pattern`` (tokenizers' Split, Oniguruma), then byte-level BPE."""
    sym = pt.bytes_to_symbols
    vocab = {sym(t): r for t, r in ranks.items()}
    merges = [[sym(a), sym(b)] for a, b in merges_from_ranks(ranks)]
    tok = tokenizers.Tokenizer(models.BPE(vocab=vocab, merges=[tuple(m) for m in merges]))
    tok.pre_tokenizer = hf_pre.Sequence(
        [
            hf_pre.Split(tokenizers.Regex(pattern), "isolated"),
            hf_pre.ByteLevel(add_prefix_space=False, use_regex=False),
        ]
    )
    tok.decoder = decoders.ByteLevel()
    return tok.to_str()


def byte_level_json() -> str:
    """A GPT-2-style byte-level BPE of 400 tokens trained on the course's sentences (a popular file's stand-in)."""
    tok = tokenizers.Tokenizer(models.BPE())
    tok.pre_tokenizer = hf_pre.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    tok.train_from_iterator(
        COURSE_CORPUS,
        trainers.BpeTrainer(vocab_size=400, initial_alphabet=hf_pre.ByteLevel.alphabet(), show_progress=False),
    )
    return tok.to_str()


def wordpiece_json() -> str:
    """A BERT-style WordPiece of 300 tokens trained on the course's sentences (a popular file's stand-in)."""
    tok = tokenizers.Tokenizer(models.WordPiece(unk_token="[UNK]"))
    tok.normalizer = normalizers.BertNormalizer(lowercase=True)
    tok.pre_tokenizer = hf_pre.BertPreTokenizer()
    tok.decoder = decoders.WordPiece()
    tok.train_from_iterator(
        COURSE_CORPUS, trainers.WordPieceTrainer(vocab_size=300, special_tokens=["[UNK]"], show_progress=False)
    )
    return tok.to_str()
