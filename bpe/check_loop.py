"""Why a student's count differs at the step where the runs part: the faulty merge loop or the tie rule
that reproduces it, or else what is certain about the count.

When the student's merges 1..k-1 agree with ours, the corpus splits after them agree too, so a different
choice at step k means the student's pair counts at k are not the true ones, or a tie went another way.
:func:`find_fault` replays the student's merges under every loop of :mod:`bpe.merge_faults` (any tied
pair allowed to win) and keeps the one that follows the student longest (up to :data:`BEYOND` merges
past step k), past step k and longer than the correct loop does (else the correct counts explain the
choice, and it is a tie).
:func:`fault_sentence` names it with the words where the true and the faulty counts part (for the
``lost-pair`` selection, whose counts are the true ones, it says that the selection never offered ours, and
for a heap that never sifts up, with both counts right, that ours rose after it took its place);
:func:`tie_key` finds a students' tie rule (token ids, decoded text) that reproduces a tie;
:func:`certain_sentence` says, when nothing reproduces the choice, which count must be off, by how much
at least, and the words that hold it.

Left out: the settings (:mod:`bpe.check_setup`) and the order in which causes are tried (:mod:`bpe.check_cause`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from .check_notation import show_bytes, show_pair, show_word
from .check_work import ALLOWANCES, MergeCost, Work
from .dict_order_ties import LAST_TIE
from .fault_replay import Replay, replay
from .formats.cs336 import BytePair
from .loop_fault import Fault
from .merge_faults import CORRECT, FAULTS
from .tie_keys import BYTE_KEYS, ORDER_TIES, PROGRAM_ORDERS, RECOUNT_TIE, TEXT_REACHED_TIE, TIE_KEYS, token_ids

BEYOND = 300  # a replay follows the student this many merges past the step where the runs part, no further


@dataclass(frozen=True)
class Words:
    """The corpus as a replay reads it: each word as typed, as base symbols, and its count."""

    texts: list[str]
    words: list[tuple[bytes, ...]]
    freqs: list[int]
    # the words' indexes in the order of their last occurrence in the text, read when asked (None: word counts, no
    # order to read): the order a count over every word as the text has them brings a pair to its full count in
    text_order: Callable[[], tuple[int, ...] | None] | None = field(default=None, compare=False, repr=False)
    # whether the student's run is written in bytes: a key on byte values (the original BPE compression's) is tried
    # only then, or any run of characters whose ties follow no rule (a hash order) would find it by chance
    byte_level: bool = field(default=False, compare=False, repr=False)
    costs: dict[tuple[BytePair, ...], MergeCost] = field(default_factory=dict, compare=False, repr=False)
    ties: dict[tuple, Replay] = field(default_factory=dict, compare=False, repr=False)

    def cost(self, merges: Sequence[BytePair]) -> MergeCost:
        """The work of replaying ``merges`` on these words (:class:`bpe.check_work.MergeCost`), found once."""
        key = tuple(merges)
        if key not in self.costs:
            self.costs[key] = MergeCost(self.words, key)
        return self.costs[key]

    def tries(self, name: str) -> bool:
        """Whether the tie key ``name`` is tried on these words: the text's order of words only where there is one
        to read, a key on byte values only for a run written in bytes."""
        if name == TEXT_REACHED_TIE:
            return self.order() is not None
        return self.byte_level or name not in BYTE_KEYS

    def order(self) -> tuple[int, ...] | None:
        """The words' indexes in the order of their last occurrence in the text, or None."""
        return self.text_order() if self.text_order is not None else None

    def tie_run(self, merges: Sequence[BytePair], tie: str, deadline: float | None = None) -> Replay:
        """The correct loop with the tie key ``tie`` replayed on ``merges``, kept once it finished: the students'
        tie keys, a tie key from the parting step and a tie rule with a loop fault replay the same runs."""
        key = (tuple(merges), tie)
        if key in self.ties:
            return self.ties[key]
        order = self.order() if tie == TEXT_REACHED_TIE else None
        run = replay(self.words, self.freqs, merges, CORRECT, tie=tie, deadline=deadline, order=order)
        if run.finished:
            self.ties[key] = run
        return run


@dataclass(frozen=True)
class FaultFound:
    """The fault that follows the student longest, how many merges it reproduces, and both loops' counts
    of the two pairs at the step where the runs part (in all and per word)."""

    fault: Fault
    reproduced: int
    true: Replay
    faulty: Replay
    same: tuple[Fault, ...] = ()  # other faults that make every merge of the run too (told beside it)
    as_far: tuple[Fault, ...] = ()  # other faults that follow the run exactly as far, short of its end


def idle_fault(found: FaultFound | None) -> bool:
    """Whether a loop fault found counts the two pairs where the runs part as the correct loop does: at a tie, the
    choice is then the tie's, which a replay without a tie rule lets any tied pair win."""
    return found is not None and bool(found.true.counts) and found.faulty.counts == found.true.counts


@dataclass(frozen=True)
class TieAndFault:
    """A students' tie rule and a loop fault that follow the run together: the rule's name, the fault found (its
    counts watched at ``step``, where the fault first parts from the tie rule alone) and the two pairs there."""

    key: str
    found: FaultFound
    step: int
    pairs: tuple[BytePair, ...]


def _replay(work: Work, cost: MergeCost, *args, **options) -> Replay:
    """:func:`bpe.fault_replay.replay` with its work spent from ``work``; a replay the safety net stopped is recorded.
    A loop that rewrites every word at each merge (``every_word``) is tried only where the most it can rewrite fits
    in what is left: each rewrite shortens a word by a symbol at least, so a word of n symbols costs at most
    n + (n - 1) + ... + 2."""
    fault = args[3] if len(args) > 3 else options.get("fault", CORRECT)
    if fault.every_word and work.used + sum(len(w) * (len(w) + 1) // 2 for w in args[0]) > work.units:
        return Replay(0, {}, {})
    run = replay(*args, deadline=work.deadline, **options)
    work.spend(cost.replayed(run.reproduced) + run.rewritten)
    if not run.finished:
        work.cut()
    return run


def find_fault(
    corpus: Words,
    merges: Sequence[BytePair],
    step: int,
    pairs: Sequence[BytePair],
    tie: str | None = None,
    units: float | None = None,
) -> FaultFound | None:
    """The known fault that reproduces the student's merges through ``step`` (1-based) and longest, or None.
    ``tie``: the tie rule of the loops (a key of :data:`bpe.tie_keys.TIE_KEYS`; None: any tied pair).
    ``units``: the work the faults may take, in symbol rewrites (default: :data:`bpe.check_work.ALLOWANCES`), tried
    in their order."""
    work = Work("loop", units)
    args = (corpus.words, corpus.freqs, merges[: step + BEYOND])
    cost = corpus.cost(merges)
    true = _replay(work, cost, *args, CORRECT, tie=tie, watch=step - 1, watch_pairs=pairs)
    if true.reproduced < step - 1 or true.reproduced >= step:
        return None  # our words do not give the student's first merges, or the true counts allow the choice
    best: FaultFound | None = None
    last: FaultFound | None = None  # the fault that made every merge first
    same: list[Fault] = []
    as_far: list[Fault] = []
    repeats = len(set(args[2])) < len(args[2])  # a merged pair's count kept: the loop may only subtract occurrences
    for fault in FAULTS.values():
        if best is not None and best.reproduced == len(args[2]) and (fault.loses or fault.heap):
            continue  # a whole run is made: only a loop that counts otherwise is told beside it
        run = _replay(work, cost, *args, fault, tie=tie, watch=step - 1, watch_pairs=pairs)
        if fault.drops and repeats:
            kept = _replay(work, cost, *args, fault, tie=tie, watch=step - 1, watch_pairs=pairs, keeps=True)
            run = kept if kept.reproduced > run.reproduced else run
        # a lost pair explains any one choice, and a count that is off can pass for one for a while: a
        # selection that lost pairs must follow the student to the end
        enough = len(args[2]) if fault.loses else step
        if fault.follow:  # a choice by chance can pass for it: it must follow further, and further than a tie rule
            enough = step + fault.follow if fault.past_end else min(len(args[2]), step + fault.follow)
            if fault.lazy:  # its heap pops the smallest of tied pairs: alone, that is a tie rule, the simpler cause
                rule = "smallest-id" if fault.whole_words or fault.linked else "smallest-bytes"
                tied = _replay(work, cost, *args, CORRECT, tie=rule).reproduced
                enough = max(enough, tied + 1)
        if run.reproduced >= enough and (best is None or run.reproduced > best.reproduced):
            best = FaultFound(fault, run.reproduced, true, run)
            as_far = []
        elif best is not None and run.reproduced == best.reproduced == len(args[2]) == len(merges):
            # two loops that make every merge: where only one has no pair left, it tells why the run ends there
            if run.exhausted and not best.faulty.exhausted:
                same.append(best.fault)
                best = FaultFound(fault, run.reproduced, true, run)
            else:
                same.append(fault)
        elif best is not None and run.reproduced == best.reproduced == len(args[2]):
            same.append(fault)  # two loops that make every merge: the run cannot tell them apart
        elif best is not None and run.reproduced == best.reproduced and not (fault.loses or fault.heap):
            as_far.append(fault)  # two loops that part from the run at the same step
        if best is not None and best.reproduced == len(args[2]) and best is not last:
            last = best  # another fault that makes them all too is looked for with a little more work only
            work.units = min(work.units, work.used + ALLOWANCES["same"])
        if work.spent():
            break
    if best is not None and as_far:
        best = replace(best, as_far=tuple(as_far))
    return replace(best, same=tuple(same)) if best is not None and same else best


def find_tie_and_fault(
    corpus: Words,
    merges: Sequence[BytePair],
    step: int,
    pairs: Sequence[BytePair],
    need: int,
    skip: str | None = None,
    units: float | None = None,
    prefer: Fault | None = None,
) -> TieAndFault | None:
    """A students' tie rule (of :data:`bpe.tie_keys.TIE_KEYS` but ``skip``, ours) and a known loop fault
    together, the pair that reproduces the student's merges longest and at least ``need`` of them, or None: a
    tie rule and a loop bug can change the same step, and then neither alone follows the run. ``units``: the work
    the pairs may take (:mod:`bpe.check_work`); ``prefer``: the loop fault that alone follows the run furthest,
    tried with every rule first."""
    work = Work("both", units)
    args = (corpus.words, corpus.freqs, merges[: step + BEYOND])
    cost = corpus.cost(merges)
    best: tuple[str, Fault, int, bool | None] | None = None
    # a faulty update can leave a count on a merged pair: whether it competes in ties depends on whether the loop
    # deletes a merged pair's count, which the run shows only where it repeats a merge; both are tried
    other = len(set(args[2])) < len(args[2])
    # the rules that take the student's pair over ours where the runs part go first: on a long word (a Basic
    # tokenizer's whole text, where every replay rewrites it all) the allowance reaches them; on equal reach the
    # rule first in TIE_KEYS is named, whatever order they were tried in
    rank = {name: k for k, name in enumerate(TIE_KEYS)}
    # the last pair of the greatest count is a whole loop's choice (>= on a fresh count), not a key beside a fault
    # the text's order of words is a whole loop's choice too, read only where a count over the words is replayed
    names = [name for name in TIE_KEYS if name not in (skip, LAST_TIE, TEXT_REACHED_TIE) and corpus.tries(name)]
    ids = token_ids(corpus.words, args[2])
    names.sort(key=lambda name: not _takes_theirs(name, pairs, ids))
    faults = [f for f in FAULTS.values() if not (f.loses or f.heap)]  # a lost pair fits any run; a heap has its key
    # the loop fault that alone follows the run furthest is tried with every rule first: where its own count makes
    # the step's choice with no tie, the rule it needs acts later, and may not take the student's pair here
    tried = [(name, prefer) for name in names] if prefer is not None and prefer in faults else []
    tried += [(name, fault) for name in names for fault in faults if (name, fault) not in tried]
    for name, fault in tried:
        run = None
        for deletes in (None, other):
            if run is not None and not run.deletes_told:
                break  # no tie turned on a merged pair's count: the other choice makes the same merges
            run = _replay(work, cost, *args, fault, tie=name, deletes=deletes)
            longer = (
                best is None or run.reproduced > best[2] or run.reproduced == best[2] and rank[name] < rank[best[0]]
            )
            whole = name not in PROGRAM_ORDERS or run.reproduced == len(args[2])  # (see tie_key)
            if run.reproduced >= need and longer and whole:
                best = (name, fault, run.reproduced, deletes)
        if work.spent() or best is not None and best[2] == len(args[2]):
            break
    if best is not None and best[2] == len(args[2]):  # the keys read off a dict's order, which no pair can judge
        # beforehand, are tried after the rules that take the student's pair: one of them may make the whole run
        # with the same fault, and a dict's order of counts (Counter.most_common) is commoner than those rules
        for name in ORDER_TIES:
            if name in names and rank[name] < rank[best[0]] and not work.spent():
                run = _replay(work, cost, *args, best[1], tie=name, deletes=best[3])
                if run.reproduced == len(args[2]):
                    best = (name, best[1], run.reproduced, best[3])
                    break
    if best is None:
        return None
    name, fault, n, deletes = best
    alone = corpus.tie_run(args[2], name).reproduced  # the tie rule alone may make this step's choice
    at = step if alone < step or alone >= len(args[2]) else alone + 1  # where the loop fault first shows
    if at > step:
        own = replay(corpus.words, corpus.freqs, [], CORRECT, tie=name, choose=at).chosen or []
        pairs = (own[at - 1], merges[at - 1]) if len(own) >= at else pairs
    true = replay(*args, CORRECT, tie=name, watch=at - 1, watch_pairs=pairs)
    faulty = replay(*args, fault, tie=name, watch=at - 1, watch_pairs=pairs, deletes=deletes)
    return TieAndFault(name, FaultFound(fault, n, true, faulty), at, tuple(pairs))


def _takes_theirs(name: str, pairs: Sequence[BytePair], ids: dict[bytes, int]) -> bool:
    """Whether the tie key ``name`` takes the student's pair (the last of ``pairs``) over ours (the first); a key that
    reads the order a dict gained its pairs is not known without a replay (False)."""
    if len(pairs) < 2 or name in ORDER_TIES or name in (RECOUNT_TIE, LAST_TIE):
        return False
    return TIE_KEYS[name][1]([pairs[0], pairs[-1]], ids, {}) == pairs[-1]


def _parting_words(corpus: Words, true: dict[int, int], faulty: dict[int, int], limit: int = 2) -> list[str]:
    rows = [(w, true.get(w, 0), faulty.get(w, 0)) for w in {*true, *faulty}]
    rows = sorted((r for r in rows if r[1] != r[2]), key=lambda r: (-abs(r[1] - r[2]), r[0]))
    return [show_word(corpus.texts[w]) for w, _, _ in rows[:limit]]


def fault_sentence(found: FaultFound, corpus: Words, pairs: Sequence[BytePair], merges: Sequence[BytePair] = ()) -> str:
    """The fault in one clause, with the pair whose count it changes most and the words where it parts;
    ``merges``: the student's merges before the step, to name the merge whose update went wrong."""
    if found.fault.loses and len(pairs) > 1:
        return _lost_sentence(found, pairs)
    counted = all(found.faulty.counts.get(p) == found.true.counts.get(p) for p in pairs)
    if found.fault.lazy and len(pairs) > 1 and counted:  # the counts right: the heap's entries chose
        ours, theirs = pairs[0], pairs[1]
        ours_n, theirs_n = found.true.counts.get(ours, 0), found.true.counts.get(theirs, 0)
        if ours_n == theirs_n and theirs < ours:  # here it is the heap's order of tied pairs, not a lost entry
            return (
                f"{found.fault.sentence}: {show_pair(ours)} and {show_pair(theirs)} both count {ours_n}, and your "
                f"min-heap pops the smaller pair, {show_pair(theirs)}"
            )
        return (
            f"{found.fault.sentence}: your count of {show_pair(ours)} ({ours_n}) is right, but it fell after its last "
            f"entry was pushed, so your heap no longer offers it and pops {show_pair(theirs)} ({theirs_n})"
        )
    if found.fault.heap and len(pairs) > 1 and counted:
        ours, theirs = pairs[0], pairs[1]
        return (
            f"{found.fault.sentence}: your counts of {show_pair(ours)} ({found.true.counts.get(ours, 0)}) and "
            f"{show_pair(theirs)} ({found.true.counts.get(theirs, 0)}) are right, but the count of {show_pair(ours)} "
            f"rose after it took its place in your heap, so your heap offered {show_pair(theirs)} first"
        )
    diffs = [(abs(found.faulty.counts.get(p, 0) - found.true.counts.get(p, 0)), i, p) for i, p in enumerate(pairs)]
    _, _, pair = max(diffs)
    true, faulty = found.true.counts.get(pair, 0), found.faulty.counts.get(pair, 0)
    words = _parting_words(corpus, found.true.per_word.get(pair, {}), found.faulty.per_word.get(pair, {}))
    where = f"in {' and '.join(words)} " if words else ""
    verb = "drops to" if faulty < true else "rises to"
    what = found.fault.sentence
    first = found.fault.blames_first
    culprits = [m for m in merges if first(m, pair)] if first else []
    culprits = culprits or [m for m in merges if found.fault.blames(m, pair)]
    if found.fault.about_merge and culprits:
        a, b = culprits[-1]
        what = found.fault.about_merge.format(
            merge=show_pair((a, b)), a=show_bytes(a), b=show_bytes(b), joined=show_bytes(a + b)
        )
    return f"{what}: {where}your count of {show_pair(pair)} {verb} {faulty} while it is {true}"


def tie_key(
    corpus: Words, merges: Sequence[BytePair], step: int, skip: str | None = None, units: float | None = None
) -> tuple[str | None, int]:
    """Of the students' tie rules in :data:`bpe.tie_keys.TIE_KEYS` (but ``skip``, ours), the one that
    reproduces the most of the student's merges, at least through ``step``, and how many (``units``: the work the
    rules may take, :mod:`bpe.check_work`)."""
    work = Work("tie", units)
    cost = corpus.cost(merges)
    best, best_n = None, step - 1
    given = merges[: step + BEYOND]
    for name in TIE_KEYS:
        if name == skip or not corpus.tries(name):
            continue
        if work.spent():
            break
        run = corpus.tie_run(given, name, work.deadline)
        work.spend(cost.replayed(run.reproduced))
        if not run.finished:
            work.cut()
        if name == LAST_TIE and len(corpus.words) > 1 and run.reproduced < len(given):
            continue  # a fresh count's last pair over many words (reduce keeping the later key): only a whole run
        if name in PROGRAM_ORDERS and run.reproduced < len(given):
            continue  # an order the student's whole program makes (a map's, ids of its own): the whole run or none,
            # since with so many such orders one follows a few ties of a run whose ties follow none by chance
        if run.reproduced > best_n:
            best, best_n = name, run.reproduced
    return best, best_n


def certain_sentence(corpus: Words, step: int, ours: BytePair, theirs: BytePair, merges: Sequence[BytePair]) -> str:
    """What must hold when no known fault reproduces the choice: the student's count of their pair is too
    high or of ours too low, by at least the difference, in the words that hold them; which of the two, where no
    merge before the step moves a pair beside the other's symbols (its count is then the first one, which the
    student's first merges show right); and the counts a known slip would give, where one makes their choice."""
    true = replay(corpus.words, corpus.freqs, merges, CORRECT, watch=step - 1, watch_pairs=(ours, theirs))
    ours_n, theirs_n = true.counts.get(ours, 0), true.counts.get(theirs, 0)
    gap = max(ours_n - theirs_n, 1)  # on a tie no tie rule explains, a count is off by 1 at least

    def holders(pair: BytePair) -> str:
        per = true.per_word.get(pair, {})
        top = sorted(per, key=lambda w: (-per[w], w))[:3]
        return ", ".join(show_word(corpus.texts[w]) for w in top) or "no word"

    out = (
        f"no known merge-loop fault reproduces it, but your count of {show_pair(theirs)} must be at least {gap} "
        f"above its true {theirs_n} (words {holders(theirs)}), or your count of {show_pair(ours)} at least {gap} "
        f"below its true {ours_n} (words {holders(ours)})"
    )
    before = merges[: step - 1]
    moved = [any(_moves(m, p) for m in before) for p in (ours, theirs)]
    tie = (
        "" if ours_n > theirs_n else f", unless a tie rule takes {show_pair(theirs)} here and another fault parts later"
    )
    if step == 1:
        out += (
            "; no merge has changed a count yet, so your counts differ before any merge: in how the text is read or "
            f"cut into words{tie}"
        )
    elif not any(moved):
        out += (
            "; no merge before this one moves a pair beside either pair's symbols, so your counts of both are the "
            f"first ones: they differ before any merge, in how the text is read or cut into words{tie}"
        )
    elif moved[0] != moved[1]:
        off, other, which = (ours, theirs, "low") if moved[0] else (theirs, ours, "high")
        out += (
            f"; no merge before this one moves a pair beside {show_pair(other)}'s symbols, so your count of it is "
            f"likely its first, true one, and the count that is off is {show_pair(off)}'s: at least {gap} too {which}"
        )
    # on a tie any slip that moves one count breaks it: only a gap a slip bridges says something
    hints = _slips(corpus, true, ours, theirs, ours_n, theirs_n) if ours_n > theirs_n else []
    hints += _run_order(corpus, true, (ours, theirs), before)
    return out + (f"; {'; '.join(hints[:2])}" if hints else "")


def passed_over(
    corpus: Words, merges: Sequence[BytePair], step: int
) -> tuple[int, BytePair, int, BytePair, int] | None:
    """Where a run whose choices tie with ours at ``step`` first takes a pair below the highest count, the counts
    replayed right along the student's own merges (any tied pair allowed): that step, the student's pair and count,
    and the pair of the highest count (the greatest pair of bytes among them) and its count; None where the run ends
    first, or the student's pair is not counted there at all (a pair the counts cannot make: they are off)."""
    free = replay(corpus.words, corpus.freqs, merges[: step + BEYOND], CORRECT)
    k = free.reproduced
    if k <= step or k >= min(len(merges), step + BEYOND):
        return None
    at = replay(corpus.words, corpus.freqs, merges[: k + 1], CORRECT, watch=k, watch_pairs=(merges[k],))
    every = at.every or {}
    theirs = at.counts.get(merges[k], 0)
    top = max(every.values(), default=0)
    if theirs <= 0 or top <= theirs:
        return None
    best = max(p for p, n in every.items() if n == top)
    return k + 1, merges[k], theirs, best, top


def _moves(merge: BytePair, pair: BytePair) -> bool:
    """Whether a loop's update for ``merge`` can change the count of ``pair``: a pair beside the merged one
    (ending in its left symbol or starting with its right one), or one holding the new token."""
    a, b = merge
    return pair[1] == a or pair[0] == b or a + b in pair or pair == merge


def _slips(corpus: Words, true: Replay, ours: BytePair, theirs: BytePair, ours_n: int, theirs_n: int) -> list[str]:
    """The counts known slips give the two pairs, where they make the student's choice: a pair counted once per
    word, or without the words holding it twice (ours too low); each word's count squared (theirs too high, and
    above ours squared too, as the slip squares every count)."""
    freqs = corpus.freqs

    def occurrences(pair: BytePair) -> dict[int, int]:
        return {w: n // freqs[w] for w, n in true.per_word.get(pair, {}).items() if n > 0}

    hints = []
    ours_at, theirs_at = occurrences(ours), occurrences(theirs)
    twice = [w for w, k in ours_at.items() if k > 1]
    if twice:
        once = sum(freqs[w] for w in ours_at)
        example = show_word(corpus.texts[max(twice, key=lambda w: (ours_at[w] * freqs[w], -w))])
        if once <= theirs_n:
            hints.append(
                f"counted once per word, not once per occurrence, {show_pair(ours)} would be {once}, which lets yours "
                f"win: words such as {example} hold it twice"
            )
        without = ours_n - sum(ours_at[w] * freqs[w] for w in twice)
        if without <= theirs_n and without != once:
            hints.append(
                f"without the words that hold it twice (such as {example}), {show_pair(ours)} would be {without}, "
                "which lets yours win"
            )
    squared = sum(k * freqs[w] * freqs[w] for w, k in theirs_at.items())
    if squared > theirs_n and squared > sum(k * freqs[w] * freqs[w] for w, k in ours_at.items()):
        hints.append(
            f"with each word's count squared (a word listed once per occurrence in the text, each time with its "
            f"count), {show_pair(theirs)} would be {squared}, above {show_pair(ours)} squared, which lets it win"
        )
    return hints


# faults whose harm is in a run of one symbol merged by (x, x): where one follows a run only part of the way, a loop that
# merges a word's occurrences in another order than left to right (a set's, which may be no fixed order) fits as well
RUN_FAULTS = frozenset({
    "overlap-twice", "overlap-subtract", "positions", "overlap-index", "overlap-collapse", "stale-overlap", "lost-last",
    "lost-last-counted",
    "stale-guarded",
})  # fmt: skip


def run_order_hint(
    corpus: Words, found: FaultFound, pairs: Sequence[BytePair], before: Sequence[BytePair], total: int
) -> str:
    """Where ``found`` (a fault of :data:`RUN_FAULTS`) follows the run of ``total`` merges only part of the way and a
    word holding either pair at the step holds a run of three of a symbol merged by ``(x, x)`` in ``before`` (the
    merges before the step): a sentence saying that a loop merging a word's occurrences in another order splits such
    runs otherwise too; else ''."""
    if found.fault.name not in RUN_FAULTS or found.reproduced >= total:
        return ""
    hints = _run_order(corpus, found.true, pairs, before)
    if not hints:
        return ""
    also = f", as does another known loop: {found.as_far[0].sentence}" if found.as_far else ""
    return (
        f" This loop follows your run only through step {found.reproduced}{also}; so your bug may be another one "
        f"that splits a run of one symbol otherwise: {hints[0]}."
    )


def _run_order(corpus: Words, true: Replay, pairs: Sequence[BytePair], before: Sequence[BytePair]) -> list[str]:
    """Where a word holding either pair holds a run of three or more of one symbol that an earlier merge ``(x, x)``
    merged, and the pair holds a piece of that run: the order a loop merges a word's occurrences in splits such a run (left to right, ``xx x``; in a set's
    order, possibly ``x xx``), so a loop that does not go left to right counts these words otherwise."""
    for step, (x, y) in enumerate(before, start=1):
        if x != y:
            continue
        for pair in pairs:
            if not any(len(t) % len(x) == 0 and t == x * (len(t) // len(x)) for t in pair):
                continue  # only a pair holding a piece of the run changes with its split
            for w in true.per_word.get(pair, {}):
                if x * 3 in b"".join(corpus.words[w]):
                    return [
                        f"{show_word(corpus.texts[w])} holds a run of three or more {show_bytes(x)}, merged by "
                        f"{show_pair((x, y))} at step {step}: a loop that merges a word's occurrences in another order "
                        "than left to right (kept in a set and merged in its order) splits such a run otherwise "
                        f"({show_bytes(x)} {show_bytes(x + y)} where ours makes {show_bytes(x + y)} {show_bytes(x)}), "
                        "which changes these counts"
                    ]
    return []


def _lost_sentence(found: FaultFound, pairs: Sequence[BytePair]) -> str:
    """The selection fault: the counts of both pairs are the true ones, and ours was never offered."""
    ours, theirs = pairs[0], pairs[1]
    ours_n, theirs_n = found.true.counts.get(ours, 0), found.true.counts.get(theirs, 0)
    return (
        f"your counts here may well be right: {show_pair(theirs)} ({theirs_n}) is the pair we would take once "
        f"{show_pair(ours)} ({ours_n}) is left out, so your selection never offered {show_pair(ours)}: the heap or "
        "the buckets of counts your loop picks from lost it (a pair changed but never pushed, or a count's entry "
        f"removed while other pairs still hold that count); with {show_pair(ours)} left out, our loop makes your "
        f"merges through step {found.reproduced}"
    )
