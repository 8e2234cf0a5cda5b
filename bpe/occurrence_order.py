"""A merge that replaces a pair's occurrences in a word from its end: replayed on the student's merges, and told.

A correct merge walks each word left to right, so a run of one symbol ``x x x`` merging ``(x, x)`` becomes ``xx x``.
A merge that walks the word from its end (``for i in range(len(word) - 1, 0, -1)``, or positions popped off a list)
makes ``x xx`` instead. Only pairs of one symbol twice can overlap, so only such merges split otherwise; the counts
follow the split made, so they are right for it, and the runs part later, where a pair holding a piece of such a run
is counted (``(xx, x)`` is never made, ``(x, xx)`` is).

:func:`right_to_left` replays a correct loop with that merge on the student's merges, any tied pair allowed (the
student's tie rule is another fault), and keeps it only where it follows the run past the step and, at the step, its
count of the student's pair beats its count of ours and our tie rule takes it of any pair at its count (else a tie rule
explains the choice as well) while a merge left to right on the same counts does not make that choice (else the counts
explain it, not the order).
:func:`right_to_left_read` replays it on the words as a faulty reader counts them, where the true counts part from
the run too soon; :func:`right_to_left_told` says it, with a word split otherwise.

Left out: merges in a set's order (:mod:`bpe.set_order`), and weighing this against other causes
(:mod:`bpe.check_cause`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .check_notation import show_bytes, show_pair, show_word
from .check_reading import recounts
from .check_result import Comparison
from .check_setup import Setup, student_words
from .check_work import Work
from .count_faults import CountFault
from .formats.cs336 import BytePair
from .word_merges import held_pair_counts, rewrite_word

FOLLOW = 2  # the replay explains the step only if it follows the run this many merges past it (or to its end)
READ_MAX_CHARS = 300_000  # a longer text is not re-read by each faulty reader: those passes take seconds


def merge_from_end(split: Sequence[bytes], pair: BytePair) -> list[bytes]:
    """``split`` with every occurrence of ``pair`` merged, found from the word's end."""
    out: list[bytes] = []
    i = len(split) - 1
    while i >= 0:
        if i > 0 and (split[i - 1], split[i]) == pair:
            out.append(pair[0] + pair[1])
            i -= 2
        else:
            out.append(split[i])
            i -= 1
    return out[::-1]


def merge_from_start(split: Sequence[bytes], pair: BytePair) -> list[bytes]:
    """``split`` with every occurrence of ``pair`` merged left to right, as a correct merge does."""
    out: list[bytes] = []
    i = 0
    while i < len(split):
        if i + 1 < len(split) and (split[i], split[i + 1]) == pair:
            out.append(pair[0] + pair[1])
            i += 2
        else:
            out.append(split[i])
            i += 1
    return out


def right_to_left(
    words: Sequence[tuple[bytes, ...]],
    freqs: Sequence[int],
    texts: Sequence[str],
    merges: Sequence[BytePair],
    step: int,
    ours: BytePair,
    tie: str | None = None,
) -> tuple[int, tuple[BytePair, int, str]] | None:
    """How many of ``merges`` a correct loop whose merge works from each word's end makes (any tied pair allowed),
    with a merge it splits otherwise (its pair, its step, a word so split), or None: where no merge ``(x, x)`` before
    ``step`` (1-based) splits a word otherwise, the replay stops before ``step`` plus :data:`FOLLOW`, or at the step its
    count of the student's pair does not beat its count of ``ours``, or it ties with another pair there that our tie
    rule may take (``tie``: our tie rule where a replay follows it exactly, as :func:`_taken` reads it)."""
    runs = {pair for pair in merges[: step - 1] if pair[0] == pair[1]}
    if not runs:
        return None
    splits = [list(w) for w in words]
    counts, where = held_pair_counts(splits, freqs)
    examples: dict[BytePair, tuple[BytePair, int, str]] = {}
    reach = len(merges)
    if not _order_decides(words, freqs, merges, step, ours):
        return None
    for at, pair in enumerate(merges, start=1):
        top = max(counts.values(), default=0)
        if top <= 0 or counts.get(pair, 0) != top:
            reach = at - 1
            break
        if at == step and counts.get(pair, 0) <= counts.get(ours, 0):
            return None  # the counts tie here as in ours: a tie rule explains the choice as well
        if at == step and not _taken(pair, [p for p, c in counts.items() if c == top], tie):
            return None  # the order leaves the student's pair tied with another: a tie rule makes the choice
        for k in where.pop(pair, set()):
            old = splits[k]
            new = merge_from_end(old, pair)
            if pair in runs and pair not in examples and new != merge_from_start(old, pair):
                examples[pair] = (pair, at, texts[k])
            rewrite_word(counts, where, k, old, new, freqs[k])
            splits[k] = new
        counts.pop(pair, None)
    if not examples or reach < min(len(merges), step + FOLLOW):
        return None
    parted = merges[step - 1] + ours  # a run of a symbol the pairs where the runs part hold is the telling example
    near = [e for pair, e in examples.items() if any(pair[0] in symbol for symbol in parted)]
    return reach, (near or list(examples.values()))[0]


def _taken(pair: BytePair, top: Sequence[BytePair], tie: str | None) -> bool:
    """Whether ``pair`` is the one our tie rule takes of the pairs at the top count ``top``: where another is there
    too, only a rule a replay follows exactly (greatest bytes) can tell, so with another rule it is not."""
    return len(top) == 1 or (tie == "greatest-bytes" and pair == max(top))


def _order_decides(
    words: Sequence[tuple[bytes, ...]], freqs: Sequence[int], merges: Sequence[BytePair], step: int, ours: BytePair
) -> bool:
    """Whether merging left to right, on the same counts, would not make the student's choice at ``step`` on its own:
    where it would (the student's pair beats ours there too), the counts explain the choice, not the order."""
    splits = [list(w) for w in words]
    counts, where = held_pair_counts(splits, freqs)
    for pair in merges[: step - 1]:  # only the words holding the pair are merged again, as a loop's index does
        for k in where.pop(pair, set()):
            old = splits[k]
            new = merge_from_start(old, pair)
            rewrite_word(counts, where, k, old, new, freqs[k])
            splits[k] = new
    return counts.get(merges[step - 1], 0) <= counts.get(ours, 0)


def right_to_left_read(
    text: str | None,
    setup: Setup,
    specials: Sequence[str],
    merges: Sequence[BytePair],
    step: int,
    ours: BytePair,
    tie: str | None = None,
    end_of_word: bool = False,
    cost: Callable[[Sequence[BytePair]], Callable[[int], int]] | None = None,
) -> tuple[int, tuple[BytePair, int, str], CountFault] | None:
    """:func:`right_to_left` on the words as a faulty reader of :mod:`bpe.count_faults` that needs no number of chunks
    counts them (a student whose merge works from the end often reads the file by lines too), the reader that follows
    the run furthest, or None. The readings and replays spend an allowance of the faulty readers' work
    (:mod:`bpe.check_work`): each reading of the text its bytes, each reader's two replays (to the step, then as far
    as the run) priced by ``cost(merges)`` (the work of the first merges on the true words; without it, the merges
    times the words counted)."""
    if text is None or len(text) > READ_MAX_CHARS or not any(x == y for x, y in merges[: step - 1]):
        return None
    best = None
    work = Work("count")
    for fault, _, counts, _ in recounts(text, setup.pre_tokenizer, specials, work=work, chunked=False):
        if work.spent():
            break
        price = cost(merges) if cost is not None else lambda r: r * len(counts)  # noqa: B023
        work.spend(price(step - 1) + price(len(merges)))
        texts, words, freqs = student_words(dict(counts), setup, (), end_of_word)
        found = right_to_left(words, freqs, texts, merges, step, ours, tie)
        if found is not None and (best is None or found[0] > best[0]):
            best = (*found, fault)
    return best


def right_to_left_told(head: str, their_count: int, total: int, found, fields: dict) -> Comparison:
    """The cause in one sentence: the merge works from the word's end, with a run of one symbol it splits otherwise."""
    reach, ((x, _), at, word), *read = found
    follows = (
        f"our loop merging from the end makes all {total} of your merges"
        if reach >= total
        else f"our loop merging from the end follows yours for {reach} merges"
    )
    cause = (
        f"{head} ({their_count}): your merge replaces a pair's occurrences in a word in another order than left to "
        f"right: from the end of the word (right to left), so a run of three {show_bytes(x)} is split otherwise: after "
        "the merge "
        f"{show_pair((x, x))} at step {at}, {show_word(word)} holds {show_bytes(x)} {show_bytes(x + x)} where ours "
        f"makes {show_bytes(x + x)} {show_bytes(x)}, and the counts of the pairs beside it follow; {follows}. Walk "
        "each word from its start (for i in range(len(word) - 1), skipping past each merge)."
    )
    if read:  # the words as a faulty reader counts them
        cause += f" Our loop follows yours that far only on your counts: {read[0].sentence}."
    return Comparison(kind="merge-loop", cause=cause, fault="right-to-left", **fields)
