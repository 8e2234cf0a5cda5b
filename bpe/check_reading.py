"""Which faulty corpus reader explains a student's run: the one whose word counts make our run follow it longest.

The known faulty readers (:mod:`bpe.count_faults`) each count the corpus's words their own way. The number of
chunks is the student's (often ``os.cpu_count()``, or a number in the code), so the faults that depend on it are
tried with the usual numbers (:data:`CHUNK_COUNTS`), and each distinct set of counts once (:func:`recounts`).
:func:`find_count_fault` trains our run on each set of counts that differs from the true one and keeps the
fault that follows the student's merges longest; :func:`count_sentence` names it, with the words it counts
differently and its count of the pair at the step where the runs part.

Left out: the readers themselves (:mod:`bpe.count_faults`) and the order in which the Check weighs this against
other causes (:mod:`bpe.check_cause`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from functools import partial

from .check_notation import show_pair, show_word
from .check_result import to_ours
from .check_setup import Setup, setup_agreed, student_words, train_setup
from .check_work import Work, once
from .count_faults import COUNT_FAULTS, TAIL_CUTS, CountFault, Example, Reading
from .fault_replay import replay
from .formats.cs336 import BytePair

CHUNK_COUNTS = (4, 8, 2, 16, 3, 6, 10, 12, 32, 64)  # the usual numbers of workers, likeliest first
FOLLOW = 2  # a fault explains the step only if it follows the run this many merges past it (or to its end)


@dataclass(frozen=True)
class CountFound:
    """The fault that follows the student longest: with how many chunks, its word counts (as typed), an example
    of a word it counts wrongly, the true counts, and how many merges our run on its counts reproduces."""

    fault: CountFault
    chunks: int
    counts: dict[str, int]
    example: Example
    true: dict[str, int]
    reproduced: int
    unsplit: bool = (
        False  # with ``special-in-pattern``: the text never split at its special tokens makes as many merges
    )


def recounts(
    text: str,
    pre_tokenizer: str,
    specials: Sequence[str],
    reading: Reading | None = None,
    work: Work | None = None,
    chunked: bool = True,
) -> Iterator[tuple[CountFault, int, Counter, Example]]:
    """Each fault's word counts (with its number of chunks, 1 for a fault that has none, and an example) where
    they differ from the true counts, each distinct set of counts once. ``work``: each reading of the text costs
    its bytes, and the readings stop once it is spent. ``chunked``: False for the faults that need no number of
    chunks only (the others are not read at all)."""
    if not text:
        return
    reading = reading or reading_of(text, pre_tokenizer, specials)
    seen = [reading.true]
    for fault in _in_order(pre_tokenizer):
        if fault.chunks is not None and not chunked:
            continue
        tried: set[tuple[int, ...]] = set()
        cuts = range(2, TAIL_CUTS + 1) if fault.chunks == "tail" else CHUNK_COUNTS if fault.chunks else (1,)
        for chunks in cuts:
            made = chunks
            if fault.chunks in ("even", "special"):
                bounds = tuple(reading.boundaries(chunks, fault.chunks == "special"))
                if len(bounds) < 3 and not fault.one_chunk or bounds in tried:
                    continue  # one chunk (read whole), or chunks already tried
                tried.add(bounds)
                made = len(bounds) - 1  # fewer than asked for where two moved to the same special token
            if work is not None:
                if work.spent():
                    return
                work.spend(len(reading.data))
            key = ("read", text, pre_tokenizer, tuple(specials), fault.name, chunks)  # the readers re-read once
            counts, example = once(key, partial(fault.count, reading, chunks))
            if counts and counts not in seen:
                seen.append(counts)
                yield fault, made, counts, example


def _times(n: int) -> str:
    return "once" if n == 1 else f"{n} times"


def _in_order(pre_tokenizer: str) -> list[CountFault]:
    """The readers in the order they are named when two follow a run as far. On a text not cut into words the last
    character cut off alone is a sequence of one symbol, which holds no pair: it counts as the last character never
    read (a loop over ``range(len(text) - 1)``), so that reader goes before the others; and before it each line read
    with ``line.strip()``, which reads the same where the text is one line ending in whitespace: of the held-out
    students' runs that both readers fit, every one came from a ``strip``."""
    faults = list(COUNT_FAULTS.values())
    if pre_tokenizer == "none":
        faults.sort(key=lambda f: (f.name != "lines-stripped", f.name != "drop-last"))
    return faults


def reading_of(text: str, pre_tokenizer: str, specials: Sequence[str]) -> Reading:
    """The text read whole as our side reads it (:class:`~bpe.count_faults.Reading`), once per check: the readers,
    the classes of counts, the end-first merge and the set-order loop all start from it."""
    return once(("reading", text, pre_tokenizer, tuple(specials)), lambda: Reading(text, pre_tokenizer, specials))


def _split(word: tuple[bytes, ...], ranks: dict[BytePair, int]) -> list[bytes]:
    """A word's symbols after the merges ranked in ``ranks``, the lowest-ranked pair first, every occurrence."""
    parts = list(word)
    while len(parts) > 1:
        rank, pair = min((ranks.get(p, len(ranks)), p) for p in zip(parts, parts[1:]))
        if rank == len(ranks):
            break
        out, i = [], 0
        while i < len(parts):
            if i + 1 < len(parts) and (parts[i], parts[i + 1]) == pair:
                out.append(pair[0] + pair[1])
                i += 2
            else:
                out.append(parts[i])
                i += 1
        parts = out
    return parts


def _pair_counts(counts: dict[str, int], setup: Setup, end_of_word: bool, before: Sequence[BytePair]) -> Counter:
    """The pair counts of the words ``counts`` after the merges ``before``."""
    ranks = {pair: rank for rank, pair in enumerate(before)}
    texts, words, freqs = student_words(counts, setup, (), end_of_word)
    pairs: Counter = Counter()
    for symbols, freq in zip(words, freqs):
        parts = _split(symbols, ranks)
        for pair in zip(parts, parts[1:]):
            pairs[pair] += freq
    return pairs


def can_choose(
    counts: Counter, true: Counter, setup: Setup, end_of_word: bool, before: Sequence[BytePair], parting
) -> bool:
    """Whether with ``counts`` the student's pair can win where the runs part: after the merges ``before`` (ours
    and theirs alike), their pair's count must reach ours, each moved by the words counted differently
    (``parting``: our pair and its count, their pair and its count, in our run)."""
    ours, our_count, theirs, their_count = parting
    changed = {w: counts.get(w, 0) - true.get(w, 0) for w in {*counts, *true} if counts.get(w, 0) != true.get(w, 0)}
    if not changed:
        return False
    # each word's pairs after ``before``, kept for the check: every reader and class of counts changes the same words
    split = once(("pairs after", tuple(before), setup, end_of_word), dict)
    new = [w for w in changed if w not in split]
    if new:
        ranks = {pair: rank for rank, pair in enumerate(before)}
        split.update(dict.fromkeys(new, Counter()))  # a word the cut drops counts nothing
        texts, words, _ = student_words(dict.fromkeys(new, 1), setup, (), end_of_word)
        for word, symbols in zip(texts, words):
            parts = _split(symbols, ranks)
            split[word] = Counter(zip(parts, parts[1:]))
    for word, change in changed.items():
        pairs = split[word]
        our_count += change * pairs[ours]
        their_count += change * pairs[theirs]
    return their_count >= our_count


def _likelier(fault: CountFault, best: CountFound, reproduced: int, merges: int) -> bool:
    """Whether ``fault``, following the run as far as ``best`` does, is the likelier explanation. Two readers can
    make the same merges (on a corpus that repeats itself, the first half of the text read, or each word's
    positions in each of four chunks, give counts in the same proportions). Where the counts make every merge,
    the faults come in their order (a slip in the standard reader, such as a missing last boundary, before a
    reader of its own design); where they make only part of the run, a reader built for a merge loop of its own
    (``own_loop``) is the likelier, since that loop is what parts from ours after it."""
    return reproduced == best.reproduced < merges and fault.own_loop and not best.fault.own_loop


def _any_tie(counts: Counter, setup: Setup, merges: Sequence[BytePair], end_of_word: bool) -> int:
    """How many of ``merges`` our loop makes on ``counts`` with any tied pair allowed: two readings that part only
    where a tie rule decides are as good as each other, whatever the student's tie rule."""
    _, words, freqs = student_words(dict(counts), setup, (), end_of_word)
    return replay(words, freqs, merges).reproduced


def find_count_fault(
    text: str,
    setup: Setup,
    merges: Sequence[BytePair],
    step: int,
    specials: Sequence[str] = (),
    end_of_word: bool = False,
    parting: tuple[BytePair, int, BytePair, int] | None = None,
    units: float | None = None,
    cost: Callable[[Sequence[BytePair]], Callable[[int], int]] | None = None,
) -> CountFound | None:
    """The fault whose word counts make our run follow ``merges`` through ``step`` (1-based) and longest, at
    least :data:`FOLLOW` merges past it (or to the end), or None. ``parting``: our pair and its count, the
    student's pair and its count where the runs part (in our run): a fault whose counts cannot make the student's
    choice there is not trained on (:func:`can_choose`). ``units``: the work the trainings may take, in symbol
    rewrites (:mod:`bpe.check_work`), each reading of the text its bytes, each training priced by
    ``cost(merges)(r)`` (the work of the first ``r`` merges on the true words; without it, ``r`` times the words
    counted)."""
    work = Work("count", units)
    need = min(len(merges), step + FOLLOW)
    best: CountFound | None = None
    reading = reading_of(text, setup.pre_tokenizer, specials) if text else None
    for fault, chunks, counts, example in recounts(text, setup.pre_tokenizer, specials, reading, work):
        if work.spent():
            break
        if parting is not None and not can_choose(
            counts, reading.true, setup, end_of_word, merges[: step - 1], parting
        ):
            continue
        n = setup_agreed(dict(counts), setup, merges, (), end_of_word)
        # a reader's counts differ from the true ones in a few words: its training rewrites about the same words
        work.spend(cost(merges)(n + 1) if cost is not None else (n + 1) * len(counts))
        if fault.chunks == "tail" and n < len(merges):
            continue  # of the many cuts tried, one that follows only part of the run does so by chance
        if n >= need and (best is None or n > best.reproduced or _likelier(fault, best, n, len(merges))):
            best = CountFound(fault, chunks, dict(counts), example, dict(reading.true), n)
            if n == len(merges):
                break
    if best is not None and reading is not None and best.fault.name == "special-in-pattern":
        unsplit = Counter(reading.pattern.findall(text))  # the special tokens' text cut as any other text
        best = replace(
            best,
            unsplit=_any_tie(unsplit, setup, merges, end_of_word)
            >= _any_tie(Counter(best.counts), setup, merges, end_of_word),
        )
    return best


def count_sentence(
    found: CountFound,
    setup: Setup,
    step: int,
    pairs: Sequence[BytePair],
    end_of_word=False,
    before: Sequence[BytePair] | None = None,
) -> str:
    """The fault in one clause: what the reader does, a word it counts wrongly, and its count of the pair (of
    ``pairs``) it changes most at ``step``: after the student's merges ``before`` the step where given (our run on the
    faulty counts may part from them earlier, where the student's tie rule differs), else after our run's."""
    what = found.fault.sentence.format(chunks=found.chunks).replace(
        "each of your 1 chunks is", "your one chunk, the whole file, is"
    )
    if found.unsplit:  # the commoner bug first: both make the same merges
        what = (
            "your special token is never split out of the text, so it is cut into words as any other text (or "
            f"{what}: both make your merges here)"
        )
    less, more = found.example
    if found.fault.name in ("chunk-positions", "chunk-overwritten", "documents-max") and less:
        word = less[0]
        what += (
            f": {show_word(word)} counts {found.counts.get(word, 0)} where it occurs {_times(found.true.get(word, 0))}"
        )
    elif found.fault.name == "lines-stripped" and less:
        word = less[0]
        what += (
            f": {show_word(word)} counts {found.counts.get(word, 0)} where it occurs {_times(found.true.get(word, 0))}"
        )
        if len(less) == 1 and "\n" not in word.rstrip() and word[-1:].isspace():  # one line: its end alone lost
            what += (
                " (a reading that stops one character before the end of the file, range(len(text) - 1), reads the "
                "same here: its last character is never counted)"
            )
    elif found.fault.name == "lines-flattened" and less:
        what += f": the line {show_word(less[0])} becomes the one word {show_word(more[0])}"
    elif found.fault.name in ("drop-tail", "last-document"):
        lost = sum(found.true.values()) - sum(found.counts.values())
        what += f": {lost} of its {sum(found.true.values())} words are never counted"
        if less:
            what += f", {show_word(less[0])} among them"
    elif less:
        became = " and ".join(map(show_word, more)) if more else "nothing"
        lost = Counter(less)  # a word cut off twice in a row is told once, with how many times
        told = " and ".join(show_word(w) + (f" ({k} times)" if k > 1 else "") for w, k in lost.items())
        what += f": {told} {'becomes' if len(lost) == 1 else 'become'} {became}"
    if found.fault.name == "drop-last" and less and less[0][-1:].isspace():  # a last line's whitespace, dropped
        what += " (reading each line with line.strip() drops that whitespace too, where the file ends in it)"
    counted = []
    for counts in (found.true, found.counts):
        if before is not None:
            counted.append([_pair_counts(counts, setup, end_of_word, before)[pair] for pair in pairs])
            continue
        history = train_setup(counts, setup, step - 1, (), end_of_word)
        after = history.pair_counts_after(step - 1)
        counted.append([after.get(p, 0) if (p := to_ours(pair, history)) else 0 for pair in pairs])
    rows = [(abs(faulty - true), -k, true, faulty) for k, (true, faulty) in enumerate(zip(*counted))]
    _, k, true, faulty = max(rows)  # the pair whose count changes most, the first on a tie
    if true != faulty:
        verb = "drops to" if faulty < true else "rises to"
        what += f"; your count of {show_pair(pairs[-k])} {verb} {faulty} while it is {true}"
    return what
