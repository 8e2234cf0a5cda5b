"""A training worker's copy of the merges made so far, handed to the server while the run goes on.

When a session presses Stop on a run that another open session still waits for, the run must go on
for that other session, but the session that stopped should still get what was made: the merges so
far, as a run it can step through ("stopped at merge k"). ``server/jobs.py`` asks the worker through
the shared progress array (a per-slot request flag, read every 50 merges, like the stop flag); the
worker then copies its history as it stands, marks the copy stopped at that merge and finishes it
(lists become arrays, as a finished run does), and writes ``(history, nbytes)`` as a pickle to a file
of its slot, written under a temporary name and renamed, so the server never reads half a file. The
worker clears the flag after the rename; the server reads the file (and deletes it) once the flag is
clear. Training is deterministic, so the copy holds the same merges as the first k of the whole run.

Also here: :func:`deep_sizeof`, a run's measured size (the run store's budget counts it).
Left out: when to ask and who gets the copy (``server/jobs.py``, ``ui/runs.py``).
"""

from __future__ import annotations

import contextlib
import glob
import os
import pickle
import re
import sys
import tempfile
import threading
from array import array

import bpe

PREFIX = "bpe-snapshot-"


def path(server_pid: int, slot: int) -> str:
    """The file a worker of the server ``server_pid`` writes the copy of slot ``slot``'s run to."""
    return os.path.join(tempfile.gettempdir(), f"{PREFIX}{server_pid}-{slot}.pickle")


def write(history: bpe.History, step: int, to: str) -> None:
    """In the worker: a finished copy of ``history`` as at merge ``step`` (the merge just yielded:
    every merge up to it is complete), stopped there, written atomically to ``to``."""
    copy = pickle.loads(pickle.dumps(history, pickle.HIGHEST_PROTOCOL))  # the run itself goes on
    copy.stop("stopped", step)
    copy.finish()
    partial = f"{to}.{os.getpid()}.part"
    try:
        with open(partial, "wb") as f:
            pickle.dump((copy, deep_sizeof(copy)), f, pickle.HIGHEST_PROTOCOL)
        os.replace(partial, to)
    except BaseException:
        discard(partial)  # no half-written file left in the temporary directory
        raise


def read(at: str) -> tuple[bpe.History, int] | None:
    """In the server: the copy written to ``at`` (the file is removed), or None if there is none.

    The file is first taken away under a name of this reader's own (an atomic rename): the worker may
    write a newer copy to ``at`` while this one is read (a third session pressed Stop meanwhile), and
    removing ``at`` after reading would have deleted that newer copy unread."""
    taken = f"{at}.{os.getpid()}-{threading.get_ident()}.reading"
    try:
        os.replace(at, taken)
    except FileNotFoundError:
        return None
    try:
        with open(taken, "rb") as f:
            return pickle.load(f)
    finally:
        discard(taken)


def discard(at: str) -> None:
    with contextlib.suppress(FileNotFoundError):
        os.remove(at)


_NAMED = re.compile(re.escape(PREFIX) + r"(\d+)-\d+\.pickle")


def sweep(server_pid: int) -> list[str]:
    """At a pool's start in the server ``server_pid``: remove the copies (and half-written ``.part`` files)
    left in the temporary directory by a server that is gone (killed while a copy waited to be read, or
    its worker killed mid-write, as workers are when their server dies) or by an earlier pool of this
    one; a copy of another live server is left alone. The paths removed."""
    removed = []
    for name in glob.glob(os.path.join(tempfile.gettempdir(), PREFIX + "*")):
        found = _NAMED.match(os.path.basename(name))
        if found is None:
            continue
        pid = int(found.group(1))
        if pid == server_pid or not _running(pid):
            with contextlib.suppress(OSError):
                os.remove(name)
                removed.append(name)
    return removed


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return True  # another user's process (or not a pid at all): not ours to judge
    return True


def deep_sizeof(root) -> int:
    """Bytes held by ``root`` and everything it references (each object once), as ``sys.getsizeof``
    counts them: the size of a finished run, measured in the worker that trained it."""
    seen: set[int] = set()
    stack, total = [root], 0
    atomic = (str, bytes, int, float, bool, type(None), array)
    while stack:
        obj = stack.pop()
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        total += sys.getsizeof(obj)
        if isinstance(obj, atomic):
            continue
        if isinstance(obj, dict):
            stack.extend(obj.keys())
            stack.extend(obj.values())
        elif isinstance(obj, (list, tuple, set, frozenset)):
            stack.extend(obj)
        elif hasattr(obj, "__dict__"):
            stack.append(vars(obj))
        elif hasattr(obj, "__slots__"):
            stack.extend(getattr(obj, name) for name in obj.__slots__ if hasattr(obj, name))
    return total
