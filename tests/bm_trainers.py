"""A BPE trainer of set BM's class, written for the tests independently of ``bpe/``: each whitespace-split word
followed by the four characters ``'</w>'`` and encoded in UTF-8, its bytes the word's symbols; with ``joined``, the
words joined by single spaces into one sequence (so pairs across words count), else each word apart with its count.
The pairs are counted afresh each step (``collections.Counter``) and the pair met first among those counted most is
taken (``most_common(1)``); the merges as pairs of bytes."""

from __future__ import annotations

from collections import Counter

from line_trainers import _merged  # the left-to-right merge, shared


def bm_tag_text(text: str, num_merges: int, joined: bool = True) -> list[tuple[bytes, bytes]]:
    """The merges on ``text``, each a pair of byte strings."""
    marked = [word + "</w>" for word in text.split()]
    seqs = Counter([" ".join(marked)] if joined else marked)
    words = [([bytes([b]) for b in w.encode("utf-8")], n) for w, n in seqs.items()]
    merges: list[tuple[bytes, bytes]] = []
    while len(merges) < num_merges:
        counts: Counter[tuple[bytes, bytes]] = Counter()
        for ids, n in words:
            for pair in zip(ids, ids[1:]):
                counts[pair] += n
        if not counts:
            break
        (a, b), _ = counts.most_common(1)[0]
        merges.append((a, b))
        words = [(_merged(ids, (a, b)), n) for ids, n in words]
    return merges


# GPT-4's pattern as tiktoken publishes it (possessive quantifiers), written out here so the trainer needs nothing of
# bpe/
GPT4 = (
    r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]++[\r\n]*|\s*[\r\n]|\s+(?!\S)|\s+"""
)
SPECIAL = "<|endoftext|>"


def bm_indexed(text: str, num_merges: int, patterned: bool = True) -> list[tuple[bytes, bytes]]:
    """A loop keeping ``stats`` beside ``pair_to_chunks`` (each pair's set of chunk indexes) and each chunk's own
    pair counts, each chunk apart, the special token dropped: with ``patterned``, written first in one alternation
    with GPT-4's pattern (``re.findall``), the pieces equal to it left out; else the text split at it first. A merge
    visits ``list(pair_to_chunks[pair])``, subtracts a changed chunk's old pairs (popping a pair at 0) and adds its
    new ones; ``max(stats, key=stats.get)`` picks."""
    import regex

    if patterned:
        found = regex.findall(regex.escape(SPECIAL) + "|" + GPT4, text)
    else:
        found = [w for part in text.split(SPECIAL) for w in regex.findall(GPT4, part)]
    chunks = [[bytes([b]) for b in c.encode("utf-8")] for c in found if c != SPECIAL]
    stats: dict[tuple[bytes, bytes], int] = {}
    where: dict[tuple[bytes, bytes], set[int]] = {}
    own = []
    for i, chunk in enumerate(chunks):
        counts = dict(Counter(zip(chunk, chunk[1:])))
        own.append(counts)
        for pair, n in counts.items():
            stats[pair] = stats.get(pair, 0) + n
            where.setdefault(pair, set()).add(i)
    merges: list[tuple[bytes, bytes]] = []
    while len(merges) < num_merges and stats:
        pair = max(stats, key=stats.get)
        for i in list(where.get(pair, set())):
            new = _merged(chunks[i], pair)
            if new == chunks[i]:
                continue
            for old, n in own[i].items():
                left = stats.get(old, 0) - n
                if left <= 0:
                    stats.pop(old, None)
                else:
                    stats[old] = left
                if old in where:
                    where[old].discard(i)
                    if not where[old]:
                        where.pop(old)
            own[i] = dict(Counter(zip(new, new[1:])))
            for p, n in own[i].items():
                stats[p] = stats.get(p, 0) + n
                where.setdefault(p, set()).add(i)
            chunks[i] = new
        merges.append(pair)
    return merges


def bw_in_place(text: str, num_merges: int) -> list[tuple[str, str]]:
    """Set BW's class: words split on whitespace, each its characters and ``'</w>'``, one ``Counter`` of pair counts
    built once in first-seen order and updated in place: for each word holding the merged pair (in the words' order),
    its old pairs subtracted (a key deleted at 0 or below) and its new pairs added (a new key at the end), the merged
    pair popped; ``max(counts, key=counts.get)`` picks. Merges as strings."""
    vocab = {tuple([*w, "</w>"]): n for w, n in Counter(text.split()).items()}
    counts: Counter[tuple[str, str]] = Counter()
    for word, n in vocab.items():
        for pair in zip(word, word[1:]):
            counts[pair] += n
    merges: list[tuple[str, str]] = []
    while len(merges) < num_merges and counts:
        pair = max(counts, key=counts.get)
        merges.append(pair)
        new_vocab = {}
        for word, n in vocab.items():
            new = tuple(_merged(list(word), pair))
            if new != word:
                for old in zip(word, word[1:]):
                    counts[old] -= n
                    if counts[old] <= 0:
                        del counts[old]
                for p in zip(new, new[1:]):
                    counts[p] += n
            new_vocab[new] = n
        vocab = new_vocab
        counts.pop(pair, None)
    return merges
