"""NUL symbols a student's trainer merges where it never wrote: past the text's end, or after each wide character.

A first merge of NUL symbols alone, in a text that holds none, is memory the trainer never wrote, read as zeros. Three
ways to leave them are told apart by the student's merged tokens: a buffer as long as the text's bytes filled with its
characters from the start leaves the zeros after the last character only; a buffer of that size with each character
stored at its byte offset (Go's ``for i, r := range s`` gives the offset, not the character's index) leaves one to
three zeros after each character of several bytes, so a merged token holds such a character followed by a zero; a
reader that keeps only the printable ASCII bytes (``isprint``) in a buffer as long as the file leaves as many zeros
at the end as it dropped bytes, and no token of the run holds a byte above 0x7F.

Left out: the other reasons a pair is missing from our corpus (:mod:`bpe.check_missing`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from .formats.cs336 import BytePair
from .pre_tokenizers import Corpus

NUL = b"\0"


def _texts(corpus: Corpus) -> list[str] | None:
    if isinstance(corpus, Mapping) or not corpus:
        return None
    texts = [corpus] if isinstance(corpus, str) else list(corpus)
    if not all(isinstance(t, str) for t in texts) or any("\0" in t for t in texts):
        return None
    return texts


WIDE_THEN_NUL = re.compile(rb"([\xc0-\xf7][\x80-\xbf]{1,3})\0")  # a character of several bytes, then a zero


def _after_each_wide(merges: Sequence[BytePair], texts: list[str]) -> bool:
    """Whether a merged token holds a character of several bytes followed by a zero, other than a text's last."""
    last = {t[-1].encode() for t in texts if t}
    return any(m.group(1) not in last for a, b in merges for m in WIDE_THEN_NUL.finditer(a + b))


def past_end(joined: bytes, corpus: Corpus, merges: Sequence[BytePair]) -> str | None:
    """Why a first merge of NUL symbols alone, in a text that holds none, is read where the trainer never wrote (or
    None)."""
    texts = _texts(corpus)
    if not joined or joined.strip(NUL) or texts is None:
        return None
    size, chars = sum(len(t.encode("utf-8")) for t in texts), sum(map(len, texts))
    if size > chars and _after_each_wide(merges, texts):
        return (
            "your trainer reads memory it never wrote (zeros, read as NUL symbols), and counts and merges their "
            "pairs: it stores each character at its byte offset in a buffer as long as the text's bytes (a loop that "
            "yields each character with its offset, as Go's for i, r := range text does, not its index), so after "
            "each character of several bytes one to three places are never written. Number the characters "
            "yourself, or convert the text to its characters first ([]rune(text))."
        )
    said = (
        "your trainer reads past the text's end into memory it never wrote (zeros, read as NUL symbols), and counts "
        "and merges their pairs"
    )
    if size == chars:
        return said + " (a length or loop bound larger than the text)."
    raw = b"".join(t.encode("utf-8") for t in texts)
    if not any(byte > 0x7F for a, b in merges for byte in a + b):  # no byte outside ASCII read at all
        dropped = sum(1 for byte in raw if not (0x20 <= byte < 0x7F or byte == 0x0A))
        return said + (
            f": it keeps only the printable ASCII bytes (isprint, and the newline), dropping the {dropped} others (every "
            f"byte of a character outside ASCII among them), but keeps the file's length ({size} bytes) as the "
            f"text's, so the {dropped} places after its last kept byte are never written. Keep every byte, or count "
            "the bytes you kept."
        )
    return said + (
        f": it takes the text's size in bytes ({size}, the file's byte count) as its number of "
        f"characters ({chars}), so the {size - chars} places after its last character, in a buffer that size, are "
        "never written. Count the characters you decoded, not the file's bytes."
    )
