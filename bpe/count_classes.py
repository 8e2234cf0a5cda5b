"""Classes of wrong word counts: how a student's counts can differ from the true ones as a whole, each class a family
of members tested by replaying the student's merges on the counts it makes.

Where the student's pair at the step where the runs part has a lower true count than ours, the student's counts
cannot be ours. Faithful copies of single readers (:mod:`bpe.count_faults`) name one student's slip each; a class
names what many students' readers and counters share, whatever their loop looks like:

1. ``weighting``: each word's count is weighted wrongly as a whole: ``each-word-once`` (every distinct word adds 1, its
   frequency never used: ``pair_counts[pair] += 1`` over the distinct words), ``frequency-squared`` (the frequency
   applied twice: a word's count added once per occurrence), ``once-per-document`` or ``once-per-line`` (the words of
   each document or line taken as a set);
2. ``part``: only one part of the corpus is counted: the first or the last document (the text before the first
   special token, after the last), or the first or the last of the chunks a reader cuts the file into (evenly spaced
   bytes, or moved forward to a special token as ``find_chunk_boundaries`` does), as a loop whose counts are
   replaced for each part (``counts = count(part)``, not ``update``) or that stops after one;
3. ``special``: the special tokens are read another way: replaced by a space, a newline or nothing and the text
   cut into words as one, kept in the text as words of their own (cut by the pattern as any text, or one word
   whole), or the documents between them stripped of the whitespace at their ends.

Each distinct set of counts is tried once, and kept only where its counts make the student's choice at the step
(the student's pair above every other, or tied and taken by our tie rule), since that choice is what the class must
explain, and where they keep a pair while the run goes on: a part of a word or two follows a few merges of any run by
ties alone. A member is weighed by how many merges our run on its counts makes; only where that run parts from the
student's before the step is passed does the replay allow any tied pair (the student's tie rule is then a second
fault, told after the counts by :mod:`bpe.check_cause`), so a member that needs no second fault is not outweighed by
one that lets every tie go the student's way. The class found is returned as a reader of :mod:`bpe.count_faults`
(its sentence holds the evidence: the words whose counts part, ours and the class's), so the cause is told as a
reading fault is, with the cause where the run parts from ours on those counts.

Left out: counts that also depend on the merge loop (counts accumulated across steps: :mod:`bpe.merge_faults`), and
texts longer than :data:`MAX_CHARS`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from operator import countOf

from .check_notation import show_word
from .check_reading import FOLLOW, CountFound, can_choose, reading_of
from .check_setup import Setup, setup_agreed, student_words
from .check_work import Work
from .count_faults import CountFault, Reading
from .fault_replay import replay
from .formats.cs336 import BytePair
from .occurrence_order import merge_from_start
from .word_merges import held_pair_counts, rewrite_word

CHUNKS = (4, 8, 2, 16, 3, 6, 10, 12, 32, 64, 100)  # the usual numbers of chunks a reader cuts the file into
MAX_CHARS = 500_000  # a longer text is not tried: its members' recounts (a dozen passes) take seconds


@dataclass(frozen=True)
class Member:
    """One member of a class: its family, its name, what it does (addressed to the student) and its word counts."""

    family: str
    name: str
    what: str
    counts: Counter


def _escape(text: str) -> str:
    return text.replace("{", "{{").replace("}", "}}")


def _words(reading: Reading, piece: str) -> Counter:
    """The words of a piece of the text, cut at the special tokens as our side cuts them."""
    counts: Counter = Counter()
    for part in reading.split.split(piece) if reading.split else [piece]:
        counts.update(reading.pattern.findall(part))
    return counts


def members(reading: Reading, specials: Sequence[str]) -> Iterator[Member]:
    """Every member of every class, with its word counts (those equal to the true counts too: the caller skips them)."""
    true = reading.true
    yield Member("weighting", "each-word-once", "your pair counts add 1 for each distinct word, not the word's frequency "
                 "(each distinct word counted once)", Counter(dict.fromkeys(true, 1)))  # fmt: skip
    yield Member("weighting", "frequency-squared", "your pair counts weight each word by its frequency twice (a word's count "
                 "added at each of its occurrences, its frequency squared)", Counter({w: c * c for w, c in true.items()}))  # fmt: skip
    per_doc: Counter = Counter()
    for a, b in reading.docs:
        per_doc.update(set(reading.pattern.findall(reading.text, a, b)))
    yield Member("weighting", "once-per-document", "your word counts add each word once per document that holds it "
                 "(the words of a document taken as a set), not once per occurrence", per_doc)  # fmt: skip
    per_line: Counter = Counter()
    for line in reading.text.splitlines(keepends=True):
        per_line.update(set(_words(reading, line)))
    yield Member("weighting", "once-per-line", "your word counts add each word once per line that holds it (the "
                 "words of a line taken as a set), not once per occurrence", per_line)  # fmt: skip
    if len(reading.docs) > 1:
        for which, (a, b) in (("first", reading.docs[0]), ("last", reading.docs[-1])):
            yield Member("part", f"only-{which}-document", f"only the {which} document (the text "
                         f"{'before the first' if which == 'first' else 'after the last'} special token) is counted: "
                         "the counts are replaced for each document, not added, or the loop stops after one",
                         Counter(m.group() for m in reading.pattern.finditer(reading.text, a, b)))  # fmt: skip
    for chunks in CHUNKS:
        for moved in (True, False):
            if moved and not reading.marks:
                continue
            bounds = reading.boundaries(chunks, moved)
            if len(bounds) < 3:
                continue
            for which, (a, b) in (("first", bounds[:2]), ("last", bounds[-2:])):
                made = len(bounds) - 1
                how = "each moved to a special token" if moved else "at evenly spaced bytes"
                counts = reading.read([(a, b)])
                yield Member("part", f"only-{which}-chunk", f"only the {which} chunk of your {made} chunks (cut {how}) "
                             f"is counted: the counts are replaced for each chunk, not added (only the {which} chunk's "
                             "words are kept), or the loop stops after one", counts)  # fmt: skip
    for special in specials:
        for name, by in (("space", " "), ("newline", "\n"), ("nothing", "")):
            text = reading.text.replace(special, by)
            told = {" ": "a space (' ')", "\n": "a newline", "": "nothing (removed)"}[by]
            yield Member("special", f"special-as-{name}", f"your special token {_escape(special)} is replaced by "
                         f"{told} and the text is cut into words as one, not split at it",
                         Counter(reading.pattern.findall(text)))  # fmt: skip
        stripped = sum((_words(reading, reading.text[a:b].strip()) for a, b in reading.docs), Counter())
        yield Member("special", "documents-stripped", f"your documents (the text between your special tokens "
                     f"{_escape(special)}) are stripped (doc.strip()) before they are cut into words, so the "
                     "whitespace at each document's start and end is never counted", stripped)  # fmt: skip
        n = reading.text.count(special)
        kept = true + Counter({w: k * n for w, k in Counter(reading.pattern.findall(special)).items()})
        yield Member("special", "special-as-words", f"your special token {_escape(special)} is kept in your text "
                     "and cut into words as any text (it is split out but kept, as re.split with a group keeps it)",
                     kept)  # fmt: skip
        yield Member("special", "special-one-word", f"your special token {_escape(special)} is counted as one word "
                     "of your corpus, its bytes merged as any word's", true + Counter({special: n}))  # fmt: skip


def _evidence(member: Member, true: Counter) -> str:
    """The words whose counts part most, the class's count and ours: the class's evidence in a clause."""
    changed = [w for w in {*true, *member.counts} if member.counts.get(w, 0) != true.get(w, 0)]
    if not changed:
        return ""
    rows = sorted(changed, key=lambda w: (-abs(member.counts.get(w, 0) - true.get(w, 0)), w))[:2]
    told = []
    for w in rows:
        a, b = true.get(w, 0), member.counts.get(w, 0)
        told.append(f"{show_word(w)} counts {b} where our count is {a}")
    lost = sum(true.values()) - sum(c for w, c in member.counts.items() if w in true)
    more = (
        f"; {lost} of the corpus's {sum(true.values())} words are never counted"
        if member.family == "part" and lost > 0
        else ""
    )
    return ": " + _escape(" and ".join(told)) + more


def _follow(
    words: Sequence[tuple[bytes, ...]], freqs: Sequence[int], merges: Sequence[BytePair]
) -> tuple[int, set[int]]:
    """How many of ``merges`` a correct loop on these words makes, any tied pair allowed (-1 where the words have no
    pair left before the run ends), and the steps (1-based) among them its counts decide on their own (the student's
    pair counted above every other)."""
    splits = [list(w) for w in words]
    counts, where = held_pair_counts(splits, freqs)
    decided: set[int] = set()
    for at, pair in enumerate(merges):
        mine = counts.get(pair, 0)
        top = max(counts.values(), default=0)  # max and countOf scan the counts at C speed, every step
        if top <= 0:
            return -1, decided  # no pair left where the student's run goes on: these cannot be the student's words
        if mine <= 0 or top > mine:
            return at, decided
        if countOf(counts.values(), mine) == 1:
            decided.add(at + 1)
        for k in where.pop(pair, set()):
            old, new = splits[k], merge_from_start(splits[k], pair)
            rewrite_word(counts, where, k, old, new, freqs[k])
            splits[k] = new
        counts.pop(pair, None)
    return len(merges), decided


def find_count_class(
    text: str,
    setup: Setup,
    merges: Sequence[BytePair],
    step: int,
    specials: Sequence[str] = (),
    end_of_word: bool = False,
    parting: tuple[BytePair, int, BytePair, int] | None = None,
    tied: bool = False,
    rival: CountFound | None = None,
    cost: Callable[[Sequence[BytePair]], Callable[[int], int]] | None = None,
) -> tuple[CountFound, bool] | None:
    """The member whose word counts let our loop (any tied pair allowed) follow ``merges`` through ``step`` (1-based)
    and longest, at least :data:`~bpe.check_reading.FOLLOW` merges past it (or to the end), or None; returned as a
    reading fault whose sentence names the class with its evidence. ``parting``: as for
    :func:`~bpe.check_reading.find_count_fault`, counts that cannot make the student's choice are not replayed.
    ``tied``: the two pairs tie at the step in our run, so a tie rule of the student's own explains the choice as
    well: a member must then make the student's pair win outright there. Also returned: whether the member follows
    the run only with any tie allowed (a second fault, the student's tie rule, besides the counts). ``rival``: a faulty
    reader found to follow the run: a member that needs any tie allowed is kept only where it follows the run further
    than the reader's counts do with any tie allowed too (or the text never split at its special tokens, where the
    reader names that too). The members spend an allowance of the faulty readers' work (:mod:`bpe.check_work`): each
    member's counts the text's bytes, each replay and training on them priced by ``cost(merges)`` (the work of the
    first merges on the true words; without it, the merges times the words counted)."""
    if not text or len(text) > MAX_CHARS:
        return None
    reading = reading_of(text, setup.pre_tokenizer, specials)
    need = min(len(merges), step + FOLLOW)
    seen = [reading.true]
    best: tuple[int, Member, bool] | None = None
    outright = parting if parting is None or not tied else (*parting[:3], parting[3] - 1)
    work = Work("count")
    for member in members(reading, specials):
        if work.spent():
            break
        work.spend(len(reading.data))
        if not member.counts or member.counts in seen:
            continue
        seen.append(member.counts)
        if parting is not None and not can_choose(
            member.counts, reading.true, setup, end_of_word, merges[: step - 1], outright
        ):
            continue
        _, words, freqs = student_words(dict(member.counts), setup, (), end_of_word)
        n, decided = _follow(words, freqs, merges)
        price = cost(merges) if cost is not None else lambda r: r * len(member.counts)  # noqa: B023
        work.spend(price(max(n, 0) + 1))
        if n < need:
            continue
        exact = setup_agreed(dict(member.counts), setup, merges, (), end_of_word)
        work.spend(price(exact + 1))
        if step not in decided and exact < step:  # the class must make the student's choice there, any tie ours
            continue
        if exact >= need:  # a tie rule of the student's own is a second fault: counted only where needed
            n = exact
        if best is None or n > best[0]:
            best = (n, member, exact < need)
            if n == len(merges):
                break
    if best is None:
        return None
    n, member, second = best
    if second and rival is not None:
        others = [rival.counts, Counter(reading.pattern.findall(text))] if rival.unsplit else [rival.counts]
        for counts in others:
            _, words, freqs = student_words(dict(counts), setup, (), end_of_word)
            if replay(words, freqs, merges).reproduced >= n:
                return None
    fault = CountFault(member.name, member.what + _evidence(member, reading.true), lambda r, c: (Counter(), ([], [])))
    return CountFound(fault, 1, dict(member.counts), ([], []), dict(reading.true), n), second
