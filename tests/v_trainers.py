"""A character-level BPE trainer as people write their own, with faults of set V's classes, one each, written for
the tests independently of ``bpe/``.

The trainer counts whitespace-split words, each its characters and ``'</w>'`` (as Sennrich et al.'s snippet), or
the whole text as one sequence (``whole-text``), counts pairs afresh each step in a dict, takes the pair seen first
among those counted most, and merges every occurrence of the pair left to right. Its run equals ours with the
``sennrich`` (or ``none``) pre-tokenizer and the ``first`` tie rule. Faults (:data:`V_FAULTS`):

- ``tail-lost``: the whole text one sequence, merged by a scan that stops one symbol before the end and never adds
  what is left there, so the text loses its last symbol at every merge that does not take it;
- ``last-unread``: the whole text one sequence, read up to its last character, which is never read;
- ``end-uncounted``: a pair whose right symbol is ``'</w>'`` is never counted, so ``'</w>'`` never merges;
- ``space-led``: each word keeps the space before it (``re.findall(r" ?\\S+")``), with no end symbol;
- ``greatest-id``: the whole text one sequence; a tie goes to the pair of greatest ids (left, then right), a
  character's id its code point, a merged token's 256 and on in the order it was made (ASCII texts only);
- ``hash-ties``: a tie goes to the pair first in an order no rule gives, as a set's or an unordered map's hash order
  does (here the order of each pair's salted SHA-1 digest, the same in every run).
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter

V_FAULTS = ("tail-lost", "last-unread", "end-uncounted", "space-led", "greatest-id", "hash-ties")
WHOLE = ("whole-text", "tail-lost", "last-unread", "greatest-id")  # the runs that keep the text as one sequence


def v_vocab(text: str, fault: str | None = None) -> dict[tuple[str, ...], int]:
    """The sequences the trainer counts, each with its count, in first-seen order."""
    if fault == "last-unread":
        text = "".join(text[i] for i in range(len(text) - 1))
    if fault in WHOLE:
        return {tuple(text): 1}
    if fault == "space-led":
        return {tuple(w): n for w, n in Counter(re.findall(r" ?\S+", text)).items()}
    return {(*w, "</w>"): n for w, n in Counter(text.split()).items()}


def _merge(symbols: tuple[str, ...], pair: tuple[str, str], fault: str | None) -> tuple[str, ...]:
    out, i = [], 0
    while i < len(symbols) - 1:
        if (symbols[i], symbols[i + 1]) == pair:
            out.append(pair[0] + pair[1])
            i += 2
        else:
            out.append(symbols[i])
            i += 1
    if i == len(symbols) - 1 and fault != "tail-lost":  # the last symbol, where no merge took it
        out.append(symbols[i])
    return tuple(out)


SALT = "a"  # the hash order of one run of such a trainer


def _ids_key(pair: tuple[str, str], ids: dict[str, int]) -> tuple[int, int]:
    return tuple(ids[t] if t in ids else ord(t) for t in pair)  # type: ignore[return-value]


def v_train(text: str, num_merges: int, fault: str | None = None) -> list[tuple[str, str]]:
    """The trainer's merges on ``text``, in order."""
    vocab = v_vocab(text, fault)
    merges: list[tuple[str, str]] = []
    ids: dict[str, int] = {}  # a merged token's id, with ``greatest-id``
    for _ in range(num_merges):
        pairs: dict[tuple[str, str], int] = {}
        for symbols, n in vocab.items():
            for pair in zip(symbols, symbols[1:]):
                if fault != "end-uncounted" or pair[1] != "</w>":
                    pairs[pair] = pairs.get(pair, 0) + n
        if not pairs:
            break
        top = max(pairs.values())
        tied = [p for p, n in pairs.items() if n == top]
        if fault == "greatest-id":
            best = max(tied, key=lambda p: _ids_key(p, ids))
            ids[best[0] + best[1]] = 256 + len(ids)
        elif fault == "hash-ties":
            best = min(tied, key=lambda p: hashlib.sha1(f"{SALT}{p[0]} {p[1]}".encode()).digest())
        else:
            best = tied[0]
        vocab = {_merge(symbols, best, fault): n for symbols, n in vocab.items()}
        merges.append(best)
    return merges
