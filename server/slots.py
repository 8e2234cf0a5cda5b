"""One job's fields in the progress array the server shares with its training workers.

The server and the workers share one flat array of integers (``multiprocessing.Array``), FIELDS per job
slot: a worker writes how far it got and reads whether to stop or to write a copy of its run; the server
reads the progress and writes the requests. :class:`Slot` names those fields, so neither side counts
offsets into the array.

>>> array = [0] * (2 * FIELDS)
>>> Slot(array, 1).merge_reached = 50
>>> array
[0, 0, 0, 50, 0, 0]

Left out: what the flags mean to a run (``server/jobs.py``) and how a copy is written (``server/snapshots.py``).
"""

from __future__ import annotations

from collections.abc import MutableSequence

FIELDS = 3  # per slot: the merge reached, the stop flag, a copy asked for


class Slot:
    """Job slot ``index`` of ``array``: ``merge_reached`` (written by the worker every few merges),
    ``stop_flag`` (0, or how the server asks the worker to stop) and ``copy_asked`` (1 while the server
    waits for a copy of the merges so far; the worker sets it back to 0 once the copy is written)."""

    __slots__ = ("_array", "_at", "index")

    def __init__(self, array: MutableSequence[int], index: int) -> None:
        self._array, self._at, self.index = array, FIELDS * index, index

    @property
    def merge_reached(self) -> int:
        return int(self._array[self._at])

    @merge_reached.setter
    def merge_reached(self, step: int) -> None:
        self._array[self._at] = step

    @property
    def stop_flag(self) -> int:
        return int(self._array[self._at + 1])

    @stop_flag.setter
    def stop_flag(self, flag: int) -> None:
        self._array[self._at + 1] = flag

    @property
    def copy_asked(self) -> bool:
        return bool(self._array[self._at + 2])

    @copy_asked.setter
    def copy_asked(self, asked: bool) -> None:
        self._array[self._at + 2] = int(asked)

    def reset(self) -> None:
        """Every field back to 0, for a new job in this slot."""
        self._array[self._at : self._at + FIELDS] = [0] * FIELDS
