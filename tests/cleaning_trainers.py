"""A plain BPE trainer written for the tests, and the ways people who write BPE "from scratch" clean or mark their
text before counting, one each; written independently of ``bpe/``.

The trainer counts pairs afresh each step over a dict of words in first-seen order and takes ``max(pairs,
key=pairs.get)`` (the pair seen first wins a tie), as Sennrich et al.'s snippet does. Its words: whitespace-split with
an end symbol (``"words"``, ``</w>`` by default, as the ``sennrich`` pre-tokenizer), each text one sequence of
characters (``"sequence"``, as no pre-tokenization), or whitespace-split UTF-8 bytes (``"bytes"``).

Faults (:data:`CLEANING_FAULTS`):

- ``punct-split``: ``re.findall(r"\\w+|[^\\s\\w]+", text)``, punctuation cut off as words of its own;
- ``strip-ends``: each word's leading and trailing non-word characters stripped, words with no letter dropped;
- ``punct-delete``: each ASCII punctuation mark deleted (``text.replace(mark, '')`` over ``string.punctuation``);
- ``space-split``: ``text.split(' ')``, so newlines stay inside words;
- ``rare-words``: words seen only once dropped (a minimum word count of 2);
- ``az-words``: only the words of the letters a-z kept; ``alpha-words``: only the words ``str.isalpha`` holds kept;
- ``spaces``: every run of whitespace collapsed to one space (a sequence trainer);
- ``sentences``: the text cut at ``.``, ``!`` and ``?``, each sentence a sequence of its own (a sequence trainer);
- ``g-utf8``: each word but the first prefixed with ``'Ġ'`` and encoded in UTF-8 (a bytes trainer);
- ``end-tag``: words end in ``'</end>'`` instead of ``'</w>'``; ``start-underscore``: each word is ``'_'`` and its
  characters, no end symbol; ``angle``: ``'<'``, the characters, ``'>'``;
- ``space-skip``: every pair holding a space skipped when the best pair is chosen (a sequence trainer, as a
  follower of Raschka's tokenizer that skips pairs holding its 'Ġ');
- ``stop-across``: the loop stops at the first pair whose text holds a space between ASCII letters or digits (a
  sequence trainer).
"""

from __future__ import annotations

import re
import string

CLEANING_FAULTS = (
    "punct-split",
    "strip-ends",
    "punct-delete",
    "space-split",
    "rare-words",
    "az-words",
    "alpha-words",
    "end-tag",
    "start-underscore",
    "angle",
)
SEQUENCE_FAULTS = ("spaces", "sentences", "stop-across", "space-skip")
BYTES_FAULTS = ("g-utf8",)


def _gpt2_chars() -> dict[int, str]:
    """GPT-2's printable character for each byte (its ``bytes_to_unicode``)."""
    keep = [*range(ord("!"), ord("~") + 1), *range(ord("¡"), ord("¬") + 1), *range(ord("®"), ord("ÿ") + 1)]
    chars, n = list(keep), 0
    for b in range(256):
        if b not in keep:
            keep.append(b)
            chars.append(256 + n)
            n += 1
    return {b: chr(c) for b, c in zip(keep, chars)}


def _words(text: str, fault: str | None) -> list[tuple[str, ...]]:
    """The words (as symbol tuples) of a whitespace-split trainer."""
    if fault == "punct-split":
        raw = re.findall(r"\w+|[^\s\w]+", text)
    elif fault == "strip-ends":
        stripped = (re.sub(r"^\W+|\W+$", "", w) for w in text.split())
        raw = [w for w in stripped if re.search(r"[^\W\d_]", w)]
    elif fault == "punct-delete":
        for mark in string.punctuation:
            text = text.replace(mark, "")
        raw = text.split()
    elif fault == "space-split":
        raw = [w for w in text.split(" ") if w]
    elif fault == "rare-words":
        seen: dict[str, int] = {}
        for w in text.split():
            seen[w] = seen.get(w, 0) + 1
        raw = [w for w in text.split() if seen[w] >= 2]
    elif fault == "az-words":
        raw = [w for w in text.split() if re.fullmatch("[a-z]+", w)]
    elif fault == "alpha-words":
        raw = [w for w in text.split() if w.isalpha()]
    else:
        raw = text.split()
    if fault == "start-underscore":
        return [("_", *w) for w in raw]
    if fault == "angle":
        return [("<", *w, ">") for w in raw]
    return [(*w, "</end>" if fault == "end-tag" else "</w>") for w in raw]


def _sequences(text: str, fault: str | None) -> list[tuple[str, ...]]:
    """The sequences of a trainer with no pre-tokenization."""
    if fault == "spaces":
        return [tuple(" ".join(text.split()))]
    if fault == "sentences":
        return [tuple(s.strip()) for s in re.split(r"[.!?]+", text) if s.strip()]
    return [tuple(text)]


def _byte_words(text: str, fault: str | None) -> list[tuple[str, ...]]:
    """Whitespace-split words as their UTF-8 bytes, each written as GPT-2's character for it."""
    chars = _gpt2_chars()
    words = text.split()
    if fault == "g-utf8":
        words = [*words[:1], *("\u0120" + w for w in words[1:])]
    return [tuple(chars[b] for b in w.encode("utf-8")) for w in words]


def _merge(word: tuple[str, ...], pair: tuple[str, str]) -> tuple[str, ...]:
    out, i = [], 0
    while i < len(word):
        if i + 1 < len(word) and (word[i], word[i + 1]) == pair:
            out.append(word[i] + word[i + 1])
            i += 2
        else:
            out.append(word[i])
            i += 1
    return tuple(out)


def clean_train(
    text: str, num_merges: int, fault: str | None = None, kind: str = "words", smallest: bool = False
) -> list[tuple[str, str]]:
    """The trainer's merges on ``text`` with ``fault`` (None: correct), words of ``kind``; ``smallest``: a tie goes
    to the smallest pair (``min(pairs, key=lambda p: (-pairs[p], p))``), not the pair seen first."""
    listed = (_sequences if kind == "sequence" else _byte_words if kind == "bytes" else _words)(text, fault)
    vocab: dict[tuple[str, ...], int] = {}
    for w in listed:
        vocab[w] = vocab.get(w, 0) + 1
    merges: list[tuple[str, str]] = []
    for _ in range(num_merges):
        pairs: dict[tuple[str, str], int] = {}
        for word, freq in vocab.items():
            for p in zip(word, word[1:]):
                pairs[p] = pairs.get(p, 0) + freq
        if fault == "space-skip":
            pairs = {p: n for p, n in pairs.items() if " " not in p}
        if not pairs:
            break
        best = min(pairs, key=lambda p: (-pairs[p], p)) if smallest else max(pairs, key=pairs.get)
        if fault == "stop-across" and re.search(r"[a-zA-Z0-9]\s+[a-zA-Z0-9]", best[0] + best[1]):
            break
        merges.append(best)
        vocab = {_merge(w, best): f for w, f in vocab.items()}
    return merges
