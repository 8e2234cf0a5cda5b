"""Where a pair's count comes from: the words holding the pair at a step, and their shares of its count.

A merge's count is a sum over words: ``occurrences x frequency`` for each word that holds the pair. The page
says it on every step (``ug = hug 10 + pug 5 + hugs 5``) and in the chart's tooltips for the top pairs, so
on a large corpus the search must not rebuild every word. It uses one fact: a word's tokens always spell its
initial symbols, so a pair can only occur where its two strings stand side by side in that spelling, and at
most as often as they do there. Words are rebuilt in order of that bound (times their frequency) until no
remaining word could make the top ``limit`` (:func:`largest_shares`). The candidate words of a pair string
and the shares found are kept in the run's :class:`~bpe.run_cache.RunCache`: the top pairs of one step are
mostly those of the step before.

>>> from bpe import run_training
>>> s = run_training({"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}).state(2)
>>> sentence(s)
'un = pun 12 + bun 4'

Left out: the run's layout (:mod:`bpe.history`) and the rest of a step's explanation (:mod:`bpe.state`).
"""

from __future__ import annotations

import bisect
import re
from array import array
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from .config import Pair

# A run's bpe.history.History and one of its bpe.state.TrainState steps. Not imported: both import this
# module, and the engine has no import circle.
HistoryRecord = Any
Step = Any
SHARE_BYTES = 600  # what one kept search result holds, about (a few tuples of ints)


@dataclass(frozen=True)
class Contribution:
    """One word's share of a pair count: ``occurrences * frequency``."""

    word: str
    occurrences: int
    frequency: int

    @property
    def total(self) -> int:
        return self.occurrences * self.frequency


def _words(n: int, more: str = "") -> str:
    """``1 more word``, ``2 more words``."""
    return f"{n:,} {more}word" + ("" if n == 1 else "s")


def contributions(state: Step) -> list[Contribution]:
    """Where this merge's count comes from: every word that held the pair, in corpus order."""
    if not state.step:
        return []
    h = state.history
    a, b, _ = h.merges[state.step - 1]
    out = []
    for i in h.words_changed_at(state.step):
        split = h.split_ids_at(i, state.step - 1)
        occ = sum(1 for x, y in zip(split, split[1:]) if x == a and y == b)
        out.append(Contribution(h.words[i], occ, h.freqs[i]))
    return out


def sentence(state: Step, limit: int = 8, show: Callable[[str], str] = str) -> str:
    """``ug = hug 10 + pug 5 + hugs 5`` (largest shares first when there are many words).
    ``show`` formats each word and token, e.g. to make their whitespace visible.

    With more than ``limit`` words, only the largest shares are rebuilt (as in :func:`shares_of`): the words
    this merge rewrote are exactly those that held the pair, so how many others there are and what they add
    follow from the pair's count, without rebuilding each of them (an early merge of a large corpus rewrites
    thousands of words, and this sentence is on every step)."""
    if not state.step:
        return ""
    h = state.history
    changed = h.words_changed_at(state.step)
    if len(changed) <= limit:
        shares = [(c.word, c.occurrences, c.frequency) for c in contributions(state)]
        rest = None
    else:
        a, b, _ = h.merges[state.step - 1]
        found, _, _ = largest_shares(h, (a, b), state.step - 1, limit)
        shares = [(h.words[i], occ, h.freqs[i]) for _, i, occ in found[:limit]]
        rest = h.count_at((a, b), state.step - 1) + sum(share for share, _, _ in found[:limit])
    if not shares:
        return ""
    text = " + ".join(f"{show(w)} {f}" if occ == 1 else f"{show(w)} {occ}×{f}" for w, occ, f in shares)
    if rest is not None:
        text += f" + {_words(len(changed) - limit, 'more ')} ({rest})"
    return f"{show(state.new_token)} = {text}"


def largest_shares(h: HistoryRecord, ids: tuple[int, int], after: int, limit: int) -> tuple[list, int, int]:
    """The words with the ``limit`` largest shares of the count of pair ``ids`` after ``after`` merges
    (ties: corpus order), as ``(-share, word index, occurrences)``, largest first, and perhaps more after
    them; how many candidate words were rebuilt, and how many there were."""
    a, b = ids
    bounds, indices = candidate_arrays(h, h.symbols[a] + h.symbols[b], h.config.rule.scored)
    found: list[tuple[int, int, int]] = []  # (-share, word index, occurrences)
    checked = 0
    for neg_bound, i in zip(bounds, indices):
        if len(found) >= limit and -neg_bound < -found[limit - 1][0]:
            break  # this word and all after it share less than the current top `limit`
        checked += 1
        split = h.split_ids_at(i, after)
        occ = sum(1 for pr in zip(split, split[1:]) if pr == ids)
        if occ:
            found.append((-occ * h.freqs[i], i, occ))
            found.sort()
    return found, checked, len(bounds)


def shares_of(state: Step, pairs: Iterable[Pair], limit: int = 6, show: Callable[[str], str] = str) -> dict[Pair, str]:
    """For several pairs at once, where each count (as chosen from at this step) comes from:
    ``"hug 10 + pug 5 + hugs 5"``, largest shares first (corpus order among equal ones), at most ``limit``
    words each, then what the other words add: ``" + 1,234 in 56 more words"`` when every word was looked
    at, ``" + 1,234 in other words"`` when the search stopped early. ``show`` formats each word."""
    h = state.history
    after = max(state.step - 1, 0)
    out: dict[Pair, str] = {}
    for pair in pairs:
        ids = h.pair_ids(pair)
        total = h.count_at(ids, after) if ids else 0
        if total <= 0:
            out[pair] = ""
            continue
        # The same change-log entry, the same words: the top pairs of one step are mostly those of the step
        # before, their counts untouched by its merge (see History.count_entry).
        key = ("shares", h.count_entry(ids, after), limit)
        kept = h.cache.get(key)
        if kept is None:
            found, checked, candidates = largest_shares(h, ids, after, limit)
            kept = h.cache.put(key, (found[:limit], len(found), checked == candidates), SHARE_BYTES)
        shown, num_found, every_word = kept
        text = " + ".join(
            f"{show(h.words[i])} {h.freqs[i]}" if occ == 1 else f"{show(h.words[i])} {occ}×{h.freqs[i]}"
            for _, i, occ in shown
        )
        rest = total + sum(share for share, _, _ in shown)
        if rest:
            if every_word:
                text += f" + {rest:,} in {_words(num_found - len(shown), 'more ')}"
            else:
                text += f" + {rest:,} in other words"
        out[pair] = text
    return out


def candidate_words(h: HistoryRecord, needle: str, wordpiece: bool) -> list[tuple[int, int]]:
    """``(-bound * frequency, word index)`` for every word whose spelling can hold a pair spelled
    ``needle``, largest bound first (the items of :func:`candidate_arrays`, as a list)."""
    return list(zip(*candidate_arrays(h, needle, wordpiece)))


def candidate_arrays(h: HistoryRecord, needle: str, wordpiece: bool) -> tuple[array, array]:
    """The negated bounds ``-bound * frequency`` and the word indices of every word whose spelling can
    hold a pair spelled ``needle``, largest bound first, as two arrays: a reader walks them only as far as
    it needs (a common pair string is in most words of a large corpus). They depend only on the spellings,
    not on the step, and the top pairs of one step are mostly those of the next: so the run's cache keeps
    them (12 bytes a word), which saves a regex pass over the corpus per pair on most steps."""
    key = ("candidates", needle, wordpiece)
    packed = h.cache.get(key)
    if packed is None:
        found = sorted((-bound * h.freqs[i], i) for i, bound in spelling_bounds(h, needle, wordpiece).items())
        packed = (array("q", [b for b, _ in found]), array("I", [i for _, i in found]))
        packed = h.cache.put(key, packed, 12 * len(found))
    return packed


def spelling_bounds(h: HistoryRecord, needle: str, wordpiece: bool) -> dict[int, int]:
    """word index -> an upper bound on how often a pair spelled ``needle`` occurs in it."""
    if wordpiece:
        return {i: len(text) for i, text in enumerate(h.spellings())}
    joined, starts = h.joined_spellings()
    # A needle that overlaps itself ("aa" in "aaa") can occur more often as a pair than as separate
    # matches: count overlapping matches then (a lookahead matches at every offset).
    overlaps = any(needle[:k] == needle[-k:] for k in range(1, len(needle)))
    if "\0" in needle:  # the separator of the joined text: look word by word
        return {i: text.count(needle) + len(text) * overlaps for i, text in enumerate(h.spellings()) if needle in text}
    pattern = f"(?={re.escape(needle)})" if overlaps else re.escape(needle)
    bounds: dict[int, int] = {}
    for m in re.finditer(pattern, joined):
        i = bisect.bisect_right(starts, m.start()) - 1
        bounds[i] = bounds.get(i, 0) + 1
    return bounds
