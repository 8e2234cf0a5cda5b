"""How far a loop that merges a pair's occurrences in a set's order follows a student's run on the corpus.

The replay itself (:mod:`bpe.set_order`) needs the pre-tokens in the order of the text; :func:`set_order` reads
them, tries it only where the order can change a split (a merge ``(x, x)`` up to the step, and a word holding
``xxx``), and keeps it only where it follows the run past the step.

Left out: weighing it against the other causes and saying it (:mod:`bpe.check_cause`).
"""

from __future__ import annotations

from .check_loop import BEYOND
from .check_reading import reading_of
from .check_setup import base_symbols, student_words
from .check_ties import FOLLOW
from .check_work import Work
from .count_faults import file_text
from .set_order import set_order_reach, tuple_set_order_reach
from .tie_keys import TIE_KEYS

# the loops replayed, in order: each pair's positions numbered from 1 with ties to the greatest pair of bytes (as
# CS336's max), then list indices from 0 with ties to the smallest pair (a heap of (-count, pair)) or to the smallest
# merged token (a heap of (-count, a + b))
ORDERS = ((1, max), (0, min), (0, lambda tied: TIE_KEYS["smallest-concat"][1](tied, {}, {})))


def set_order(corpus, student, setup, specials, step, words=None) -> tuple[int, tuple[bytes, int, str]] | None:
    """How far a loop that merges a pair's occurrences in a set's order follows the run (:mod:`bpe.set_order`), with
    the merge of a run of one symbol that the order splits otherwise (its symbol, its step, a word holding three), or
    None: only on a text, where a merge ``(x, x)`` up to the step has a word holding ``xxx`` (else the order changes
    nothing) and the loop follows the run past the step. Two replays, each as long as the run, are its work; only the
    check's safety net (:mod:`bpe.check_work`) may stop them. ``words``: the corpus's words (a
    :class:`~bpe.check_loop.Words`), where the caller has them already."""
    text = file_text(corpus)
    if text is None or student.end_of_word:
        return None
    runs = [(x, k) for k, (x, y) in enumerate(student.merges[:step], start=1) if x == y]
    theirs = student.merges[step - 1]
    runs.sort(key=lambda run: not any(run[0] in symbol for symbol in theirs))  # a run of a symbol the pair holds first
    if not runs:
        return None
    reading = reading_of(text, setup.pre_tokenizer, specials)
    typed = [reading.text[a:b] for a, b in zip(reading.starts, reading.ends)]
    distinct = list(dict.fromkeys(typed))
    found = next(((x, at, w) for x, at in runs for w in distinct if x * 3 in w.encode("utf-8")), None)
    if found is None:
        return None
    sequence = [base_symbols(w, setup.byte_base) for w in typed]
    work = Work("set")
    merges = student.merges[: step + BEYOND]
    reach = 0
    for first, pick in ORDERS:  # positions from 1 or list indices from 0; ties to the greatest pair or the smallest
        # past the safety net no replay is begun: building one over a big text's every position takes seconds
        if reach >= min(len(student.merges), step + BEYOND) or work.late():
            break
        reach = max(reach, set_order_reach(sequence, merges, work.deadline, pick, first))
    if reach < min(len(student.merges), step + BEYOND) and not work.late():  # over sets of (word, offset) tuples
        _, symbols, freqs = (words.texts, words.words, words.freqs) if words else student_words(corpus, setup, specials)
        reach = max(reach, tuple_set_order_reach(symbols, freqs, merges, work.deadline))
    work.late()  # the safety net passed: a replay may have stopped short of its end (told)
    return (reach, found) if reach >= min(len(student.merges), step + FOLLOW) else None
