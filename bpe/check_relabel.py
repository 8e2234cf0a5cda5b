"""A vocabulary that labels the bytes wrongly: merges that fit the text once every byte is read back another way.

A trainer counts the text's bytes as ids and writes each merge through its vocabulary, ``vocab[id]``. When that
vocabulary does not map the ids to the bytes that were counted, every merge comes out relabelled in the same way,
and the run reads as if it came from another text: its very first merge stands nowhere in ours. Three labellings
are read here, each from the run alone:

1. every byte shifted by the same amount: a special token given id 0 before the 256 bytes (byte b at id b + 1)
   while the text is counted in raw byte values writes every merge one byte value lower ((e, s) as (d, r));
2. bytes 128-255 written as the UTF-8 of the Latin-1 character (``chr(i).encode('utf-8')``, two bytes each);
3. every byte written as one and the same byte (a vocabulary rebuilt with a loop variable left over from another
   loop): nothing can be read back, only the shapes of the merges compared with ours;
4. byte b written as the b-th character of GPT-2's list (``cs[b]`` of ``bytes_to_unicode``'s two lists, where the
   table is ``dict(zip(bs, cs))``): the printable bytes come first in that list, so ``'e'`` is written ``'¨'``.

A labelling is taken only when the run's first merge stands nowhere in the text and, read back, its first merges
all do; what the merges read back get is then checked as any run (:mod:`bpe.check`). :func:`as_characters` undoes
a reading of ours, not a labelling of the student's: pasted tokens whose characters are all in GPT-2's table are read
as its byte characters, which a run of characters over a text holding those characters (``'Ā'``) is not; and a run
of characters that writes each space as ``'Ġ'`` is read with spaces where a token holding a line break made it a
Python list, which our reader reads as characters.

Left out: labellings that mix bytes in another way (another permutation), and runs that read another text for real.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from .check_notation import show_pair
from .formats.cs336 import BytePair
from .formats.student_runs import StudentRun
from .pre_tokenizers import Corpus, bytes_to_unicode

FIRST = 20  # the first merges read back: all but a tenth of them must stand in the text
MAX_SHIFT = 16  # a shift by at most this many ids (special tokens before the bytes) is tried


@dataclass(frozen=True)
class Relabel:
    """How the run's vocabulary labels the bytes: ``name`` (``shift``, ``latin1``, ``one-byte``, ``gpt2-indexed``), ``merges`` read
    back as the bytes counted (None when they cannot be), ``shift`` the ids between a byte and its label."""

    name: str
    merges: tuple[BytePair, ...] | None
    shift: int = 0
    byte: int = 0


def texts_of(corpus: Corpus) -> list[bytes] | None:
    if isinstance(corpus, Mapping) or not corpus:
        return None
    texts = [corpus] if isinstance(corpus, str) else list(corpus)
    if not all(isinstance(t, str) for t in texts):
        return None
    return [t.encode("utf-8") for t in texts]


def fits(merges: Sequence[BytePair], texts: list[bytes]) -> int:
    """How many of the first merges stand side by side somewhere in the text."""
    return sum(any(a + b in t for t in texts) for a, b in merges[:FIRST])


def _shifted(merges: Sequence[BytePair], shift: int) -> tuple[BytePair, ...] | None:
    try:
        return tuple((bytes(c + shift for c in a), bytes(c + shift for c in b)) for a, b in merges)
    except ValueError:  # a byte pushed past 0 or 255: not this shift
        return None


def _latin1_token(token: bytes) -> bytes:
    """``token`` with its Latin-1 characters written in UTF-8 read back as their one byte each (a token that is not
    such text is kept: a merge made before the vocabulary was written is already bytes)."""
    try:
        return token.decode("utf-8").encode("latin-1")
    except (UnicodeDecodeError, UnicodeEncodeError):
        return token


def _latin1(merges: Sequence[BytePair]) -> tuple[BytePair, ...] | None:
    read = tuple((_latin1_token(a), _latin1_token(b)) for a, b in merges)
    return read if read != tuple(merges) else None


def _commonest(pair: BytePair, texts: list[bytes]) -> bool:
    """Whether ``pair`` is the pair of bytes the text holds most often: a first merge read back so is the signature
    of its labels alone, whatever a loop of the run's own makes of the merges after it."""
    if len(pair[0]) != 1 or len(pair[1]) != 1:
        return False
    counts = Counter(p for t in texts for p in zip(t, t[1:]))
    return bool(counts) and counts.get((pair[0][0], pair[1][0]), 0) == max(counts.values())


def _one_byte(byte: int, merges: Sequence[BytePair], texts: list[bytes]) -> bool:
    """True if a run whose every token is ``byte`` repeated cannot come from the text: the byte is nowhere in it, or
    the first merge stands nowhere in it and the run repeats a merge or makes one the text never holds while the
    text holds another pair of bytes more often than the byte twice (a run on a text of one letter, faulty or not, is made of that letter)."""
    if not any(byte in t for t in texts):
        return True
    if fits(merges[:1], texts):
        return False  # the first merge stands in the text: a loop that repeats merges there is a loop fault
    if len(set(merges)) == len(merges) and fits(merges, texts) == len(merges[:FIRST]):
        return False
    pairs = Counter(p for t in texts for p in zip(t, t[1:]))
    return max(pairs.values(), default=0) > pairs[(byte, byte)]


_TABLE = bytes_to_unicode()  # GPT-2's table: each byte's character
_BS = list(_TABLE)  # GPT-2's list bs, the table's keys in order: byte bs[i] is written as cs[i]
_INDEXED = bytes(_BS.index(y) for y in range(256))  # read through GPT-2's table, byte y was the student's bs.index(y)


_CS = {c: i for i, c in enumerate(_TABLE.values())}  # each of GPT-2's characters: its place in cs
# whitespace as GPT-2's table shows it, written by runs of characters for the whitespace itself
_SHOWN_SPACES = {_TABLE[b].encode("utf-8"): bytes([b]) for b in b" \n\t"}


def _indexed_token(token: bytes) -> bytes | None:
    """A token pasted as GPT-2's characters (read as plain text), each read back as its place in GPT-2's list."""
    try:
        return bytes(_CS[c] for c in token.decode("utf-8"))
    except (UnicodeDecodeError, KeyError):
        return None


def _indexed(merges: Sequence[BytePair], byte_level: bool) -> tuple[BytePair, ...] | None:
    """The merges with each byte read back from its place in GPT-2's list: a run read as bytes through GPT-2's
    table is permuted; one read as plain text (its characters all GPT-2's) is read character by character."""
    if byte_level:
        return tuple((a.translate(_INDEXED), b.translate(_INDEXED)) for a, b in merges)
    read = [(_indexed_token(a), _indexed_token(b)) for a, b in merges]
    return None if any(a is None or b is None for a, b in read) else tuple(read)  # type: ignore[misc]


def relabelled(corpus: Corpus, merges: Sequence[BytePair], byte_level: bool = True) -> Relabel | None:
    """How the run's bytes are labelled, when its first merge stands nowhere in the text but a labelling reads
    its first merges back into the text; else None."""
    texts = texts_of(corpus)
    if texts is None or not merges:
        return None
    values = {c for a, b in merges for c in a + b}
    if values == {0}:  # runs of zero bytes: ids or sums of byte values saved as bytes(n) (bpe.check_ids, check_ints)
        return None
    if len(values) == 1 and _one_byte(next(iter(values)), merges, texts):
        return Relabel("one-byte", None, byte=next(iter(values)))
    if fits(merges[:1], texts):
        return None
    first = min(len(merges), FIRST)
    read = _latin1(merges)
    # a token that reads as Latin-1 characters in UTF-8 is a signature of its own: half the first merges will do,
    # as a loop fault of the run's own may part it from the text later; a shift of single bytes could fit a few
    # pairs of another text by chance, so all but a tenth must fit
    if read is not None and fits(read[:1], texts) and (2 * fits(read, texts) >= first or _commonest(read[0], texts)):
        return Relabel("latin1", read)
    read = _indexed(merges, byte_level)  # a signature of its own too (a whole permutation), and a run labelled so
    # often has a loop of its own that parts from the text soon: a third will do
    if read is not None and fits(read[:1], texts) and 3 * fits(read, texts) >= first:
        return Relabel("gpt2-indexed", read)
    found = []
    for shift in sorted(range(-MAX_SHIFT, MAX_SHIFT + 1), key=abs):
        read = _shifted(merges, shift) if shift else None
        if read is not None and fits(read[:1], texts):
            found.append((fits(read, texts), -abs(shift), Relabel("shift", read, shift=shift)))
    best = max(found, key=lambda f: (f[0], f[1]), default=None)
    return best[2] if best is not None and best[0] >= first - first // 10 else None


_CONTROL = {c: f"\\x{c:02x}" for c in (*range(32), 127)}


def shown_pair(pair: BytePair) -> str:
    """A pair as the page shows it, control bytes (which a wrong label often gives) as ``\\xNN``."""
    return show_pair(pair).translate(_CONTROL)


def _lower(n: int) -> str:
    word = {1: "one", 2: "two", 3: "three"}.get(abs(n), str(abs(n)))
    return f"{word} byte value{'s' if abs(n) > 1 else ''} {'lower' if n > 0 else 'higher'}"


def relabel_told(relabel: Relabel, merges: Sequence[BytePair], inner, our_merges: Sequence[BytePair] = ()):
    """The verdict on a relabelled run, at step 1: how the bytes are labelled, with the first merge as evidence,
    then ``inner``'s verdict on the merges read back (for ``one-byte``: ``inner`` is the run compared as saved, and
    the shapes of the merges are compared with ``our_merges``)."""
    first = merges[0]
    if relabel.name == "one-byte":
        shown = shown_pair((bytes([relabel.byte]), b""))[1:-3]
        same = 0
        for (a, b), (x, y) in zip(merges, our_merges, strict=False):
            if (len(a), len(b)) != (len(x), len(y)):
                break
            same += 1
        shape = (
            f" Their lengths agree with ours for the first {same} merges (your merge 1 {shown_pair(first)} has the "
            f"shape of our {shown_pair(our_merges[0])}), so the counting is likely right and the labels wrong."
            if same > 1
            else ""
        )
        cause = (
            f"Every token of your merges is made of the one byte {shown}: the vocabulary you saved maps every byte id "
            "to the same byte, so it does not map the ids to the bytes you counted (as a vocabulary rebuilt after "
            "training with a loop variable left over from another loop does: for _ in range(256): "
            f"vocab[len(vocab)] = bytes([i])). Your merges cannot be read back.{shape} Build the byte vocabulary "
            "as {i: bytes([i]) for i in range(256)} and write each merge as (vocab[a], vocab[b])."
        )
        return replace(inner, agreed=0, step=1, theirs=first, kind="vocabulary", fault="one-byte", cause=cause)
    read = relabel.merges[0]
    if relabel.name == "shift":
        ids = f"{relabel.shift} id{'s' if abs(relabel.shift) > 1 else ''}"
        why = (
            f"every byte is written {_lower(relabel.shift)}, as if the special token took id 0 and byte b id b + 1 "
            "while the text was counted in raw byte values"
            if relabel.shift == 1
            else f"every byte is written {_lower(relabel.shift)}: the ids are off by {ids} from the bytes counted "
            "(special tokens numbered before the bytes, or after them, while the text was counted in raw byte values)"
        )
        back = f"with every byte {abs(relabel.shift)} {'higher' if relabel.shift > 0 else 'lower'}"
    elif relabel.name == "gpt2-indexed":
        why = (
            "each byte b is written as the b-th character of GPT-2's list of characters (cs[b] of bytes_to_unicode's "
            "two lists), not as the character GPT-2's table maps it to (dict(zip(bs, cs))[b]): that list starts with "
            "the printable bytes, so 'e' is written '¨' and a space 'A'"
        )
        back = "with each character as the byte whose place it takes in that list"
    else:
        why = (
            "bytes 128-255 are written as chr(i).encode('utf-8'), the two-byte UTF-8 of the Latin-1 character, "
            "not as the one byte counted"
        )
        back = "with each such character as its one byte"
    fix = (
        "Write each byte through the table, byte_encoder = dict(zip(bs, cs)), as byte_encoder[b]"
        if relabel.name == "gpt2-indexed"
        else "Build the byte vocabulary as {i: bytes([i]) for i in range(256)} with the ids you count, and write each "
        "merge as (vocab[a], vocab[b])"
    )
    cause = (
        f"The vocabulary you saved does not map the ids to the bytes you counted: your merge 1 {shown_pair(first)} is "
        f"our {shown_pair(read)}; {why}. {fix}. Read back {back}, {inner.cause[0].lower()}{inner.cause[1:]}"
    )
    return told_at_step_one(inner, first, relabel.name, cause)


def told_at_step_one(inner, first: BytePair, fault: str, cause: str):
    """``inner``, the verdict on the merges read back, told as a vocabulary fault at step 1 with the student's
    first merge as evidence; ``inner``'s own kind and step kept as what comes after."""
    return inner.told_at_step_one(first, "vocabulary", fault, cause)


def as_characters(corpus: Corpus, student: StudentRun) -> StudentRun:
    """A run our reader took for GPT-2's byte characters (``byte_chars``) read back as the characters it was written
    in, or a run of characters that writes whitespace as GPT-2 shows it (``'Ġ'`` for a space, ``'Ċ'`` for a line
    break: ``text.replace(' ', 'Ġ')``) read with the whitespace itself, where so read its first merge (or, for the
    whitespace, its first merge holding one) stands nowhere in the text and, read the other way, all but a tenth of
    its first merges do, more than as written; else the run as it is."""
    texts = texts_of(corpus)
    if texts is None or not student.merges:
        return student
    if fits(student.merges[:1], texts):  # its first merge stands in the text as written: read as it is, unless the
        # first merge that writes whitespace as GPT-2 shows it stands nowhere (a text holding 'Ā' begins with it)
        shown = next((m for m in student.merges[:FIRST] if any(c in t for t in m for c in _SHOWN_SPACES)), None)
        if student.byte_chars or student.byte_level or shown is None or fits([shown], texts):
            return student
    if student.byte_chars:

        def token(t: bytes) -> bytes:
            return "".join(_TABLE[b] for b in t).encode("utf-8")

        changes = dict(byte_level=False, byte_chars=False)
    elif not student.byte_level and any(c in t for pair in student.merges for t in pair for c in _SHOWN_SPACES):

        def token(t: bytes) -> bytes:
            for shown, space in _SHOWN_SPACES.items():
                t = t.replace(shown, space)
            return t

        changes = {}
    else:
        return student
    read = tuple((token(a), token(b)) for a, b in student.merges)
    first = min(len(read), FIRST)
    if fits(read[:1], texts) and fits(read, texts) >= max(first - first // 10, fits(student.merges, texts) + 1):
        return replace(student, merges=read, **changes)
    return student
