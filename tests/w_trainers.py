"""A BPE trainer as people write their own, with faults of set W's classes, one each, written for the tests
independently of ``bpe/``.

The trainer counts pairs afresh each step in a dict over its sequences (in first-seen order), takes the pair seen
first among those counted most, and merges every occurrence left to right. Its sequences are the whole text
(``whole-bytes``: its UTF-8 bytes, written in GPT-2's byte characters; ``whole-chars``: its characters) or the
whitespace-split words (``words-bytes``, ``words-chars``). Without a fault its run equals ours with the matching
settings (:data:`SETUPS`). Faults (:data:`W_FAULTS`):

- ``even-pairs``: the whole text's bytes, pairs counted by ``range(0, len(ids) - 1, 2)``: only those starting at an
  even position;
- ``separator-stream``: each whitespace-split word's bytes followed by the byte 255, all words in one list, so the
  pairs across words are counted too;
- ``smallest-concat``: the whole text's characters; a tie goes to the pair whose merged token ``a + b`` is the
  smallest string (a heap of ``(-count, a + b)``), not the smallest pair ``(a, b)``;
- ``mark-words``: the words are ``re.findall(r"\\w+|[^\\w\\s]", text)``, each punctuation mark or other symbol a word
  of one character;
- ``utf16``: the whole text's UTF-16 code units (as JavaScript's strings index them): a character outside the Basic
  Multilingual Plane is two surrogate halves, each written out as U+FFFD when a token holds one alone;
- ``position-sets``: the whole text's characters in one list, each pair's places kept as a set of list indices and
  merged in the set's iteration order (``for i in list(places[pair])``), not left to right; ties to the smallest
  pair (a heap of ``(-count, pair)``);
- ``first-line-marked``: only the text's first line read (``input()``), each word its characters and ``'_'``.
"""

from __future__ import annotations

import re

W_FAULTS = (
    "even-pairs",
    "separator-stream",
    "smallest-concat",
    "mark-words",
    "utf16",
    "position-sets",
    "first-line-marked",
)
# each fault's sequences, and the plain trainer's on them
BASE = {
    "even-pairs": "whole-bytes",
    "separator-stream": "words-bytes",
    "smallest-concat": "whole-chars-lex",
    "mark-words": "words-chars",
    "utf16": "whole-chars",
    "position-sets": "whole-chars-lex",
    "first-line-marked": "words-eow",
}


def _gpt2_chars() -> dict[int, str]:
    """Each byte written as GPT-2 writes it: printable ones as themselves, the others from U+0100 on."""
    shown = [*range(0x21, 0x7F), *range(0xA1, 0xAD), *range(0xAE, 0x100)]
    table, extra = {}, 0
    for b in range(256):
        if b in shown:
            table[b] = chr(b)
        else:
            table[b] = chr(0x100 + extra)
            extra += 1
    return table


CHARS = _gpt2_chars()


def _bytes_of(text: str) -> tuple[str, ...]:
    return tuple(CHARS[b] for b in text.encode("utf-8"))


def sequences(text: str, kind: str) -> dict[tuple[str, ...], int]:
    """What the trainer counts, each sequence with its count, in first-seen order."""
    if kind == "whole-bytes" or kind == "even-pairs":
        return {_bytes_of(text): 1}
    if kind == "utf16":
        data = text.encode("utf-16-le")
        return {tuple(data[i : i + 2] for i in range(0, len(data), 2)): 1}  # type: ignore[dict-item]
    if kind in ("whole-chars", "whole-chars-lex", "smallest-concat"):
        return {tuple(text): 1}
    if kind == "separator-stream":
        stream: list[str] = []
        for word in text.split():
            stream += [*_bytes_of(word), CHARS[255]]
        return {tuple(stream): 1}
    out: dict[tuple[str, ...], int] = {}
    if kind in ("words-eow", "first-line-marked"):  # each word's characters and an end-of-word symbol
        for word in (text.split("\n", 1)[0] if kind == "first-line-marked" else text).split():
            seq = (*word, "</w>" if kind == "words-eow" else "_")
            out[seq] = out.get(seq, 0) + 1
        return out
    for word in re.findall(r"\w+|[^\w\s]", text) if kind == "mark-words" else text.split():
        seq = _bytes_of(word) if kind == "words-bytes" else tuple(word)
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


def _written(token) -> str:
    """A token as the trainer writes it out: its characters, a UTF-16 unit alone in it as U+FFFD."""
    return token.decode("utf-16-le", "replace") if isinstance(token, bytes) else token


def _position_sets(text: str, num_merges: int) -> list[tuple[str, str]]:
    """``position-sets``: the text as a list whose merged-away places hold None, each pair's places in a set."""
    symbols: list[str | None] = list(text)
    places: dict[tuple[str, str], set[int]] = {}
    for i in range(len(text) - 1):
        places.setdefault((text[i], text[i + 1]), set()).add(i)

    def live_after(i: int) -> int | None:
        j = i + 1
        while j < len(symbols) and symbols[j] is None:
            j += 1
        return j if j < len(symbols) else None

    def live_before(i: int) -> int | None:
        j = i - 1
        while j >= 0 and symbols[j] is None:
            j -= 1
        return j if j >= 0 else None

    def drop(pair, i):
        places.get(pair, set()).discard(i)
        if pair in places and not places[pair]:
            del places[pair]

    merges = []
    for _ in range(num_merges):
        if not places:
            break
        top = max(len(s) for s in places.values())
        pair = min(p for p, s in places.items() if len(s) == top)
        merges.append(pair)
        for i in list(places[pair]):
            j = live_after(i)
            if symbols[i] != pair[0] or j is None or symbols[j] != pair[1]:
                continue
            left, right = live_before(i), live_after(j)
            if left is not None:
                drop((symbols[left], symbols[i]), left)
            if right is not None:
                drop((symbols[j], symbols[right]), j)
            drop(pair, i)
            symbols[i], symbols[j] = pair[0] + pair[1], None
            if left is not None:
                places.setdefault((symbols[left], symbols[i]), set()).add(left)
            if right is not None:
                places.setdefault((symbols[i], symbols[right]), set()).add(i)
        places.pop(pair, None)
    return merges


def w_train(text: str, num_merges: int, kind: str) -> list[tuple[str, str]]:
    """The trainer's merges on ``text``: ``kind`` a fault of :data:`W_FAULTS` or a plain trainer's sequences."""
    if kind == "position-sets":
        return _position_sets(text, num_merges)
    seqs = sequences(text, kind)
    merges: list[tuple[str, str]] = []
    for _ in range(num_merges):
        counts: dict[tuple[str, str], int] = {}
        for seq, n in seqs.items():
            step = 2 if kind == "even-pairs" else 1
            for i in range(0, len(seq) - 1, step):
                pair = (seq[i], seq[i + 1])
                counts[pair] = counts.get(pair, 0) + n
        if not counts:
            break
        top = max(counts.values())
        tied = [p for p, c in counts.items() if c == top]
        if kind == "smallest-concat":
            pair = min(tied, key=lambda p: p[0] + p[1])
        else:
            pair = min(tied) if kind == "whole-chars-lex" else tied[0]
        merges.append(pair)
        new: dict[tuple[str, ...], int] = {}
        for seq, n in seqs.items():
            merged = _merged(seq, pair)
            new[merged] = new.get(merged, 0) + n
        seqs = new
    return [(_written(a), _written(b)) for a, b in merges]
