"""Special tokens added as words of their own: a run whose first merges join each special token with ``</w>``.

A course's tokenizer template adds its special tokens (``[PAD]``, ``[UNK]``, ``<EMOJI>``...) to the word counts as
words, each one symbol followed by ``</w>``, with a huge count so they stay in the vocabulary. Their pairs then outcount
every pair of the text, so the first merges join each special token with ``</w>``, which no word of ours holds.
:func:`special_words` finds those leading merges (a left token of several characters no earlier merge made, or
``</w>`` itself, and ``</w>`` on the right); :mod:`bpe.check_cause` tells them at step 1 and compares the rest of the
run with ours.

Left out: special tokens split out of the text or kept in it (:mod:`bpe.check_special_ban`, :mod:`bpe.check_cause`).
"""

from __future__ import annotations

from collections.abc import Sequence

from .check_notation import show_pair
from .check_result import Comparison
from .formats.cs336 import BytePair

END = b"</w>"


def special_words(merges: Sequence[BytePair]) -> int:
    """How many of the run's first merges join a special token (a symbol of several characters no earlier merge
    made, or ``</w>``) with ``</w>``; 0 when the first does not."""
    made: set[bytes] = set()
    k = 0
    for left, right in merges:
        try:
            several = len(left.decode("utf-8")) > 1
        except UnicodeDecodeError:
            break
        if right != END or not several or left in made:
            break
        made.add(left + right)
        k += 1
    return k if k < len(merges) else 0  # a run of nothing else is no run of a text


def special_words_told(k: int, merges: Sequence[BytePair], inner: Comparison) -> Comparison:
    """The verdict on a run whose first ``k`` merges join special tokens with ``</w>``: that at step 1, then what
    the rest of the run gets compared with ours from our first merge (``inner``)."""
    names = ", ".join(m[0].decode("utf-8") for m in merges[:k])
    ours = inner.our_merges[0] if inner.our_merges else None
    head = (
        f"At step 1 we merge {show_pair(ours)} and you {show_pair(merges[0])}"
        if ours
        else f"At step 1 you {show_pair(merges[0])}"
    )
    rest = inner.cause[0].lower() + inner.cause[1:]
    cause = (
        f"{head}: your first {k} merges join your special tokens ({names}) each with '</w>': your trainer adds each "
        f"special token to the word counts as a word of its own (with a huge count), so their pairs are merged "
        f"before any pair of the text. Your merges from your merge {k + 1} on, compared with ours from our first "
        f"(steps counted from there): {rest}"
    )
    return inner.told_at_step_one(merges[0], "specials", "special-words", cause)
