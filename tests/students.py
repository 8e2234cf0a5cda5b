"""Students' BPE runs, written here independently of the trainer in bpe/ (the way students write them), each
with one optional deliberate fault, and the files their code saves.

- :func:`course_loop`: the Hugging Face course's loop (``compute_pair_freqs``, ``merge_pair``) on
  characters; the first pair with the highest count wins. Fault ``overlap``: pairs counted with
  ``str.count``-like scanning that skips an overlapping occurrence (``aaa`` holds ``(a, a)`` once);
  ``whitespace``: words keep the whitespace after them; ``lower``: the text lowercased first.
- :func:`minbpe_train`: minbpe's ``RegexTokenizer`` (bytes, GPT-4's split pattern, ``max(stats, key=stats.get)``)
  over minbpe's own ``get_stats`` and ``merge``, kept once in :mod:`bpe.reference_loops`; saves minbpe's ``.model``.
- :func:`subword_nmt_train`: subword-nmt's ``learn_bpe`` (the last character carries ``</w>``, ties to
  the greatest pair of strings); saves its codes.
- :func:`cs336_train`: CS336's ``train_bpe`` (special tokens split out, GPT-2's pattern or whitespace,
  bytes, ``max`` over ``(count, pair)``). Faults: ``min`` (the smallest pair wins ties), ``specials``
  (special tokens not split out), ``chars`` (characters instead of bytes), ``whitespace`` (words keep
  the whitespace after them).
"""

from __future__ import annotations

import json
import pickle

import regex

from bpe.reference_loops import get_stats, merge

GPT2_PAT = r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""
GPT4_PAT = (
    r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]++[\r\n]*|\s*[\r\n]|\s+(?!\S)|\s+"""
)


# -- the Hugging Face course's loop ------------------------------------------------------------------
def course_loop(text: str, num_merges: int, fault: str | None = None) -> list[tuple[str, str]]:
    if fault == "lower":
        text = text.lower()
    word_freqs: dict[str, int] = {}
    for word in regex.findall(r"\S+\s*", text) if fault == "whitespace" else text.split():
        word_freqs[word] = word_freqs.get(word, 0) + 1
    splits = {word: list(word) for word in word_freqs}
    merges = []
    for _ in range(num_merges):
        pair_freqs: dict[tuple[str, str], int] = {}
        for word, freq in word_freqs.items():
            split, i = splits[word], 0
            while i < len(split) - 1:
                pair = (split[i], split[i + 1])
                pair_freqs[pair] = pair_freqs.get(pair, 0) + freq
                # the fault: after a pair (x, x), skip the next position, as str.count would
                i += 2 if fault == "overlap" and split[i] == split[i + 1] else 1
        best, max_freq = None, None
        for pair, freq in pair_freqs.items():
            if max_freq is None or max_freq < freq:
                best, max_freq = pair, freq
        if best is None:
            break
        merges.append(best)
        for word in word_freqs:
            split, i = splits[word], 0
            while i < len(split) - 1:
                if split[i] == best[0] and split[i + 1] == best[1]:
                    split = split[:i] + [best[0] + best[1]] + split[i + 2 :]
                else:
                    i += 1
            splits[word] = split
    return merges


def merges_txt(merges, version: bool = True) -> str:
    return ("#version: 0.2\n" if version else "") + "".join(f"{a} {b}\n" for a, b in merges)


# -- minbpe -----------------------------------------------------------------------------------------
def minbpe_train(text: str, num_merges: int) -> tuple[dict[tuple[int, int], int], dict[int, bytes]]:
    chunks = [list(ch.encode("utf-8")) for ch in regex.findall(GPT4_PAT, text)]
    merges: dict[tuple[int, int], int] = {}
    vocab = {i: bytes([i]) for i in range(256)}
    for k in range(num_merges):
        stats: dict = {}
        for ids in chunks:
            get_stats(ids, stats)
        if not stats:
            break
        pair = max(stats, key=stats.get)
        idx = 256 + k
        chunks = [merge(ids, pair, idx) for ids in chunks]
        merges[pair] = idx
        vocab[idx] = vocab[pair[0]] + vocab[pair[1]]
    return merges, vocab


def minbpe_model(merges: dict[tuple[int, int], int], special_tokens: dict[str, int] | None = None) -> str:
    lines = ["minbpe v1", GPT4_PAT, str(len(special_tokens or {}))]
    lines += [f"{s} {i}" for s, i in (special_tokens or {}).items()]
    lines += [f"{a} {b}" for a, b in merges]
    return "\n".join(lines) + "\n"


# -- subword-nmt ------------------------------------------------------------------------------------
def subword_nmt_train(word_counts: dict[str, int], num_merges: int) -> list[tuple[str, str]]:
    vocab = {(*w[:-1], w[-1] + "</w>"): c for w, c in word_counts.items()}
    merges = []
    for _ in range(num_merges):
        stats: dict = {}
        for word, freq in vocab.items():
            for pair in zip(word, word[1:]):
                stats[pair] = stats.get(pair, 0) + freq
        if not stats:
            break
        best = max(stats, key=lambda x: (stats[x], x))
        merges.append(best)
        new_vocab = {}
        for word, freq in vocab.items():
            out, i = [], 0
            while i < len(word):
                if i < len(word) - 1 and (word[i], word[i + 1]) == best:
                    out.append(word[i] + word[i + 1])
                    i += 2
                else:
                    out.append(word[i])
                    i += 1
            new_vocab[tuple(out)] = freq
        vocab = new_vocab
    return merges


def subword_nmt_codes(merges) -> str:
    return "#version: 0.2\n" + "".join(f"{a} {b}\n" for a, b in merges)


# -- Stanford CS336 -------------------------------------------------------------------------------
def cs336_train(
    text: str, num_merges: int, special_tokens=("<|endoftext|>",), pattern: str | None = GPT2_PAT, fault=None
) -> tuple[dict[int, bytes], list[tuple[bytes, bytes]]]:
    vocab = {i: s.encode("utf-8") for i, s in enumerate(special_tokens)}
    for b in range(256):
        vocab[len(vocab)] = bytes([b])
    parts = [text]
    if special_tokens and fault != "specials":
        parts = regex.split("|".join(regex.escape(s) for s in special_tokens), text)
    counts: dict[tuple, int] = {}
    for part in parts:
        if fault == "whitespace":
            words = regex.findall(r"\S+\s*", part)
        else:
            words = regex.findall(pattern, part) if pattern else part.split()
        for w in words:
            key = tuple(w) if fault == "chars" else tuple(bytes([b]) for b in w.encode("utf-8"))
            counts[key] = counts.get(key, 0) + 1
    merges = []
    for _ in range(num_merges):
        pairs: dict = {}
        for word, c in counts.items():
            for p in zip(word, word[1:]):
                pairs[p] = pairs.get(p, 0) + c
        if not pairs:
            break
        pick = min if fault == "min" else max
        best = pick(pairs, key=lambda p: (-pairs[p] if pick is min else pairs[p], p))
        merges.append(best)
        new: dict = {}
        for word, c in counts.items():
            out, i = [], 0
            while i < len(word):
                if i < len(word) - 1 and (word[i], word[i + 1]) == best:
                    out.append(word[i] + word[i + 1])
                    i += 2
                else:
                    out.append(word[i])
                    i += 1
            new[tuple(out)] = new.get(tuple(out), 0) + c
        counts = new
        vocab[len(vocab)] = best[0] + best[1] if fault != "chars" else (best[0] + best[1]).encode("utf-8")
    if fault == "chars":
        merges = [(a.encode("utf-8"), b.encode("utf-8")) for a, b in merges]
    return vocab, merges


def cs336_json(vocab, merges) -> str:
    """As students save it: byte strings as lists of byte values."""
    return json.dumps(
        {"vocab": {str(i): list(t) for i, t in vocab.items()}, "merges": [[list(a), list(b)] for a, b in merges]}
    )


def cs336_pickle(vocab, merges) -> bytes:
    return pickle.dumps((vocab, merges))
