"""A deliberately naive BPE/WordPiece trainer: recount everything, every step.

It is the course's algorithm written as plainly as possible, kept only as the
reference the fast trainer in ``bpe.trainer`` is tested against. It must stay
obviously correct rather than fast.
"""

from __future__ import annotations

from fractions import Fraction

from bpe import pre_tokenizers as pt
from bpe.config import WORDPIECE_PREFIX
from bpe.trainer import corpus_word_counts, presplit_words


def naive_train(
    corpus,
    *,
    pre_tokenizer="whitespace",
    vocab_size=None,
    num_merges=None,
    special_tokens=(),
    min_frequency=0,
    tie_break="first",
    algorithm="bpe",
    full_byte_alphabet=False,
    forced_merges=None,
):
    """Returns (merges, stop_reason): merges is a list of dicts with pair, count, tied (set), new_token."""
    word_counts = corpus_word_counts(corpus, pre_tokenizer)
    splits = {}
    presplit = presplit_words(corpus)
    for word in word_counts:
        symbols = list(presplit[word] if presplit else pt.word_symbols(word, pre_tokenizer))
        if algorithm == "wordpiece":
            symbols = [symbols[0]] + [WORDPIECE_PREFIX + s for s in symbols[1:]]
        splits[word] = symbols
    alphabet = {s for split in splits.values() for s in split}
    if full_byte_alphabet:
        alphabet |= set(pt.bytes_to_unicode().values())
    vocab = list(dict.fromkeys(special_tokens))
    for s in sorted(alphabet):
        if s not in vocab:
            vocab.append(s)
    forced_merges = forced_merges or {}
    merges = []
    step = 1
    while True:
        if vocab_size is not None and len(vocab) >= vocab_size:
            return merges, "vocab_size"
        if num_merges is not None and step > num_merges:
            return merges, "num_merges"
        # Count every pair, words in order, left to right: dict order = first occurrence.
        counts = {}
        for word, freq in word_counts.items():
            split = splits[word]
            for i in range(len(split) - 1):
                pair = (split[i], split[i + 1])
                counts[pair] = counts.get(pair, 0) + freq
        if not counts:
            return merges, "no_pairs"
        if algorithm == "wordpiece":
            letters = {}
            for word, freq in word_counts.items():
                for s in splits[word]:
                    letters[s] = letters.get(s, 0) + freq
            value = {p: Fraction(c, letters[p[0]] * letters[p[1]]) for p, c in counts.items()}
        else:
            value = dict(counts)
        best_value = max(value.values())
        tied = [p for p in value if value[p] == best_value]  # in first-occurrence order
        if step in forced_merges:
            best, tied = tuple(forced_merges[step]), [tuple(forced_merges[step])]
        elif tie_break == "first":
            best = tied[0]
        elif tie_break == "hf":
            best = min(tied, key=lambda p: (vocab.index(p[0]), vocab.index(p[1])))
        else:
            best = min(tied)
        if step not in forced_merges and counts[best] < min_frequency:
            return merges, "min_frequency"
        a, b = best
        new = a + (b[len(WORDPIECE_PREFIX) :] if algorithm == "wordpiece" and b.startswith(WORDPIECE_PREFIX) else b)
        for word in splits:
            split, i = splits[word], 0
            while i < len(split) - 1:
                if split[i] == a and split[i + 1] == b:
                    split = split[:i] + [new] + split[i + 2 :]
                else:
                    i += 1
            splits[word] = split
        if new not in vocab:
            vocab.append(new)
        merges.append(
            {
                "pair": best,
                "count": counts[best],
                "tied": set(tied),
                "new_token": new,
                "score": value[best] if algorithm == "wordpiece" else None,
                "splits": {w: tuple(s) for w, s in splits.items()},
                "counts": counts,
            }
        )
        step += 1


def naive_rank_split(ranks: dict[bytes, int], token: bytes, max_rank: int) -> tuple[bytes, bytes] | None:
    """tiktoken's BPE on ``token`` with the ranks below ``max_rank``, as plainly as possible: merge the
    adjacent pair whose joined bytes rank lowest (the leftmost of equals) until two parts are left."""
    parts = [token[i : i + 1] for i in range(len(token))]
    while len(parts) > 2:
        best, best_rank = None, None
        for i in range(len(parts) - 1):
            r = ranks.get(parts[i] + parts[i + 1])
            if r is not None and r < max_rank and (best_rank is None or r < best_rank):
                best, best_rank = i, r
        if best is None:
            return None
        parts[best : best + 2] = [parts[best] + parts[best + 1]]
    return (parts[0], parts[1]) if len(parts) == 2 else None
