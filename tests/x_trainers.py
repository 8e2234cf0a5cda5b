"""A BPE trainer as people write their own, with faults of set X's classes, one each, written for the tests
independently of ``bpe/``.

Kinds (:data:`X_KINDS`):

- ``words-eow``: each whitespace-split word's characters and ``'</w>'``, counted in a dict over the words in
  first-seen order, the pair met first among those counted most taken each step (the plain trainer);
- ``recounted-to-end``: the same words, but the counts are kept between steps: after a merge of ``(a, b)`` the
  loop deletes the merged pair's count and every count of a pair ending in ``a`` or starting with ``b``, counts
  those pairs (and the pairs holding the merged token) again over the words, and ``dict.update``s them back, so
  they go to the dict's end; ``max(counts, key=counts.get)`` takes the first of equal counts in the dict's order;
- ``whole-chars``: the whole text's characters, counted afresh each step, the pair met first among those counted
  most (the plain trainer);
- ``last-of-greatest``: the same, but a loop ``if count >= best_count`` keeps the LAST pair of the greatest count
  in the order the count met them;
- ``eow-stream``: each word's characters and ``'</w>'``, all words in ONE token list, counted afresh each step,
  so ``'</w>'`` and the next word's first character make a pair that is counted and merged;
- ``az-pairs``: the whole lowercased text's characters, but only pairs of two tokens made of the letters a-z are
  counted (a pair holding a space, a mark or another letter never is), the pair met first among those counted most;
- ``tag-alnum``: each whitespace-split word kept to its ``str.isalnum`` characters and lowercased, then its
  characters and the end tag ``'<\\w>'`` (a backslash where ``'</w>'`` has a slash).
"""

from __future__ import annotations

X_KINDS = ("words-eow", "recounted-to-end", "whole-chars", "last-of-greatest", "eow-stream", "az-pairs", "tag-alnum")
BASE = {
    "recounted-to-end": "words-eow",
    "last-of-greatest": "whole-chars",
    "eow-stream": "words-eow",
    "az-pairs": "whole-chars",
    "tag-alnum": "words-eow",
}
AZ = set("abcdefghijklmnopqrstuvwxyz")


def _sequences(text: str, kind: str) -> dict[tuple[str, ...], int]:
    if kind == "az-pairs":
        return {tuple(text.lower()): 1}
    if BASE.get(kind, kind) == "whole-chars":
        return {tuple(text): 1}
    if kind == "eow-stream":
        return {tuple(s for word in text.split() for s in (*word, "</w>")): 1}
    out: dict[tuple[str, ...], int] = {}
    for word in text.split():
        if kind == "tag-alnum":
            word = "".join(c for c in word if c.isalnum()).lower()
            if not word:
                continue
        seq = (*word, "<\\w>" if kind == "tag-alnum" else "</w>")
        out[seq] = out.get(seq, 0) + 1
    return out


def _merged(seq: tuple[str, ...], pair: tuple[str, str]) -> tuple[str, ...]:
    out, i = [], 0
    while i < len(seq):
        if i + 1 < len(seq) and (seq[i], seq[i + 1]) == pair:
            out.append(pair[0] + pair[1])
            i += 2
        else:
            out.append(seq[i])
            i += 1
    return tuple(out)


def _count(seqs: dict[tuple[str, ...], int], wanted=lambda p: True) -> dict[tuple[str, str], int]:
    counts: dict[tuple[str, str], int] = {}
    for seq, n in seqs.items():
        for p in zip(seq, seq[1:]):
            if wanted(p):
                counts[p] = counts.get(p, 0) + n
    return counts


def x_train(text: str, num_merges: int, kind: str) -> list[tuple[str, str]]:
    seqs = _sequences(text, kind)
    merges: list[tuple[str, str]] = []
    counts = _count(seqs)
    for _ in range(num_merges):
        if kind == "az-pairs":
            counts = _count(seqs, lambda p: set(p[0]) <= AZ and set(p[1]) <= AZ)
        elif kind != "recounted-to-end":
            counts = _count(seqs)
        if not counts:
            break
        if kind == "last-of-greatest":
            best, top = None, 0
            for p, n in counts.items():
                if n >= top:
                    best, top = p, n
        else:
            best = max(counts, key=counts.get)
        merges.append(best)
        seqs = {_merged(s, best): n for s, n in seqs.items()}
        if kind == "recounted-to-end":
            a, b = best
            ab = a + b

            def again(p, a=a, b=b, ab=ab):
                return p[1] == a or p[0] == b or ab in p

            for p in [p for p in counts if p == best or again(p)]:
                del counts[p]
            counts.update(_count(seqs, again))
    return merges
