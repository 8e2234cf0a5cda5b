"""A BPE trainer as people write their own, with faults of set AC's classes, one each, written for the tests
independently of ``bpe/``.

Kinds (:data:`AC_KINDS`), each on the plain loop of :func:`line_trainers.train_sequences` (pairs counted afresh each
step, the pair met first among those counted most taken):

- ``words``: each whitespace-split word's characters, no end symbol (the plain trainer);
- ``lower-words``: the same on the text lowercased first (``text.lower()``), whose ``<|endoftext|>`` glued to a word
  makes tokens end in ``>``;
- ``ws-runs``: the words of ``re.findall(r'\\S+|\\s+', text)``: each run of whitespace a word of its own;
- ``words-eow``: each whitespace-split word's characters and ``'</w>'`` (the plain trainer);
- ``eow-spelled``: each word split with ``list(word + '</w>')``, so the end symbol is four characters;
- ``lower-eow-spelled``: the same on the text lowercased first;
- ``gpt2-bytes``: the UTF-8 bytes (in GPT-2's byte characters) of GPT-2's pre-tokens (the plain trainer);
- ``ws-whole``: the same with the pattern's whitespace part ``\\s+`` alone, with no ``(?!\\S)``: a run of spaces is
  one piece, and the word after it keeps none of them;
- ``docs-ws-whole``: the same on the text with each ``<|endoftext|>`` made a newline first.
"""

from __future__ import annotations

import re

import regex
from line_trainers import train_sequences  # the plain loop, shared with the line trainers
from w_trainers import CHARS  # GPT-2's byte characters

AC_KINDS = (
    "words",
    "lower-words",
    "ws-runs",
    "words-eow",
    "eow-spelled",
    "lower-eow-spelled",
    "gpt2-bytes",
    "ws-whole",
)
BASE = {
    "lower-words": "words",
    "ws-runs": "words",
    "eow-spelled": "words-eow",
    "lower-eow-spelled": "words-eow",
    "ws-whole": "gpt2-bytes",
    "docs-ws-whole": "gpt2-bytes",
}
_GPT2 = r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+"""


def _bytes_of(piece: str) -> list[str]:
    return [CHARS[b] for b in piece.encode("utf-8")]


def ac_train(text: str, num_merges: int, kind: str) -> list[tuple[str, str]]:
    """The kind's merges on ``text``, as strings."""
    if kind.startswith("lower-"):
        text = text.lower()
    if kind == "docs-ws-whole":
        text, kind = text.replace("<|endoftext|>", "\n"), "ws-whole"
    if kind in ("gpt2-bytes", "ws-whole"):
        space = r"\s+(?!\S)|\s+" if kind == "gpt2-bytes" else r"\s+"
        return train_sequences([_bytes_of(p) for p in regex.findall(f"{_GPT2}|{space}", text)], num_merges)
    if kind == "ws-runs":
        return train_sequences([list(w) for w in re.findall(r"\S+|\s+", text)], num_merges)
    if kind.endswith("eow-spelled"):
        return train_sequences([list(word + "</w>") for word in text.split()], num_merges)
    end = ["</w>"] if kind == "words-eow" else []
    return train_sequences([[*word, *end] for word in text.split()], num_merges)
