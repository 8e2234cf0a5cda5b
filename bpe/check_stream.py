"""Words followed each by a separator symbol the text never holds, kept apart or run together into one stream.

Some students end each word with a symbol of their own that no text holds, a byte such as 255 (``ids.extend(list(
word.encode()) + [255])``) or a character, and then count pairs over all the words joined into one list, so the
pairs across words (the separator and the next word's first symbol) are counted too; others keep the words apart,
the separator an end-of-word symbol of a byte-level run. No setting of ours makes that symbol, so such a run parts
from ours at its first merge holding it. :func:`find_stream` takes each symbol of the run's tokens that our text never
holds, replays the run on our words (as the compared pre-tokenizer cuts them, in the text's order) each followed by
it, kept apart and run together, and keeps the way that follows the run furthest past where it parts from ours;
:func:`stream_told` says it at that step.

Words ending in our own ``</w>`` symbol (the ``sennrich`` pre-tokenizer) may also be run together into one token
list, ``tokens += [*word, '</w>']`` for every word, so ``</w>`` and the next word's first symbol make a pair that is
counted and merged: :func:`find_stream` tries that too where the run merges ``</w>`` with a symbol after it.

A tag may also be written into the text as its characters, ``' '.join(w + '</w>' for w in text.split())`` read as one
sequence of bytes: the first merges join ``'<'``, ``'/'``, ``'w'`` and ``'>'`` back together, and the pairs across
words hold the space. :func:`find_stream` tries such a tag, joined and apart, on any setup, where the run's merges
spell it and the text never holds it.

Left out: marks of a run of characters whose words stay apart (``_``, ``$``, a tag: :mod:`bpe.check_marks`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import product

import regex

from .check_loop import BEYOND
from .check_marks import NUMBER_WORDS, TAG, spells
from .check_notation import show_bytes, show_pair
from .check_reading import reading_of
from .check_result import Comparison
from .check_setup import Setup, base_symbols, history_bytes, setup_agreed, train_setup
from .check_work import MergeCost, Work
from .count_faults import file_text
from .fault_replay import replay
from .formats.student_runs import StudentRun
from .pre_tokenizers import END_OF_WORD, Corpus, unicode_to_bytes
from .text_cleanings import WORD_CUTS
from .tie_keys import TIE_KEY

# the words may be cut otherwise first, a separator after each piece: punctuation cut off (\w+|[^\s\w]+), or runs of
# letters, of digits and of other symbols each a piece (\p{L}+|\p{N}+|[^\s\p{L}\p{N}]+, a pattern like GPT-2's)
CUTS = {
    r"\w+|[^\s\w]+": "cut into words and runs of punctuation",
    r"\p{L}+|\p{N}+|[^\s\p{L}\p{N}]+": "cut into runs of letters, runs of digits and runs of other symbols",
}
MOST = 3  # separators tried: the run's symbols our text never holds, the commonest in its tokens first
_KEYS = {**TIE_KEY, "lexicographic": "smallest-bytes"}  # our tie rules as the replay's keys (else any tied pair)


@dataclass(frozen=True)
class Stream:
    """A separator ``symbol`` after each word; ``joined``: the words run together into one sequence; ``agreed``:
    how many of the run's merges our loop makes on the words so; ``plain``: how many it makes on our words."""

    symbol: bytes
    joined: bool
    agreed: int
    plain: int
    cut: str = ""  # the pattern of :data:`CUTS` that cut the words again, if any
    spelled: bool = False  # ``symbol`` is a tag written after each word as its characters, the words joined by spaces


def find_stream(corpus: Corpus, student: StudentRun, setup: Setup, specials: Sequence[str] = ()) -> Stream | None:
    """The separator the run's words carry and whether they run together, or None: only on a text cut into words, for
    a run holding a symbol our text never holds, and only where the words so follow the run past where it parts."""
    text = file_text(corpus)
    if text is None or student.end_of_word or not student.merges:
        return None
    spelled = _spelled_stream(corpus, student, setup, specials, text)
    if spelled is not None or setup.pre_tokenizer == "none":
        return spelled
    if setup.pre_tokenizer == "sennrich":
        return _end_stream(corpus, student, setup, specials, text)
    byte_level = student.byte_level  # the run's own base symbols: bytes, or characters
    units = _units(byte_level)
    held = set(units(text))
    symbols = Counter(s for pair in student.merges for t in pair for s in _split(t, byte_level) if s not in held)
    if not symbols:
        return None
    plain = setup_agreed(corpus, setup, student.merges, specials)
    if plain >= len(student.merges):
        return None
    merges = student.merges[: plain + 1 + BEYOND]
    work = Work("marks")
    best: Stream | None = None
    cuts = ["", *(CUTS if setup.pre_tokenizer in WORD_CUTS else ())]
    for (symbol, _), cut, joined in product(symbols.most_common(MOST), cuts, (False, True)):
        if work.spent():
            break
        typed = _pieces(text, setup.pre_tokenizer, specials, cut)
        if joined:
            words = [tuple(s for w in typed for s in (*units(w), symbol))]
            freqs = [1]
        else:
            counted = Counter(typed)
            words = [(*units(w), symbol) for w in counted]
            freqs = list(counted.values())
        n = replay(words, freqs, merges, tie=_KEYS.get(setup.tie_break), deadline=work.deadline).reproduced
        work.spend(MergeCost(words, merges).replayed(n))
        if n > plain and (best is None or n > best.agreed):
            best = Stream(symbol, joined, n, plain, cut)
    if best is None or not any(best.symbol in _split(t, byte_level) for t in student.merges[plain]):
        return None
    return best


EOW = END_OF_WORD.encode()
SPELLED_JOIN = "' '.join(w + '{tag}' for w in text.split()), read as one sequence"


def _end_stream(corpus: Corpus, student: StudentRun, setup: Setup, specials: Sequence[str], text: str) -> Stream | None:
    """Our words each followed by ``</w>``, all in one sequence, where the run parts from ours at a merge whose left
    token holds ``</w>`` before a symbol of the next word (no word of ours has one); None where it does not follow
    the run past that step."""
    if not any(EOW in a and not a.endswith(EOW) or a.endswith(EOW) and b for a, b in student.merges):
        return None
    plain = setup_agreed(corpus, setup, student.merges, specials)
    if plain >= len(student.merges) or EOW not in student.merges[plain][0]:
        return None
    merges = student.merges[: plain + 1 + BEYOND]
    units = _units(student.byte_level)
    words = [tuple(s for w in _pieces(text, setup.pre_tokenizer, specials, "") for s in (*units(w), EOW))]
    work = Work("marks")
    tie = _KEYS.get(setup.tie_break)
    n = replay(words, [1], merges, tie=tie, deadline=work.deadline).reproduced
    if n <= plain:  # its ties went otherwise before (the order of a stream's pairs is not our words'): from the step on
        n = replay(words, [1], merges, tie=tie, deadline=work.deadline, trusted=plain).reproduced
    work.spend(MergeCost(words, merges).replayed(n))
    return Stream(EOW, True, n, plain) if n > plain else None


def _spelled_stream(corpus, student: StudentRun, setup: Setup, specials: Sequence[str], text: str) -> Stream | None:
    """A tag (``'</w>'``) written after each whitespace-split word as its characters and the words joined by single
    spaces into one text (``' '.join(w + '</w>' for w in text.split())``), where the run's first merges join the tag's
    characters back together; None where that text does not follow the run past where it parts from ours."""
    try:
        tokens = {t.decode("utf-8") for pair in student.merges for t in pair}
    except UnicodeDecodeError:
        tokens = {t.decode("latin-1") for pair in student.merges for t in pair}
    tokens = {t.rstrip() for t in tokens}  # a tag then the space joining the words: '</w> '
    tags = {m.group() for t in tokens if (m := TAG.search(t))} | {END_OF_WORD}
    tags = sorted(tag for tag in tags if spells(student.merges, tokens, tag, text))
    if not tags:
        return None
    plain = setup_agreed(corpus, setup, student.merges, specials)
    merges = student.merges[: plain + 1 + BEYOND]
    units = _units(student.byte_level)
    work = Work("marks")
    best: Stream | None = None
    counted = Counter(text.split())
    for tag, joined in product(tags, (True, False)):
        if joined:  # one sequence, a space between each two words
            words, freqs = [units(" ".join(w + tag for w in text.split()))], [1]
        else:  # each word apart, the tag's characters after its own
            words, freqs = [units(w + tag) for w in counted], list(counted.values())
        cost = MergeCost(words, merges)
        for tie in dict.fromkeys((_KEYS.get(setup.tie_break), None)):
            if work.spent():
                break
            n = replay(words, freqs, merges, tie=tie, deadline=work.deadline).reproduced
            work.spend(cost.replayed(n))
            if n > plain and (best is None or n > best.agreed):
                best = Stream(tag.encode(), joined, n, plain, spelled=True)
    return best


def _pieces(text: str, pre_tokenizer: str, specials: Sequence[str], cut: str) -> list[str]:
    """Our words in the text's order, each cut again by the pattern ``cut`` (none: as they are)."""
    reading = reading_of(text, pre_tokenizer, specials)
    words = [reading.text[a:b] for a, b in zip(reading.starts, reading.ends)]
    return [p for w in words for p in regex.findall(cut, w)] if cut else words


def _units(byte_level: bool):
    return lambda text: base_symbols(text, byte_level)


def _split(token: bytes, byte_level: bool) -> tuple[bytes, ...]:
    """A token's base symbols: its bytes, or its characters."""
    if byte_level:
        return tuple(bytes([b]) for b in token)
    return base_symbols(token.decode("utf-8", "replace"), False)


def stream_sentence(stream: Stream, byte_level: bool, byte_base: bool) -> str:
    """What the student's words carry, said to the student (a run read as characters but compared on bytes may write
    its bytes in GPT-2's byte characters, 'ÿ' for the byte 255)."""
    if stream.spelled:
        tag = stream.symbol.decode()
        said = (
            f"your words each end in the {NUMBER_WORDS.get(len(tag), len(tag))} characters '{tag}' written after them "
            f"(word + '{tag}'), not in a symbol of their own, so your first merges join those characters back "
            "together"
        )
        if stream.joined:
            said += (
                f"; and the words are joined by spaces into one text ({SPELLED_JOIN.format(tag=tag)}), so the pairs "
                "across words (the tag's last character and the space, the space and the next word's first symbol) "
                "are counted too"
            )
        return f"{said}. Keep each word's symbols apart in a list, with the tag one symbol after its last character"
    if stream.symbol == EOW:
        return (
            "your words each end in '</w>' as ours do, but are joined into one sequence, so the pairs across words "
            "(a word's '</w>' and the next word's first symbol) are counted and merged too"
        )
    if byte_level:
        symbol = f"the byte {stream.symbol[0]} ({show_bytes(stream.symbol)})"
    else:
        char = stream.symbol.decode("utf-8", "replace")
        byte = unicode_to_bytes().get(char) if byte_base else None
        symbol = f"the symbol '{char}'" + (f" (the byte {byte}, as GPT-2's byte characters write it)" if byte else "")
    cut = f" ({CUTS[stream.cut]}: {stream.cut})" if stream.cut else ""
    said = f"your words{cut} each end in {symbol}, a separator our text never holds (an end-of-word symbol of your own)"
    if stream.joined:
        said += (
            ", and are joined into one sequence, so the pairs across words (a word's separator and the next word's "
            "first symbol) are counted too"
        )
    return said


def stream_told(
    corpus: Corpus, student: StudentRun, setup: Setup, specials: Sequence[str], stream: Stream
) -> Comparison:
    """The verdict on a run whose words end in a separator: said where the runs part, with how far our loop on the
    words so follows the run."""
    step = stream.plain + 1
    history = train_setup(corpus, setup, step, specials)
    ours_run = history_bytes(history)
    ours = ours_run[stream.plain] if stream.plain < len(ours_run) else None
    theirs = student.merges[stream.plain]
    head = (
        f"At step {step} we merge {show_pair(ours)} and you {show_pair(theirs)}"
        if ours is not None
        else f"At step {step} our run has no pair left to merge and you merge {show_pair(theirs)}"
    )
    total = len(student.merges)
    how = "in one sequence" if stream.joined else "each apart"
    then = (
        f"your run equals ours: all {total} merges agree"
        if stream.agreed >= total
        else f"our loop makes your merges through step {stream.agreed}"
    )
    said = stream_sentence(stream, student.byte_level, setup.byte_base)
    cause = f"{head}: {said}. Compared on our words followed so, {how}, {then}."
    return Comparison(
        agreed=stream.plain, step=step, ours=ours, theirs=theirs, our_count=0, their_count=0, kind="word-marks",
        cause=cause, history=history, setup=setup, our_merges=tuple(ours_run),
    )  # fmt: skip
