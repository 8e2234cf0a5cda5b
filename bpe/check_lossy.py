"""Merges printed through ``decode('utf-8', 'replace')``: a token that is part of a character shown as ``'�'``.

A byte-level trainer that prints its merges as text (``vocab[i].decode('utf-8', errors='replace')``, as minbpe's
``render_token`` does) writes every token that holds only part of a character's bytes with ``'�'`` (U+FFFD) in
their place, so its first merges on a text with accents or CJK read ``('�', '�')``: pairs no text holds, which would
be told as UTF-16 halves or as another byte base. :func:`lossy_read` reads such a run back: each merge that equals
ours once ours is printed the same way is taken as ours, up to the first that does not; :func:`lossy_told` says so
before the verdict on the run read back.

Left out: ``'�'`` from UTF-16 surrogate halves (:mod:`bpe.check_utf16`), and a run with no merge of ours to read it by.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from .check_result import Comparison
from .formats.cs336 import BytePair
from .formats.student_runs import StudentRun

REPLACED = "\ufffd".encode()


@dataclass(frozen=True)
class Lossy:
    """The run read back, and how many of its merges were printed with ``'�'`` and read as ours."""

    run: StudentRun
    read: int


def holds_replaced(student: StudentRun) -> bool:
    """Whether a token of the run holds ``'�'``."""
    return any(REPLACED in t for pair in student.merges for t in pair)


def _printed(token: bytes) -> bytes:
    return token.decode("utf-8", "replace").encode("utf-8")


def lossy_read(student: StudentRun, ours: Sequence[BytePair]) -> Lossy | None:
    """The student's run with each merge that holds ``'�'`` and equals ours at its step, printed through
    ``decode('utf-8', 'replace')``, read as ours, up to the first merge that equals ours neither way; None where no
    merge is so read (a run with no ``'�'``, or whose ``'�'`` merges are not ours printed so)."""
    if not holds_replaced(student):
        return None
    merges, read = list(student.merges), 0
    for k, (theirs, our) in enumerate(zip(student.merges, ours)):
        if theirs == our:
            continue
        if REPLACED not in theirs[0] + theirs[1] or (_printed(our[0]), _printed(our[1])) != theirs:
            break
        merges[k], read = our, read + 1
    if not read:
        return None
    return Lossy(replace(student, merges=tuple(merges), byte_level=True, byte_chars=False), read)


def lossy_told(lossy: Lossy, inner: Comparison) -> Comparison:
    """The verdict on the run read back, after a sentence on how it was read."""
    merges = "merge" if lossy.read == 1 else "merges"
    said = (
        f"Your run prints its tokens through decode('utf-8', 'replace'), so a token that holds only part of a "
        f"character's bytes shows as '�': {lossy.read} of your {merges} read that way equal ours printed so, and are "
        "read as ours (print tokens as bytes, or with errors='backslashreplace', to see them). "
    )
    return replace(inner, cause=said + inner.cause)
