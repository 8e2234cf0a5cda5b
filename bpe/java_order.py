"""The order a Java student's ``HashMap`` of pair counts iterates in, emulated, for the ties it breaks.

A Java trainer often keeps its counts in a ``java.util.HashMap`` keyed ``a + " " + b`` and takes the best pair with
``Collections.max(counts.entrySet(), Map.Entry.comparingByValue())``, which keeps the first of equal counts in the
map's iteration order: the table's buckets in index order (the low bits of the key's spread hash, as many as the
table has grown to), each bucket's keys in its own order. That order depends on how the map was filled:

- ``put`` (``counts.put(k, counts.getOrDefault(k, 0) + n)``) appends a new key to its bucket and doubles the table
  once it holds more than three quarters of its slots; the words are read in the text's order;
- ``merge`` (``counts.merge(k, n, Integer::sum)``) puts a new key first in its bucket and doubles the table at the
  next call after that; the words themselves are kept in a ``HashMap<List<String>, Integer>`` filled with ``merge``
  from the text and built afresh from the old one after each merge, so they are read in that map's order.

:class:`JavaOrder` gives each pair its place in that order for a count taken afresh each step, over the words as a
replay splits them (:mod:`bpe.fault_replay`). :class:`JavaWordsReached` reads the same kind of order one level up: the
words kept as strings in a ``HashMap<String, Integer>``, the best pair kept as the count goes over them. Not emulated: a bucket of eight keys or more turned into a tree (the
table is doubled instead below 64 slots, a tree's order is kept otherwise), characters outside the BMP (one token
here, two ``char`` in Java).

Left out: the tie keys that read this order (:data:`bpe.tie_keys.TIE_KEYS`) and replaying a run under them
(:mod:`bpe.fault_replay`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence

from .formats.cs336 import BytePair

TREEIFY = 9  # a bucket this long is made a tree, or the table doubled while it has fewer than 64 slots
SMALL_TABLE = 64


def string_hash(text: str) -> int:
    """Java's ``String.hashCode``: over the UTF-16 code units, as a 32-bit int (here unsigned)."""
    h = 0
    units = text.encode("utf-16-be")
    for i in range(0, len(units), 2):
        h = (31 * h + (units[i] << 8 | units[i + 1])) & 0xFFFFFFFF
    return h


def list_hash(items: Iterable[str]) -> int:
    """Java's ``List.hashCode`` of a list of strings."""
    h = 1
    for item in items:
        h = (31 * h + string_hash(item)) & 0xFFFFFFFF
    return h


def spread(h: int) -> int:
    """``HashMap.hash``: the high half of the hash folded into the low half, which picks the bucket."""
    return h ^ (h >> 16)


class HashMapKeys:
    """The keys of a ``java.util.HashMap`` in its iteration order, filled with ``put`` or ``merge``."""

    def __init__(self, merge: bool, capacity: int = 16) -> None:
        self.merge = merge
        self.capacity = capacity  # the table's first size, a power of two
        self.table: list[list[tuple[int, object]]] = []
        self.size = 0
        self.threshold = 0
        self.members: set[object] = set()

    def _resize(self) -> None:
        slots = 2 * len(self.table) if self.table else self.capacity
        table: list[list[tuple[int, object]]] = [[] for _ in range(slots)]
        for bucket in self.table:  # each bucket split in two, its keys' order kept
            for h, key in bucket:
                table[h & (slots - 1)].append((h, key))
        self.table, self.threshold = table, slots * 3 // 4

    def add(self, key: object, h: int) -> None:
        """One ``put`` or ``merge`` call for ``key`` whose ``hashCode`` is ``h``."""
        if not self.table or (self.merge and self.size > self.threshold):
            self._resize()
        if key in self.members:
            return
        h = spread(h)
        bucket = self.table[h & (len(self.table) - 1)]
        if self.merge:
            bucket.insert(0, (h, key))
        else:
            bucket.append((h, key))
        self.members.add(key)
        self.size += 1
        if len(bucket) >= TREEIFY and len(self.table) < SMALL_TABLE:
            self._resize()
        elif not self.merge and self.size > self.threshold:
            self._resize()

    def remove(self, key: object, h: int) -> None:
        """``remove(key)``: the key leaves its bucket, the others keep their order, and the table never shrinks."""
        if key in self.members:
            bucket = self.table[spread(h) & (len(self.table) - 1)]
            bucket[:] = [(g, k) for g, k in bucket if k != key]
            self.members.discard(key)
            self.size -= 1

    def __iter__(self) -> Iterator:
        return (key for bucket in self.table for _, key in bucket)


def copy_capacity(size: int) -> int:
    """The table size of ``new HashSet<>(collection)`` for a collection of ``size`` keys: ``max(size / .75 + 1, 16)``
    rounded up to a power of two."""
    want = max(int(size / 0.75) + 1, 16)
    return 1 << (want - 1).bit_length()


def _text(token: bytes) -> str:
    return token.decode("utf-8", "replace")


def word_text(split: Sequence[bytes]) -> str:
    """A word as a Java trainer keeps it in a ``HashMap<String, Integer>``: its symbols joined by spaces."""
    return " ".join(map(_text, split))


class _Ranked(Mapping):
    """Each pair's place in an order, read from :meth:`_ranks` (made once, again after a merge)."""

    def _ranks(self) -> dict[BytePair, int]:
        raise NotImplementedError

    def __getitem__(self, pair: BytePair) -> int:
        return self._ranks()[pair]

    def __iter__(self) -> Iterator[BytePair]:
        return iter(self._ranks())

    def __len__(self) -> int:
        return len(self._ranks())


class JavaOrder(_Ranked):
    """Each pair's place in the iteration order of a Java ``HashMap`` of a count taken afresh each step over the words
    ``splits`` (each word's symbols, changed in place by the replay, which calls :meth:`moved` after each merge);
    ``merge``: the counts and the words kept as ``merge`` fills them (else ``put``, the words in the text's order)."""

    def __init__(self, splits: Sequence[Sequence[bytes]], freqs: Sequence[int], merge: bool) -> None:
        self.splits = splits
        self.merge = merge
        self.words: list[int] = list(range(len(splits)))
        if merge:  # filled from the text, a call per word: after the last new word the text has more (a guess)
            self.words = self._word_map(self.words, again=sum(freqs) > len(freqs))
        self.rank: dict[BytePair, int] | None = None

    def _word_map(self, order: Sequence[int], again: bool = False) -> list[int]:
        words = HashMapKeys(merge=True)
        for w in order:
            words.add(w, list_hash(map(_text, self.splits[w])))
        if again and order:
            words.add(order[0], 0)  # a call for a word already in: the table grows if it must
        return list(words)  # type: ignore[arg-type]

    def moved(self, changed) -> None:
        if self.merge:  # the word map built afresh from the old one's order
            self.words = self._word_map(self.words)
        self.rank = None

    def _ranks(self) -> dict[BytePair, int]:
        if self.rank is None:
            counts = HashMapKeys(self.merge)
            for w in self.words:
                split = self.splits[w]
                for p in zip(split, split[1:]):
                    counts.add(p, string_hash(f"{_text(p[0])} {_text(p[1])}"))
            self.rank = {p: i for i, p in enumerate(counts)}  # type: ignore[misc]
        return self.rank


class JavaWordsReached(_Ranked):
    """Each pair's place in a count that keeps the best pair as it goes (``if (count > best) best = pair``) over a
    Java ``HashMap<String, Integer>`` of words, each word its symbols joined by spaces (``"l o w </w>"``): the pair of
    the greatest count whose last occurrence comes first in the map's order wins. The map is filled with ``put`` in
    the text's order; each merge walks a ``new HashSet<>(map.keySet())`` and, for each word it changes, puts the new
    string and removes the old one, so a merged word moves to its new hash's bucket, at the bucket's end."""

    def __init__(self, splits: Sequence[Sequence[bytes]]) -> None:
        self.splits = splits
        self.words = HashMapKeys(merge=False)
        self.hashes: dict[int, int] = {}  # each word's key's hash, as the map holds it
        for w in range(len(splits)):
            self.hashes[w] = string_hash(word_text(splits[w]))
            self.words.add((w, self.hashes[w]), self.hashes[w])
        self.rank: dict[BytePair, int] | None = None

    def moved(self, changed) -> None:
        copy = HashMapKeys(merge=False, capacity=copy_capacity(self.words.size))
        for key in self.words:
            copy.add(key, key[1])
        for w, old in list(copy):
            if w in changed:
                new = string_hash(word_text(self.splits[w]))
                self.words.add((w, new), new)
                self.words.remove((w, old), old)
                self.hashes[w] = new
        self.rank = None

    def _ranks(self) -> dict[BytePair, int]:
        if self.rank is None:
            rank: dict[BytePair, int] = {}
            at = 0
            for w, _ in self.words:
                split = self.splits[w]
                for p in zip(split, split[1:]):
                    rank[p] = at  # the place of its last occurrence
                    at += 1
            self.rank = rank
        return self.rank
