"""Tokenizer files the tests build: a ``.tiktoken`` rank file from a rank table."""

from __future__ import annotations

import base64


def rank_file(ranks: dict[bytes, int]) -> str:
    """The ``.tiktoken`` text of ``ranks``: one ``base64(token) rank`` line per token, in rank order."""
    lines = [f"{base64.b64encode(t).decode() or '='} {r}\n" for t, r in sorted(ranks.items(), key=lambda kv: kv[1])]
    return "".join(lines)  # an empty token is written "=", as in Whisper's multilingual.tiktoken


def big_tokenizer_json(n_tokens: int, seed: int = 0) -> bytes:
    """A valid byte-level BPE ``tokenizer.json`` of ``n_tokens`` tokens (the 256 bytes, then one merge
    per new token, each an earlier token of at most 22 characters and one byte): 400,000
    tokens make a file of about 20 MB, as big a vocabulary as real models have."""
    import json
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
    from tokenizers import Tokenizer, decoders, models, trainers
    from tokenizers import pre_tokenizers as hf_pre

    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = hf_pre.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    tok.train_from_iterator(
        lines,
        trainer=trainers.BpeTrainer(
            vocab_size=vocab_size, show_progress=False, initial_alphabet=hf_pre.ByteLevel.alphabet()
        ),
    )
    return tok
