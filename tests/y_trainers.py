"""A BPE trainer as people write their own, with faults of set Y's classes, one each, written for the tests
independently of ``bpe/``.

Kinds (:data:`Y_KINDS`):

- ``words-eow``: each whitespace-split word's characters and ``'</w>'``, counted afresh each step over the words in
  first-seen order, the pair met first among those counted most taken (the plain trainer);
- ``whole-chars``: the whole text's characters, counted afresh each step, the pair met first among those counted
  most (the plain trainer);
- ``word-symbols``: each line's whitespace-split WORDS are its symbols (the characters never split out of them),
  ``'</w>'`` after the line's last word, so every pair counted is two words side by side;
- ``az-delete``: the words of the lowercased text with every character other than a-z and whitespace deleted
  (``'café'`` becomes ``'caf'``), each with ``'</w>'``;
- ``nonoverlap``: the whole text's characters, but a pair's occurrences are counted by a forward scan that skips
  past each one it finds, so a run of one symbol ``'aaaa'`` holds ``('a', 'a')`` twice, not three times;
- ``size-bytes``: the whole text's characters followed by as many NUL characters as the text has more UTF-8 bytes
  than characters (a buffer of the file's byte count filled with the decoded characters, its tail left zero);
- ``tail-lost-ids``: the whole text's bytes, a merge's rewrite that stops one short (the last symbol is dropped
  unless the merge takes it), ties to the pair of smallest ids (bytes, then merged tokens numbered from 256);
- ``units-last``: the whole text's UTF-16 code units (a character outside the BMP two surrogate halves, each written
  out as ``'\ufffd'`` where it stands alone in a token), ties to the LAST pair of the greatest count in the order the
  count met them (a JavaScript ``reduce`` keeping the later of equal counts).
"""

from __future__ import annotations

import re

Y_KINDS = (
    "words-eow",
    "whole-chars",
    "word-symbols",
    "az-delete",
    "nonoverlap",
    "size-bytes",
    "tail-lost-ids",
    "units-last",
)
BASE = {
    "word-symbols": "words-eow",
    "az-delete": "words-eow",
    "nonoverlap": "whole-chars",
    "size-bytes": "whole-chars",
    "tail-lost-ids": "whole-bytes",
    "units-last": "whole-chars",
}


def _sequences(text: str, kind: str) -> list[list]:
    if kind == "word-symbols":
        return [[*line.split(), "</w>"] for line in text.splitlines() if line.split()]
    if kind == "tail-lost-ids":
        return [list(text.encode("utf-8"))]
    if kind == "units-last":
        data = text.encode("utf-16-le")
        return [[data[i : i + 2].decode("utf-16-le", "surrogatepass") for i in range(0, len(data), 2)]]
    if kind == "size-bytes":
        return [[*text, *["\0"] * (len(text.encode("utf-8")) - len(text))]]
    if BASE.get(kind, kind) == "whole-chars":
        return [list(text)]
    if kind == "az-delete":
        text = re.sub(r"[^a-z\s]", "", text.lower())
    return [[*word, "</w>"] for word in text.split()]


def _count(seqs: list[list], overlap: bool = True) -> dict:
    counts: dict = {}
    for seq in seqs:
        last: dict = {}  # a pair's last counted place: a forward scan skips past it
        for i, p in enumerate(zip(seq, seq[1:])):
            if not overlap and last.get(p) == i - 1:
                continue
            last[p] = i
            counts[p] = counts.get(p, 0) + 1
    return counts


def _merged(seq: list, pair, new, drop_tail: bool) -> list:
    out, i = [], 0
    stop = len(seq) - 1 if drop_tail else len(seq)
    while i < stop:
        if i + 1 < len(seq) and (seq[i], seq[i + 1]) == pair:
            out.append(new)
            i += 2
        else:
            out.append(seq[i])
            i += 1
    return out


def _written(token: str) -> str:
    """A token of UTF-16 units as a JavaScript string prints: a lone surrogate half as '\ufffd'."""
    return token.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")


def y_train(text: str, num_merges: int, kind: str) -> list[tuple[str, str]]:
    """The kind's merges on ``text``, as strings (bytes read as Latin-1 for the byte-level kind)."""
    seqs = _sequences(text, kind)
    ids = kind == "tail-lost-ids"
    tokens: dict[int, bytes] = {i: bytes([i]) for i in range(256)}
    merges: list[tuple[str, str]] = []
    for _ in range(num_merges):
        counts = _count(seqs, overlap=kind != "nonoverlap")
        if not counts:
            break
        if ids:
            best = min(counts, key=lambda p: (-counts[p], p))
        elif kind == "units-last":
            top = max(counts.values())
            best = [p for p, n in counts.items() if n == top][-1]
        else:
            best = max(counts, key=counts.get)
        if ids:
            new = len(tokens)
            tokens[new] = tokens[best[0]] + tokens[best[1]]
            merges.append((tokens[best[0]].decode("latin-1"), tokens[best[1]].decode("latin-1")))
        else:
            new = best[0] + best[1]
            merges.append(tuple(map(_written, best)) if kind == "units-last" else best)
        seqs = [_merged(s, best, new, drop_tail=ids) for s in seqs]
    return merges
