r"""A character-level BPE trainer as students of other courses write it, and their readers' and loops' faults, one
each, written for the tests independently of ``bpe/``.

The trainer counts whitespace-split words, each its characters and ``'</w>'`` (as Sennrich et al.'s snippet), counts
pairs afresh each step in a dict and takes ``max(pairs, key=pairs.get)`` (the pair seen first wins a tie), and merges
every occurrence of the pair in each word. Its run equals ours with the ``sennrich`` pre-tokenizer and the ``first``
tie rule. Faults (:data:`T_FAULTS`; two at once joined by ``+``):

- ``first-unrecorded``: one merge is made before the loop (a notebook cell trying it by hand) and never recorded;
- ``lines-as-words``: the file read with ``splitlines()``, each line one word with its spaces dropped;
- ``first-line``: only the file's first line read (``f.readline()``);
- ``nonword-split``: words are the pieces of ``re.split(r'\W+', text)``;
- ``lower``: the text lowercased first; ``punctuation``: lowercased, every ``string.punctuation`` character deleted;
  ``word-edges``: lowercased, each word stripped of its non-word characters at both ends (``re.sub(r'^\W+|\W+$', '',
  word)``, a word left empty dropped);
- ``second-first``: a tie goes to the smallest second symbol, then the smallest first
  (``min(tied, key=lambda p: (p[1], p[0]))``);
- ``shortest``: a tie goes to the shortest merged string, then the smallest (``sorted`` by
  ``(-count, len(a + b), a + b)``);
- ``end-underscore``: words end in ``'_'``, not ``'</w>'``; ``start-underscore``: words start with ``'_'`` too.
"""

from __future__ import annotations

import re
import string
from collections import Counter

T_FAULTS = (
    "first-unrecorded", "lines-as-words", "first-line", "nonword-split", "lower", "second-first", "shortest",
    "end-underscore", "start-underscore", "punctuation", "word-edges",
)  # fmt: skip


def _has(fault: str | None, name: str) -> bool:
    return name in (fault or "").split("+")


def t_words(text: str, fault: str | None = None) -> Counter:
    """The words the trainer counts, with their counts, in first-seen order."""
    if _has(fault, "lower"):
        text = text.lower()
    if _has(fault, "punctuation"):
        text = re.sub("[" + re.escape(string.punctuation) + "]", "", text.lower())
    if _has(fault, "word-edges"):
        return Counter(w for w in (re.sub(r"^\W+|\W+$", "", w) for w in text.lower().split()) if w)
    if _has(fault, "first-line"):
        text = text.split("\n", 1)[0]
    if _has(fault, "lines-as-words"):
        return Counter(w for w in ("".join(line.split()) for line in text.splitlines()) if w)
    if _has(fault, "nonword-split"):
        return Counter(w for w in re.split(r"\W+", text) if w)
    return Counter(text.split())


def _merge(symbols: tuple[str, ...], pair: tuple[str, str]) -> tuple[str, ...]:
    out, i = [], 0
    while i < len(symbols):
        if i + 1 < len(symbols) and (symbols[i], symbols[i + 1]) == pair:
            out.append(pair[0] + pair[1])
            i += 2
        else:
            out.append(symbols[i])
            i += 1
    return tuple(out)


def _best(pairs: dict[tuple[str, str], int], fault: str | None) -> tuple[str, str]:
    top = max(pairs.values())
    tied = [p for p, n in pairs.items() if n == top]
    if _has(fault, "second-first"):
        return min(tied, key=lambda p: (p[1], p[0]))
    if _has(fault, "shortest"):
        return min(tied, key=lambda p: (len(p[0] + p[1]), p[0] + p[1]))
    return tied[0]


def t_train(text: str, num_merges: int, fault: str | None = None) -> list[tuple[str, str]]:
    """The trainer's merges on ``text``, in order, as its list records them."""
    end = "_" if _has(fault, "end-underscore") else "</w>"
    start = ("_",) if _has(fault, "start-underscore") else ()
    vocab = {(*start, *word, end): n for word, n in t_words(text, fault).items()}
    merges: list[tuple[str, str]] = []
    steps = num_merges + 1 if _has(fault, "first-unrecorded") else num_merges
    for step in range(steps):
        pairs: dict[tuple[str, str], int] = {}
        for symbols, n in vocab.items():
            for pair in zip(symbols, symbols[1:]):
                pairs[pair] = pairs.get(pair, 0) + n
        if not pairs:
            break
        best = _best(pairs, fault)
        vocab = {_merge(symbols, best): n for symbols, n in vocab.items()}
        if step > 0 or not _has(fault, "first-unrecorded"):
            merges.append(best)
    return merges
