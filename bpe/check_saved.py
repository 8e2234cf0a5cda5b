"""Check a student's run against a saved run (a ``.bpe`` run file) instead of a corpus: the first merge where
they part, and the cause as far as the run's word counts tell it.

Assignment-size corpora (TinyStories, OpenWebText) are trained with ``python -m bpe train``, so the reference
a student compares with is the saved run, not the text. A run file keeps the run's distinct words and their
counts, already cut by its pre-tokenizer with its special tokens split out. So:

1. the step where the runs part, both pairs and their counts there come from the saved run itself;
2. the cause is found as on a corpus (:func:`bpe.check.diagnose`), with the word counts as the corpus and
   the saved run's settings as ours: the byte base, the tie rule, case, a merge-loop fault, what is certain
   about a count; but only when our training on those word counts makes the saved run's merges up to that
   step (a run trained with options a check does not model, such as the full byte alphabet under the
   ``hf`` rule, may not), else only the step is told;
3. what word counts cannot tell is said plainly (:data:`WITHOUT_CORPUS`): another pre-tokenizer, special
   tokens left in the text, whitespace kept on words; those need the corpus itself.

Left out: reading the run file (:mod:`bpe.formats.run_file`) and the diagnosis itself (:mod:`bpe.check`).
"""

from __future__ import annotations

from dataclasses import replace

from . import pre_tokenizers as pt
from .check import diagnose
from .check_ends import same_merges
from .check_notation import show_pair
from .check_result import Comparison
from .check_setup import Setup, agreed, history_bytes, train_setup
from .config import BYTE_LEVEL
from .formats.student_runs import StudentRun
from .history import History

WITHOUT_CORPUS = (
    "A saved run keeps its word counts, not the text: another pre-tokenizer, special tokens left in the text or "
    "whitespace kept on words cannot be checked without the corpus itself."
)
UNTOLD = ("count", "missing", "whitespace", "specials", "pre-tokenizer", "shorter")  # causes the text could change


def saved_setup(saved: History) -> Setup:
    """The saved run's settings as a check names them."""
    c = saved.config
    if c.algorithm != "bpe":
        raise ValueError(f"The saved run was trained with {c.algorithm}; the check compares BPE merges.")
    if c.pre_tokenizer == "sennrich":
        raise ValueError("The saved run marks word ends as subword-nmt does; compare with its corpus instead.")
    return Setup(c.tie_break, c.pre_tokenizer, c.pre_tokenizer in BYTE_LEVEL)


def saved_word_counts(saved: History) -> dict[str, int] | None:
    """The saved run's words as typed (byte-level words mapped back to text) and their counts; None when a
    word is not whole UTF-8 (the words cannot stand for text then)."""
    counts: dict[str, int] = {}
    byte_level = saved.config.pre_tokenizer in BYTE_LEVEL
    for word, n in zip(saved.words, saved.freqs):
        if byte_level:
            try:
                word = pt.symbols_to_bytes(word).decode("utf-8")
            except (UnicodeDecodeError, KeyError):
                return None
        counts[word] = counts.get(word, 0) + n
    return counts


def compare_saved(
    saved: History,
    student: StudentRun,
    *,
    num_merges: int | None = None,
    vocab_size: int | None = None,
) -> tuple[Comparison, list[tuple[Setup, int]]]:
    """Compare ``student`` with the saved run: the comparison and the ranking of our settings on the run's
    word counts (empty when they do not reproduce the saved run). ValueError for a run a check cannot use."""
    setup = saved_setup(saved)
    specials = saved.config.special_tokens
    ours = history_bytes(saved)
    n = agreed(ours, student.merges)
    base = dict(history=saved, setup=setup, agreed=n, our_merges=tuple(ours))
    counts = saved_word_counts(saved)
    needed = min(len(ours), n + 1)
    if counts and needed and _reproduced(counts, setup, specials, ours[:needed]):
        result, ranked = diagnose(counts, student, setup, specials, num_merges=num_merges, vocab_size=vocab_size)
        if result.step is None or result.step <= len(ours):
            return _told(result), ranked
    if n == len(student.merges) or n == len(ours):
        return _ends(saved, student, base, specials, n, ours), []
    counts_after = saved.pair_counts_after(n)
    our_count = counts_after.get(saved.pair_str(saved.merges[n][:2]), 0)
    theirs = student.merges[n]
    cause = (
        f"At step {n + 1} the saved run merges {show_pair(ours[n])} ({our_count}) and you {show_pair(theirs)}: "
        "the saved run's word counts do not make its own merges again here, so the cause cannot be told without "
        "the corpus. Check this step with the corpus it was trained on."
    )
    return Comparison(
        step=n + 1, ours=ours[n], theirs=theirs, our_count=our_count, their_count=0, kind="unknown", cause=cause,
        **base,
    ), []  # fmt: skip


def _reproduced(counts, setup: Setup, specials, merges) -> bool:
    """Whether our training on the word counts makes these merges of the saved run."""
    try:
        history = train_setup(counts, setup, len(merges), specials)
    except ValueError:
        return False
    return history_bytes(history) == list(merges)


def _told(result: Comparison) -> Comparison:
    """The result, with what the word counts cannot tell said where the cause may lie in the text."""
    if result.kind in UNTOLD or result.later_kind in UNTOLD:
        return replace(result, cause=f"{result.cause} {WITHOUT_CORPUS}")
    return result


def _ends(saved: History, student: StudentRun, base: dict, specials, n: int, ours) -> Comparison:
    """Every merge one of the runs has agrees: the student's run is shorter (the sizes told as on a corpus),
    or it goes on past the saved run's end, which the saved run cannot judge."""
    if n == len(student.merges):
        return same_merges(saved, student, base, specials)
    extra = student.merges[n]
    cause = (
        f"All {n} merges of the saved run agree with yours; yours goes on with {show_pair(extra)} at step {n + 1}, "
        "past the saved run's end: train the saved run further to check the rest."
    )
    return Comparison(
        kind="past-saved", cause=cause, step=n + 1, ours=None, theirs=extra, our_count=0, their_count=0, **base
    )
