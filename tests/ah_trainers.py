"""BPE trainers as people write their own in other languages, with faults of set AH's classes, written for the tests
independently of ``bpe/`` (Java's HashMap is run for real: tests/java/PairTrainer.java).

Kinds (:data:`AH_KINDS`), the pairs counted afresh each step:

- ``chars-first``: the whole text's characters, one sequence; the pair met first among those counted most (plain);
- ``id-text``: the same, ties to the pair whose ids, as the text ``f"{a},{b}"``, sort first (a TypeScript sort on
  ``${leftId},${rightId}`` with ``localeCompare``), the characters numbered as the text first holds them and each
  merged token the next id;
- ``id-sum``: the same, ties to the least sum of the two ids, then to the pair whose count was complete first (its
  last occurrence first);
- ``words-first``: each whitespace-split word's characters; the pair met first among those counted most (plain);
- ``first-left``: the same, each word merged only at the first occurrence of the pair's left symbol (``indexOf``),
  and only where the right symbol follows it there;
- ``gpt2-bytes-hf``: GPT-2's bytes and pattern, ties to the pair of smallest ids with the bytes numbered by their
  characters in GPT-2's table (as the tokenizers library numbers them) (plain);
- ``ws-whole-hf``: the same, the pattern's whitespace part written ``\\s+`` alone (a regex engine with no
  lookahead), so a run of spaces is one piece and the next word has none.
"""

from __future__ import annotations

import regex
from line_trainers import _merged, train_sequences  # the plain loop and merge, shared with the line trainers
from w_trainers import CHARS as BYTE_CHARS  # GPT-2's table: each byte as a printable character

AH_KINDS = ("chars-first", "id-text", "id-sum", "words-first", "first-left", "gpt2-bytes-hf", "ws-whole-hf")
BASE = {"id-text": "chars-first", "id-sum": "chars-first", "first-left": "words-first", "ws-whole-hf": "gpt2-bytes-hf"}
GPT2 = r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""
WS_WHOLE = r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+"""


def _ids_first_seen(text: str) -> dict[str, int]:
    ids: dict[str, int] = {}
    for c in text:
        ids.setdefault(c, len(ids))
    return ids


def _tied_by(key):
    """A pick among the pairs counted most by ``key(pair, stats)`` (the least wins)."""

    def pick(stats):
        top = max(stats.values())
        return min((p for p, n in stats.items() if n == top), key=lambda p: key(p, stats))

    return pick


def _whole_text_by_ids(text: str, num_merges: int, key) -> list[tuple[str, str]]:
    ids = _ids_first_seen(text)
    seq, merges = list(text), []
    while len(merges) < num_merges:
        last: dict[tuple[str, str], int] = {}
        stats: dict[tuple[str, str], int] = {}
        for i, pair in enumerate(zip(seq, seq[1:])):
            stats[pair] = stats.get(pair, 0) + 1
            last[pair] = i
        if not stats:
            break
        top = max(stats.values())
        pair = min((p for p, n in stats.items() if n == top), key=lambda p: key(ids[p[0]], ids[p[1]], last[p]))
        merges.append(pair)
        ids.setdefault(pair[0] + pair[1], len(ids))
        seq = _merged(seq, pair)
    return merges


def _bytes_hf(text: str, num_merges: int, pattern: str) -> list[tuple[str, str]]:
    words = ["".join(BYTE_CHARS[b] for b in w.encode("utf-8")) for w in regex.findall(pattern, text)]
    ids = {c: i for i, c in enumerate(sorted(BYTE_CHARS.values()))}
    merges: list[tuple[str, str]] = []

    def smallest_ids(stats):
        top = max(stats.values())
        pair = min((p for p, n in stats.items() if n == top), key=lambda p: (ids[p[0]], ids[p[1]]))
        ids.setdefault(pair[0] + pair[1], len(ids))
        return pair

    merges = train_sequences([list(w) for w in words], num_merges, smallest_ids)
    return merges


def _first_left(text: str, num_merges: int) -> list[tuple[str, str]]:
    words = [list(w) for w in text.split()]
    merges: list[tuple[str, str]] = []
    while len(merges) < num_merges:
        stats: dict[tuple[str, str], int] = {}
        for w in words:
            for pair in zip(w, w[1:]):
                stats[pair] = stats.get(pair, 0) + 1
        if not stats:
            break
        a, b = max(stats, key=stats.get)  # the first of the greatest count
        merges.append((a, b))
        for w in words:
            if a in w:
                i = w.index(a)
                if i + 1 < len(w) and w[i + 1] == b:
                    w[i : i + 2] = [a + b]
    return merges


def ah_train(text: str, num_merges: int, kind: str) -> list[tuple[str, str]]:
    """The kind's merges on ``text``, as strings (bytes as GPT-2's characters)."""
    if kind == "chars-first":
        return train_sequences([list(text)], num_merges)
    if kind == "words-first":
        return train_sequences([list(w) for w in text.split()], num_merges)
    if kind == "first-left":
        return _first_left(text, num_merges)
    if kind == "id-text":
        return _whole_text_by_ids(text, num_merges, lambda a, b, last: f"{a},{b}")
    if kind == "id-sum":
        return _whole_text_by_ids(text, num_merges, lambda a, b, last: (a + b, last))
    return _bytes_hf(text, num_merges, GPT2 if kind == "gpt2-bytes-hf" else WS_WHOLE)
