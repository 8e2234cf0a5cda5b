"""Sennrich et al.'s ``get_stats``/``merge_vocab`` snippet as written for the tests, and its students' faults, one each.

The snippet (Sennrich, Haddow and Birch 2016, Algorithm 1) keeps each word as its symbols joined by spaces, ``</w>`` a
symbol of its own (``'l o w </w>'``), counts pairs word by word into a dict and takes ``max(pairs, key=pairs.get)``
(the pair seen first wins a tie), and merges with a pattern that matches the pair only between whole symbols. Its
run equals ours with the ``sennrich`` pre-tokenizer and the ``first`` tie rule. Written independently of ``bpe/``.

Faults (:data:`SNIPPET_FAULTS`), each one change to the snippet as students of other courses make it:

- ``replace``: ``word.replace(' '.join(pair), ''.join(pair))``, no symbol boundaries, so ``'e s'`` is also found in
  ``'th e st'`` and merges ``th`` with ``e`` (``re.sub(re.escape(bigram), ...)`` does the same);
- ``end-underscore``, ``end-dollar``: words end in ``'_'`` or ``'$'`` instead of ``'</w>'``;
- ``space-start``: each word is ``' '``, its characters and ``'_'`` (Hacettepe's AIN442), its symbols joined by a
  NUL character, since one of them is a space;
- ``lower``: the text lowercased before its words are counted;
- ``letters``: the text lowercased and every character outside a-z made a space; ``letters-umlaut``: outside a-z
  and ``äöüß``;
- ``each-word-once``: a pair counts 1 for each distinct word holding it, not the word's count;
- ``noop``: the merge writes the pair back as ``' '.join(pair)``, so no word changes; the merges kept in a dict
  record the one pair that wins every step once.
"""

from __future__ import annotations

import collections
import re

# two faults at once are joined by '+' (``each-word-once+end-dollar``)
SNIPPET_FAULTS = (
    "replace",
    "end-underscore",
    "end-dollar",
    "space-start",
    "lower",
    "letters",
    "each-word-once",
    "noop",
)
END = {"end-underscore": "_", "end-dollar": "$", "space-start": "_"}


def _has(fault: str | None, name: str) -> bool:
    return name in (fault or "").split("+")


def _sep(fault: str | None) -> str:
    return "\0" if _has(fault, "space-start") else " "


def snippet_vocab(text: str, fault: str | None = None) -> dict[str, int]:
    """The snippet's vocabulary: each whitespace-split word as its characters and the end symbol, joined by spaces,
    in first-seen order."""
    if _has(fault, "lower"):
        text = text.lower()
    if _has(fault, "letters"):
        text = re.sub(r"[^a-z]", " ", text.lower())
    if _has(fault, "letters-umlaut"):
        text = re.sub(r"[^a-zäöüß]", " ", text.lower())
    end = next((END[f] for f in (fault or "").split("+") if f in END), "</w>")
    sep, start = _sep(fault), (" ",) if _has(fault, "space-start") else ()
    return {sep.join((*start, *word, end)): n for word, n in collections.Counter(text.split()).items()}


def get_stats(vocab: dict[str, int], fault: str | None = None) -> dict[tuple[str, str], int]:
    pairs: dict[tuple[str, str], int] = collections.defaultdict(int)
    for word, freq in vocab.items():
        symbols = word.split(_sep(fault))
        for i in range(len(symbols) - 1):
            pairs[symbols[i], symbols[i + 1]] += 1 if _has(fault, "each-word-once") else freq
    return pairs


def merge_vocab(pair: tuple[str, str], v_in: dict[str, int], fault: str | None = None) -> dict[str, int]:
    v_out = {}
    bigram = " ".join(pair)
    pattern = re.compile(r"(?<!\S)" + re.escape(bigram) + r"(?!\S)")
    for word in v_in:
        if _has(fault, "space-start"):
            w_out = _merged(word.split("\0"), pair)
        elif _has(fault, "replace"):
            w_out = word.replace(bigram, "".join(pair))
        elif _has(fault, "noop"):
            w_out = word.replace(bigram, " ".join(pair))
        else:
            w_out = pattern.sub("".join(pair), word)
        v_out[w_out] = v_in[word]
    return v_out


def _merged(symbols: list[str], pair: tuple[str, str]) -> str:
    out, i = [], 0
    while i < len(symbols):
        if i + 1 < len(symbols) and (symbols[i], symbols[i + 1]) == pair:
            out.append(symbols[i] + symbols[i + 1])
            i += 2
        else:
            out.append(symbols[i])
            i += 1
    return "\0".join(out)


def snippet_train(text: str, num_merges: int, fault: str | None = None) -> list[tuple[str, str]]:
    """The snippet's merges on ``text``, in order (with ``noop``: the dict of merges, each pair once)."""
    vocab = snippet_vocab(text, fault)
    merges = []
    for _ in range(num_merges):
        pairs = get_stats(vocab, fault)
        if not pairs:
            break
        best = max(pairs, key=pairs.get)
        vocab = merge_vocab(best, vocab, fault)
        merges.append(best)
    return list(dict.fromkeys(merges)) if _has(fault, "noop") else merges


def pasted(merges: list[tuple[str, str]]) -> str:
    """The merges as a student pastes them: ``a b`` lines, or a Python list when a token holds whitespace."""
    if any(not t or any(c.isspace() for c in t) for pair in merges for t in pair):
        return repr(merges)
    return "\n".join(f"{a} {b}" for a, b in merges)
