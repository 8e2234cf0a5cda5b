"""A BPE trainer of set BM's class, written for the tests independently of ``bpe/``: each whitespace-split word
followed by the four characters ``'</w>'`` and encoded in UTF-8, its bytes the word's symbols; with ``joined``, the
words joined by single spaces into one sequence (so pairs across words count), else each word apart with its count.
The pairs are counted afresh each step (``collections.Counter``) and the pair met first among those counted most is
taken (``most_common(1)``); the merges as pairs of bytes."""

from __future__ import annotations

from collections import Counter


def _merged(ids: list[bytes], a: bytes, b: bytes) -> list[bytes]:
    out, i = [], 0
    while i < len(ids):
        if i + 1 < len(ids) and ids[i] == a and ids[i + 1] == b:
            out.append(a + b)
            i += 2
        else:
            out.append(ids[i])
            i += 1
    return out


def bm_tag_text(text: str, num_merges: int, joined: bool = True) -> list[tuple[bytes, bytes]]:
    """The merges on ``text``, each a pair of byte strings."""
    marked = [word + "</w>" for word in text.split()]
    seqs = Counter([" ".join(marked)] if joined else marked)
    words = [([bytes([b]) for b in w.encode("utf-8")], n) for w, n in seqs.items()]
    merges: list[tuple[bytes, bytes]] = []
    while len(merges) < num_merges:
        counts: Counter[tuple[bytes, bytes]] = Counter()
        for ids, n in words:
            for pair in zip(ids, ids[1:]):
                counts[pair] += n
        if not counts:
            break
        (a, b), _ = counts.most_common(1)[0]
        merges.append((a, b))
        words = [(_merged(ids, a, b), n) for ids, n in words]
    return merges
