"""What a faulty merge loop is made of: its merge rule, its update's extra, flags for loops that count otherwise.

A correct loop, after merging the pair ``(a, b)``, takes every word that holds it, replaces each occurrence left
to right (``aaa`` becomes ``aa a``), and moves the word's pair counts from its old split to its new one. A
:class:`Fault` changes one thing in that loop: how a word is merged (a rule of :mod:`bpe.word_merges`), what the
count update adds or subtracts beyond the correct one (an ``extra`` of :mod:`bpe.neighbour_faults` or
:mod:`bpe.run_faults`), or a flag for a loop that counts or selects differently altogether, which
:func:`bpe.fault_replay.replay` reads.

Left out: the faults themselves (:data:`bpe.merge_faults.FAULTS`) and replaying them (:mod:`bpe.fault_replay`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from .formats.cs336 import BytePair
from .word_merges import Split, merge_all


def no_extra(old: Split, new: Split, pair: BytePair, made: list[int]) -> Counter:
    return Counter()


@dataclass(frozen=True)
class Fault:
    """One faulty merge loop: how it merges a word, what its count update adds or subtracts beyond the
    correct one, and the flags of the loops that count differently altogether. ``sentence`` says what
    the loop does, addressed to the student; ``about_merge`` says it of one merge (``{merge}``, its
    symbols ``{a}`` and ``{b}``, the new token ``{joined}``) of the last merge that ``blames`` says changed the pair whose count is off
    (by default: a merge whose left symbol is in that pair), or of the last that ``blames_first`` says made one of its
    tokens, where one did.
    ``moves``: a loop that keeps each word's pair counts but not its split; after a merge, each pair of a
    word beside the merged pair's symbols becomes the pairs ``moves`` gives from the word's bytes (none: it
    stays), with all of its count (``merge`` and ``extra`` then unused)."""

    name: str
    sentence: str
    about_merge: str = ""  # the sentence for one merge, when the fault's harm can be traced to it
    blames: Callable[[BytePair, BytePair], bool] = lambda merge, pair: merge[0] in pair  # merge's update changed pair
    blames_first: Callable[[BytePair, BytePair], bool] | None = None  # merge made a token of pair: named first
    merge: Callable[[Split, BytePair], tuple[Split, list[int]]] = merge_all
    extra: Callable[[Split, Split, BytePair, list[int]], Counter] = no_extra
    frozen: bool = False
    frozen_later: bool = False  # the first merge updates words and counts; no later one does (``frozen`` from step 2)
    banned: bool = False
    overlap: bool = True
    only_merged: bool = False
    positions: bool = False  # pairs kept as sets of byte positions, moved by position (see replay_positions)
    loses: bool = False  # counts right, but the selection never offers again the pairs it should take at the step
    drops: bool = False  # the merged pair's count deleted outright, also what the update moved there by mistake
    moves: Callable[[BytePair, bytes, BytePair], tuple[BytePair, ...]] | None = None
    heap: bool = False  # the selection a max-heap whose update never sifts up (see replay_heaps.SiftlessHeap)
    skip_first: bool = False  # with ``heap``: the heap's update skips the left neighbour at position 1
    assigns: bool = False  # a new pair's count set to the last word's count that made it, not the sum
    stale_index: bool = False  # a word joins a pair's index only when the pair had none (see fault_replay)
    keeps_pair: bool = False  # the merged pair's count is left as it was when it was taken
    skips: bool = False  # every second word of the list holding the pair skipped (removed from it while iterated)
    wrong_index: bool = False  # the update uses the last word's index for the count and the merged split
    recorded: bool = False  # occurrences kept at the places recorded when counted, never shifted (replay_positions)
    linked: bool = False  # with ``lazy``: linked lists whose absorbed nodes are never marked (replay_heaps.LinkedHeap)
    prefix_first: bool = False  # the left pairs moved before the right ones, read off the word as it is (replay_dicts)
    follow: int = 0  # merges past the step it must follow the run too (or to its end): one choice may pass for it
    past_end: bool = False  # with ``follow``: a run that ends sooner does not do (a short run may follow it by chance)
    global_substring: bool = False  # pair counts moved to substring counts of the whole corpus, no words (replay_dicts)
    lazy: bool = False  # with ``heap``: a heapq of (-count, pair) pushed only when a count rises (replay_heaps)
    whole_words: bool = False  # with ``lazy``: each merged word's pairs re-added and pushed (replay_heaps.WordHeap)
    once: bool = False  # each pair counted once per word (the word's pairs taken as a set), times the word's count
    even: bool = False  # only the pairs starting at even positions counted (range(0, len - 1, 2)): a stride of 2
    accumulates: bool = False  # the counts never reset: each pass adds every word's pairs again to the old counts
    present: bool = False  # only a pair some word holds now is taken (the best kept while scanning the words)
    unbounded: bool = False  # the merge finds the pair's text across any two symbols (word_merges.merge_replace)
    weight: float = 2  # its place among the causes that follow the run as far (bpe.check_cause: the lower, the first)
    every_word: bool = False  # every word of two symbols or more rewritten by ``merge``, also one not holding the pair
