"""An end-of-word mark glued to each word's last character from the start, as subword-nmt glues ``</w>``, but another
mark (``'▁'``, ``'_'``, ``'$'``): the run read with that mark as our ``</w>``.

A trainer that builds each word as ``list(word[:-1]) + [word[-1] + '▁']`` never has the mark alone: its first merges
already join ``t▁`` as one base symbol, where a word-marks reading (:mod:`bpe.check_marks`) looks for the mark as a
symbol of its own. Such a run is read as subword-nmt's codes are (:attr:`bpe.formats.student_runs.StudentRun.end_of_word`)
once the mark is written ``</w>``, and checked as any run; the verdict says the mark first.

Left out: marks of their own symbol (:mod:`bpe.check_marks`) and ``</w>`` itself (:mod:`bpe.formats.student_runs`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from .check_marks import END_MARKS
from .check_notation import show_pair
from .check_result import Comparison
from .check_setup import Setup, history_bytes, setup_agreed, train_setup
from .formats.student_runs import StudentRun
from .pre_tokenizers import END_OF_WORD, Corpus


def glued_mark(corpus: Corpus, student: StudentRun) -> str | None:
    """The mark glued to each word's last character in the student's run, or None: a mark the text never holds, never
    a token alone or at a token's start, and ending a base symbol (a character and the mark, in a merge before any
    merge made it)."""
    if student.byte_level or student.end_of_word or not student.merges or isinstance(corpus, Mapping):
        return None
    text = "".join([corpus] if isinstance(corpus, str) else corpus)
    made: set[bytes] = set()
    firsts: dict[str, bool] = {}
    for a, b in student.merges:
        for token in (a, b):
            shown = token.decode("utf-8", "replace")
            for mark in END_MARKS:
                if mark in ("</w>", " ") or mark in text:
                    continue
                if shown == mark or shown.startswith(mark):
                    firsts[mark] = False  # alone or starting a token: a symbol of its own, or a start mark
                elif shown.endswith(mark) and len(shown) == len(mark) + 1 and token not in made:
                    firsts.setdefault(mark, True)
        made.add(a + b)
    found = [m for m, glued in firsts.items() if glued]
    return found[0] if len(found) == 1 else None


def read_as_ours(student: StudentRun, mark: str) -> StudentRun:
    """The run with ``mark`` written ``</w>`` at each token's end: subword-nmt's codes."""
    end, ours = mark.encode(), END_OF_WORD.encode()

    def token(t: bytes) -> bytes:
        return t[: -len(end)] + ours if t.endswith(end) else t

    return replace(student, merges=tuple((token(a), token(b)) for a, b in student.merges), end_of_word=True)


def glued_told(
    corpus: Corpus, student: StudentRun, setup: Setup, specials: Sequence[str], mark: str, inner: Comparison
) -> Comparison:
    """The verdict at the first merge where the run as written parts from ours: the glued mark, then ``inner``'s
    verdict on the run read with the mark as ours."""
    plain = setup_agreed(corpus, setup, student.merges, specials, False)
    if plain >= len(student.merges):
        return inner
    step = plain + 1
    history = train_setup(corpus, setup, step, specials)
    ours_run = history_bytes(history)
    ours = ours_run[plain] if plain < len(ours_run) else None
    theirs = student.merges[plain]
    head = f"At step {step} we merge {show_pair(ours)} and you {show_pair(theirs)}"
    then = (
        f"your run equals ours: all {len(student.merges)} merges agree."
        if inner.step is None
        else f"{inner.cause[0].lower()}{inner.cause[1:]}"
    )
    cause = (
        f"{head}: your words end in '{mark}' glued to their last character from the start (as subword-nmt glues "
        f"'</w>': a word is list(word[:-1]) + [word[-1] + '{mark}']), where ours end in '</w>', a marking no setting "
        f"of ours makes. Read with '{mark}' as our '</w>', {then}"
    )
    return Comparison(
        agreed=plain, step=step, ours=ours, theirs=theirs, our_count=0, their_count=0, kind="word-marks",
        cause=cause, history=history, setup=setup, our_merges=tuple(ours_run),
        later_kind=inner.kind if inner.step is not None else None, later_step=inner.step,
    )  # fmt: skip
