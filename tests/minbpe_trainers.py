"""minbpe-style trainers written for the tests, one fault each, independently of bpe/: Karpathy's loop (token ids,
``get_stats`` recounted over every chunk each step, ``merge`` left to right, ``max(stats, key=stats.get)``), saved as
the ``.model`` minbpe's ``save()`` writes.

:func:`train` takes the split pattern (``""``: Basic, the whole text one sequence; :data:`GPT4`: Regex) and one
fault: ``smallest-ids`` (ties to the smallest pair of ids, a heap of ``(-count, pair)``), ``greatest-ids`` (``max``
over ``(count, pair)``), ``lost-last`` (the merge scans from the second id, comparing each id with the one before, and
appends the last id after the scan only when the output does not end in the new token, so a word whose pair sits at
its third- and second-to-last ids loses its last id), ``renumbered`` (the base the corpus's distinct bytes numbered
0..k-1 in sorted order, ``vocab_size - k`` merges), ``skip-next`` (the index moved past the id after each new token),
``special-split`` (the text split at ``<|endoftext|>``, each part trained on apart, the token never), ``gpt4-basic`` (a Basic tokenizer
that splits with GPT-4's pattern); two joined by ``+`` act together (``gpt4-basic+greatest-ids``).
"""

from __future__ import annotations

import regex

GPT4 = (
    r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]++[\r\n]*|\s*[\r\n]|\s+(?!\S)|\s+"""
)
EOT = "<|endoftext|>"


def get_stats(ids, counts):
    for pair in zip(ids, ids[1:]):
        counts[pair] = counts.get(pair, 0) + 1
    return counts


def merge(ids, pair, idx):
    out, i = [], 0
    while i < len(ids):
        if i < len(ids) - 1 and ids[i] == pair[0] and ids[i + 1] == pair[1]:
            out.append(idx)
            i += 2
        else:
            out.append(ids[i])
            i += 1
    return out


def merge_lost_last(ids, pair, idx):
    if len(ids) < 2:
        return list(ids)
    out, i = [], 1
    while i < len(ids):
        if (ids[i - 1], ids[i]) == pair:
            out.append(idx)
            i += 2
        else:
            out.append(ids[i - 1])
            i += 1
    if out[-1] != idx:  # meant: the last id was not taken into a merge
        out.append(ids[-1])
    return out


def merge_skip_next(ids, pair, idx):
    out, i = [], 0
    while i < len(ids):
        if i < len(ids) - 1 and ids[i] == pair[0] and ids[i + 1] == pair[1]:
            out.append(idx)
            if i + 2 < len(ids):
                out.append(ids[i + 2])
            i += 3
        else:
            out.append(ids[i])
            i += 1
    return out


def train(text: str, vocab_size: int, pattern: str = "", fault: str = "") -> str:
    """The ``.model`` of a minbpe run on ``text`` up to ``vocab_size`` with ``fault`` (``""``: minbpe's own)."""
    faults = set(fault.split("+"))
    parts = text.split(EOT) if "special-split" in faults else [text]  # each part trained on apart, never the token
    split = GPT4 if "gpt4-basic" in faults else pattern
    chunks = [c for part in parts for c in (regex.findall(split, part) if split else [part] if part else [])]
    if "renumbered" in faults:
        alphabet = sorted(set(text.encode("utf-8")))
        byte_id = {b: i for i, b in enumerate(alphabet)}
        ids = [[byte_id[b] for b in ch.encode("utf-8")] for ch in chunks]
        first = len(alphabet)
    else:
        ids = [list(ch.encode("utf-8")) for ch in chunks]
        first = 256
    step = merge_lost_last if "lost-last" in faults else merge_skip_next if "skip-next" in faults else merge
    merges = []
    for k in range(vocab_size - first - (1 if "one-short" in faults else 0)):
        stats = {}
        for chunk in ids:
            get_stats(chunk, stats)
        if not stats:
            break
        if "smallest-ids" in faults:
            pair = min(stats, key=lambda p: (-stats[p], p))
        elif "greatest-ids" in faults:
            pair = max(stats, key=lambda p: (stats[p], p))
        else:
            pair = max(stats, key=stats.get)
        ids = [step(chunk, pair, first + k) for chunk in ids]
        merges.append(pair)
    return "".join(["minbpe v1\n", f"{pattern}\n", "0\n", *(f"{a} {b}\n" for a, b in merges)])
