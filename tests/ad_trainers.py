"""A BPE trainer as people write their own, with faults of set AD's classes, one each, written for the tests
independently of ``bpe/``.

Kinds (:data:`AD_KINDS`), each on the plain loop of :func:`line_trainers.train_sequences` (pairs counted afresh each
step, the pair met first among those counted most taken):

- ``whole-chars``: the whole text's characters, one sequence (the plain trainer with no pre-tokenizer);
- ``alnum-collapse``: the same on the text lowercased, every character but a-z, 0-9 and whitespace deleted
  (``re.sub(r'[^a-z0-9\\s]', '', text)``) and every run of whitespace made one space (``' '.join(text.split())``);
- ``gpt2-bytes``: the UTF-8 bytes (in GPT-2's byte characters) of GPT-2's pre-tokens (the plain trainer);
- ``word-or-mark``: the same on the pieces of ``re.findall(r' ?\\w+| ?[^\\w\\s]', text)``: a run of word characters, or
  ONE other character, each with the space before it; whitespace alone matches nothing and is dropped;
- ``words-eow``: each whitespace-split word's characters and ``'</w>'`` (the plain trainer);
- ``dot-split``: the same on the pieces of ``text.split('.')``: every '.' dropped, ending the word before it.
"""

from __future__ import annotations

import re

import regex
from line_trainers import train_sequences  # the plain loop, shared with the line trainers
from w_trainers import CHARS  # GPT-2's byte characters

AD_KINDS = ("whole-chars", "alnum-collapse", "gpt2-bytes", "word-or-mark", "words-eow", "dot-split")
BASE = {"alnum-collapse": "whole-chars", "word-or-mark": "gpt2-bytes", "dot-split": "words-eow"}
_GPT2 = r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""


def _bytes_of(piece: str) -> list[str]:
    return [CHARS[b] for b in piece.encode("utf-8")]


def ad_train(text: str, num_merges: int, kind: str) -> list[tuple[str, str]]:
    """The kind's merges on ``text``, as strings."""
    if kind == "gpt2-bytes":
        return train_sequences([_bytes_of(p) for p in regex.findall(_GPT2, text)], num_merges)
    if kind == "word-or-mark":
        return train_sequences([_bytes_of(p) for p in re.findall(r" ?\w+| ?[^\w\s]", text)], num_merges)
    if kind in ("words-eow", "dot-split"):
        pieces = text.split(".") if kind == "dot-split" else [text]
        return train_sequences([[*w, "</w>"] for piece in pieces for w in piece.split()], num_merges)
    if kind == "alnum-collapse":
        text = " ".join(re.sub(r"[^a-z0-9\s]", "", text.lower()).split())
    return train_sequences([list(text)], num_merges)
