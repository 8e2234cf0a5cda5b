"""A BPE trainer as people write their own, with faults of set AA's classes (how the text is cut), one each, written
for the tests independently of ``bpe/``.

Kinds (:data:`AA_KINDS`), each over characters, the pairs counted afresh each step in a ``Counter`` (the pair counted
first wins a tie in ``most_common``) and merged left to right:

- ``gpt2``: GPT-2's pattern cuts the words (the plain trainer);
- ``ws-prefix``: each word takes every space and tab before it, and each newline is a word of its own
  (``re.findall(r'[ \\t]*\\S+|\\n', text)``), where GPT-2 keeps one space on the word and the rest apart;
- ``ws-whole``: GPT-2's words, but a piece of whitespace alone (a run of spaces, a newline and its indentation) is
  kept as ONE symbol, so no pair of whitespace characters is ever counted;
- ``space-words``: the whitespace-split words, each but the first with a space before it (``' ' + word``), so
  punctuation stays in its word;
- ``separators``: no pre-tokenization, but each '.', ':', ';', newline and carriage return is replaced by a separator
  and the text split there, so those characters are deleted and no pair crosses them (spaces stay in the pieces);
- ``separators-concat``: the same pieces, a tie going to the pair whose concatenation ``a + b`` is smallest (a dict
  keyed by the merged string, its smallest key of the greatest count taken).
"""

from __future__ import annotations

from collections import Counter

import regex
from line_trainers import train_sequences  # the plain loop, shared with the line trainers

AA_KINDS = ("gpt2", "ws-prefix", "ws-whole", "space-words", "separators", "separators-concat")
SEPARATORS = ".:;\n\r"
GPT2_PAT = r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""


def _sequences(text: str, kind: str) -> list[list[str]]:
    if kind == "ws-prefix":
        return [list(w) for w in regex.findall(r"[ \t]*\S+|\n", text)]
    if kind.startswith("separators"):
        for ch in SEPARATORS:
            text = text.replace(ch, "\0")
        return [list(piece) for piece in text.split("\0") if piece]
    if kind == "space-words":
        return [list(w if i == 0 else " " + w) for i, w in enumerate(text.split())]
    pieces = regex.findall(GPT2_PAT, text)
    if kind == "ws-whole":
        return [[p] if p.isspace() else list(p) for p in pieces]
    return [list(p) for p in pieces]


def aa_train(text: str, num_merges: int, kind: str) -> list[tuple[str, str]]:
    """The kind's merges on ``text``, as strings."""
    pick = _smallest_concat if kind == "separators-concat" else None
    return train_sequences(_sequences(text, kind), num_merges, pick)


def _smallest_concat(stats: Counter) -> tuple[str, str]:
    top = max(stats.values())
    return min((p for p, n in stats.items() if n == top), key=lambda p: p[0] + p[1])
