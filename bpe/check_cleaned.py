"""How far the text lowercased, or cleaned as students clean it, explains a student's run, with a tie rule of the
student's own where the cleaned text parts from the run at a tie, or a fault of the merge loop where it parts on a
count.

Left out: the cleanings themselves (:mod:`bpe.text_cleanings`, :mod:`bpe.text_filters`) and weighing this cause
against the others (:mod:`bpe.check_cause`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from .check_loop import Words, find_fault, tie_key
from .check_result import to_ours
from .check_setup import CS336_SPECIALS, history_bytes, setup_agreed, student_words, train_setup
from .check_ties import FOLLOW
from .check_told import Parting
from .check_work import MergeCost, Work
from .config import TIE_RULES
from .pre_tokenizers import Corpus
from .text_cleanings import cleaned as cleaned_corpus
from .text_cleanings import cleaning_sentence, cleanings_for, covers
from .text_filters import FILTERS, extra_letters, filtered, kept_sentence
from .tie_keys import TIE_KEY

LOOPED = 4  # the cleanings going furthest that a merge-loop fault is tried after, each a search of every fault


@dataclass(frozen=True)
class Cleaned:
    """A cleaning of the text tried on a student's run: how far our run on the text cleaned so follows it."""

    names: tuple[str, ...]  # the cleanings, in the order applied
    agreed: int  # the student's merges our run on the cleaned text makes
    kept: str  # the letters kept besides a-z (the "a-z" filter only)
    far: int  # how far it follows the run, with a tie rule of the student's own after ``agreed``
    text: Corpus  # the corpus cleaned so

    def told(self) -> str:
        return cleaning_told(self.names, self.agreed, self.kept)


@dataclass(frozen=True)
class CleanedFound:
    """The cleaning named (the first going furthest), the first three going as far, all going as far, and each of
    those cut at the special tokens first as tried without that cut (``unsplit``)."""

    best: Cleaned
    first_three: tuple[Cleaned, ...]
    tops: tuple[Cleaned, ...]
    unsplit: tuple[Cleaned, ...] = ()


def cleaning_told(names: tuple[str, ...], n: int, extra: str) -> str:
    """How the text was cleaned, said to the student."""
    if names == ("a-z",) and extra:
        return kept_sentence(extra)
    if len(names) == 1 and names[0] in FILTERS:
        return FILTERS[names[0]][0]
    return cleaning_sentence(names)


def digits_told(cleaned: CleanedFound) -> str:
    """Where keeping a-z and keeping a-z with the digits reach as far (a text whose digits change no merge), the
    second said after the first: the run cannot tell them apart."""
    if cleaned.best.names != ("a-z",) or cleaned.best.kept:
        return ""
    if not any(c.names == ("a-z0-9",) and c.agreed >= cleaned.best.agreed for c in cleaned.tops):
        return ""
    return f" Or your run {FILTERS['a-z0-9'][0]}: on this text the two make the same merges."


def unfiltered_told(cleaned: CleanedFound, total: int) -> str:
    """Where a filter is named and a cleaning of another kind goes as far (a text whose punctuation marks stand only at
    words' ends: kept to its letters, or with each mark cut off as a word of its own), the first such said after it."""
    best = cleaned.best
    if best.names[0] not in FILTERS:
        return ""
    other = next((c for c in cleaned.tops if c.names[0] not in FILTERS and c.agreed >= best.agreed), None)
    if other is None:
        return ""
    whole = "which makes every merge too" if best.agreed >= total else "which follows yours as far"
    return f" Or your run {cleaning_told(other.names, total, '')}, {whole}: your run cannot tell the two apart."


def also_told(cleaned: CleanedFound, total: int) -> str:
    """The other cleanings that go as far (of the first three going as far; not the one named after lowercasing), said
    after the one named: the run cannot tell them apart (stripping punctuation from word ends and cutting each mark
    off as a word of its own may both make a whole run, GPT-2's pattern with whitespace kept whole and runs of spaces
    put on the next word the first merges of one)."""
    named, agreed = cleaned.best.names, cleaned.best.agreed
    others = [
        c.names
        for c in cleaned.first_three
        if c.agreed >= agreed and c.names != named and c.names[0] not in FILTERS and c.names[-1] != named[-1]
    ]
    if not others or named[0] in FILTERS:
        return ""
    said = ", or it ".join(cleaning_told(names, total, "") for names in others)
    if agreed < total:  # as far, short of the end: the merges so far cannot tell them apart either
        return f" Or your run {said}, which follows yours as far: up to there your run cannot tell them apart."
    if len(others) == 1:
        return f" Or your run {said}, which makes every merge too: your run cannot tell the two apart."
    return f" Or your run {said}: each makes every merge too, so your run cannot tell them apart."


def cleaned_agreed(corpus, student, setup, specials) -> CleanedFound | None:
    """The cleaning on which our run makes most of the student's merges, how many, the letters kept besides a-z, how
    far it follows the run (the same number, until :func:`taken_over` tries a student's tie rule after it), the
    corpus cleaned so, the first three cleanings that go as far, each so, and all of them. Tried: those of
    :data:`bpe.text_filters.FILTERS` (letters kept, lowercased; a-z with the other letters the run's tokens hold,
    when they hold some), then those of :mod:`bpe.text_cleanings` the setup can show, alone and after lowercasing,
    but never one that leaves every word's count as it was; None for word counts or when no cleaning is left. Each
    cleaning tried is one training, spent from the allowance ``clean`` (:mod:`bpe.check_work`)."""
    tokens = [t.decode("utf-8", "ignore") for pair in student.merges for t in pair]
    extra = extra_letters(tokens)
    found = []
    work = Work("clean")
    tried = [*(((name,), "") for name in FILTERS), *(((("a-z",), extra),) if extra else ())]
    raw = [t for pair in student.merges for t in pair]
    texts = [] if isinstance(corpus, Mapping) else [corpus] if isinstance(corpus, str) else list(corpus)
    held = not specials and any(s in t for s in CS336_SPECIALS for t in texts)
    tried += [(names, "") for names in cleanings_for(setup.pre_tokenizer, setup.byte_base, raw, held)]
    eow = student.end_of_word
    words_of = lambda text: student_words(text, setup, specials, eow)  # noqa: E731
    ours = None
    filters: list[tuple[Corpus, int]] = []  # each filter's text and reach: one that keeps the text as another did
    for names, kept in tried:
        clean = filtered(corpus, names[0], kept) if names[0] in FILTERS else cleaned_corpus(corpus, names)
        if clean is None:
            return None
        if clean == corpus or not clean or work.spent():
            continue
        same = next((n for text, n in filters if text == clean), None)
        if same is not None:  # the same text as another filter (no digit in it to keep): the same reach, no training
            found.append(Cleaned(names, same, kept, same, clean))
            continue
        if not covers(clean, raw):  # it drops a character the student merges (a capital, where it lowercases)
            continue
        try:
            counted = words_of(clean)
        except ValueError:  # nothing left to count
            continue
        ours = ours or words_of(corpus)
        if sorted(zip(counted[1], counted[2])) == sorted(zip(ours[1], ours[2])):
            continue  # the same words as ours, counted alike: no cause of a difference
        n = setup_agreed(clean, setup, student.merges, specials, eow)
        work.spend(MergeCost(counted[1], student.merges).replayed(n))
        found.append(Cleaned(names, n, kept, n, clean))
        if names[0] in FILTERS:
            filters.append((clean, n))
    if not found:
        return None
    top = max(f.agreed for f in found)
    tops = tuple(f for f in found if f.agreed == top)
    split = {f.names[1:] for f in tops if f.names[0] == "specials-split"}
    return CleanedFound(tops[0], tops[:3], tops, tuple(f for f in found if f.names in split))


def taken_over(
    p: Parting, candidates: list, lowered: int | None, cleaned: CleanedFound | None, most: int
) -> tuple[list, CleanedFound | None]:
    """The candidates with case and the cleaning reaching as far as a tie rule of the student's own takes them
    (:func:`_tie_takes_over`, tried for each cleaning that goes furthest), and the cleaning that goes furthest
    so; tried only where no cause yet follows the run to ``most``, since each try replays the run with every rule."""
    if max((min(c[0], most) for c in candidates), default=0) >= most:
        return candidates, cleaned
    student, setup, specials = p.student, p.setup, p.specials
    if lowered is not None:
        far = _tie_takes_over(lowercased_corpus(p.corpus), student, setup, specials, lowered)
        candidates = [(far, c[1], c[2]) if c[2] == "case" else c for c in candidates]
    if cleaned is not None:
        best = cleaned.best
        done: list[Corpus] = []
        # every cleaning going as far: a rule may take any one further; and one that goes as far only with the text
        # cut at its special tokens, also without that cut (the cut may have made a choice the rule makes)
        for tried in (*cleaned.tops, *cleaned.unsplit):
            if any(tried.text == text for text in done):
                continue  # the same text as a cleaning tried (a filter with no digit to keep): as far
            done.append(tried.text)
            moved = p.ours[p.n] if tried.agreed == p.n else None  # at the step itself: it must move our choice
            far = _tie_takes_over(tried.text, student, setup, specials, tried.agreed, moved)
            if far > best.far:
                best = replace(tried, far=far)
        if best.far == best.agreed > p.n:  # the cleanings make the student's choice, then part on a count
            for tried in cleaned.tops[:LOOPED]:
                far = _loop_takes_over(tried.text, student, setup, specials, tried.agreed)
                if far > best.far:
                    best = replace(tried, far=far)
        cleaned = replace(cleaned, best=best)
        candidates = [(best.far, c[1], c[2]) if c[2] == "letters" else c for c in candidates]
    return candidates, cleaned


def _tie_takes_over(corpus, student, setup, specials, k: int, moved=None) -> int:
    """How far our run on ``corpus`` follows the student's once a tie rule of the student's own
    (:func:`bpe.check_loop.tie_key`), or another of ours, breaks the ties from merge ``k + 1``, where our run parts from it at a tie; ``k``
    where it parts on a count or no rule follows the run :data:`~bpe.check_ties.FOLLOW` merges further. ``moved``:
    our merge at that step on the text as typed, which the cleaned text must no longer make there (a cleaning that
    leaves the tie as it was is no cause: the rule alone would make the student's choice)."""
    if k >= len(student.merges):
        return k
    eow = student.end_of_word
    history = train_setup(corpus, setup, k + 1, specials, eow)
    if len(history.merges) <= k or (moved is not None and history_bytes(history)[k] == moved):
        return k
    counts = history.pair_counts_after(k)
    theirs = to_ours(student.merges[k], history)
    if theirs is None or counts.get(theirs, 0) != counts.get(history.pair_str(history.merges[k][:2]), 0):
        return k
    _, key_n = tie_key(
        Words(*student_words(corpus, setup, specials, eow)), student.merges, k + 1, TIE_KEY.get(setup.tie_break)
    )
    for rule in TIE_RULES:  # our other rules too: a student's cut and a rule the page offers
        if rule != setup.tie_break:
            key_n = max(key_n, setup_agreed(corpus, replace(setup, tie_break=rule), student.merges, specials, eow))
    return key_n if key_n >= min(len(student.merges), k + 1 + FOLLOW) else k


def _loop_takes_over(corpus, student, setup, specials, k: int) -> int:
    """How far a known merge-loop fault (:func:`bpe.check_loop.find_fault`) on ``corpus`` follows the student's run
    where our run on it parts from the run at merge ``k + 1``: a student who cuts the text their own way writes
    their own loop too, and its fault shows once the cut's first choices are made. ``k`` where none follows the
    run :data:`~bpe.check_ties.FOLLOW` merges further, or only a lost pair does (a lost pair fits any one choice)."""
    if k >= len(student.merges):
        return k
    eow = student.end_of_word
    history = train_setup(corpus, setup, k + 1, specials, eow)
    if len(history.merges) <= k:
        return k
    words = Words(*student_words(corpus, setup, specials, eow), byte_level=student.byte_level)
    pairs = (history_bytes(history)[k], student.merges[k])
    found = find_fault(words, student.merges, k + 1, pairs, TIE_KEY.get(setup.tie_break))
    if found is None or found.fault.loses or found.reproduced < min(len(student.merges), k + 1 + FOLLOW):
        return k
    return found.reproduced


def lowercased_agreed(corpus, student, setup, specials) -> int:
    """How many of the student's merges our run on the lowercased corpus makes (0 if case changes nothing)."""
    lowered = lowercased_corpus(corpus)
    if lowered == corpus:
        return 0
    return setup_agreed(lowered, setup, student.merges, specials, student.end_of_word)


def lowercased_corpus(corpus: Corpus) -> Corpus:
    """The corpus lowercased (word counts of words that differ only in case added together)."""
    if isinstance(corpus, Mapping):
        lowered: Corpus = {}
        for word, count in corpus.items():
            lowered[word.lower()] = lowered.get(word.lower(), 0) + count  # type: ignore[index, union-attr]
    elif isinstance(corpus, str):
        lowered = corpus.lower()
    else:
        lowered = [text.lower() for text in corpus]
    return lowered
