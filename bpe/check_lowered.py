"""A faulty reader on lowercased text: a run whose tokens hold no capital, read by one of the known faulty readers.

A student who lowercases the text and reads it wrongly too (each line one word, say) makes a run that neither cause
alone follows: our run on the lowercased text counts the words right, and the faulty readers read the capitals.
:func:`lowered_reading` tries the readers (:func:`bpe.check_reading.find_count_fault`) on the lowercased text, only
where the run's tokens hold no capital letter and the text does, and names both in the reader's sentence.

Left out: the readers (:mod:`bpe.count_faults`) and how the Check weighs a reader against other causes
(:mod:`bpe.check_cause`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from .check_reading import CountFound, find_count_fault
from .check_setup import Setup
from .formats.cs336 import BytePair


def lowercased_run(text: str, merges: Sequence[BytePair]) -> bool:
    """Whether the text holds a capital letter and the run's tokens hold none (but some lowercase letter)."""
    tokens = "".join((a + b).decode("utf-8", "ignore") for a, b in merges)
    return text.lower() != text and not any(c.isupper() for c in tokens) and any(c.islower() for c in tokens)


def lowered_reading(
    text: str, setup: Setup, merges: Sequence[BytePair], step: int, specials: Sequence[str], eow: bool, cost=None
) -> CountFound | None:
    """The faulty reader whose counts of the lowercased text make our run follow the student's longest, told with
    the lowercasing; None where the run is not of lowercased text or no reader follows it."""
    if not lowercased_run(text, merges):
        return None
    found = find_count_fault(text.lower(), setup, merges, step, specials, eow, cost=cost)
    if found is None:
        return None
    fault = replace(found.fault, sentence=f"your text is lowercased, and {found.fault.sentence}")
    return replace(found, fault=fault)
