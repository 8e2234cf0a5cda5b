"""Why our corpus never has the student's pair at the step where the runs part: another text, base or pre-tokenizer.

A pair no word of ours holds cannot come from a count that is off: the student's words differ from ours. In order,
:func:`missing_pair` tells an empty symbol (bytes read as signed char, or a word joined by spaces and split back), a first merge whose bytes stand side by side nowhere in our text (the run is from another
text, or two whole words side by side in it (:mod:`bpe.check_word_symbols`), or NUL symbols never written (:mod:`bpe.check_unwritten`); a pair of replacement characters U+FFFD where the text holds characters outside the BMP: UTF-16 surrogate
halves), whitespace kept on words, a piece of a special token (not split out, or split as an unescaped regular
expression), an end-of-word symbol, a character of several bytes taken whole or cut apart (the byte base), a word
cut by another pre-tokenizer (:mod:`bpe.check_cuts`), two tokens of ours side by side where they never are (the
merge loop), else another base or pre-tokenizer.

Left out: the counts of pairs our corpus does have, and the order in which the Check tries causes
(:mod:`bpe.check_cause`).
"""

from __future__ import annotations

from collections.abc import Mapping

from .check_cuts import cut_words
from .check_ends import SPACE_KEY
from .check_notation import show_pair
from .check_result import to_ours
from .check_unwritten import past_end
from .check_word_symbols import word_symbols, word_symbols_told
from .pre_tokenizers import Corpus


def inside_special(joined: bytes, specials, student, corpus) -> str | None:
    """The special token of the text that holds ``joined``, if any."""
    text = corpus if isinstance(corpus, str) else " ".join(corpus) if not isinstance(corpus, Mapping) else ""
    for special in (*specials, *student.special_tokens):
        if joined.decode("utf-8", "replace") in special and special in text:
            return special
    return None


def _special_leftover(joined: bytes, specials, student, corpus) -> str | None:
    """The special token whose characters make up ``joined`` when the text holds none of them outside it."""
    if not isinstance(corpus, str) or not _is_utf8(joined):
        return None
    chars = set(joined.decode("utf-8"))
    for special in (*specials, *student.special_tokens):
        outside = corpus.replace(special, "")
        if special in corpus and chars <= set(special) and not any(c in outside for c in chars):
            return special
    return None


def missing_pair(head, theirs, student, setup, specials, corpus, history=None, n=0) -> tuple[str, str]:
    """Why our corpus never has the student's pair at this step (``history``: our run, whose words after ``n``
    merges tell whether both of the pair's tokens are there)."""
    joined = theirs[0] + theirs[1]
    astral = _halves(joined, corpus)
    if astral:
        return "byte-base", (
            f"{head}, a pair our corpus never has: your symbols are UTF-16 code units (a string as JavaScript, Java "
            f"or C# index it), so a character outside the Basic Multilingual Plane, such as {astral}, is two "
            "surrogate halves (each pasted as '\ufffd'), which your run merges as a pair of their own."
        )
    if (not theirs[0] or not theirs[1]) and _signed(student, setup, corpus):  # an empty symbol: bytes with no label
        return "empty-symbol", (
            f"{head}, a pair our corpus never has: it holds an empty symbol (''), though your words, cut at "
            "whitespace, hold no space that ' '.join and .split(' ') could make one of; and no token of yours holds a "
            "character outside ASCII, which your text has. A C or C++ trainer that reads the text as char, which is "
            "signed, turns each byte above 0x7F into a negative number (or, cast to an unsigned id, a number past "
            "255) that its vocabulary has no bytes for, so those tokens print as nothing ('') while their pairs are "
            "counted and merged. Read the bytes as unsigned char (uint8_t)."
        )
    if not theirs[0] or not theirs[1]:  # ... or a separator met twice, or at a string's start
        return "empty-symbol", (
            f"{head}, a pair our corpus never has: it holds an empty symbol (''). A word kept as its symbols joined by "
            "spaces and split back (' '.join(symbols), then .split(' ')) turns a symbol that is a space, or a space "
            "at the string's start, into empty symbols ('a b'.split(' ') is fine, ' a'.split(' ') is ['', 'a'], and "
            "'  a' gives two), which your loop then counts and merges as symbols of their own. Split with .split() "
            "or keep the symbols in a list or tuple."
        )
    past = past_end(joined, corpus, student.merges) if n == 0 else None
    if past:
        return "missing", f"{head}, a pair of NUL symbols ('\\0') our text never holds: {past}"
    words = word_symbols(corpus, student.merges) if n == 0 else None
    if words is not None:
        return "words-as-symbols", word_symbols_told(head, words, len(student.merges))
    if n == 0 and _nowhere_in_text(joined, corpus, student.end_of_word):
        return "missing", (
            f"{head}: your merges are not from this corpus. Your very first merge joins bytes that stand side by side "
            "nowhere in our corpus's text, so no byte base, pre-tokenizer or special token can make it: your trainer "
            "read another text than the file it was given (a sample text written into the code, or another file)."
        )
    if any(c in joined for c in b" \t\n\r"):
        # a token of whitespace alone ending a word ('</w>' after it), or two such side by side: a word of whitespace
        alone = [t for t in theirs if t and not t.strip()]
        words = alone and all(not t.strip() or t == _END_MARK for t in theirs)
        own = (
            " A pair of whitespace alone (or whitespace and the end-of-word symbol) is what words of whitespace make: "
            "a cut such as re.findall(r'\\S+|\\s+', text) makes each run of spaces or newlines a word of its own."
            if words and setup.pre_tokenizer in ("whitespace", "sennrich")
            else ""
        )
        if theirs in student.merges[:n] and b" " in joined:  # a pair merged before, taken again: its merge did nothing
            again = student.merges[:n].index(theirs) + 1
            return "whitespace", (
                f"{head}, a pair our corpus no longer has: your run merges {show_pair(theirs)} again, as at step "
                f"{again}, so that merge changed nothing. The pair holds a space: {SPACE_KEY}, and the pair wins again."
            )
        return "whitespace", (
            f"{head}, a pair our corpus never has: it holds whitespace, which our '{setup.pre_tokenizer}' "
            f"pre-tokenizer never keeps on a word like that. Your words keep their whitespace "
            f"(another pre-tokenizer, or none).{own}"
        )
    special = inside_special(joined, specials, student, corpus)
    if special:
        return "specials", (
            f"{head}, a pair our corpus never has: it is part of the special token {special}, which we split "
            "out of the text before counting. Your run did not split special tokens out."
        )
    leftover = _special_leftover(joined, specials, student, corpus)
    if leftover:
        return "specials", (
            f"{head}, a pair our corpus never has: it is made of characters of the special token {leftover}, which "
            "the text holds nowhere else, so your run leaves pieces of the token in the text (a split on it as an "
            "unescaped regular expression, where '|' means 'or', cuts around its parts instead of at the token)."
        )
    if _END_MARK in joined and not student.end_of_word and setup.pre_tokenizer != "sennrich":
        return "end-of-word", (
            f"{head}, a pair our corpus never has: your words end with {_END_MARK.decode()}, a symbol of its own added "
            "after each word's last character (as BPE for translation does), so its pairs with the word's last "
            "symbol take merges. Byte-level BPE as GPT-2's and CS336's adds no such symbol: the space that starts "
            "the next word marks where one ends."
        )
    chars = [p.decode("utf-8", "strict") if _is_utf8(p) else None for p in theirs]
    whole = all(c is not None for c in chars)  # a lone byte of a character: the run cannot be on characters
    if setup.byte_base and whole and any(len(c) < len(p) for c, p in zip(chars, theirs)):
        return "byte-base", (
            f"{head}, a pair our corpus never has: your run treats a character of several bytes as one "
            "symbol, so it starts from characters, not from the 256 bytes as ours does."
        )
    if not setup.byte_base and any(c is None for c in chars):
        return "byte-base", (
            f"{head}, a pair our corpus never has: your pair cuts a character's bytes apart, so your run "
            "starts from the 256 bytes and ours from characters."
        )
    if student.byte_level != setup.byte_base:
        theirs_base = "bytes (a 256-byte base)" if student.byte_level else "characters, not bytes"
        return "byte-base", (
            f"{head}, a pair our corpus never has: your run starts from {theirs_base}, ours from "
            f"{'bytes' if setup.byte_base else 'characters'}, so a character of several bytes is one symbol on "
            "one side and several on the other."
        )
    cut = (
        None
        if student.end_of_word or any(m in joined for m in _MARKS)
        else cut_words(joined, corpus, setup.pre_tokenizer)
    )
    if cut:
        return "pre-tokenizer", f"{head}, a pair our words never hold: {cut}"
    pair = to_ours(theirs, history) if history is not None else None
    if pair is not None and student.byte_level == setup.byte_base:
        symbols = {symbol for step in (0, n) for split in history.splits_at(step).values() for symbol in split}
        if pair[0] in symbols and pair[1] in symbols:
            return "missing", (
                f"{head}, a pair no word of our corpus holds at this step, though both are tokens of ours (a base "
                "symbol or a merge made before): your merge loop puts them side by side where they are not (an update that makes the pairs beside a "
                "merged token wrongly, as between two merged tokens)."
            )
    return "missing", (f"{head}, a pair our corpus never has at this step: a different byte base or pre-tokenizer.")


_END_MARK = b"</w>"  # the end-of-word symbol of BPE for translation (subword-nmt)
_MARKS = tuple(m.encode("utf-8") for m in ("</w>", "▁", "Ġ", "Ċ"))  # word-boundary marks a run may write into tokens


def _nowhere_in_text(joined: bytes, corpus: Corpus, end_of_word: bool) -> bool:
    """True if the corpus is text and its bytes hold ``joined`` nowhere, in any case (word counts: unknown, False;
    a token holding a mark of a word boundary, as subword-nmt's ``</w>`` or sentencepiece's ``▁``: unknown, False)."""
    if isinstance(corpus, Mapping) or not corpus or end_of_word or any(m in joined for m in _MARKS):
        return False
    texts = [corpus] if isinstance(corpus, str) else list(corpus)
    if not all(isinstance(t, str) for t in texts):
        return False
    lower = joined.lower()
    return not any(joined in t.encode("utf-8") or lower in t.lower().encode("utf-8") for t in texts)


def _signed(student, setup, corpus: Corpus) -> bool:
    """Whether a run's empty symbols are bytes read as signed char: words cut at whitespace (no space in them to
    split on), a text holding characters outside ASCII, and no token of the run holding one."""
    if setup.pre_tokenizer not in ("whitespace", "sennrich") or isinstance(corpus, Mapping):
        return False
    texts = [corpus] if isinstance(corpus, str) else list(corpus)
    wide = any(not t.isascii() for t in texts if isinstance(t, str))
    return wide and all(t.isascii() for pair in student.merges for t in pair)


def _halves(joined: bytes, corpus: Corpus) -> str | None:
    """A character of the text outside the Basic Multilingual Plane, where ``joined`` holds the replacement
    character the text never holds (a lone UTF-16 surrogate half, written out), or None."""
    if "\ufffd".encode() not in joined or isinstance(corpus, Mapping):
        return None
    texts = [corpus] if isinstance(corpus, str) else list(corpus)
    if not all(isinstance(t, str) for t in texts) or any("\ufffd" in t for t in texts):
        return None
    return next((c for t in texts for c in t if ord(c) > 0xFFFF), None)


def _is_utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True
