"""A BPE trainer of the whole text's UTF-8 bytes, with a fault of set BE's classes, written for the tests independently
of ``bpe/``: the text one sequence of byte ids (0-255, the k-th merge 256 + k), the pairs counted afresh each step, the
pair met first among those counted most taken.

Kinds (:data:`BE_KINDS`), which differ only in how the merges are printed:

- ``bytes-gpt2``: each token written in GPT-2's byte characters (plain);
- ``bytes-replaced``: each token printed as ``token.decode('utf-8', errors='replace')``, so a token that holds only
  part of a character's bytes shows ``'�'`` in their place.
"""

from __future__ import annotations

from at_trainers import _merged  # the merge on ids, shared
from w_trainers import CHARS as BYTE_CHARS  # GPT-2's table: each byte as a printable character

BE_KINDS = ("bytes-gpt2", "bytes-replaced")
BASE = {"bytes-replaced": "bytes-gpt2"}


def be_train(text: str, num_merges: int, kind: str) -> list[tuple[str, str]]:
    """The merges of the trainer ``kind`` (:data:`BE_KINDS`) on ``text``, as printed."""
    if kind not in BE_KINDS:
        raise ValueError(f"unknown kind {kind!r}")
    ids = list(text.encode("utf-8"))
    vocab = {b: bytes([b]) for b in range(256)}
    merged: list[tuple[int, int]] = []
    while len(merged) < num_merges:
        counts: dict[tuple[int, int], int] = {}
        for pair in zip(ids, ids[1:]):
            counts[pair] = counts.get(pair, 0) + 1
        if not counts:
            break
        top = max(counts.values())
        pair = next(p for p, n in counts.items() if n == top)
        new = 256 + len(merged)
        vocab[new] = vocab[pair[0]] + vocab[pair[1]]
        merged.append(pair)
        ids = _merged(ids, pair, new)
    if kind == "bytes-replaced":
        show = lambda t: vocab[t].decode("utf-8", errors="replace")  # noqa: E731
    else:
        show = lambda t: "".join(BYTE_CHARS[b] for b in vocab[t])  # noqa: E731
    return [(show(a), show(b)) for a, b in merged]
