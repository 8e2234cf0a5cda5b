"""Merging one word's symbols, exactly as ``tokenizers``' ``Word::merge_all`` does, fast at any length.

:func:`merge_all` picks one of three equivalent ways by the word's length: a scan for the lowest
(rank, position) for short words, a heap of ``rank << 32 | position`` integers over a linked list
of symbols, and for words of 256 symbols or more a heap of ranks with a small heap of positions per
rank. All three give the same merges in the same order (tests compare them); a word of n symbols
costs O(n log n). :class:`FirstMerges` is a merge table seen through its first k ranks.

Left out: where the symbols come from and what the merges mean (:mod:`bpe.models`), and
recording the steps for display (:mod:`bpe.replay` does that with the ``record`` list).
"""

from __future__ import annotations

from array import array
from heapq import heapify, heappop, heappush


def merge_all(
    symbols: list[str], units: list[int], merge_map: dict, record: list | None = None, concatenates: bool = False
) -> None:
    """Merge a word's symbols in place, exactly as ``tokenizers``' ``Word::merge_all`` does.

    ``merge_map`` maps a pair to ``(rank, new token)``. A min-heap holds candidate merges as
    ``(rank, position)``: the lowest rank first, and among equal ranks the leftmost. Symbols form a
    linked list, so a merge costs O(log n) and a word of n symbols O(n log n). An entry whose
    position was merged away, or whose pair changed since it was pushed (its new token differs),
    is stale and skipped; as in ``tokenizers``, an entry whose pair changed into another pair that
    makes the same token is applied. Heap entries are single integers, ``rank << 32 | position``
    (with the new token kept beside them by rank), which is what makes long words fast in Python.
    ``record``, if given, receives ``(rank, left position, right position)`` per merge.
    ``concatenates`` says every merge's token is its pair joined (no word prefix), which lets short
    words take a faster path with the same result (:func:`_merge_all_scan`).
    """
    n = len(symbols)
    if n < 2:
        return
    if n >= 256:
        _merge_all_buckets(symbols, units, merge_map, record)
    elif n <= SHORT_WORD and record is None and concatenates:
        _merge_all_scan(symbols, units, merge_map)
    else:
        _merge_all_heap(symbols, units, merge_map, record)


SHORT_WORD = 32  # symbols: shorter words are merged by scanning (faster in Python than a heap up to ~32)


def _merge_all_scan(symbols: list[str], units: list[int], merge_map: dict) -> None:
    """:func:`merge_all` for a short word: merge the adjacent pair of lowest (rank, position) until none
    is left. This is the heap's order exactly when a merged token is its pair joined (no word prefix):
    then an entry's token still matches only if its pair is unchanged (symbols only grow), so the heap
    never applies a stale entry and always pops the lowest (rank, position) of the current pairs."""
    get = merge_map.get
    # found[i]: the (rank, token) of the pair at i, or None. Each pair is looked up once; a merge
    # changes only the pairs on either side of it.
    found = list(map(get, zip(symbols, symbols[1:])))
    while True:
        best, best_rank = -1, 1 << 62
        for i, m in enumerate(found):
            if m is not None and m[0] < best_rank:
                best, best_rank = i, m[0]
        if best < 0:
            return
        new = found[best][1]
        symbols[best : best + 2] = [new]
        units[best : best + 2] = [units[best] + units[best + 1]]
        del found[best]
        if best:
            found[best - 1] = get((symbols[best - 1], new))
        if best < len(found):
            found[best] = get((new, symbols[best + 1]))


def _merge_all_heap(symbols: list[str], units: list[int], merge_map: dict, record: list | None) -> None:
    """:func:`merge_all` with one heap of ``rank << 32 | position`` integers."""
    n = len(symbols)
    nxt = list(range(1, n + 1))
    nxt[-1] = -1
    prev = list(range(-1, n - 1))
    get = merge_map.get
    made: dict[int, str] = {}  # rank -> the token its entries make
    heap = []
    for i in range(n - 1):
        m = get((symbols[i], symbols[i + 1]))
        if m is not None:
            heap.append(m[0] << 32 | i)
            made[m[0]] = m[1]
    heapify(heap)
    mask = (1 << 32) - 1
    while heap:
        key = heappop(heap)
        pos = key & mask
        if prev[pos] == -2:
            continue  # merged into its left neighbour
        right = nxt[pos]
        if right == -1:
            continue
        rank = key >> 32
        m = get((symbols[pos], symbols[right]))
        new = made[rank]
        if m is None or m[1] != new:
            continue  # an expired entry
        symbols[pos] = new
        units[pos] += units[right]
        prev[right] = -2
        after = nxt[right]
        nxt[pos] = after
        if after != -1:
            prev[after] = pos
        if record is not None:
            record.append((rank, pos, right))
        before = prev[pos]
        if before >= 0:
            m = get((symbols[before], new))
            if m is not None:
                heappush(heap, m[0] << 32 | before)
                made[m[0]] = m[1]
        if after != -1:
            m = get((new, symbols[after]))
            if m is not None:
                heappush(heap, m[0] << 32 | pos)
                made[m[0]] = m[1]
    # Keep the symbols still linked from the first (which is never merged away).
    out_s, out_u, i = [], [], 0
    while i != -1:
        out_s.append(symbols[i])
        out_u.append(units[i])
        i = nxt[i]
    symbols[:] = out_s
    units[:] = out_u


def _merge_all_buckets(symbols: list[str], units: list[int], merge_map: dict, record: list | None) -> None:
    """:func:`merge_all` for long words, same order: one small heap of positions per rank and a heap
    of the ranks present. A word of thousands of symbols holds few distinct pairs, so both heaps stay
    shallow and a 10x longer word costs about 10x (a single heap of every position costs ~15x)."""
    n = len(symbols)
    # Compact int arrays: a long word's links stay in the processor's cache (a list of int objects
    # spread over the heap made a 100 KB word 25x slower than a 10 KB one instead of 10x).
    nxt = array("q", range(1, n + 1))
    nxt[-1] = -1
    prev = array("q", range(-1, n - 1))
    get = merge_map.get
    made: dict[int, str] = {}
    buckets: dict[int, list[int]] = {}
    for i in range(n - 1):
        m = get((symbols[i], symbols[i + 1]))
        if m is not None:
            r = m[0]
            bucket = buckets.get(r)
            if bucket is None:
                buckets[r] = [i]  # positions arrive in order: each bucket is already a heap
                made[r] = m[1]
            else:
                bucket.append(i)
    ranks = list(buckets)
    heapify(ranks)

    def push(r: int, pos: int, new: str) -> None:
        bucket = buckets.get(r)
        if bucket is None:
            buckets[r] = [pos]
            made[r] = new
            heappush(ranks, r)
        else:
            heappush(bucket, pos)

    while ranks:
        rank = ranks[0]
        bucket = buckets[rank]
        pos = heappop(bucket)
        if not bucket:
            heappop(ranks)
            del buckets[rank]
        if prev[pos] == -2:
            continue
        right = nxt[pos]
        if right == -1:
            continue
        # The merge itself is written out again here rather than shared with _merge_all_heap: it is the
        # hot loop, and a function call per merge would cost more than the lines it saves.
        m = get((symbols[pos], symbols[right]))
        new = made[rank]
        if m is None or m[1] != new:
            continue
        symbols[pos] = new
        units[pos] += units[right]
        prev[right] = -2
        after = nxt[right]
        nxt[pos] = after
        if after != -1:
            prev[after] = pos
        if record is not None:
            record.append((rank, pos, right))
        before = prev[pos]
        if before >= 0:
            m = get((symbols[before], new))
            if m is not None:
                push(m[0], before, m[1])
        if after != -1:
            m = get((new, symbols[after]))
            if m is not None:
                push(m[0], pos, m[1])
    out_s, out_u, i = [], [], 0
    while i != -1:
        out_s.append(symbols[i])
        out_u.append(units[i])
        i = nxt[i]
    symbols[:] = out_s
    units[:] = out_u


class FirstMerges:
    """A merge table seen through its first ``k`` ranks (what :meth:`bpe.models.BPE.with_merges` shares):
    ``get`` answers like the table's for a pair of rank below ``k``, else None."""

    __slots__ = ("full", "k", "get")

    def __init__(self, full: dict, k: int) -> None:
        self.full, self.k = full, k
        lookup = full.get

        def get(pair):
            m = lookup(pair)
            return m if m is not None and m[0] < k else None

        self.get = get

    def __getitem__(self, pair):
        m = self.get(pair)
        if m is None:
            raise KeyError(pair)
        return m
