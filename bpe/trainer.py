"""The BPE (and WordPiece) trainer, one merge at a time.

:func:`train_steps` is a generator: step 0 is the initial split of every word into
symbols, then it yields one immutable :class:`TrainState` per merge. The app steps
back and forth through those states, so the trainer fills one compact
:class:`~bpe.history.History` shared by all of them (see :mod:`bpe.history`); a step's
:class:`~bpe.state.TrainState` explains it (see :mod:`bpe.state`).

How a merge is chosen:

1. Count every adjacent pair of symbols inside each word, weighted by the word's
   frequency. Pairs never span two words.
2. The pair with the highest count wins. Pairs tied at that count are ordered by
   the tie rule, and the first one wins:

   - ``"first"`` (default): the pair whose first occurrence comes first, reading
     the words in first-seen order and each word left to right. That is what the
     Hugging Face course's loop does (``if max_freq < freq`` keeps the first).
   - ``"hf"``: the smallest ``(left id, right id)``, as the ``tokenizers`` library's
     ``BpeTrainer`` does. Ids: special tokens, then the alphabet by code point, then
     new tokens in creation order.
   - ``"lexicographic"``: the smallest ``(left string, right string)``.
   - ``"greatest-bytes"`` (CS336's), ``"greatest"``: the greatest pair, as bytes or as shown.

3. Replace the pair in every word, left to right without overlap
   (``a a a`` with ``(a, a)`` becomes ``aa a``), and update only the counts of the
   words that changed.

WordPiece (``algorithm="wordpiece"``) follows the course: symbols inside a word
carry the ``##`` prefix, and the score of a pair is ``count(ab) / (count(a) *
count(b))`` instead of its count. Scores are kept as exact fractions, so ties are
real ties. WordPiece rescans all pairs each step (it is for small corpora).

Reading a corpus into word counts (:func:`~bpe.pre_tokenizers.corpus_word_counts`) is the
pre-tokenizers'; the options (:class:`~bpe.config.TrainConfig`) are checked in :mod:`bpe.config`.

Left out: ``limit_alphabet``, ``max_token_length`` and end-of-word suffixes other
than Sennrich's ``</w>`` (which the ``sennrich`` pre-tokenizer adds as a symbol).
"""

from __future__ import annotations

import bisect
import heapq
import itertools
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping
from fractions import Fraction
from typing import NamedTuple

from . import pre_tokenizers as pt
from .config import (
    GREATEST_RULES,
    MAX_TIES_KEPT,
    PAIR_SHIFT,
    TOP_K,
    Algorithm,
    Pair,
    TieRule,
    TrainConfig,
)
from .history import History
from .pre_tokenizers import Corpus, corpus_word_counts, presplit_words
from .state import TrainState
from .tie_order import greatest_key

# The trainer's own API, then what it passes on from bpe.config and bpe.pre_tokenizers for its callers.
__all__ = ["train_steps", "run_training", "first_difference", "TrainConfig", "corpus_word_counts", "presplit_words"]

_SORT_ALL_TIES = 1000  # up to this many tied pairs, sorting them all is faster than heapq.nsmallest
_SHIFT = PAIR_SHIFT  # pair (a, b) of ids -> the code a * _SHIFT + b, as History stores pairs


class Choice(NamedTuple):
    """The trainer's decision for one step: the pair merged (a pair of symbol ids) and why."""

    pair: tuple[int, int]
    count: int
    ties: list[int]  # the tied pairs' codes (a * _SHIFT + b), the chosen one first, at most MAX_TIES_KEPT
    num_ties: int  # how many pairs tied, kept or not
    score: Fraction | None = None  # WordPiece's score; None for BPE
    forced: bool = False  # set by a what-if (forced_merges), not chosen by the counts


class _Trainer:
    """The mutable machinery behind :func:`train_steps`; fills a :class:`History`."""

    def __init__(self, corpus: Corpus, config: TrainConfig) -> None:
        self.config = config
        counts = corpus_word_counts(corpus, config.pre_tokenizer)
        h = self.h = History(config, counts)
        prefix = config.rule.continuing_prefix  # WordPiece: "##" on every symbol after a word's first
        scheme = config.pre_tokenizer

        # Initial splits as strings, then the alphabet sorted by code point.
        presplit = presplit_words(corpus)
        str_splits = []
        for word in h.words:
            symbols = presplit[word] if presplit else pt.word_symbols(word, scheme)
            if prefix:
                symbols = (symbols[0], *(prefix + s for s in symbols[1:]))
            str_splits.append(symbols)
        alphabet = set(itertools.chain.from_iterable(str_splits))
        if config.full_byte_alphabet:
            alphabet |= set(pt.bytes_to_unicode().values())
        for token in config.special_tokens:
            h.add_symbol(token)
        for symbol in sorted(alphabet):
            if symbol not in h.symbol_ids:
                h.add_symbol(symbol)
        num_base = len(h.symbols)
        if config.vocab_size is not None and config.vocab_size < num_base:
            raise ValueError(
                f"The vocabulary size ({config.vocab_size}) is below the base vocabulary: this corpus needs at least "
                f"{num_base} tokens ({len(config.special_tokens)} special + {num_base - len(config.special_tokens)}"
                f" in its alphabet). Set the vocabulary size (vocab_size) to {num_base} or more."
            )
        to_id = h.symbol_ids.__getitem__
        initial_splits = [tuple(map(to_id, split)) for split in str_splits]
        self.splits: list[list[int]] = [list(s) for s in initial_splits]

        # Pair counts, where each pair occurs, and buckets count -> pairs for the max and ties.
        # Buckets hold pairs as integer codes (a * 2**24 + b): the smallest code is the smallest
        # (a, b), which is the "hf" tie rule, and codes go straight into the top-K arrays.
        # Every internal map is keyed by the code too: an int hashes faster than a tuple, and
        # this is the trainer's hot path.
        self.pair_counts: dict[int, int] = {}
        self.where: defaultdict[int, set[int]] = defaultdict(set)
        pair_counts, where = self.pair_counts, self.where
        for i, (split, freq) in enumerate(zip(self.splits, h.freqs)):
            left_s = split[0] * _SHIFT  # the left symbol's part of the code, carried along the word
            for y in split[1:]:
                code = left_s + y
                left_s = y * _SHIFT
                pair_counts[code] = pair_counts.get(code, 0) + freq
                where[code].add(i)
        self.buckets: dict[int, set[int]] = {}
        for code, c in self.pair_counts.items():
            self.buckets.setdefault(c, set()).add(code)
        self.sorted_counts: list[int] = sorted(self.buckets)
        self.first_key_cache: dict[int, tuple[int, int]] = {}  # pair code -> first occurrence
        # "hf" only: the pairs of the best count's bucket, sorted, as of the last choice, and the
        # pairs that left or joined that bucket since. Late steps tie hundreds of pairs at one
        # count and each merge moves only a few of them, so patching the sorted list is much
        # cheaper than sorting the bucket again every step. 0: no list kept.
        self.top_count = 0
        self.top_sorted: list[int] = []
        self.top_left: list[int] = []
        self.top_joined: list[int] = []
        if config.rule.scored:
            self.symbol_freqs: dict[int, int] = {}
            for split, freq in zip(self.splits, h.freqs):
                for s in split:
                    self.symbol_freqs[s] = self.symbol_freqs.get(s, 0) + freq
        # Step 0 of the record: the initial splits and counts, in first-seen order.
        h.begin(initial_splits, self.pair_counts)
        self.total_tokens = h.total_tokens_after[0]
        self._record_top()
        self.forced = dict(config.forced_merges)

    # -- bookkeeping ---------------------------------------------------------------------------
    def _static_key(self, pair: tuple[int, int]) -> tuple:
        rule, s = self.config.tie_break, self.h.symbols
        if rule == "lexicographic":
            return (s[pair[0]], s[pair[1]])
        if rule in GREATEST_RULES:
            scheme = self.config.pre_tokenizer
            return (greatest_key(s[pair[0]], rule, scheme), greatest_key(s[pair[1]], rule, scheme))
        return pair  # ids: specials, alphabet by code point, then creation order

    def _first_key(self, pair: tuple[int, int]) -> tuple[int, int]:
        """(word index, character offset) of the pair's first occurrence in the corpus.

        ``where`` may hold words that lost the pair (it is only ever added to, like the
        ``tokenizers`` trainer's index), so words are checked in order until one has it.
        """
        key = self.first_key_cache.get(pair[0] * _SHIFT + pair[1])
        if key is None:
            x0, y0 = pair
            symbols = self.h.symbols
            for w in sorted(self.where[x0 * _SHIFT + y0]):
                split = self.splits[w]
                offset = 0
                for x, y in zip(split, split[1:]):
                    if x == x0 and y == y0:
                        key = (w, offset)
                        break
                    offset += len(symbols[x])
                if key is not None:
                    break
            self.first_key_cache[x0 * _SHIFT + y0] = key  # type: ignore[assignment]
        return key  # type: ignore[return-value]

    def _static_key_of_code(self, code: int) -> tuple:
        return self._static_key(divmod(code, _SHIFT))

    def _first_key_of_code(self, code: int) -> tuple[int, int]:
        key = self.first_key_cache.get(code)
        return key if key is not None else self._first_key(divmod(code, _SHIFT))

    def tie_key(self, pair: tuple[int, int]) -> tuple:
        if self.config.tie_break == "first":
            return self._first_key(pair)
        return self._static_key(pair)

    def _record_top(self) -> None:
        """Store the top-K counts after the latest step. Order inside one count is not kept here:
        readers order it (the tie rule for the winning count, ids for the rest)."""
        need = TOP_K
        buckets, pairs_flat, counts_flat = self.buckets, [], []
        for c in reversed(self.sorted_counts):
            bucket = buckets[c]
            if len(bucket) < need:
                pairs_flat.extend(bucket)
                counts_flat.extend([c] * len(bucket))
                need -= len(bucket)
            else:
                # Past K, which of several equal counts is kept does not matter (set order is
                # deterministic for integer pairs, so runs still repeat exactly).
                pairs_flat.extend(itertools.islice(bucket, need))
                counts_flat.extend([c] * need)
                break
        self.h.record_top(pairs_flat, counts_flat)

    # -- choosing ------------------------------------------------------------------------------
    def _choose_bpe(self) -> Choice | None:
        if not self.sorted_counts:
            return None
        best = self.sorted_counts[-1]
        codes = self.buckets[best]
        rule = self.config.tie_break
        if rule == "hf":  # codes order exactly as (left id, right id)
            chosen = self._sorted_top_bucket(best)[:MAX_TIES_KEPT]
        else:  # first-occurrence keys are cached per code: most tied pairs did not move this step
            key = self._first_key_of_code if rule == "first" else self._static_key_of_code
            # Up to about a thousand tied pairs (the usual case) a full sort then a slice is several
            # times faster than heapq.nsmallest, whose loop runs in Python; past that, nsmallest wins.
            chosen = (
                sorted(codes, key=key)[:MAX_TIES_KEPT]
                if len(codes) <= _SORT_ALL_TIES
                else heapq.nsmallest(MAX_TIES_KEPT, codes, key=key)
            )
        return Choice(divmod(chosen[0], _SHIFT), best, chosen, len(codes))

    def _sorted_top_bucket(self, best: int) -> list[int]:
        """The codes of the bucket of count ``best``, sorted ("hf"), patched from the last step's list
        when the best count did not change (:meth:`apply` notes who left and joined that bucket)."""
        top = self.top_sorted
        if self.top_count == best:
            for code in self.top_left:
                del top[bisect.bisect_left(top, code)]
            for code in self.top_joined:
                bisect.insort(top, code)
        else:
            top = self.top_sorted = sorted(self.buckets[best])
            self.top_count = best
        self.top_left.clear()
        self.top_joined.clear()
        return top

    def _wp_score(self, pair: tuple[int, int]) -> Fraction:
        f = self.symbol_freqs
        return Fraction(self.pair_counts[pair[0] * _SHIFT + pair[1]], f[pair[0]] * f[pair[1]])

    def _choose_wordpiece(self) -> Choice | None:
        if not self.pair_counts:
            return None
        scores = {pair: self._wp_score(pair) for pair in map(lambda c: divmod(c, _SHIFT), self.pair_counts)}
        best = max(scores.values())
        tied = [p for p, s in scores.items() if s == best]
        ordered = sorted(tied, key=self.tie_key)
        count = self.pair_counts[ordered[0][0] * _SHIFT + ordered[0][1]]
        codes = [x * _SHIFT + y for x, y in ordered[:MAX_TIES_KEPT]]
        return Choice(ordered[0], count, codes, len(tied), score=best)

    # -- merging -------------------------------------------------------------------------------
    def apply(self, step: int, choice: Choice) -> None:
        h, cfg = self.h, self.config
        pair, count, ties, num_ties, score, forced = choice
        a, b = pair
        left, right = h.symbols[a], h.symbols[b]
        prefix = cfg.rule.continuing_prefix
        if prefix and right.startswith(prefix):
            right = right[len(prefix) :]
        new_str = left + right
        added = new_str not in h.symbol_ids
        new = h.add_symbol(new_str) if added else h.symbol_ids[new_str]

        # Rewrite each word holding the pair and note only the pairs next to each merge, as the
        # `tokenizers` trainer does: x a b y -> x ab y loses (x, a) and (b, y), gains (x, ab) and
        # (ab, y). The left neighbour is read from the rewritten part, so a b a b -> ab ab
        # correctly turns the (ab, a) of the first merge into (ab, ab). (a, b) itself ends at 0.
        delta: defaultdict[int, int] = defaultdict(int)  # pair code -> change of its count
        where, splits, freqs = self.where, self.splits, h.freqs
        changed_words = []
        saved = 0
        S = _SHIFT
        a_s, b_code, new_s = a * S, b * S, new * S  # (x, a) = x*S + a, (b, y) = b*S + y, ...
        ab = a_s + b
        for w in sorted(where.pop(ab, ())):
            word = splits[w]  # the trainer's own list: rewritten in place
            # list.count/index find each `a` in C; Python runs once per occurrence, not per symbol.
            left = word.count(a)  # occurrences of `a` at or after j
            if not left:
                continue  # a stale entry: this word lost the pair (`where` is only ever added to)
            n = before = len(word)
            f = freqs[w]
            j = 0  # search for `a` from j
            while left:
                i = word.index(a, j)
                left -= 1
                if i + 1 == n or word[i + 1] != b:
                    j = i + 1
                    continue
                if i:  # word[i - 1] is already rewritten: the left neighbour as it is now
                    prev_s = word[i - 1] * S
                    delta[prev_s + a] -= f
                    p = prev_s + new
                    delta[p] += f
                    where[p].add(w)
                if i + 2 < n:
                    nxt = word[i + 2]
                    delta[b_code + nxt] -= f
                    p = new_s + nxt
                    delta[p] += f
                    where[p].add(w)
                word[i] = new
                del word[i + 1]  # in place: no new list per word, only a short memmove
                n -= 1
                j = i + 1
                if a == b:
                    left -= 1  # the merged b was an `a` too
            if n == before:
                continue  # stale too: it still has an `a`, but not followed by `b`
            if a == b:
                saved += (before - n) * f
            changed_words.append(w)
        ab_count = self.pair_counts.get(ab, 0)
        if a != b:
            saved = ab_count  # occurrences of (a, b) cannot overlap, so each one was merged
        delta[ab] = -ab_count
        if cfg.rule.scored:
            # `saved` counts the merges actually made (a a a holds (a, a) twice but merges once).
            sf = self.symbol_freqs
            sf[new] = sf.get(new, 0) + saved
            sf[a] -= saved
            sf[b] -= saved
        cache = self.first_key_cache
        pair_counts, buckets, counts = self.pair_counts, self.buckets, self.sorted_counts
        changed_codes: list[int] = []  # pairs whose count moved, and their new counts, for the record
        new_counts: list[int] = []
        top_count, top_left, top_joined = self.top_count, self.top_left, self.top_joined
        for code, d in delta.items():
            # Every pair whose occurrences moved is in `delta`, even with a net change of 0, so
            # this is exactly the set of pairs whose first occurrence may have moved.
            cache.pop(code, None)
            if d == 0:
                continue
            old_c = pair_counts.get(code, 0)
            new_c = old_c + d
            # Move the pair between count buckets (this loop is the hot path, hence inlined).
            if old_c:
                bucket = buckets[old_c]
                bucket.discard(code)
                if not bucket:
                    del buckets[old_c]
                    del counts[bisect.bisect_left(counts, old_c)]
                if old_c == top_count:
                    top_left.append(code)
            if new_c:
                bucket = buckets.get(new_c)
                if bucket is None:
                    buckets[new_c] = {code}
                    bisect.insort(counts, new_c)
                else:
                    bucket.add(code)
                if new_c == top_count:
                    top_joined.append(code)
                pair_counts[code] = new_c
            else:
                del pair_counts[code]
            changed_codes.append(code)
            new_counts.append(new_c)
        self.total_tokens -= saved
        h.record_merge(
            step,
            (a, b, new),
            count=count,
            score=score,
            added=added,
            forced=forced,
            ties=ties,  # pair codes (a fresh list)
            num_ties=num_ties,
            changed_words=changed_words,
            changed_codes=changed_codes,
            new_counts=new_counts,
            total_tokens=self.total_tokens,
        )
        self._record_top()

    def next_merge(self, step: int) -> Choice | None:
        """Decide merge ``step``, or set the stop reason and return None."""
        h, cfg = self.h, self.config
        if cfg.vocab_size is not None and len(h.symbols) >= cfg.vocab_size:
            return self._stop("vocab_size")
        if cfg.num_merges is not None and step > cfg.num_merges:
            return self._stop("num_merges")
        forced = self.forced.get(step)
        if forced is not None:
            self.top_count = 0  # the bucket list is not patched across two merges: sort afresh next time
            ids = h.pair_ids(forced)
            count = self.pair_counts.get(ids[0] * _SHIFT + ids[1], 0) if ids else 0
            if count == 0:
                raise ValueError(
                    f"Cannot force the pair {forced!r} at step {step}: it does not occur in the corpus then."
                )
            score = self._wp_score(ids) if cfg.rule.scored else None
            return Choice(ids, count, [ids[0] * _SHIFT + ids[1]], 1, score=score, forced=True)
        choice = self._choose_wordpiece() if cfg.rule.scored else self._choose_bpe()
        if choice is None:
            return self._stop("no_pairs")
        if choice.count < cfg.min_frequency:
            self.h.stop("min_frequency", choice.count)
            return None
        return choice

    def _stop(self, reason: str) -> None:
        self.h.stop(reason)
        return None


def train_steps(
    corpus: Corpus,
    *,
    pre_tokenizer: str = "whitespace",
    vocab_size: int | None = None,
    num_merges: int | None = None,
    special_tokens: Iterable[str] = (),
    min_frequency: int = 0,
    tie_break: TieRule = "first",
    algorithm: Algorithm = "bpe",
    full_byte_alphabet: bool = False,
    forced_merges: Mapping[int, Pair] | None = None,
) -> Iterator[TrainState]:
    """Train step by step: yields the initial state, then one state per merge.

    ``corpus`` is word counts (``{"hug": 10, ...}``), a text, or a list of texts.
    Training stops at ``vocab_size`` tokens (special tokens included), after
    ``num_merges`` merges, when the best count falls below ``min_frequency``, or when
    no pair is left; the last state says which (``stop_reason``). With neither
    ``vocab_size`` nor ``num_merges``, it runs until no pair is left.

    >>> states = list(train_steps({"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}, num_merges=3))
    >>> [(s.new_token, s.count) for s in states[1:]]
    [('ug', 20), ('un', 16), ('hug', 15)]
    """
    if isinstance(special_tokens, str):
        raise ValueError("special_tokens must be a list of strings, not a single string.")
    config = TrainConfig(
        pre_tokenizer=pre_tokenizer,
        vocab_size=vocab_size,
        num_merges=num_merges,
        special_tokens=tuple(dict.fromkeys(special_tokens)),
        min_frequency=min_frequency,
        tie_break=tie_break,
        algorithm=algorithm,
        full_byte_alphabet=full_byte_alphabet,
        forced_merges=tuple(sorted((step, tuple(pair)) for step, pair in (forced_merges or {}).items())),
    )
    # Built here, not inside the generator, so bad input raises at the call.
    return _run(_Trainer(corpus, config))


def _run(trainer: _Trainer) -> Iterator[TrainState]:
    step = 1
    try:
        while True:
            choice = trainer.next_merge(step)
            if choice is None:
                trainer.h.finish()  # before the last yield: a caller may stop reading there
            # Yield the previous state only now, so the last one already knows why training stopped.
            yield trainer.h.state(step - 1)
            if choice is None:
                return
            trainer.apply(step, choice)
            step += 1
    finally:  # also when the caller stops early or a forced merge fails: never leave lists behind
        trainer.h.finish()


def run_training(corpus: Corpus, **options) -> History:
    """Train to the end and return the :class:`History` (``history.state(k)`` for any step)."""
    states = train_steps(corpus, **options)
    first = next(states)  # step 0 always exists
    for _ in states:
        pass
    return first.history


def first_difference(one: History, other: History) -> int | None:
    """The first step at which two runs merge different pairs (None if one run is a prefix of the other)."""
    for k, (m1, m2) in enumerate(zip(one.merges, other.merges), start=1):
        if one.pair_str(m1[:2]) != other.pair_str(m2[:2]):
            return k
    return None
