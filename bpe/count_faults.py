"""Known faults in how a student reads the corpus in chunks before counting words: each a hypothesis about the
word counts, tested by training on the corpus counted that way.

CS336's trainers read the corpus file in chunks (``find_chunk_boundaries``: evenly spaced byte offsets, each
moved forward to the next special token, one worker per chunk), cut each chunk at the special tokens,
pre-tokenize the pieces and add the chunks' word counts. Done right, that gives the word counts of the whole
text split at its special tokens, whatever the number of chunks. Each :class:`CountFault` counts the words as
one faulty reader does:

1. ``cut-last``: a boundary with no special token after it is put at the file's size minus one, so the last
   character is a chunk, and a word, of its own (``' newest'`` is counted as ``' newes'`` and ``'t'``);
2. ``drop-last``: the reading stops one character short of the end, so the last character is never counted;
3. ``even-chunks``: the chunks are cut at evenly spaced byte offsets, never moved to a special token, so a
   word at a cut is counted as two pieces (a character cut in two is dropped, as a decode that ignores
   errors drops it);
4. ``chunk-positions``: each word's occurrences are kept as a set of positions, numbered from 0 again in each
   chunk, and the chunks' sets are joined, so a word at the same position in two chunks counts once.

The number of chunks is the student's (often ``os.cpu_count()``, or a number in the code), so the faults that
depend on it are tried with the usual numbers (:data:`CHUNK_COUNTS`), and each distinct set of counts once.
:func:`find_count_fault` trains our run on each set of counts that differs from the true one and keeps the
fault that follows the student's merges longest; :func:`count_sentence` names it, with the words it counts
differently and its count of the pair at the step where the runs part.

Left out: the order in which the Check weighs this against other causes (:mod:`bpe.check`); a corpus given as
word counts or as several texts (there is no file to read in chunks); chunks cut by lines or by characters.
"""

from __future__ import annotations

import re
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from . import pre_tokenizers as pt
from .check_notation import show_pair, show_word
from .check_result import to_ours
from .check_setup import Setup, setup_agreed, train_setup
from .formats.cs336 import BytePair
from .pre_tokenizers import Corpus

CHUNK_COUNTS = (4, 8, 2, 16, 3, 6, 10, 12, 32, 64)  # the usual numbers of workers, likeliest first
FOLLOW = 2  # a fault explains the step only if it follows the run this many merges past it (or to its end)

Words = Callable[[str], list[str]]  # one piece of text read on its own -> its words, in order
Example = tuple[list[str], list[str]]  # words counted less, words counted more (or as tokens of one word)


@dataclass(frozen=True)
class CountFault:
    """One faulty reader: ``count`` gives the word counts it makes of the corpus (as text and as UTF-8 bytes,
    with the reader of one piece and the number of chunks) and an example of a word it counts wrongly;
    ``sentence`` says what it does, addressed to the student (``{chunks}``: the number of chunks).
    ``chunks``: how the reader cuts the file into chunks (None: its counts do not depend on them; ``"even"``:
    at evenly spaced bytes; ``"special"``: moved forward to the next special token)."""

    name: str
    sentence: str
    count: Callable[[str, bytes, list[int], Words], tuple[Counter, Example]]
    chunks: str | None = None


def _cut_last(text: str, data: bytes, bounds: list[int], words: Words) -> tuple[Counter, Example]:
    head, tail = words(text[:-1]), words(text[-1:])
    return Counter(head) + Counter(tail), _last_word(text, words, tail)


def _drop_last(text: str, data: bytes, bounds: list[int], words: Words) -> tuple[Counter, Example]:
    return Counter(words(text[:-1])), _last_word(text, words, [])


def _last_word(text: str, words: Words, tail: list[str]) -> Example:
    """The corpus's last word, and what it is counted as without its last character (and ``tail`` after it)."""
    last = words(text)[-1:]
    cut = words(last[0][:-1]) if last else []
    return last, [*cut, *tail]


def _boundaries(data: bytes, chunks: int, specials: Sequence[bytes], to_special: bool) -> list[int]:
    """Byte offsets of the chunks, as ``find_chunk_boundaries`` makes them: evenly spaced, each moved forward to
    the next special token (none left: the end of the file) when ``to_special``."""
    size = len(data)
    bounds = [i * (size // chunks) for i in range(chunks)] + [size]
    if to_special:
        for i in range(1, chunks):
            found = [p for s in specials if (p := data.find(s, bounds[i])) != -1]
            bounds[i] = min(found, default=size)
    return sorted(set(bounds))


def _chunk_texts(data: bytes, bounds: list[int]) -> list[str]:
    return [data[a:b].decode("utf-8", "ignore") for a, b in zip(bounds, bounds[1:])]


def _even_chunks(text: str, data: bytes, bounds: list[int], words: Words) -> tuple[Counter, Example]:
    pieces = _chunk_texts(data, bounds)
    counts: Counter = Counter()
    example: Example = ([], [])
    for i, piece in enumerate(pieces):
        counts.update(words(piece))
        if i and not example[0]:  # the first cut that changes a word: the words on both sides, read whole and cut
            both, apart = Counter(words(pieces[i - 1] + piece)), Counter(words(pieces[i - 1]) + words(piece))
            example = (list((both - apart).elements()), list((apart - both).elements()))
    return counts, example


def _chunk_positions(text: str, data: bytes, bounds: list[int], words: Words) -> tuple[Counter, Example]:
    positions: dict[str, set[int]] = {}
    occurrences: Counter = Counter()
    for piece in _chunk_texts(data, bounds):
        for i, word in enumerate(words(piece)):  # numbered from 0 in each chunk, across its documents
            positions.setdefault(word, set()).add(i)
            occurrences[word] += 1
    counts = Counter({word: len(found) for word, found in positions.items()})
    worst = max(occurrences, key=lambda w: (occurrences[w] - counts[w], occurrences[w]), default=None)
    return counts, ([worst] if worst is not None else [], [])


COUNT_FAULTS: dict[str, CountFault] = {
    f.name: f
    for f in (
        CountFault("cut-last", "your corpus's last character is counted as a word of its own, as a chunk boundary "
                   "put at the file's size minus one (where no special token follows) cuts it off", _cut_last),
        CountFault("drop-last", "your reading stops one character before the end of the file, so its last "
                   "character is never counted", _drop_last),
        CountFault("even-chunks", "your {chunks} chunks are cut at evenly spaced bytes, not moved to a special "
                   "token, so a word at a cut is counted as two pieces", _even_chunks, chunks="even"),
        CountFault("chunk-positions", "your counts merge each word's positions from your {chunks} chunks as one "
                   "set, and positions start at 0 in every chunk, so a word at the same position in two chunks "
                   "counts once", _chunk_positions, chunks="special"),
    )
}  # fmt: skip


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


def file_text(corpus: Corpus) -> str | None:
    """The corpus as the one file a student's reader reads (a text, or a list of one text), or None (word counts
    or several texts: no file to read in chunks)."""
    if isinstance(corpus, str):
        return corpus
    if isinstance(corpus, list | tuple) and len(corpus) == 1 and isinstance(corpus[0], str):
        return corpus[0]
    return None


def _reader(pre_tokenizer: str, specials: Sequence[str]) -> Words:
    """The words of one piece of text as our side reads it: split at the special tokens, then cut."""
    pattern = pt.word_pattern("whitespace" if pre_tokenizer == "sennrich" else pre_tokenizer)
    split = re.compile("|".join(re.escape(s) for s in sorted(specials, key=len, reverse=True))) if specials else None

    def words(text: str) -> list[str]:
        parts = split.split(text) if split else [text]
        return [w for part in parts for w in pattern.findall(part)]

    return words


def recounts(
    text: str, pre_tokenizer: str, specials: Sequence[str]
) -> Iterator[tuple[CountFault, int, Counter, Example]]:
    """Each fault's word counts (with its number of chunks, 1 for a fault that has none, and an example) where
    they differ from the true counts, each distinct set of counts once."""
    words = _reader(pre_tokenizer, specials)
    data, marks = text.encode("utf-8"), [s.encode("utf-8") for s in specials]
    seen = [Counter(words(text))]
    for fault in COUNT_FAULTS.values():
        cuts = [[0, len(data)]]
        if fault.chunks is not None:
            cuts = [_boundaries(data, n, marks, fault.chunks == "special") for n in CHUNK_COUNTS if len(data) >= 2 * n]
        for bounds in dict.fromkeys(map(tuple, cuts)):  # each distinct set of chunks once
            if fault.chunks is not None and len(bounds) < 3:
                continue  # one chunk: read as a whole
            counts, example = fault.count(text, data, list(bounds), words)
            if counts and counts not in seen:
                seen.append(counts)
                yield fault, len(bounds) - 1, counts, example


def find_count_fault(
    text: str,
    setup: Setup,
    merges: Sequence[BytePair],
    step: int,
    specials: Sequence[str] = (),
    end_of_word: bool = False,
    seconds: float = 2.0,
) -> CountFound | None:
    """The fault whose word counts make our run follow ``merges`` through ``step`` (1-based) and longest, at
    least :data:`FOLLOW` merges past it (or to the end), or None."""
    deadline = time.monotonic() + seconds
    need = min(len(merges), step + FOLLOW)
    best: CountFound | None = None
    true: dict[str, int] | None = None
    for fault, chunks, counts, example in recounts(text, setup.pre_tokenizer, specials):
        if time.monotonic() > deadline:
            break
        n = setup_agreed(dict(counts), setup, merges, (), end_of_word)
        if n >= need and (best is None or n > best.reproduced):
            true = true or dict(Counter(_reader(setup.pre_tokenizer, specials)(text)))
            best = CountFound(fault, chunks, dict(counts), example, true, n)
            if n == len(merges):
                break
    return best


def count_sentence(found: CountFound, setup: Setup, step: int, pairs: Sequence[BytePair], end_of_word=False) -> str:
    """The fault in one clause: what the reader does, a word it counts wrongly, and its count of the pair (of
    ``pairs``) it changes most at ``step``."""
    what = found.fault.sentence.format(chunks=found.chunks)
    less, more = found.example
    if found.fault.name == "chunk-positions" and less:
        word = less[0]
        what += (
            f": {show_word(word)} counts {found.counts.get(word, 0)} where it occurs {found.true.get(word, 0)} times"
        )
    elif less:
        became = " and ".join(map(show_word, more)) if more else "nothing"
        what += f": {' and '.join(map(show_word, less))} {'becomes' if len(less) == 1 else 'become'} {became}"
    counted = []
    for counts in (found.true, found.counts):
        history = train_setup(counts, setup, step - 1, (), end_of_word)
        after = history.pair_counts_after(step - 1)
        counted.append([after.get(p, 0) if (p := to_ours(pair, history)) else 0 for pair in pairs])
    diffs = [(abs(f - t), -i) for i, (t, f) in enumerate(zip(*counted))]
    _, i = max(diffs)
    true, faulty = counted[0][-i], counted[1][-i]
    if true != faulty:
        verb = "drops to" if faulty < true else "rises to"
        what += f"; your count of {show_pair(pairs[-i])} {verb} {faulty} while it is {true}"
    return what
