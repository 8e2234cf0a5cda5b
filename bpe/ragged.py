"""Many short integer sequences kept in two flat arrays, and the bytes such arrays take.

A finished training run holds tens of thousands of short sequences (each merge's tied pairs, each
word's change steps, each word's initial split). As Python lists of arrays they are tens of thousands
of objects to pickle, send and unpickle; as one :class:`Ragged` each they are two buffers.

Left out: what the sequences mean (:mod:`bpe.history`).

>>> r = Ragged("I", [[1, 2], [], [3]])
>>> [list(x) for x in r]
[[1, 2], [], [3]]
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence


def array_bytes(seq: array | list[int], code: str) -> int:
    """Bytes of ``seq`` as an array of type ``code`` (what a list will take once compacted)."""
    if isinstance(seq, array):
        return seq.buffer_info()[1] * seq.itemsize
    return len(seq) * array(code).itemsize


class Ragged(Sequence):
    """Many short integer sequences in two arrays: item ``i`` is ``flat[start[i]:start[i + 1]]`` (an
    ``array``, empty for an empty or None item). Reads like the list of arrays it replaces."""

    __slots__ = ("flat", "start")

    def __init__(self, code: str, items) -> None:
        self.flat = array(code)
        self.start = array("Q", [0])
        flat, start = self.flat, self.start
        for item in items:
            if item:
                flat.extend(item)
            start.append(len(flat))

    def __len__(self) -> int:
        return len(self.start) - 1

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        if i < 0:
            i += len(self)
        if not 0 <= i < len(self):
            raise IndexError(i)
        return self.flat[self.start[i] : self.start[i + 1]]

    def nbytes(self) -> int:
        return len(self.flat) * self.flat.itemsize + len(self.start) * self.start.itemsize

    def __getstate__(self):
        return self.flat, self.start

    def __setstate__(self, state) -> None:
        self.flat, self.start = state


def ragged_bytes(seq, code: str) -> int:
    """Bytes of a per-merge or per-word sequence of arrays once compacted into a :class:`Ragged`."""
    if isinstance(seq, Ragged):
        return seq.nbytes()
    return sum(array_bytes(item, code) for item in seq if item) + 8 * (len(seq) + 1)
