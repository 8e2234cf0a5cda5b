"""How one word's split is merged under a pair: the correct rule and the faulty rules students write.

Each rule takes a word's split and the pair to merge and returns the new split and where the new tokens stand
in it. :func:`merge_all` is the correct merge (every occurrence, left to right, without overlaps); the others
are the merges of :data:`bpe.merge_faults.FAULTS` whose harm is in the word itself: a half-merged word, a
symbol kept, lost or gained, an occurrence never merged. :func:`occurrences` and :func:`pair_counter` read a
split the way the correct loop and the faulty count updates do.

Left out: the faulty count updates (:mod:`bpe.neighbour_faults`, :mod:`bpe.run_faults`), the catalogue that
pairs a merge rule with an update (:mod:`bpe.merge_faults`), and replaying them (:mod:`bpe.fault_replay`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from .formats.cs336 import BytePair

Word = tuple[bytes, ...]
Split = list[bytes]


def occurrences(split: Sequence[bytes], pair: BytePair) -> list[int]:
    """Where ``pair`` starts in ``split``, left to right without overlaps (``aaa`` holds one ``(a, a)`` to merge)."""
    out, i = [], 0
    while i < len(split) - 1:
        if split[i] == pair[0] and split[i + 1] == pair[1]:
            out.append(i)
            i += 2
        else:
            i += 1
    return out


def held_pair_counts(
    splits: Sequence[Sequence[bytes]], freqs: Sequence[int]
) -> tuple[Counter, dict[BytePair, set[int]]]:
    """The pair counts of the words' splits (each weighted by its word's count) and, for each pair, the words
    holding it: what a loop that merges only the words holding the pair starts from."""
    counts: Counter = Counter()
    where: dict[BytePair, set[int]] = {}
    for k, split in enumerate(splits):
        for p in zip(split, split[1:]):
            counts[p] += freqs[k]
            where.setdefault(p, set()).add(k)
    return counts, where


def rewrite_word(
    counts: Counter, where: dict[BytePair, set[int]], k: int, old: Sequence[bytes], new: Sequence[bytes], freq: int
) -> None:
    """Move word ``k``'s pairs in ``counts`` and ``where`` (as :func:`held_pair_counts` made them) from its split
    ``old`` to ``new``: the old pairs lose ``freq``, the new ones gain it and list the word."""
    for p in zip(old, old[1:]):
        counts[p] -= freq
    for p in zip(new, new[1:]):
        counts[p] += freq
        where.setdefault(p, set()).add(k)


def pair_counter(split: Sequence[bytes], overlap: bool = True) -> Counter:
    """The pairs of a split; ``overlap=False`` counts a run of equal symbols as non-overlapping pairs."""
    if overlap:
        return Counter(zip(split, split[1:]))
    out: Counter = Counter()
    i = 0
    while i < len(split) - 1:
        out[(split[i], split[i + 1])] += 1
        i += 2 if split[i] == split[i + 1] and i + 2 < len(split) and split[i + 2] == split[i] else 1
    return out


def merge_all(split: Split, pair: BytePair) -> tuple[Split, list[int]]:
    """The correct merge: every occurrence, left to right; also where the new tokens stand."""
    out, made, i = [], [], 0
    while i < len(split):
        if i < len(split) - 1 and split[i] == pair[0] and split[i + 1] == pair[1]:
            made.append(len(out))
            out.append(pair[0] + pair[1])
            i += 2
        else:
            out.append(split[i])
            i += 1
    return out, made


def merge_first(split: Split, pair: BytePair) -> tuple[Split, list[int]]:
    found = occurrences(split, pair)
    if not found:
        return list(split), []
    i = found[0]
    return [*split[:i], pair[0] + pair[1], *split[i + 2 :]], [i]


def merge_first_left(split: Split, pair: BytePair) -> tuple[Split, list[int]]:
    """Merged only at the first occurrence of the left symbol (``word.index(a)``), where the right one follows it."""
    i = split.index(pair[0]) if pair[0] in split else -1
    if i < 0 or i + 1 >= len(split) or split[i + 1] != pair[1]:
        return list(split), []
    return [*split[:i], pair[0] + pair[1], *split[i + 2 :]], [i]


def merge_stale(split: Split, pair: BytePair) -> tuple[Split, list[int]]:
    """Each occurrence merged at the position found before any merge, not shifted by the earlier ones."""
    out = list(split)
    made = []
    for i in occurrences(split, pair):
        if i < len(out):
            out[i : i + 2] = [pair[0] + pair[1]]
            made.append(i)
    return out, made


def merge_skip_next(split: Split, pair: BytePair) -> tuple[Split, list[int]]:
    """Left to right, but after each merge the scan moves past the symbol after the new token, so an occurrence that
    starts right there (the second ``(a, b)`` in ``abab``, the second ``(a, a)`` in ``aaaa``) is never merged."""
    out, made, i = [], [], 0
    while i < len(split):
        if i < len(split) - 1 and split[i] == pair[0] and split[i + 1] == pair[1]:
            made.append(len(out))
            out.append(pair[0] + pair[1])
            if i + 2 < len(split):
                out.append(split[i + 2])
            i += 3
        else:
            out.append(split[i])
            i += 1
    return out, made


def merge_collapse(split: Split, pair: BytePair) -> tuple[Split, list[int]]:
    """Every place the pair occurs, overlapping ones too, gets the new token, then the symbol after each place is
    deleted (from the right): a run of one symbol collapses into one new token (``aaaa`` becomes ``aa``)."""
    places = [i for i in range(len(split) - 1) if (split[i], split[i + 1]) == pair]
    if not places:
        return list(split), []
    joined = pair[0] + pair[1]
    marked: list[tuple[bytes, bool]] = [(s, False) for s in split]
    for i in places:
        marked[i] = (joined, True)
    for i in reversed([i + 1 for i in places]):
        marked.pop(i)
    return [s for s, _ in marked], [k for k, (_, new) in enumerate(marked) if new]


def merge_keep_right(split: Split, pair: BytePair) -> tuple[Split, list[int]]:
    """Each neighbour pair read in turn: the pair gives the new token, any other pair its left symbol, and
    the last symbol is kept unless the last pair was merged, so a merged pair's right symbol stays."""
    if len(split) < 2:
        return list(split), []
    out, made = [], []
    for a, b in zip(split, split[1:]):
        if (a, b) == pair:
            made.append(len(out))
            out.append(a + b)
        else:
            out.append(a)
    if (split[-2], split[-1]) != pair:
        out.append(split[-1])
    return out, made


def merge_drop_tail(split: Split, pair: BytePair) -> tuple[Split, list[int]]:
    """The correct scan, but the word's last symbol appended after it only when the last two symbols are not the
    pair: where the last pair overlaps a merged one (``aaa`` merging ``(a, a)``), the last symbol is lost."""
    out, made = _scan_to_last(split, pair)
    if len(split) > 1 and (split[-2], split[-1]) != pair:
        out.append(split[-1])
    elif len(split) == 1:
        out.append(split[0])
    return out, made


def merge_tail_lost(split: Split, pair: BytePair) -> tuple[Split, list[int]]:
    """The scan stops one symbol before the end and nothing after it adds what is left there: the last symbol is
    kept only where the pair's last occurrence takes it (``abc`` merging ``(a, b)`` becomes ``ab``; ``abc`` merging
    ``(b, c)`` is ``a bc``)."""
    return _scan_to_last(split, pair)


def _scan_to_last(split: Split, pair: BytePair) -> tuple[Split, list[int]]:
    """Left to right, the pair merged where it starts, up to the second-to-last symbol: the last symbol is in the
    output only where the pair's last occurrence takes it."""
    out, made, i = [], [], 0
    while i < len(split) - 1:
        if split[i] == pair[0] and split[i + 1] == pair[1]:
            made.append(len(out))
            out.append(pair[0] + pair[1])
            i += 2
        else:
            out.append(split[i])
            i += 1
    return out, made


def merge_lose_after_end(split: Split, pair: BytePair) -> tuple[Split, list[int]]:
    """Left to right, each symbol compared with the one before it from the second on, and the last symbol appended
    after the scan only when the output does not end in the new token: where the pair's last occurrence is the
    word's third- and second-to-last symbols, the scan jumps past the end and the last symbol is lost (``abc``
    merging ``(a, b)`` becomes ``ab``)."""
    if len(split) < 2:
        return list(split), []
    out, made, i = [], [], 1
    while i < len(split):
        if split[i - 1] == pair[0] and split[i] == pair[1]:
            made.append(len(out))
            out.append(pair[0] + pair[1])
            i += 2
        else:
            out.append(split[i - 1])
            i += 1
    if not made or made[-1] != len(out) - 1:
        out.append(split[-1])
    return out, made


def merge_duplicate(split: Split, pair: BytePair) -> tuple[Split, list[int]]:
    """A new token at every start of the pair, overlapping ones too, the symbols between one occurrence's end and
    the next start copied (none where they overlap): a run of one symbol merging ``(x, x)`` gains symbols
    (``xxxx`` becomes ``xx xx xx``)."""
    out, made, start = [], [], 0
    for i in range(len(split) - 1):
        if split[i] == pair[0] and split[i + 1] == pair[1]:
            out.extend(split[start:i])
            made.append(len(out))
            out.append(pair[0] + pair[1])
            start = i + 2
    out.extend(split[start:])
    return out, made


def merge_none(split: Split, pair: BytePair) -> tuple[Split, list[int]]:
    """A merge that never finds the pair (a pair built as a list, ``[a, b]``, compared with the tuple ``(a, b)``)."""
    return list(split), []


def merge_replace(split: Split, pair: BytePair) -> tuple[Split, list[int]]:
    """The word's symbols joined by spaces and the pair's text replaced (``word.replace('a b', 'ab')``, or
    ``re.sub`` without boundaries): ``a b`` is also found where ``a`` ends a longer symbol or ``b`` starts one
    (``xa b``, ``a bc``), and those two whole symbols become one. Symbols holding a space cannot be told apart
    once joined; such a word is merged as the correct loop merges it."""
    if any(b" " in s for s in split) or not split:
        return merge_all(split, pair)
    new = b" ".join(split).replace(pair[0] + b" " + pair[1], pair[0] + pair[1]).split(b" ")
    made, k = [], 0  # where the new tokens stand: each new symbol made of two or more old ones
    for i, symbol in enumerate(new):
        j, length = k, 0
        while length < len(symbol):
            length += len(split[j])
            j += 1
        if j - k > 1:
            made.append(i)
        k = j
    return new, made


def merge_split_spaces(split: Split, pair: BytePair) -> tuple[Split, list[int]]:
    """The correct merge, then the symbols joined by spaces and split back with ``split()``, which splits at every
    whitespace too: a space symbol is lost, and a symbol holding whitespace falls into its other pieces."""
    merged, made = merge_all(split, pair)
    if not any(c in b" \t\n\r\x0b\x0c" for s in merged for c in s):
        return merged, made
    out: Split = []
    kept: list[int] = []
    for i, symbol in enumerate(merged):
        if i in made and symbol.strip():
            kept.append(len(out))
        out.extend(symbol.split())
    return out, kept


def ends_across(pair: BytePair, held: BytePair) -> bool:
    """True if the pair's text, joined by a space, lies across the two symbols of ``held`` (``a`` ends the first,
    ``b`` starts the second): where :func:`merge_replace` merges them."""
    return held[0].endswith(pair[0]) and held[1].startswith(pair[1])
