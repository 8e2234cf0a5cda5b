"""BPE trainers as people write their own in other languages, with faults of set AT's classes, written for the tests
independently of ``bpe/``. The whole text is one sequence of its UTF-8 bytes (ids 0-255, the k-th merge 256 + k),
the pairs counted afresh each step; merges are written as GPT-2's byte characters.

Kinds (:data:`AT_KINDS`):

- ``bytes-first``: the pair met first among those counted most (plain);
- ``gpt2-first``: the same over GPT-2's words, each counted apart (plain);
- ``words-bytes``: the same over the words cut at whitespace (plain);
- ``memcmp``: of equal counts the pair whose ``struct { uint32_t left, right; }`` is greatest under ``memcmp`` on a
  little-endian machine (each id's low byte compared first), as a C loop ``if (count > best || (count == best &&
  memcmp(&pair, &best_pair, sizeof pair) > 0))`` keeps it;
- ``space-chunks``: the bytes cut only before each space (0x20), each chunk's pairs counted apart (a newline or a
  tab stays inside a chunk, a run of spaces is chunks of one space each), the pair met first among those counted
  most;
- ``signed-char``: the words cut at whitespace, each byte read as a C ``char`` (signed), so a byte above 0x7F is a
  negative id the vocabulary has no bytes for, printed as nothing; the pair met first among those counted most.
"""

from __future__ import annotations

import struct

import regex
from w_trainers import CHARS as BYTE_CHARS  # GPT-2's table: each byte as a printable character

AT_KINDS = ("bytes-first", "memcmp", "gpt2-first", "space-chunks", "words-bytes", "signed-char")
BASE = {"memcmp": "bytes-first", "space-chunks": "gpt2-first", "signed-char": "words-bytes"}
GPT2 = r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""


def at_train(text: str, num_merges: int, kind: str) -> list[tuple[str, str]]:
    """The merges of the trainer ``kind`` (:data:`AT_KINDS`) on ``text``."""
    if kind not in AT_KINDS:
        raise ValueError(f"unknown kind {kind!r}")
    if kind == "gpt2-first":
        chunks = [piece.encode("utf-8") for piece in regex.findall(GPT2, text)]
    elif kind == "space-chunks":
        data = text.encode("utf-8")
        starts = [0, *(i for i in range(1, len(data)) if data[i] == 0x20)]
        chunks = [data[a:b] for a, b in zip(starts, [*starts[1:], len(data)])]
    elif kind in ("words-bytes", "signed-char"):
        chunks = [w.encode("utf-8") for w in text.split()]
    else:
        chunks = [text.encode("utf-8")]
    seqs = [list(c) for c in chunks]
    spelled = {b: BYTE_CHARS[b] for b in range(256)}
    if kind == "signed-char":  # (char)b: a byte above 0x7F a negative id, spelled by no byte of the vocabulary
        seqs = [[b if b < 0x80 else b - 256 for b in seq] for seq in seqs]
        spelled |= {b - 256: "" for b in range(0x80, 256)}
    merges: list[tuple[str, str]] = []
    while len(merges) < num_merges:
        counts: dict[tuple[int, int], int] = {}
        for ids in seqs:
            for pair in zip(ids, ids[1:]):
                counts[pair] = counts.get(pair, 0) + 1
        if not counts:
            break
        top = max(counts.values())
        tied = [p for p, n in counts.items() if n == top]
        best = max(tied, key=lambda p: struct.pack("<II", *p)) if kind == "memcmp" else tied[0]
        new = 256 + len(merges)
        spelled[new] = spelled[best[0]] + spelled[best[1]]
        merges.append((spelled[best[0]], spelled[best[1]]))
        seqs = [_merged(ids, best, new) for ids in seqs]
    return merges


def _merged(ids: list[int], pair: tuple[int, int], new: int) -> list[int]:
    out, i = [], 0
    while i < len(ids):
        if i + 1 < len(ids) and (ids[i], ids[i + 1]) == pair:
            out.append(new)
            i += 2
        else:
            out.append(ids[i])
            i += 1
    return out
