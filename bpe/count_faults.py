"""Known faults in how a student reads the corpus (in chunks, by lines, with its pattern) before counting words:
each a hypothesis about the word counts, tested by training on the corpus counted that way.

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
4. ``drop-tail``: the chunk boundaries are the evenly spaced offsets moved to the next special token, but the
   file's size is never added as the last one, so the text after the last boundary (the last chunk) is never
   read;
5. ``drop-special-length``: each chunk is read as its size less the special token's length, in characters
   (``f.read(size - len(special))`` on a file opened as text, meant to leave out a special token at the chunk's end,
   though a chunk starts with it), so the last characters before each boundary and at the file's end are never
   counted (on text of several bytes a character, more characters than the chunk holds may be read instead);
6. ``chunk-positions``: each word's occurrences are kept as a set of positions, numbered from 0 again in each
   chunk, and the chunks' sets are joined, so a word at the same position in two chunks counts once;
7. ``special-in-pattern``: the special tokens are alternatives inside the pre-token pattern, not split out
   first, so after punctuation the punctuation run takes the token's first characters (``.<|``) and the rest
   is counted as words (``endoftext``, ``|>``); where the text never split at its special tokens (the commoner bug)
   makes as many of the run's merges, any tied pair allowed, it is named first and this one beside it;
8. ``lines``: each line (with its newline) is pre-tokenized on its own, so no word runs across a newline
   (a newline and the next line's indent are never one word);
9. ``bytes-pattern``: the pre-token pattern is run on the UTF-8 bytes (``rb"..."``), where ``\\p{L}`` and
   ``\\p{N}`` match ASCII only, so a letter outside ASCII is cut from its word and grouped as punctuation;
10. ``cut-at-space``: the file is read in buffers, each cut after its last space or newline (``rfind``) with the
    rest carried over to the next read; a file that fits in one buffer is cut once, so its last word is read alone,
    without its leading space (``' newest'`` becomes ``'newest'``, and the space a word of its own);
11. ``lines-stripped``: each line is read as ``line.strip()``, so indentation, newlines and the spaces at a line's
    end are never counted;
12. ``latin-pattern``: the pre-token pattern's letter class is Latin only (``[a-zA-Z\\u00C0-\\u017F]``, digits
    ``[0-9]``, as written for the standard ``re``, which has no ``\\p{L}``), so a letter outside it (``π``, ``東``)
    matches no alternative and is never counted;
13. ``unescaped-split``: the special tokens are joined into the split pattern unescaped (``'(' + '|'.join(specials)
    + ')'``), so the ``|`` in ``<|endoftext|>`` means "or": the text is split at every ``<``, ``endoftext`` and ``>``,
    and the pieces (those too) are counted as words;
14. ``cjk-single``: the pre-token pattern makes every CJK character (Han, Hiragana, Katakana, Hangul) a word of its
    own, its first alternative, and keeps them out of the letter class (``[\\p{L}--\\p{Han}...]``), so ``' 東京'`` is
    counted as ``' '``, ``'東'`` and ``'京'``: no pair joins two CJK characters, or a space to one;
15. ``chunk-overwritten``: the chunks' word counts are joined by assignment (``result[word] = count``), not added,
    so each word keeps its count in the last chunk that holds it;
16. ``documents-max``: the documents' word counts are joined with ``Counter |=``, which keeps the largest
    (:mod:`bpe.document_counts`);
17. ``cut-before-end``: the text is pre-tokenized in two pieces, cut a few characters before its end (a reader
    that, finding no newline or special token to cut a buffer at, takes ``buffer[:-k]`` and the last ``k``
    characters apart), so the word at the cut is counted as two pieces; ``k`` is the student's, so every ``k`` up to
    :data:`TAIL_CUTS` is tried (``cut-last`` is ``k`` = 1).
18. ``lines-flattened``: each line's words (split on whitespace) are appended, character by character, to one list
    for the line, so a line is one word with no space in it: pairs across its words are counted (``'low lower'``
    is counted as ``'lowlower'``), and each line counts once, whatever the words it holds.

A :class:`Reading` holds the text read whole (its documents and the spans of their words), so a reader that
cuts words is re-read only around its cuts (a word's match depends on the text a word or so around it).
:func:`file_text` gives the one file a reader reads.

Left out: trying the faults on a student's run and naming the one that follows it (:mod:`bpe.check_reading`);
a corpus given as word counts or as several texts (there is no file to read in chunks); chunks cut by characters.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import regex

from . import pre_tokenizers as pt
from .document_counts import documents_max
from .pre_tokenizers import Corpus

TAIL_CUTS = 32  # ``cut-before-end`` is tried with the text cut up to this many characters before its end
MARGIN = 3  # words re-read before a cut: whether a word matches depends on no text a few words away
# deleting these from UTF-8 text leaves its continuation bytes, which begin no character
_NOT_CONTINUATION = bytes(b for b in range(256) if not 0x80 <= b < 0xC0)

Example = tuple[list[str], list[str]]  # words counted less, and what they are counted as instead
Pieces = list[tuple[int, int]]  # the (start, end) byte ranges a reader reads, each on its own


class Reading:
    """The text read whole as our side reads it (split at the special tokens, then cut into words): its
    documents and the spans of their words, so a reader that cuts the text is re-read only around its cuts."""

    def __init__(self, text: str, pre_tokenizer: str, specials: Sequence[str]) -> None:
        self.text, self.data = text, text.encode("utf-8")
        self.pattern = pt.word_pattern("whitespace" if pre_tokenizer == "sennrich" else pre_tokenizer)
        self.marks = [s.encode("utf-8") for s in specials if s]
        ordered = sorted((s for s in specials if s), key=len, reverse=True)
        self.split = re.compile("|".join(map(re.escape, ordered))) if ordered else None
        self.docs: list[tuple[int, int]] = []
        start = 0
        for m in self.split.finditer(text) if self.split else ():
            self.docs.append((start, m.start()))
            start = m.end()
        self.docs.append((start, len(text)))
        self.doc_starts = [a for a, _ in self.docs]
        spans = [m.span() for a, b in self.docs for m in self.pattern.finditer(text, a, b)]
        self.starts, self.ends = [a for a, _ in spans], [b for _, b in spans]
        self.start_set = set(self.starts)
        self.true = Counter(text[a:b] for a, b in spans)

    def read(self, pieces: Pieces) -> Counter:
        """The word counts of the text read as ``pieces`` (byte ranges, each decoded on its own with broken
        characters dropped, then split at the special tokens), the slow way: every piece read again."""
        counts: Counter = Counter()
        for a, b in pieces:
            piece = self.data[a:b].decode("utf-8", "ignore")
            for part in self.split.split(piece) if self.split else [piece]:
                counts.update(self.pattern.findall(part))
        return counts

    def reread(self, pieces: Pieces) -> tuple[Counter, Example] | None:
        """The word counts of the text read as ``pieces``, re-reading only around the cuts between them, and the
        first cut's example; None where a cut falls inside a special token or two cuts lie too close to re-read
        them apart (then :meth:`read` them)."""
        cuts = [(end, start) for (_, end), (start, _) in zip(pieces, pieces[1:])]
        cuts += [(pieces[-1][1], len(self.data))] if pieces[-1][1] < len(self.data) else []
        offsets = sorted({b for cut in cuts for b in cut})
        at = dict(zip(offsets, self.char_offsets(offsets)))
        counts, example, reach = Counter(self.true), ([], []), 0
        for end, start in cuts:
            left, right = at[end][0], at[start][0] + at[start][1]  # a character cut in two is dropped
            found = self._cut(left, right, reach)
            if found is None:
                return None
            old, new, reach = found
            counts.subtract(old)
            counts.update(new)
            if old and not example[0]:
                example = (old, new)
        return +counts, example

    def char_offsets(self, offsets: Sequence[int]) -> list[tuple[int, int]]:
        """Sorted byte offsets as (the index of the character at or after them, 1 if they fall inside it)."""
        if len(self.data) == len(self.text):
            return [(b, 0) for b in offsets]
        out, chars, prev = [], 0, 0
        for b in offsets:
            chars += b - prev - len(self.data[prev:b].translate(None, _NOT_CONTINUATION))  # characters begun
            prev = b
            inside = int(b < len(self.data) and 0x80 <= self.data[b] < 0xC0)
            out.append((chars - inside, inside))
        return out

    def _cut(self, left: int, right: int, reach: int) -> tuple[list[str], list[str], int] | None:
        """One piece ends at character ``left`` and the next starts at ``right``: the words read whole and as
        cut there (what differs), and where the two readings meet again; None if they cannot be told apart from
        the previous cut's (``reach``) or the cut is not inside one document."""
        doc_start, doc_end = self.docs[bisect_right(self.doc_starts, left) - 1]
        if right > doc_end or left > doc_end:
            return None
        if left == right and left in (doc_start, doc_end):
            return [], [], reach  # between documents: no word changes
        first_word = bisect_left(self.starts, doc_start)
        k = max(bisect_right(self.ends, left), first_word)  # the first word that ends after the cut
        first = max(k - MARGIN, first_word)
        begin = self.starts[first] if first > first_word else doc_start
        if begin < reach:
            return None
        new = self.pattern.findall(self.text, begin, left)
        meet = doc_end
        for m in self.pattern.finditer(self.text, right, doc_end):
            if m.start() in self.start_set:  # a word starts here in both readings: from here on they agree
                meet = m.start()
                break
            new.append(m.group())
        stop = bisect_left(self.starts, meet)
        old = [self.text[a:b] for a, b in zip(self.starts[first:stop], self.ends[first:stop])]
        while old and new and old[0] == new[0]:
            old, new = old[1:], new[1:]
        while old and new and old[-1] == new[-1]:
            old, new = old[:-1], new[:-1]
        return old, new, meet

    def boundaries(self, chunks: int, to_special: bool) -> list[int]:
        """Byte offsets of the chunks, as ``find_chunk_boundaries`` makes them: evenly spaced, each moved forward
        to the next special token (none left: the end of the file) when ``to_special``."""
        size = len(self.data)
        bounds = [i * (size // chunks) for i in range(chunks)] + [size]
        if to_special:
            for i in range(1, chunks):
                found = [p for s in self.marks if (p := self.data.find(s, bounds[i])) != -1]
                bounds[i] = min(found, default=size)
        return sorted(set(bounds))

    def counted(self, pieces: Pieces) -> tuple[Counter, Example]:
        """The word counts of the text read as ``pieces``, and an example of a word counted wrongly."""
        found = self.reread(pieces)
        if found is not None:
            return found
        counts = self.read(pieces)
        less, more = self.true - counts, counts - self.true
        return counts, (sorted(less, key=less.get, reverse=True)[:1], sorted(more, key=more.get, reverse=True)[:2])


def _last(reading: Reading, chunks: int) -> Pieces:
    """Byte ranges: all but the last character, and the last character on its own."""
    end = len(reading.data) - len(reading.text[-1:].encode("utf-8"))
    return [(0, end), (end, len(reading.data))]


def _cut_last(reading: Reading, chunks: int) -> tuple[Counter, Example]:
    return reading.counted(_last(reading, chunks))


def _cut_before_end(reading: Reading, chunks: int) -> tuple[Counter, Example]:
    """Byte ranges: the text but its last ``chunks`` characters, and those characters."""
    start = len(reading.text) - chunks
    if start <= 0:
        return Counter(reading.true), ([], [])
    end = len(reading.text[:start].encode("utf-8"))
    return reading.counted([(0, end), (end, len(reading.data))])


def _drop_last(reading: Reading, chunks: int) -> tuple[Counter, Example]:
    return reading.counted(_last(reading, chunks)[:1])


def _even_chunks(reading: Reading, chunks: int) -> tuple[Counter, Example]:
    bounds = reading.boundaries(chunks, to_special=False)
    return reading.counted(list(zip(bounds, bounds[1:])))


def _drop_tail(reading: Reading, chunks: int) -> tuple[Counter, Example]:
    """The words before the last chunk's start; none of the last chunk's (its start is at a special token, so
    no word is cut). Nothing is dropped where no special token follows the last evenly spaced offset: that
    boundary then falls at the file's end."""
    bounds = reading.boundaries(chunks, to_special=True)
    size = len(reading.data)
    if len(bounds) < 3 or bounds[-2] < (chunks - 1) * (size // chunks):
        return Counter(reading.true), ([], [])
    ((end, _),) = reading.char_offsets([bounds[-2]])
    kept = bisect_left(reading.starts, end)
    counts = Counter(reading.text[a:b] for a, b in zip(reading.starts[:kept], reading.ends[:kept]))
    return counts, _example(reading.true, counts)


def _drop_special_length(reading: Reading, chunks: int) -> tuple[Counter, Example]:
    """Each chunk read from its start as its size in bytes less the special token's length, counted in characters
    (a file opened as text reads characters)."""
    if not reading.marks:
        return Counter(reading.true), ([], [])
    cut = len(reading.marks[0].decode("utf-8"))
    bounds = reading.boundaries(chunks, to_special=True)
    starts = [char for char, _ in reading.char_offsets(bounds)]
    pieces: Pieces = []
    for (a, b), start in zip(zip(bounds, bounds[1:]), starts):
        end = min(len(reading.text), start + max(0, b - a - cut))
        pieces.append((a, a + len(reading.text[start:end].encode("utf-8"))))
    if any(end > nxt for (_, end), (nxt, _) in zip(pieces, pieces[1:])):
        counts = reading.read(pieces)  # chunks read past the next one's start: read each on its own
        return counts, _example(reading.true, counts)
    return reading.counted(pieces)


def _chunk_positions(reading: Reading, chunks: int) -> tuple[Counter, Example]:
    bounds = reading.boundaries(chunks, to_special=True)  # at special tokens: no word is cut
    edges = [char for char, _ in reading.char_offsets(bounds[1:-1])]
    positions: dict[str, set[int]] = {}
    chunk, number = 0, 0
    for a, b in zip(reading.starts, reading.ends):
        while chunk < len(edges) and a >= edges[chunk]:
            chunk, number = chunk + 1, 0  # numbered from 0 again in each chunk, across its documents
        positions.setdefault(reading.text[a:b], set()).add(number)
        number += 1
    counts = Counter({word: len(found) for word, found in positions.items()})
    true = reading.true
    worst = max(true, key=lambda w: (true[w] - counts[w], true[w]), default=None)
    return counts, ([worst] if worst is not None else [], [])


def _chunk_overwritten(reading: Reading, chunks: int) -> tuple[Counter, Example]:
    """Each word's count in the last chunk that holds it: the chunks' counts joined by assignment, not summed."""
    bounds = reading.boundaries(chunks, to_special=True)  # at special tokens: no word is cut
    edges = [char for char, _ in reading.char_offsets(bounds[1:-1])]
    per_chunk: list[Counter] = [Counter()]
    for a, b in zip(reading.starts, reading.ends):
        while len(per_chunk) - 1 < len(edges) and a >= edges[len(per_chunk) - 1]:
            per_chunk.append(Counter())
        per_chunk[-1][reading.text[a:b]] += 1
    counts: Counter = Counter()
    for chunk in per_chunk:
        counts.update({word: n - counts[word] for word, n in chunk.items()})  # the later chunk's count replaces it
    true = reading.true
    worst = max(true, key=lambda w: (true[w] - counts[w], true[w]), default=None)
    return counts, ([worst] if worst is not None else [], [])


def _example(true: Counter, counts: Counter) -> Example:
    """A word counted less, and the two counted most beyond their true counts."""
    less, more = true - counts, counts - true
    return sorted(less, key=less.get, reverse=True)[:1], sorted(more, key=more.get, reverse=True)[:2]


def special_in_pattern(reading: Reading) -> list[regex.Match]:
    """The text's words cut by the special tokens written first in one alternation with the pattern, in order, the
    special tokens among them (a reading with no special token: none)."""
    if reading.split is None:
        return []
    return list(regex.compile(f"{reading.split.pattern}|{reading.pattern.pattern}").finditer(reading.text))


def _special_in_pattern(reading: Reading, chunks: int) -> tuple[Counter, Example]:
    if reading.split is None:
        return Counter(reading.true), ([], [])
    specials = {m.decode("utf-8") for m in reading.marks}
    counts = Counter(w for m in special_in_pattern(reading) if (w := m.group()) not in specials)
    return counts, _example(reading.true, counts)


def _lines(reading: Reading, chunks: int) -> tuple[Counter, Example]:
    data, pieces, start = reading.data, [], 0
    while (end := data.find(b"\n", start) + 1) > 0:
        pieces.append((start, end))
        start = end
    if start < len(data):
        pieces.append((start, len(data)))
    if len(pieces) < 2:
        return Counter(reading.true), ([], [])
    return reading.counted(pieces)


def _bytes_pattern(reading: Reading, chunks: int) -> tuple[Counter, Example]:
    if reading.pattern.pattern not in (pt.GPT2_PATTERN, pt.GPT4_PATTERN):
        return Counter(reading.true), ([], [])  # only the byte-level patterns ask about letters
    pattern = regex.compile(reading.pattern.pattern.encode())
    counts: Counter = Counter()
    for a, b in reading.docs:
        found = pattern.findall(reading.text[a:b].encode("utf-8"))
        counts.update(w.decode("utf-8", "replace") for w in found)  # runs of bytes above 0x7f keep characters whole
    true = reading.true
    word = next((w for w in true if counts[w] < true[w] and not w.isascii()), None)  # a word it cuts, seen first
    if word is None:
        return counts, _example(true, counts)
    return counts, ([word], [w.decode("utf-8", "replace") for w in pattern.findall(word.encode("utf-8"))])


def _cut_at_space(reading: Reading, chunks: int) -> tuple[Counter, Example]:
    """The file read as one buffer cut after its last space or newline (``rfind``), the rest read on its own, as a
    reader that carries a buffer's unfinished last word over to the next read does once the file fits in one read."""
    data = reading.data
    cut = max(data.rfind(b" "), data.rfind(b"\n")) + 1
    if cut <= 0 or cut >= len(data):
        return Counter(reading.true), ([], [])
    return reading.counted([(0, cut), (cut, len(data))])


def _lines_flattened(reading: Reading, chunks: int) -> tuple[Counter, Example]:
    """Each line's whitespace-split words run together into one word (at the special tokens, as the text is split
    first); the example is the first line of two words or more, and what it becomes."""
    counts: Counter = Counter()
    example: Example = ([], [])
    for line in reading.text.split("\n"):
        for part in reading.split.split(line) if reading.split else [line]:
            split = part.split()
            if split:
                counts["".join(split)] += 1
            if len(split) > 1 and not example[0]:
                example = ([" ".join(split)], ["".join(split)])
    return counts, example


def _lines_stripped(reading: Reading, chunks: int) -> tuple[Counter, Example]:
    """Each line (``for line in f``) read as ``line.strip()``, then split at the special tokens and cut into words."""
    counts: Counter = Counter()
    for line in reading.text.split("\n"):
        stripped = line.strip()
        for part in reading.split.split(stripped) if reading.split else [stripped]:
            counts.update(reading.pattern.findall(part))
    true = reading.true
    less, more = true - counts, counts - true
    word = max(less, key=lambda w: (less[w], w), default=None)
    return counts, ([word] if word is not None else [], sorted(more, key=lambda w: (-more[w], w))[:2])


def _last_document(reading: Reading, chunks: int) -> tuple[Counter, Example]:
    """Only the text after the last special token counted, as a loop over the documents whose counting runs after
    the loop (on the loop variable's last value) or starts afresh for each document counts."""
    if len(reading.docs) < 2:
        return Counter(reading.true), ([], [])
    a, b = reading.docs[-1]
    counts = Counter(m.group() for m in reading.pattern.finditer(reading.text, a, b))
    return counts, _example(reading.true, counts)


LATIN_PATTERN = r"""'(?:[sdmt]|ll|ve|re)| ?[a-zA-Z\u00C0-\u017F]+| ?[0-9]+| ?[^\s\w]+|\s+(?!\S)|\s+"""


def _latin_pattern(reading: Reading, chunks: int) -> tuple[Counter, Example]:
    """GPT-2's pattern with Latin letters and ASCII digits for ``\\p{L}`` and ``\\p{N}``, on the standard ``re``: a
    letter outside the class is no letter and no punctuation (``[^\\s\\w]``) either, so it is skipped."""
    if reading.pattern.pattern not in (pt.GPT2_PATTERN, pt.GPT4_PATTERN):
        return Counter(reading.true), ([], [])  # only the byte-level patterns ask about letters
    pattern = re.compile(LATIN_PATTERN)
    counts = Counter(w for a, b in reading.docs for w in pattern.findall(reading.text[a:b]))
    true = reading.true
    word = next((w for w in true if counts[w] < true[w] and not w.isascii()), None)  # a word it cuts, seen first
    if word is None:
        return counts, _example(true, counts)
    return counts, ([word], pattern.findall(word))


CJK = r"\p{Han}|\p{Hiragana}|\p{Katakana}|\p{Hangul}"
CJK_SINGLE_PATTERN = (
    rf"(?:{CJK})|'(?:[sdmt]|ll|ve|re)| ?[\p{{L}}--\p{{Han}}--\p{{Hiragana}}--\p{{Katakana}}--\p{{Hangul}}]+| ?\p{{N}}+"
    r"| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"
)


def _cjk_single(reading: Reading, chunks: int) -> tuple[Counter, Example]:
    """GPT-2's pattern with each CJK character a word of its own (the first alternative) and CJK taken out of the
    letter class, as a pattern written to keep Chinese, Japanese and Korean text from merging into long words."""
    if reading.pattern.pattern not in (pt.GPT2_PATTERN, pt.GPT4_PATTERN) or not regex.search(CJK, reading.text):
        return Counter(reading.true), ([], [])  # only the byte-level patterns, and only on text holding CJK
    pattern = regex.compile(CJK_SINGLE_PATTERN, regex.V1)
    counts = Counter(w for a, b in reading.docs for w in pattern.findall(reading.text[a:b]))
    true = reading.true
    word = next((w for w in true if counts[w] < true[w] and regex.search(CJK, w)), None)  # a word it cuts, seen first
    if word is None:
        return counts, _example(true, counts)
    return counts, ([word], pattern.findall(word))


def _unescaped_split(reading: Reading, chunks: int) -> tuple[Counter, Example]:
    """The text split on the special tokens joined unescaped, in a group (``re.split`` keeps what it split at), each
    piece but a whole special token cut into words."""
    if reading.split is None:
        return Counter(reading.true), ([], [])
    specials = [m.decode("utf-8") for m in reading.marks]
    try:
        split = re.compile("(" + "|".join(specials) + ")")
    except re.error:  # a token that is no pattern: the student's split would fail, not read the text otherwise
        return Counter(reading.true), ([], [])
    counts: Counter = Counter()
    for piece in split.split(reading.text):
        if piece and piece not in specials:
            counts.update(reading.pattern.findall(piece))
    return counts, _example(reading.true, counts)


def _first_line(reading: Reading, chunks: int) -> tuple[Counter, Example]:
    """Only the file's first line read (``f.readline()``, its newline kept), split at the special tokens and cut into
    words; the example is a word of a later line never counted."""
    end = reading.text.find("\n")
    if end < 0:
        return Counter(reading.true), ([], [])
    line = reading.text[: end + 1]
    counts: Counter = Counter()
    for part in reading.split.split(line) if reading.split else [line]:
        counts.update(reading.pattern.findall(part))
    return counts, _example(reading.true, counts)


@dataclass(frozen=True)
class CountFault:
    """One faulty reader: ``count`` gives the word counts it makes of the corpus (given the text read whole and
    the number of chunks) and an example of a word it counts wrongly; ``sentence`` says what it does, addressed
    to the student (``{chunks}``: the number of chunks). ``chunks``: how the reader cuts the file into chunks
    (None: its counts do not depend on them; ``"even"``: at evenly spaced bytes; ``"special"``: moved forward to
    the next special token; ``"tail"``: once, ``chunks`` characters before the end)."""

    name: str
    sentence: str
    count: Callable[[Reading, int], tuple[Counter, Example]]
    chunks: str | None = None
    own_loop: bool = False  # a reader built for a merge loop of its own design (see find_count_fault)
    one_chunk: bool = False  # the fault shows with one chunk too (the whole file read as one)


COUNT_FAULTS: dict[str, CountFault] = {
    f.name: f
    for f in (
        CountFault("cut-last", "your corpus's last character is counted as a word of its own, as a chunk boundary "
                   "put at the file's size minus one (where no special token follows) cuts it off", _cut_last),
        CountFault("drop-last", "your reading stops one character before the end of the file, so its last "
                   "character is never counted", _drop_last),
        CountFault("even-chunks", "your {chunks} chunks are cut at evenly spaced bytes, not moved to a special "
                   "token, so a word at a cut is counted as two pieces", _even_chunks, chunks="even"),
        CountFault("drop-tail", "your chunk boundaries never end with the file's size, so the last of your {chunks} "
                   "chunks (from the last boundary to the end of the file) is never read", _drop_tail,
                   chunks="special"),
        CountFault("drop-special-length", "each of your {chunks} chunks is read as its size less the length of "
                   "the special token (as if each chunk ended with one, though it starts with it), so the last "
                   "characters before each chunk's end are never counted", _drop_special_length, chunks="special",
                   one_chunk=True),
        CountFault("chunk-positions", "your counts merge each word's positions from your {chunks} chunks as one "
                   "set, and positions start at 0 in every chunk, so a word at the same position in two chunks "
                   "counts once", _chunk_positions, chunks="special", own_loop=True),
        CountFault("chunk-overwritten", "your word counts from your {chunks} chunks are joined by assignment "
                   "(result[word] = count), not added, so each word keeps its count in the last chunk that holds it "
                   "and loses its counts in the chunks before", _chunk_overwritten, chunks="special"),
        CountFault("special-in-pattern", "your special token is an alternative inside your pre-token pattern, not "
                   "split out first, so after punctuation the punctuation run takes its first characters and the "
                   "rest is counted as words", _special_in_pattern),
        CountFault("lines", "your corpus is pre-tokenized line by line, so no word runs across a newline (a newline "
                   "and the next line's indent are never one word)", _lines),
        CountFault("bytes-pattern", "your pre-token pattern's letter and digit classes match ASCII only (a "
                   "pattern run on the UTF-8 bytes, or one written with [a-zA-Z] and [0-9]: both cut the same words), "
                   "so a letter outside ASCII is cut from its word and counted as punctuation", _bytes_pattern),
        CountFault("cut-at-space", "your reader cuts the file after its last space or newline (an rfind(b' ') on a "
                   "buffer that holds the whole file) and reads the rest on its own, so the last word is read "
                   "without its leading space and the space is counted alone", _cut_at_space),
        CountFault("lines-stripped", "your corpus is read line by line with line.strip(), so the whitespace at the "
                   "start and end of every line (the indentation and the newline) is never counted", _lines_stripped),
        CountFault("latin-pattern", "your pre-token pattern's letter class is Latin only (such as [a-zA-Z\\u00C0-"
                   "\\u017F] for any letter), so every other letter matches none of its parts and is dropped "
                   "from your counts", _latin_pattern),
        CountFault("last-document", "only your last document (the text after the last special token) is "
                   "counted: the counting runs after the loop over the documents, on its last value, or the counts "
                   "start afresh for each document", _last_document),
        CountFault("unescaped-split", "your special tokens are joined into your split pattern unescaped, so the '|' "
                   "in them means 'or': your text is split at each part of the token ('<', 'endoftext' and '>' for "
                   "<|endoftext|>) wherever it occurs, and those parts are counted as words (each token needs "
                   "re.escape before the join)", _unescaped_split),
        CountFault("cjk-single", "your pre-token pattern makes every CJK character (Han, Hiragana, Katakana, Hangul) a "
                   "word of its own and keeps them out of its letter class, so no pair joins two CJK characters or a "
                   "space and one", _cjk_single),
        CountFault("documents-max", "your documents' word counts are joined with Counter |= (a union, which keeps "
                   "each word's largest count in any one document) instead of added (+= or update), so a word in "
                   "several documents keeps only its count in the one where it is commonest", documents_max),
        CountFault("cut-before-end", "your reader pre-tokenizes the text in two pieces, cut a few characters "
                   "before its end ({chunks} here: the fewest that make your merges), as buffer[:-k] and the rest are "
                   "where no newline or special token is found to cut at, so the word at the cut is counted as two "
                   "pieces", _cut_before_end, chunks="tail"),
        CountFault("lines-flattened", "your corpus is read line by line and the words of a line are run together "
                   "into one word (each word's characters appended to one list for the line), so pairs across "
                   "words are counted and each line counts once", _lines_flattened),
        CountFault("first-line", "only the first line of your file is read (f.readline() reads one line, not the "
                   "file), so the words of every later line are never counted", _first_line),
    )
}  # fmt: skip


def file_text(corpus: Corpus) -> str | None:
    """The corpus as the one file a student's reader reads (a text, or a list of one text), or None (word counts
    or several texts: no file to read in chunks)."""
    if isinstance(corpus, str):
        return corpus
    if isinstance(corpus, list | tuple) and len(corpus) == 1 and isinstance(corpus[0], str):
        return corpus[0]
    return None
