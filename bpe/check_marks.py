"""Words marked otherwise than with ``</w>``: another end-of-word symbol (``_``, ``$``) or a space symbol before
each word, found in a student's run and compared as if our words were marked so.

Course assignments that follow BPE for translation mark each word's end with ``_`` or ``$`` instead of ``</w>``, or
start it with a ``' '`` symbol of its own (Hacettepe's AIN442: ``' ' + word + '_'``) or with ``'_'`` too. No setting of ours makes those
symbols, so such a run parts from ours at its first merge holding one and reads as "not from this corpus".
:func:`find_marks` takes the marks the run's tokens carry (a symbol that ends tokens, a space that starts them), marks
our whitespace-split words so (the text with ``'_'`` after each word; word counts, each word as
``' ' + word + '_'``, where a space starts each) and keeps the marking when our run on
those words follows the student's further than on our own words, or when the mark is a symbol our text never holds
and the run only ever holds it at a token's end (or start); :func:`marks_told` says it at the step where the runs
part, with the verdict on the marked words after it.

Left out: the comparison itself (:mod:`bpe.check`) and a run with ``</w>`` itself (:mod:`bpe.check_missing`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from .check_notation import show_pair
from .check_result import Comparison
from .check_setup import Setup, history_bytes, raw_word_counts, setup_agreed, train_setup
from .check_work import MergeCost, Work
from .formats.student_runs import StudentRun
from .pre_tokenizers import Corpus
from .text_filters import FILTERS, filtered

END_MARKS = ("_", "$", "#", "@", "~", "|", "%", "&")  # end-of-word symbols seen in students' code, and kin
START_MARKS = (" ", "_")  # a symbol put before each word's first character
# cleanings the comparison on marked words cannot find (the marks are punctuation to them): the words are cleaned
# first, then marked, and the cleaning is said with the marks
CLEANINGS = ("word-edges", "punctuation")


@dataclass(frozen=True)
class Marks:
    """The marks a run's words carry (``''``: none), our words marked so, and how far our run on them follows."""

    end: str
    start: str
    counts: Corpus  # the text with each word marked, or word counts where a space starts each word
    setup: Setup
    agreed: int
    cleaning: str = ""  # a cleaning of :data:`bpe.text_filters.FILTERS` the marked words are compared after


def _texts(corpus: Corpus) -> list[str]:
    if isinstance(corpus, Mapping):
        return list(corpus)
    return [corpus] if isinstance(corpus, str) else list(corpus)


def _marked(corpus: Corpus, start: str, end: str, specials: Sequence[str] = ()) -> Corpus:
    """Our words marked: with only an end mark, the corpus with ``end`` after each whitespace-split word (still a
    text, so the causes read from a text, faulty readers and classes of wrong counts, are tried on it too); with a
    start mark, word counts (a space cannot start a word of a text split on whitespace)."""
    if start or isinstance(corpus, Mapping):
        return {f"{start}{w}{end}": n for w, n in raw_word_counts(corpus, "whitespace", specials).items()}
    mark = lambda text: re.sub(r"\S+", lambda m: m.group() + end, text)  # noqa: E731
    return mark(corpus) if isinstance(corpus, str) else [mark(t) for t in corpus]


def _only_at(tokens: set[str], mark: str, end: bool, start: bool = False) -> bool:
    """True if every token holding ``mark`` holds it once at its end (``end``) or start (``start``), or both when the
    mark is both (``'_' + word + '_'``), and nowhere else."""
    holding = [t for t in tokens if mark in t]

    def only(t: str) -> bool:
        rest = t[len(mark) :] if start and t.startswith(mark) else t
        rest = rest[: -len(mark)] if end and rest.endswith(mark) else rest
        return mark not in rest and rest != t

    return bool(holding) and all(only(t) for t in holding)


def find_marks(corpus: Corpus, student: StudentRun, setup: Setup, specials: Sequence[str] = ()) -> Marks | None:
    """The marking of our words that the student's words carry, or None: a run on bytes, a run with ``</w>`` or
    without another mark, or a marking that explains nothing. Each marking tried is one training on our words,
    spent from the allowance ``marks`` (:mod:`bpe.check_work`)."""
    if setup.byte_base or student.byte_level or student.end_of_word or not student.merges:
        return None
    try:
        tokens = {t.decode("utf-8") for pair in student.merges for t in pair}
    except UnicodeDecodeError:
        return None
    if any("</w>" in t for t in tokens):
        return None
    ends = [m for m in END_MARKS if any(t.endswith(m) for t in tokens)]
    # a space starts words only where our words never hold one: without pre-tokenization or with GPT-2's, it is text
    spaced = setup.pre_tokenizer not in ("sennrich", "whitespace")
    # a start mark starts a token of more than itself ('_t'): a lone '_' may be an end mark
    starts = [m for m in START_MARKS if not spaced and any(t.startswith(m) and t != m for t in tokens)]
    if not ends and not starts:
        return None
    text = "".join(_texts(corpus))
    plain = setup_agreed(corpus, setup, student.merges, specials)
    marked = Setup(setup.tie_break, "whitespace", False)
    work = Work("marks")
    best: Marks | None = None
    for end in (*ends, ""):
        for start in (*starts, ""):
            if not end and not start:
                continue
            if work.spent():
                break
            counts = _marked(corpus, start, end, specials)
            # the marks may show only on a text the student cleaned too (lowercased, kept to a-z), named after them
            agreed, cleaning = 0, ""
            for name in ("", "lower", "a-z", *CLEANINGS):
                cleaned = filtered(corpus, name) if name else corpus
                if cleaned is None or work.spent():
                    continue
                words = raw_word_counts(_marked(cleaned, start, end, specials), "whitespace")
                n = setup_agreed(words, marked, student.merges)
                work.spend(MergeCost([tuple(c.encode() for c in w) for w in words], student.merges).replayed(n))
                if n > agreed:
                    agreed, cleaning = n, name
            clean = all(m not in text and _only_at(tokens, m, m == end, m == start) for m in (end, start) if m)
            if (agreed > plain or clean) and (best is None or agreed > best.agreed):
                kept = cleaning if cleaning in CLEANINGS else ""  # lowercasing and a-z: the comparison finds them
                words = _marked(filtered(corpus, kept), start, end, specials) if kept else counts
                best = Marks(end, start, words, marked, agreed, kept)
    return best


def marks_sentence(marks: Marks) -> str:
    """What the student's words carry, said to the student."""
    start = (
        f"start with a space symbol of their own ('{marks.start}' before each word's first character)"
        if marks.start == " "
        else f"start with the symbol '{marks.start}' (a word-start symbol before each word's first character)"
    )
    end = f"end in the symbol '{marks.end}' where ours end in '</w>' (another end-of-word symbol)"
    cleaned = f"your run {FILTERS[marks.cleaning][0]}, and " if marks.cleaning else ""
    if marks.start and marks.end:
        return f"{cleaned}your words {start} and {end}"
    return f"{cleaned}your words {start if marks.start else end}"


def marks_told(
    corpus: Corpus, student: StudentRun, setup: Setup, specials: Sequence[str], marks: Marks, inner: Comparison
) -> Comparison:
    """The verdict on a run whose words carry other marks: where the runs part, the marks said there when the
    student's pair holds one, then ``inner``'s verdict on our words marked so; else ``inner``'s, the marks after it."""
    plain = setup_agreed(corpus, setup, student.merges, specials)
    step = plain + 1
    theirs = student.merges[plain] if plain < len(student.merges) else None
    said = marks_sentence(marks)
    held = theirs is not None and any(
        (marks.end and t.decode("utf-8", "replace").endswith(marks.end))
        or (marks.start and t.decode("utf-8", "replace").startswith(marks.start))
        for t in theirs
    )
    if not held:
        if inner.step is None:
            return inner
        return replace(inner, cause=f"{inner.cause} Compared on our words marked as yours: {said}.")
    history = train_setup(corpus, setup, step, specials)
    ours_run = history_bytes(history)
    ours = ours_run[plain] if plain < len(ours_run) else None
    head = (
        f"At step {step} we merge {show_pair(ours)} and you {show_pair(theirs)}"
        if ours is not None
        else f"At step {step} our run has no pair left to merge and you merge {show_pair(theirs)}"
    )
    then = (
        f"on our words marked so, your run equals ours: all {len(student.merges)} merges agree"
        if inner.step is None
        else f"on our words marked so, {inner.cause[0].lower()}{inner.cause[1:]}"
    )
    cause = f"{head}: {said}, a marking no setting of ours makes. Compared {then}"
    cause = cause if cause.endswith(".") else cause + "."
    return Comparison(
        agreed=plain, step=step, ours=ours, theirs=theirs, our_count=0, their_count=0, kind="word-marks",
        cause=cause, history=history, setup=setup, our_merges=tuple(ours_run),
        later_kind=inner.kind if inner.step is not None else None, later_step=inner.step,
    )  # fmt: skip
