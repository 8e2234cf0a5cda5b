"""BPE trainers as people write their own, with faults of set AK's classes, written for the tests independently of
``bpe/``.

Kinds (:data:`AK_KINDS`), the pairs counted afresh each step, the pair met first among those counted most unless
said otherwise:

- ``gpt2-first``: GPT-2's pattern over the text's bytes, each byte written as GPT-2's table writes it (plain);
- ``gpt2-indexed``: the same, each byte b written as the b-th character of GPT-2's list of characters (``cs[b]``)
  where the table is ``dict(zip(bs, cs))``;
- ``words-first``: each whitespace-split word's characters (plain);
- ``second-id``: the same, ties to the pair of smallest ids, the right id compared first (``np.argmax`` over
  ``left + right * V``), the characters numbered in sorted order and each merged token the next id.
"""

from __future__ import annotations

import regex
from ah_trainers import GPT2
from line_trainers import train_sequences
from w_trainers import CHARS  # GPT-2's table

AK_KINDS = ("gpt2-first", "gpt2-indexed", "words-first", "second-id")
BASE = {"gpt2-indexed": "gpt2-first", "second-id": "words-first"}
_PRINTABLE = [*range(ord("!"), ord("~") + 1), *range(ord("¡"), ord("¬") + 1), *range(ord("®"), ord("ÿ") + 1)]
LISTED = [chr(b) for b in _PRINTABLE] + [chr(256 + n) for n in range(256 - len(_PRINTABLE))]  # cs, in its order


def _second_id(words: list[list[str]], num_merges: int) -> list[tuple[str, str]]:
    ids = {c: i for i, c in enumerate(sorted({c for w in words for c in w}))}

    def pick(stats):
        top = max(stats.values())
        pair = min((p for p, n in stats.items() if n == top), key=lambda p: (ids[p[1]], ids[p[0]]))
        ids.setdefault(pair[0] + pair[1], len(ids))
        return pair

    return train_sequences(words, num_merges, pick)


def ak_train(text: str, num_merges: int, kind: str) -> list[tuple[str, str]]:
    """The kind's merges on ``text``, as strings."""
    if kind in ("words-first", "second-id"):
        words = [list(w) for w in text.split()]
        return train_sequences(words, num_merges) if kind == "words-first" else _second_id(words, num_merges)
    table = CHARS if kind == "gpt2-first" else dict(enumerate(LISTED))
    words = [[table[b] for b in w.encode("utf-8")] for w in regex.findall(GPT2, text)]
    return train_sequences(words, num_merges)
