"""A minbpe run whose ids number the corpus's distinct bytes from 0: its merges read back through that numbering.

A trainer that builds its base from the bytes the text holds (``{b: i for i, b in enumerate(set(data))}``) and
numbers its merges from there writes a ``.model`` whose ids are not bytes: a ``.model`` is read with ids 0-255 the
bytes themselves and merge n the id 256 + n - 1, so every merge reads back as other bytes, and the run looks as if it
came from another text. The numberings tried: the distinct bytes sorted, in a Python set's order, and in the order
the text first holds them; one is taken when its reading of the first merges stands in the text.

Left out: vocabularies that label the 256 bytes wrongly (:mod:`bpe.check_relabel`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from .check_relabel import FIRST, fits, shown_pair, texts_of, told_at_step_one
from .formats.cs336 import BytePair
from .formats.student_runs import StudentRun
from .pre_tokenizers import Corpus

ORDERS: dict[str, tuple[str, Callable[[bytes], list[int]]]] = {
    "sorted": ("in byte order", lambda data: sorted(set(data))),
    "set": ("in a Python set's order", lambda data: list(set(data))),
    "first-seen": ("in the order the text first holds them", lambda data: list(dict.fromkeys(data))),
}


@dataclass(frozen=True)
class Renumbered:
    """The numbering found: ``order`` (a key of :data:`ORDERS`), ``size`` distinct bytes, the merges read back."""

    order: str
    size: int
    merges: tuple[BytePair, ...]


def _read_back(pairs, alphabet: list[int]) -> tuple[BytePair, ...] | None:
    vocab = {i: bytes([b]) for i, b in enumerate(alphabet)}
    merges = []
    for j, (a, b) in enumerate(pairs):
        if a not in vocab or b not in vocab:
            return None
        merges.append((vocab[a], vocab[b]))
        vocab[len(alphabet) + j] = vocab[a] + vocab[b]
    return tuple(merges)


def renumbered(corpus: Corpus, student: StudentRun) -> Renumbered | None:
    """The numbering of the corpus's distinct bytes that reads a minbpe run's first merges back into the text, when
    its first merge as read stands nowhere in it; else None."""
    texts = texts_of(corpus)
    if student.format != "minbpe .model" or not student.id_pairs or texts is None or fits(student.merges[:1], texts):
        return None
    data = b"".join(texts)
    first = min(len(student.merges), FIRST)
    found = []
    for name, (_, order) in ORDERS.items():
        alphabet = order(data)
        read = _read_back(student.id_pairs, alphabet)
        if read is not None and fits(read[:1], texts):
            found.append((fits(read, texts), Renumbered(name, len(alphabet), read)))
    best = max(found, key=lambda f: f[0], default=None)  # the first of equal fits: the commonest order
    return best[1] if best is not None and best[0] >= first - first // 10 else None


def read_back(student: StudentRun, found: Renumbered) -> StudentRun:
    """The run as the trainer meant it: its merges read through its numbering, its vocabulary of its own size."""
    return replace(student, merges=found.merges, vocab_size=found.size + len(found.merges), id_pairs=())


def renumbered_told(found: Renumbered, merges, inner):
    """The verdict, at step 1: the ids are not bytes, with the first merge as evidence, then ``inner``'s verdict on
    the merges read back."""
    cause = (
        f"Your .model's ids are not bytes: your base numbers the {found.size} distinct bytes of the corpus 0 to "
        f"{found.size - 1} ({ORDERS[found.order][0]}) and your merges from {found.size}, where a .model is read "
        f"with ids 0-255 the bytes themselves and merge n the id 256 + n - 1, so your merge 1 {shown_pair(merges[0])} "
        f"is our {shown_pair(found.merges[0])}. Count the text's bytes as ids (list(text.encode('utf-8'))) and "
        f"number the merges from 256. Read back through your numbering ({len(found.merges)} merges), "
        f"{inner.cause[0].lower()}{inner.cause[1:]}"
    )
    return told_at_step_one(inner, merges[0], "renumbered", cause)
