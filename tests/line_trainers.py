"""A course assignment's BPE trainer over lists of characters, as written for the tests, and one students' fault.

The trainer reads the corpus's lines, splits each on whitespace and keeps each word as a list of its characters;
it counts the pairs in every list (a ``Counter``, so the pair counted first wins a tie in ``most_common``) and merges
the pair in each list, left to right. Its run equals ours with the ``whitespace`` pre-tokenizer and the ``first`` tie
rule. Written independently of ``bpe/``.

Fault ``flattened`` (a Webis course's student): each word's characters are appended to one list for its line, so a
line's words run together into one sequence and pairs across words are counted.
"""

from __future__ import annotations

from collections import Counter


def sequences(text: str, fault: str | None = None) -> list[list[str]]:
    """The lists the trainer merges in: one per word, or one per line with ``flattened``."""
    out = []
    for line in text.splitlines(keepends=True):
        if fault == "flattened":
            out.append([c for word in line.split() for c in word])
        else:
            out.extend(list(word) for word in line.split())
    return out


def _merged(seq: list[str], pair: tuple[str, str]) -> list[str]:
    out, i = [], 0
    while i < len(seq):
        if i < len(seq) - 1 and (seq[i], seq[i + 1]) == pair:
            out.append(seq[i] + seq[i + 1])
            i += 2
        else:
            out.append(seq[i])
            i += 1
    return out


def line_train(text: str, num_merges: int, fault: str | None = None) -> list[tuple[str, str]]:
    """The trainer's merges on ``text``, in order."""
    return train_sequences(sequences(text, fault), num_merges)


def train_sequences(seqs: list[list[str]], num_merges: int, pick=None) -> list[tuple[str, str]]:
    """The merges of the plain loop on ``seqs``: pairs counted afresh each step, the pair met first among those
    counted most taken (or ``pick(stats)``'s), merged left to right."""
    merges: list[tuple[str, str]] = []
    while len(merges) < num_merges:
        stats = Counter(pair for seq in seqs for pair in zip(seq, seq[1:]))
        if not stats:
            break
        pair = pick(stats) if pick else stats.most_common(1)[0][0]
        seqs = [_merged(seq, pair) for seq in seqs]
        merges.append(pair)
    return merges


def first_greatest(counts: dict) -> tuple[str, str] | None:
    """The pair a loop ``if counts[p] > best_count: best = p`` keeps over ``counts`` in its order (None if no count
    is above 0)."""
    best, best_count = None, 0
    for pair, n in counts.items():
        if n > best_count:
            best, best_count = pair, n
    return best
