"""Tokenizer files the tests build: a ``.tiktoken`` rank file from a rank table."""

from __future__ import annotations

import base64


def rank_file(ranks: dict[bytes, int]) -> str:
    """The ``.tiktoken`` text of ``ranks``: one ``base64(token) rank`` line per token, in rank order."""
    return "".join(f"{base64.b64encode(t).decode()} {r}\n" for t, r in sorted(ranks.items(), key=lambda kv: kv[1]))
