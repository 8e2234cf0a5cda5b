"""One notation for the pairs a check shows: tokens as text, with whitespace and broken characters made visible.

A student's merges are byte pairs; the Check shows each token as the text it stands for, with a space
as ``␣``, a newline as ``↵``, a tab as ``→``, and any byte that is not part of a whole UTF-8 character
as ``\\xNN`` (so ``b"\\xc3"`` reads ``\\xc3``). :data:`LEGEND` says it in one line for the page.

>>> show_pair((b" t", b"h\\xc3"))
'(␣t, h\\\\xc3)'

Left out: colours and HTML (the page escapes what it draws).
"""

from __future__ import annotations

from .formats.cs336 import BytePair

LEGEND = "Tokens are shown as text: ␣ is a space, ↵ a newline, → a tab, \\xNN a byte that is not a whole character."
_VISIBLE = str.maketrans({" ": "␣", "\n": "↵", "\t": "→", "\r": "\\r"})


def show_bytes(token: bytes) -> str:
    """A token as a student reads it: its text, whitespace made visible, stray bytes as ``\\xNN``."""
    return token.decode("utf-8", "backslashreplace").translate(_VISIBLE)


def show_pair(pair: BytePair) -> str:
    return f"({show_bytes(pair[0])}, {show_bytes(pair[1])})"


WORD_CHARS = 40  # a longer word (a whole document, with no pre-tokenization) is shown by its start and length


def show_word(word: str) -> str:
    """A word as typed, whitespace made visible, in quotes; a word longer than :data:`WORD_CHARS` by its start
    and its length, so a sentence naming a whole document stays a sentence.

    >>> show_word(" the")
    "'␣the'"
    >>> show_word("a b " * 20)
    "'a␣b␣a␣b␣a␣b␣a␣b␣a␣b␣a␣b␣a␣b␣a␣b␣a␣b␣a␣b␣…' (80 characters)"
    """
    if len(word) <= WORD_CHARS:
        return "'" + word.translate(_VISIBLE) + "'"
    return "'" + word[:WORD_CHARS].translate(_VISIBLE) + f"…' ({len(word):,} characters)"


def clip(shown: str) -> str:
    """A word already shown (a table's cell) cut as :func:`show_word` cuts it, without the quotes."""
    return shown if len(shown) <= WORD_CHARS else f"{shown[:WORD_CHARS]}… ({len(shown):,} characters)"
