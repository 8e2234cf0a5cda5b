"""The BPE (and WordPiece) trainer, one merge at a time.

:func:`train_steps` is a generator: step 0 is the initial split of every word into
symbols, then it yields one immutable :class:`TrainState` per merge. The app steps
back and forth through those states, so the trainer keeps a compact
:class:`History` shared by all of them instead of copying the corpus per step:

- every word's split is never stored per step. For each word we keep the steps at
  which a merge changed it (at most ``len(word) - 1`` of them, since each change
  shortens the word). A word's split at step k is its initial split with those
  merges replayed: a handful of list operations.
- every change of a pair count is one entry in flat integer arrays (step, pair,
  new count, previous entry of the same pair), so the count of any pair at any
  step is a short walk back along that pair's chain.
- the top-K pair counts of every step are stored (K = ``TOP_K``), which is what a
  table or chart shows; the full counts of a step are rebuilt on demand.

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

3. Replace the pair in every word, left to right without overlap
   (``a a a`` with ``(a, a)`` becomes ``aa a``), and update only the counts of the
   words that changed.

WordPiece (``algorithm="wordpiece"``) follows the course: symbols inside a word
carry the ``##`` prefix, and the score of a pair is ``count(ab) / (count(a) *
count(b))`` instead of its count. Scores are kept as exact fractions, so ties are
real ties. WordPiece rescans all pairs each step (it is for small corpora).

Left out: ``limit_alphabet``, ``max_token_length`` and end-of-word suffixes other
than Sennrich's ``</w>`` (which the ``sennrich`` pre-tokenizer adds as a symbol).
"""

from __future__ import annotations

import bisect
import heapq
import itertools
import re
from array import array
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Literal, Union

from . import pre_tokenizers as pt

Pair = tuple[str, str]
TieRule = Literal["first", "hf", "lexicographic"]
Algorithm = Literal["bpe", "wordpiece"]
Corpus = Union[Mapping[str, int], str, Iterable[str]]

TIE_RULES: tuple[str, ...] = ("first", "hf", "lexicographic")
ALGORITHMS: tuple[str, ...] = ("bpe", "wordpiece")
WORDPIECE_PREFIX = "##"
TOP_K = 24  # pairs kept per step for tables and charts (the page shows 20)
MAX_TIES_KEPT = 200  # tied pairs kept per step (their total is always kept)
_SORT_ALL_TIES = 1000  # up to this many tied pairs, sorting them all is faster than heapq.nsmallest

TIE_RULE_SENTENCES = {
    "first": "the pair seen first, reading words in first-seen order and each word left to right, wins",
    "hf": "the pair with the smallest (left id, right id) wins, as in the tokenizers library",
    "lexicographic": "the alphabetically smallest pair (left, then right) wins",
    "forced": "this pair was chosen by hand (a what-if), whatever its count",
}

STOP_SENTENCES = {
    "vocab_size": "the vocabulary reached its target size of {vocab_size} tokens",
    "num_merges": "the requested number of merges ({num_merges}) was reached",
    "min_frequency": "the best pair occurs {count} times, below the minimum frequency of {min_frequency}",
    "no_pairs": "no pair left: every word is a single token",
}

_SHIFT = 1 << 24  # pair (a, b) -> a * _SHIFT + b in the integer logs; 16M symbols is plenty


@dataclass(frozen=True)
class TrainConfig:
    """The options shared by :func:`train_steps` and :func:`bpe.train`."""

    pre_tokenizer: str = "whitespace"
    vocab_size: int | None = None
    num_merges: int | None = None
    special_tokens: tuple[str, ...] = ()
    min_frequency: int = 0
    tie_break: str = "first"
    algorithm: str = "bpe"
    full_byte_alphabet: bool = False
    forced_merges: tuple[tuple[int, Pair], ...] = ()

    def __post_init__(self) -> None:
        pt.check_pre_tokenizer(self.pre_tokenizer)
        if self.tie_break not in TIE_RULES:
            raise ValueError(f"Unknown tie rule {self.tie_break!r}; choose one of: {', '.join(TIE_RULES)}.")
        if self.algorithm not in ALGORITHMS:
            raise ValueError(f"Unknown algorithm {self.algorithm!r}; choose 'bpe' or 'wordpiece'.")
        for name in ("vocab_size", "num_merges", "min_frequency"):
            value = getattr(self, name)
            if value is None:
                continue
            if isinstance(value, bool) or not isinstance(value, int):
                raise ValueError(f"{name} must be a whole number, not {value!r}.")
            if value < 0:
                raise ValueError(f"{name} must be 0 or more, not {value}.")
        if self.full_byte_alphabet and self.pre_tokenizer not in pt.BYTE_LEVEL:
            raise ValueError("The full 256-byte alphabet only applies to byte-level pre-tokenizers (gpt2, gpt4).")
        for token in self.special_tokens:
            if not isinstance(token, str) or not token:
                raise ValueError(f"Special tokens must be non-empty strings; got {token!r}.")
        for step, pair in self.forced_merges:
            if isinstance(step, bool) or not isinstance(step, int) or step < 1:
                raise ValueError(f"A forced merge needs a step number of 1 or more; got {step!r}.")
            if not (isinstance(pair, tuple) and len(pair) == 2 and all(isinstance(s, str) for s in pair)):
                raise ValueError(f"The forced merge at step {step} must be a pair of two strings; got {pair!r}.")


def presplit_words(corpus: Corpus) -> dict[str, tuple[str, ...]] | None:
    """Words given already split into symbols, as Sennrich et al.'s code writes them:
    ``{("l", "o", "w", "</w>"): 5}``. Returns word -> symbols (the word named by its
    symbols joined with spaces, ``"l o w </w>"``), or None for any other corpus."""
    if not isinstance(corpus, Mapping) or not corpus or not all(isinstance(k, tuple) for k in corpus):
        return None
    out = {}
    for key in corpus:
        if not key or not all(isinstance(s, str) and s for s in key):
            raise ValueError(f"A pre-split word must be a non-empty tuple of non-empty strings; got {key!r}.")
        out[" ".join(key)] = key
    return out


def corpus_word_counts(corpus: Corpus, pre_tokenizer: str) -> dict[str, int]:
    """Word counts from word counts (a mapping) or texts (a string or strings).

    A mapping's words are taken as typed; byte-level schemes map their bytes.
    Pre-split words (tuples of symbols) are named by their symbols joined with spaces.
    """
    if presplit_words(corpus) is not None:
        return pt.check_word_counts({" ".join(k): v for k, v in corpus.items()})  # type: ignore[union-attr]
    if isinstance(corpus, Mapping):
        counts = pt.check_word_counts(corpus)
        if pre_tokenizer in pt.BYTE_LEVEL:
            mapped: dict[str, int] = {}
            for word, count in counts.items():
                key = pt.raw_word_to_word(word, pre_tokenizer)
                mapped[key] = mapped.get(key, 0) + count
            return mapped
        return counts
    texts = [corpus] if isinstance(corpus, str) else list(corpus)
    counts = pt.count_words(texts, pre_tokenizer)
    if not counts:
        raise ValueError("The corpus is empty (or only whitespace): paste some text or word counts to train on.")
    return counts


@dataclass(frozen=True)
class Contribution:
    """One word's share of a pair count: ``occurrences * frequency``."""

    word: str
    occurrences: int
    frequency: int

    @property
    def total(self) -> int:
        return self.occurrences * self.frequency


@dataclass(frozen=True)
class StepChanges:
    """What one merge changed: the words rewritten and the pair counts that moved."""

    words: tuple[str, ...]
    vanished: tuple[tuple[Pair, int], ...]  # (pair, count before)
    appeared: tuple[tuple[Pair, int], ...]  # (pair, count after)
    changed: tuple[tuple[Pair, int, int], ...]  # (pair, before, after)


class History:
    """Everything one training run computed, shared by all its states.

    Holds the words and frequencies, the symbol table (id -> string), the merges in
    order, per-word change steps, the pair-count change log, per-step top-K and
    ties. A :class:`TrainState` is a view of one step of it.
    """

    def __init__(self, config: TrainConfig, word_counts: Mapping[str, int]) -> None:
        self.config = config
        self.words: tuple[str, ...] = tuple(word_counts)
        self.freqs: tuple[int, ...] = tuple(word_counts.values())
        self.word_index: dict[str, int] = {w: i for i, w in enumerate(self.words)}
        self.symbols: list[str] = []  # id -> string: specials, alphabet, new tokens
        self.symbol_ids: dict[str, int] = {}
        self.num_base: int = 0  # specials + alphabet
        self.initial_splits: list[tuple[int, ...]] = []
        # One entry per merge (index 0 is merge 1).
        self.merges: list[tuple[int, int, int]] = []  # (left id, right id, new id)
        self.merge_counts: list[int] = []
        self.merge_scores: list[Fraction | None] = []
        self.merge_added: list[bool] = []  # False if the merged string already had an id
        self.merge_forced: list[bool] = []
        self.ties: list[array | list[int]] = []  # tied pairs of each merge as pair codes, winner first
        self.num_ties: list[int] = []
        self.vocab_len_after: list[int] = []
        # The growing sequences below are plain lists while training appends to them (a list
        # appends and extends several times faster than an array, which converts item by item)
        # and become typed arrays when training ends (:meth:`_compact`): 4 or 8 bytes an item
        # instead of a pointer plus an int object. Readers index and slice them either way.
        # Words changed by each merge (flat + offsets), and steps at which each word changed.
        self.step_words: array | list[int] = []
        self.step_words_start: array | list[int] = [0]
        self.word_steps: list[array | list[int] | None] = []
        # Pair-count change log: entry i says pair log_pair[i] had count log_count[i] from step log_step[i].
        self.log_step: array | list[int] = []
        self.log_pair: array | list[int] = []
        self.log_count: array | list[int] = []
        self.log_prev: array | list[int] = []
        self.log_start: array | list[int] = [0]  # entries of step k: log_start[k] .. log_start[k+1]
        self.last_entry: dict[int, int] = {}
        # Top-K of the pair counts after each step (what merge k+1 is chosen from).
        self.top_pairs_flat: array | list[int] = []
        self.top_counts_flat: array | list[int] = []
        self.top_start: array | list[int] = [0]
        self.stop_reason: str | None = None
        self.stop_count: int | None = None
        self.total_tokens_after: list[int] = []  # corpus length in tokens after each step

    # -- sizes -------------------------------------------------------------------------------
    @property
    def num_merges(self) -> int:
        return len(self.merges)

    def nbytes(self) -> int:
        """Approximate bytes of the per-step history (logs, changed words, top-K, ties), as
        compact arrays (during training, what the lists will take once converted)."""
        total = sum(_array_bytes(getattr(self, name), code) for name, code in _HISTORY_ARRAYS)
        total += sum(64 + _array_bytes(a, "I") for a in self.word_steps if a)
        total += 100 * len(self.last_entry)  # dict entry + int key/value objects
        total += sum(64 + _array_bytes(t, "Q") for t in self.ties)
        total += 8 * 6 * len(self.merges)
        return total

    def _compact(self) -> None:
        """Turn the lists training appended to into typed arrays (once training ends)."""
        if isinstance(self.log_step, array):
            return  # already done
        for name, code in _HISTORY_ARRAYS:
            seq = getattr(self, name)
            if not isinstance(seq, array):
                setattr(self, name, array(code, seq))
        self.ties = [t if isinstance(t, array) else array("Q", t) for t in self.ties]
        self.word_steps = [array("I", s) if s else None for s in self.word_steps]

    # -- symbols -----------------------------------------------------------------------------
    def pair_of(self, code: int) -> tuple[int, int]:
        return divmod(code, _SHIFT)

    def pair_str(self, ids: tuple[int, int]) -> Pair:
        return (self.symbols[ids[0]], self.symbols[ids[1]])

    def pair_ids(self, pair: Pair) -> tuple[int, int] | None:
        a = self.symbol_ids.get(pair[0])
        b = self.symbol_ids.get(pair[1])
        if a is None or b is None:
            return None
        return (a, b)

    # -- reconstruction ----------------------------------------------------------------------
    def split_ids_at(self, word_index: int, step: int) -> tuple[int, ...]:
        """The split of one word after ``step`` merges (as symbol ids)."""
        split = list(self.initial_splits[word_index])
        steps = self.word_steps[word_index]
        if not steps:  # None (or an empty list during training): the word never changed
            return tuple(split)
        for s in steps:
            if s > step:
                break
            a, b, new = self.merges[s - 1]
            split = _merge_word(split, a, b, new)
        return tuple(split)

    def count_at(self, ids: tuple[int, int], step: int) -> int:
        """The count of a pair after ``step`` merges, walking back its change chain."""
        entry = self.last_entry.get(ids[0] * _SHIFT + ids[1], -1)
        log_step, log_prev = self.log_step, self.log_prev
        while entry >= 0 and log_step[entry] > step:
            entry = log_prev[entry]
        return self.log_count[entry] if entry >= 0 else 0

    def top_after(self, step: int) -> list[tuple[tuple[int, int], int]]:
        """The stored top-K counts after ``step``, highest first; equal counts in tie-rule order
        where it is known (the pairs tied for the next merge), else by id or string."""
        lo, hi = self.top_start[step], self.top_start[step + 1]
        entries = [(divmod(self.top_pairs_flat[i], _SHIFT), self.top_counts_flat[i]) for i in range(lo, hi)]
        tie_rank: dict[tuple[int, int], int] = {}
        if step < len(self.ties):
            # When more than K pairs share the best count, the stored top K holds any K of them;
            # the pairs tied for the next merge (stored in tie-rule order) must be there, winner
            # first. Tied BPE pairs share the merge's count; forced or WordPiece ties look theirs up.
            tie_rank = {divmod(c, _SHIFT): r for r, c in enumerate(self.ties[step])}
            known = {pair for pair, _ in entries}
            best = self.merge_counts[step]
            same_count = self.config.algorithm != "wordpiece" and not self.merge_forced[step]
            for code in self.ties[step][:TOP_K]:
                pair = divmod(code, _SHIFT)
                if pair not in known:
                    entries.append((pair, best if same_count else self.count_at(pair, step)))
        lexicographic = self.config.tie_break == "lexicographic"
        last = len(tie_rank)
        return sorted(entries, key=lambda e: (-e[1], tie_rank.get(e[0], last),
                                              self.pair_str(e[0]) if lexicographic else e[0]))

    def words_changed_at(self, step: int) -> list[int]:
        if step < 1:
            return []
        return list(self.step_words[self.step_words_start[step - 1] : self.step_words_start[step]])

    def state(self, step: int) -> "TrainState":
        """The state after ``step`` merges (0 = the initial split)."""
        if isinstance(step, bool) or not isinstance(step, int):
            raise ValueError(f"The step must be a whole number, not {step!r}.")
        if not 0 <= step <= self.num_merges:
            raise ValueError(f"Step {step} does not exist: this run has steps 0 to {self.num_merges}.")
        return TrainState(history=self, step=step)

    def __len__(self) -> int:
        return self.num_merges + 1

    @property
    def final(self) -> "TrainState":
        return self.state(self.num_merges)

    def spellings(self) -> list[str]:
        """Each word's initial symbols joined (what its tokens spell at every step); computed once."""
        if not hasattr(self, "_spellings"):
            symbols = self.symbols
            self._spellings = ["".join(symbols[s] for s in split) for split in self.initial_splits]
        return self._spellings

    def joined_spellings(self) -> tuple[str, list[int]]:
        """All spellings in one string, separated by NUL, and where each starts: a regex over it
        finds every word holding a string in one C-level pass. Computed once."""
        if not hasattr(self, "_joined"):
            spelled = self.spellings()
            starts, pos = [], 0
            for text in spelled:
                starts.append(pos)
                pos += len(text) + 1
            self._joined = ("\0".join(spelled), starts)
        return self._joined

    def words_by_frequency(self) -> list[int]:
        """Word indices, most frequent first (first-seen order among equals); computed once."""
        if not hasattr(self, "_by_freq"):
            self._by_freq = sorted(range(len(self.words)), key=lambda i: -self.freqs[i])
        return self._by_freq

    def merge_rows(self, with_ties: bool = True) -> list[dict]:
        """The training log, one dict per merge: step, pair, new token, count, score, tied pairs
        (``with_ties=False`` leaves the list of tied pairs out, which is most of the cost)."""
        rows = []
        for k in range(1, self.num_merges + 1):
            a, b, new = self.merges[k - 1]
            score = self.merge_scores[k - 1]
            rows.append({
                "step": k, "left": self.symbols[a], "right": self.symbols[b], "new_token": self.symbols[new],
                "count": self.merge_counts[k - 1], "score": None if score is None else str(score),
                "tied": self.num_ties[k - 1] - 1, "forced": self.merge_forced[k - 1],
                "tied_pairs": [self.pair_str(divmod(c, _SHIFT)) for c in self.ties[k - 1][1:]] if with_ties else None,
            })
        return rows

    def stop_sentence(self) -> str | None:
        if self.stop_reason is None:
            return None
        c = self.config
        return "Training stopped: " + STOP_SENTENCES[self.stop_reason].format(
            vocab_size=c.vocab_size, num_merges=c.num_merges, count=self.stop_count, min_frequency=c.min_frequency
        ) + "."


# History sequences kept as lists during training and as arrays of these types after it.
# Unsigned wherever values cannot be negative (all but log_prev's -1): the array module converts
# an int to an unsigned item directly but parses a format string for each signed one, so the
# conversion at the end of training takes about half the time. Same sizes: I is 4 bytes, Q 8.
_HISTORY_ARRAYS = (
    ("step_words", "I"), ("step_words_start", "Q"), ("log_step", "I"), ("log_pair", "Q"), ("log_count", "Q"),
    ("log_prev", "q"), ("log_start", "Q"), ("top_pairs_flat", "Q"), ("top_counts_flat", "Q"), ("top_start", "Q"),
)


def _array_bytes(seq: array | list[int], code: str) -> int:
    """Bytes of ``seq`` as an array of type ``code`` (what a list will take once compacted)."""
    if isinstance(seq, array):
        return seq.buffer_info()[1] * seq.itemsize
    return len(seq) * array(code).itemsize


class _SplitsView(Mapping):
    """Read-only word -> tokens mapping for one step, computed per word on demand."""

    def __init__(self, history: History, step: int) -> None:
        self._h, self._step = history, step

    def __getitem__(self, word: str) -> tuple[str, ...]:
        i = self._h.word_index.get(word)
        if i is None:
            raise KeyError(word)
        symbols = self._h.symbols
        return tuple(symbols[s] for s in self._h.split_ids_at(i, self._step))

    def __iter__(self) -> Iterator[str]:
        return iter(self._h.words)

    def __len__(self) -> int:
        return len(self._h.words)


class _PairCountsView(Mapping):
    """Read-only pair -> count mapping for the counts after a given number of merges.

    Lookup of one pair walks the change log; iterating rebuilds all counts of that step
    from its splits (fine for a table, too slow to do per pair on a big corpus).
    """

    def __init__(self, history: History, after: int) -> None:
        self._h, self._after = history, after
        self._all: dict[Pair, int] | None = None

    def __getitem__(self, pair: Pair) -> int:
        ids = self._h.pair_ids(pair)
        count = self._h.count_at(ids, self._after) if ids else 0
        if count <= 0:
            raise KeyError(pair)
        return count

    def _full(self) -> dict[Pair, int]:
        if self._all is None:
            h, counts = self._h, {}
            for i, freq in enumerate(h.freqs):
                split = h.split_ids_at(i, self._after)
                for pair in zip(split, split[1:]):
                    counts[pair] = counts.get(pair, 0) + freq
            self._all = {h.pair_str(p): c for p, c in counts.items()}
        return self._all

    def __iter__(self) -> Iterator[Pair]:
        return iter(self._full())

    def __len__(self) -> int:
        return len(self._full())


def _words(n: int, more: str = "") -> str:
    """``1 more word``, ``2 more words``."""
    return f"{n:,} {more}word" + ("" if n == 1 else "s")


@dataclass(frozen=True)
class TrainState:
    """One step of a training run: step 0 is the initial split, step k follows merge k.

    Stored (cheap, immutable): ``step`` and a reference to the run's shared
    :class:`History`. Everything else is read from that history on demand:

    - ``pair``, ``count``, ``new_token``, ``score`` (WordPiece), ``tied`` (every pair
      tied with the winner, winner first; at most ``MAX_TIES_KEPT`` of ``num_tied``),
      ``tie_rule`` and ``tie_sentence``; ``forced`` for a what-if merge.
    - ``pair_counts``: the counts this merge was chosen from (the counts after step
      k-1; for step 0 the initial counts). ``top_pairs(n)`` is the stored top-K view.
    - ``splits`` (word -> tokens) and ``vocab`` after this step.
    - ``provenance()``: each word holding the pair, ``occurrences x frequency``.
    - ``changes()``: words rewritten, pairs that vanished, appeared or changed count.
    - ``stop_reason``/``stop_sentence`` on the last state of a finished run.
    """

    history: History = field(repr=False)
    step: int

    # -- the merge ---------------------------------------------------------------------------
    @property
    def is_initial(self) -> bool:
        return self.step == 0

    def _merge(self) -> tuple[int, int, int] | None:
        return self.history.merges[self.step - 1] if self.step else None

    @property
    def pair(self) -> Pair | None:
        m = self._merge()
        return self.history.pair_str(m[:2]) if m else None

    @property
    def count(self) -> int | None:
        return self.history.merge_counts[self.step - 1] if self.step else None

    @property
    def score(self) -> Fraction | None:
        return self.history.merge_scores[self.step - 1] if self.step else None

    @property
    def new_token(self) -> str | None:
        m = self._merge()
        return self.history.symbols[m[2]] if m else None

    @property
    def new_id(self) -> int | None:
        m = self._merge()
        return m[2] if m else None

    @property
    def token_added(self) -> bool:
        """False when the merged string was already in the vocabulary (it keeps its id)."""
        return self.history.merge_added[self.step - 1] if self.step else False

    @property
    def forced(self) -> bool:
        return self.history.merge_forced[self.step - 1] if self.step else False

    @property
    def tied(self) -> tuple[Pair, ...]:
        if not self.step:
            return ()
        h = self.history
        return tuple(h.pair_str(divmod(c, _SHIFT)) for c in h.ties[self.step - 1])

    @property
    def num_tied(self) -> int:
        return self.history.num_ties[self.step - 1] if self.step else 0

    @property
    def tie_rule(self) -> str:
        return "forced" if self.forced else self.history.config.tie_break

    @property
    def tie_sentence(self) -> str:
        return TIE_RULE_SENTENCES[self.tie_rule]

    # -- counts ------------------------------------------------------------------------------
    @property
    def pair_counts(self) -> Mapping[Pair, int]:
        return _PairCountsView(self.history, max(self.step - 1, 0))

    @property
    def next_pair_counts(self) -> Mapping[Pair, int]:
        """The counts after this step: what the next merge is chosen from."""
        return _PairCountsView(self.history, self.step)

    def top_pairs(self, n: int = TOP_K, *, after: bool = False) -> list[tuple[Pair, int]]:
        """The ``n`` highest pair counts this merge was chosen from (``after``: the next one's)."""
        h = self.history
        at = self.step if after else max(self.step - 1, 0)
        return [(h.pair_str(p), c) for p, c in h.top_after(at)[:n]]

    def top_scores(self, n: int = TOP_K, *, after: bool = False) -> list[tuple[Pair, int, Fraction]]:
        """WordPiece: the ``n`` best-scoring pairs this merge was chosen from (``after``: the next
        one's), as ``(pair, count, score)``, best first. Among equal scores the pair that was merged
        comes first, then the pairs tied with it, as in :attr:`tied`.

        Scores are recomputed from the splits of that step (one pass over the corpus): the run
        stores the top pairs by count, and the best scores are often not among them.

        >>> h = run_training({"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}, algorithm="wordpiece")
        >>> [(f"{a} {b}", str(score)) for (a, b), _, score in h.state(1).top_scores(2)]
        [('##g ##s', '1/20'), ('##u ##g', '1/36')]
        """
        h = self.history
        at = self.step if after else max(self.step - 1, 0)
        pair_counts: dict[tuple[int, int], int] = defaultdict(int)
        symbol_counts: dict[int, int] = defaultdict(int)
        for i, freq in enumerate(h.freqs):
            split = h.split_ids_at(i, at)
            for symbol in split:
                symbol_counts[symbol] += freq
            for pair in zip(split, split[1:]):
                pair_counts[pair] += freq
        merged = h.state(at + 1) if at < h.num_merges else None
        first = {pair: k for k, pair in enumerate(merged.tied if merged else ())}  # winner first, then its ties
        scored = [(Fraction(count, symbol_counts[a] * symbol_counts[b]), count, h.pair_str((a, b)))
                  for (a, b), count in pair_counts.items()]
        scored.sort(key=lambda t: (-t[0], first.get(t[2], len(first)), -t[1]))
        return [(pair, count, score) for score, count, pair in scored[:n]]

    # -- corpus ------------------------------------------------------------------------------
    @property
    def splits(self) -> Mapping[str, tuple[str, ...]]:
        return _SplitsView(self.history, self.step)

    @property
    def vocab(self) -> tuple[str, ...]:
        h = self.history
        size = h.vocab_len_after[self.step]
        return tuple(h.symbols[:size])

    @property
    def vocab_size(self) -> int:
        return self.history.vocab_len_after[self.step]

    @property
    def num_tokens(self) -> int:
        """Corpus length in tokens after this step (sum of split lengths x frequency)."""
        return self.history.total_tokens_after[self.step]

    @property
    def merges(self) -> tuple[Pair, ...]:
        h = self.history
        return tuple(h.pair_str(m[:2]) for m in h.merges[: self.step])

    def provenance(self) -> list[Contribution]:
        """Where this merge's count comes from: every word that held the pair, in corpus order."""
        if not self.step:
            return []
        h = self.history
        a, b, _ = h.merges[self.step - 1]
        out = []
        for i in h.words_changed_at(self.step):
            split = h.split_ids_at(i, self.step - 1)
            occ = sum(1 for x, y in zip(split, split[1:]) if x == a and y == b)
            out.append(Contribution(h.words[i], occ, h.freqs[i]))
        return out

    def provenance_sentence(self, limit: int = 8, show: Callable[[str], str] = str) -> str:
        """``ug = hug 10 + pug 5 + hugs 5`` (largest shares first when there are many words).
        ``show`` formats each word and token, e.g. to make their whitespace visible."""
        parts = self.provenance()
        if not parts:
            return ""
        if len(parts) > limit:
            parts = sorted(parts, key=lambda c: -c.total)
        shown = [f"{show(c.word)} {c.frequency}" if c.occurrences == 1
                 else f"{show(c.word)} {c.occurrences}×{c.frequency}" for c in parts[:limit]]
        text = " + ".join(shown)
        if len(parts) > limit:
            rest = sum(c.total for c in parts[limit:])
            text += f" + {_words(len(parts) - limit, 'more ')} ({rest})"
        return f"{show(self.new_token)} = {text}"

    def provenance_of(self, pairs: Iterable[Pair], limit: int = 6,
                      show: Callable[[str], str] = str) -> dict[Pair, str]:
        """For several pairs at once, where each count (as chosen from at this step) comes from:
        ``"hug 10 + pug 5 + hugs 5"``, largest shares first (corpus order among equal ones), at
        most ``limit`` words each, then what the other words add: ``" + 1,234 in 56 more words"``
        when every word was looked at, ``" + 1,234 in other words"`` when the search stopped early.

        Fast on big corpora (this feeds a chart's tooltips on every step): a word's tokens always
        spell its initial symbols, so a pair can only occur where its two strings stand side by
        side in that spelling, and occurs at most as often as they do there. Words are rebuilt
        in order of that bound (times their frequency) until no remaining word could make the
        top ``limit``. ``show`` formats each word, as in :meth:`provenance_sentence`."""
        h = self.history
        after = max(self.step - 1, 0)
        out: dict[Pair, str] = {}
        wordpiece = h.config.algorithm == "wordpiece"  # ## prefixes: spellings do not contain pairs
        for pair in pairs:
            ids = h.pair_ids(pair)
            total = h.count_at(ids, after) if ids else 0
            if total <= 0:
                out[pair] = ""
                continue
            needle = pair[0] + pair[1]
            bounds = [(-bound * h.freqs[i], i) for i, bound in self._spelling_bounds(needle, wordpiece).items()]
            bounds.sort()
            found: list[tuple[int, int, int]] = []  # (-share, word index, occurrences)
            checked = 0
            for neg_bound, i in bounds:
                if len(found) >= limit and -neg_bound < -found[limit - 1][0]:
                    break  # this word and all after it share less than the current top `limit`
                checked += 1
                split = h.split_ids_at(i, after)
                occ = sum(1 for pr in zip(split, split[1:]) if pr == ids)
                if occ:
                    found.append((-occ * h.freqs[i], i, occ))
                    found.sort()
            shown = found[:limit]
            text = " + ".join(f"{show(h.words[i])} {h.freqs[i]}" if occ == 1
                              else f"{show(h.words[i])} {occ}×{h.freqs[i]}" for _, i, occ in shown)
            rest = total + sum(share for share, _, _ in shown)
            if rest:
                if checked == len(bounds):
                    text += f" + {rest:,} in {_words(len(found) - len(shown), 'more ')}"
                else:
                    text += f" + {rest:,} in other words"
            out[pair] = text
        return out

    def _spelling_bounds(self, needle: str, wordpiece: bool) -> dict[int, int]:
        """word index -> an upper bound on how often a pair spelled ``needle`` occurs in it."""
        h = self.history
        if wordpiece:
            return {i: len(text) for i, text in enumerate(h.spellings())}
        joined, starts = h.joined_spellings()
        # A needle that overlaps itself ("aa" in "aaa") can occur more often as a pair than as
        # separate matches: count overlapping matches then (a lookahead matches at every offset).
        overlaps = any(needle[:k] == needle[-k:] for k in range(1, len(needle)))
        if "\0" in needle:  # the separator of the joined text: look word by word
            return {i: text.count(needle) + len(text) * overlaps
                    for i, text in enumerate(h.spellings()) if needle in text}
        pattern = f"(?={re.escape(needle)})" if overlaps else re.escape(needle)
        bounds: dict[int, int] = {}
        for m in re.finditer(pattern, joined):
            i = bisect.bisect_right(starts, m.start()) - 1
            bounds[i] = bounds.get(i, 0) + 1
        return bounds

    def symbol_count(self, symbol: str) -> int:
        """How often a symbol occurs in the corpus this merge was chosen from (WordPiece's count(a))."""
        h = self.history
        sid = h.symbol_ids.get(symbol)
        after = max(self.step - 1, 0)
        return sum(h.split_ids_at(i, after).count(sid) * f for i, f in enumerate(h.freqs)) if sid is not None else 0

    def score_formula(self, show: Callable[[str], str] = str) -> str | None:
        """WordPiece: ``score = count(ab) / (count(a) × count(b)) = 5 / (20 × 5) = 1/20``."""
        if self.score is None or self.pair is None:
            return None
        a, b = self.pair
        ca, cb = self.symbol_count(a), self.symbol_count(b)
        a, b = show(a), show(b)
        return (f"score = count({a} {b}) / (count({a}) × count({b})) = {self.count} / ({ca} × {cb}) "
                f"= {self.score}")

    def judge_prediction(self, guess: Pair, show: Callable[[str], str] = str) -> tuple[bool, str]:
        """Was ``guess`` this step's merge? Returns (right, a sentence saying why), for the
        "predict the next merge" exercise: the student sees step k-1 and guesses step k.
        ``show`` formats the tokens in the sentence."""
        if not self.step or self.pair is None:
            raise ValueError("Step 0 has no merge to predict; predict a later step.")
        h, chosen = self.history, self.pair
        ids = h.pair_ids(guess)
        guess_count = h.count_at(ids, self.step - 1) if ids else 0
        what = "score" if self.score is not None else "count"
        best_sentence = "has the best score" if self.score is not None else "is the most frequent pair"
        best = f"{show(chosen[0])} + {show(chosen[1])} ({what} {self.score if self.score is not None else self.count})"
        if tuple(guess) == chosen:
            if self.forced:
                return True, f"Right: {best} was forced here as a what-if."
            if self.num_tied > 1:
                return True, (f"Right: {best} is tied with {self.num_tied - 1} other pair(s), and the tie rule "
                              f"picks it: {self.tie_sentence}.")
            return True, f"Right: {best} {best_sentence}; no other pair reaches that {what}."
        if tuple(guess) in self.tied:
            return False, (f"Close: {show(guess[0])} + {show(guess[1])} ties with {best}, but the tie rule picks the other: "
                           f"{self.tie_sentence}.")
        if self.forced:
            return False, f"This step was forced as a what-if: {best} was merged by hand."
        if self.score is not None:
            ca, cb = self.symbol_count(guess[0]), self.symbol_count(guess[1])
            guess_score = Fraction(guess_count, ca * cb) if guess_count else Fraction(0)
            return False, (f"Not this time: {show(guess[0])} + {show(guess[1])} scores {guess_count} / ({ca} × {cb}) = "
                           f"{guess_score} at this point, but {best} is higher. WordPiece divides a pair's count by "
                           "the counts of its two parts, so rare parts score high.")
        return False, (f"Not this time: {show(guess[0])} + {show(guess[1])} occurs {guess_count} times at this point, "
                       f"but {best} is higher. Counts change after each merge: look at the splits.")

    def changes(self) -> StepChanges:
        """Words this merge rewrote and the pair counts it moved."""
        if not self.step:
            return StepChanges((), (), (), ())
        h = self.history
        words = tuple(h.words[i] for i in h.words_changed_at(self.step))
        vanished, appeared, changed = [], [], []
        for e in range(h.log_start[self.step], h.log_start[self.step + 1]):
            ids = h.pair_of(h.log_pair[e])
            before = h.log_count[h.log_prev[e]] if h.log_prev[e] >= 0 else 0
            after = h.log_count[e]
            pair = h.pair_str(ids)
            if after == 0:
                vanished.append((pair, before))
            elif before == 0:
                appeared.append((pair, after))
            else:
                changed.append((pair, before, after))
        return StepChanges(words, tuple(vanished), tuple(appeared), tuple(changed))

    # -- end ---------------------------------------------------------------------------------
    @property
    def is_last(self) -> bool:
        return self.step == self.history.num_merges and self.history.stop_reason is not None

    @property
    def stop_reason(self) -> str | None:
        return self.history.stop_reason if self.is_last else None

    @property
    def stop_sentence(self) -> str | None:
        return self.history.stop_sentence() if self.is_last else None


def _merge_word(split: list[int], a: int, b: int, new: int) -> list[int]:
    """Replace (a, b) by ``new`` left to right, never overlapping: a a a -> aa a."""
    out: list[int] = []
    i, n = 0, len(split)
    while i < n:
        if i + 1 < n and split[i] == a and split[i + 1] == b:
            out.append(new)
            i += 2
        else:
            out.append(split[i])
            i += 1
    return out


class _Trainer:
    """The mutable machinery behind :func:`train_steps`; fills a :class:`History`."""

    def __init__(self, corpus: Corpus, config: TrainConfig) -> None:
        self.config = config
        counts = corpus_word_counts(corpus, config.pre_tokenizer)
        h = self.h = History(config, counts)
        wordpiece = config.algorithm == "wordpiece"
        scheme = config.pre_tokenizer

        # Initial splits as strings, then the alphabet sorted by code point.
        presplit = presplit_words(corpus)
        str_splits = []
        for word in h.words:
            symbols = presplit[word] if presplit else pt.word_symbols(word, scheme)
            if wordpiece:
                symbols = (symbols[0], *(WORDPIECE_PREFIX + s for s in symbols[1:]))
            str_splits.append(symbols)
        alphabet = set(itertools.chain.from_iterable(str_splits))
        if config.full_byte_alphabet:
            alphabet |= set(pt.bytes_to_unicode().values())
        for token in config.special_tokens:
            self._add_symbol(token)
        for symbol in sorted(alphabet):
            if symbol not in h.symbol_ids:
                self._add_symbol(symbol)
        h.num_base = len(h.symbols)
        if config.vocab_size is not None and config.vocab_size < h.num_base:
            raise ValueError(
                f"The vocabulary size ({config.vocab_size}) is below the base vocabulary: this corpus needs at least "
                f"{h.num_base} tokens ({len(config.special_tokens)} special + {h.num_base - len(config.special_tokens)}"
                f" in its alphabet). Set the vocabulary size (vocab_size) to {h.num_base} or more."
            )
        to_id = h.symbol_ids.__getitem__
        h.initial_splits = [tuple(map(to_id, split)) for split in str_splits]
        self.splits: list[list[int]] = [list(s) for s in h.initial_splits]
        h.word_steps = [[] for _ in h.words]  # empty lists become None when compacted
        h.vocab_len_after.append(len(h.symbols))
        h.total_tokens_after.append(sum(len(s) * f for s, f in zip(self.splits, h.freqs)))
        self.total_tokens = h.total_tokens_after[0]

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
        if wordpiece:
            self.symbol_freqs: dict[int, int] = {}
            for split, freq in zip(self.splits, h.freqs):
                for s in split:
                    self.symbol_freqs[s] = self.symbol_freqs.get(s, 0) + freq
        # Step 0 of the log: the initial counts, in first-seen order (no earlier entries to chain to).
        h.log_pair.extend(self.pair_counts)
        h.log_count.extend(self.pair_counts.values())
        h.log_step.extend([0] * len(self.pair_counts))
        h.log_prev.extend([-1] * len(self.pair_counts))
        h.last_entry.update((code, i) for i, code in enumerate(self.pair_counts))
        h.log_start.append(len(h.log_step))
        self._record_top(0)
        self.forced = dict(config.forced_merges)

    # -- bookkeeping ---------------------------------------------------------------------------
    def _add_symbol(self, s: str) -> int:
        h = self.h
        h.symbol_ids[s] = len(h.symbols)
        h.symbols.append(s)
        return h.symbol_ids[s]

    def _static_key(self, pair: tuple[int, int]) -> tuple:
        if self.config.tie_break == "lexicographic":
            s = self.h.symbols
            return (s[pair[0]], s[pair[1]])
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

    def _record_top(self, step: int) -> None:
        """Store the top-K counts after ``step``. Order inside one count is not kept here:
        readers order it (the tie rule for the winning count, ids for the rest)."""
        h = self.h
        need = TOP_K
        buckets, pairs_flat, counts_flat = self.buckets, h.top_pairs_flat, h.top_counts_flat
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
        h.top_start.append(len(pairs_flat))

    # -- choosing ------------------------------------------------------------------------------
    def _choose_bpe(self) -> tuple[tuple[int, int], int, list[tuple[int, int]], int] | None:
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
            chosen = sorted(codes, key=key)[:MAX_TIES_KEPT] if len(codes) <= _SORT_ALL_TIES else \
                heapq.nsmallest(MAX_TIES_KEPT, codes, key=key)
        return divmod(chosen[0], _SHIFT), best, chosen, len(codes)

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

    def _choose_wordpiece(self):
        if not self.pair_counts:
            return None
        scores = {pair: self._wp_score(pair) for pair in map(lambda c: divmod(c, _SHIFT), self.pair_counts)}
        best = max(scores.values())
        tied = [p for p, s in scores.items() if s == best]
        ordered = sorted(tied, key=self.tie_key)
        count = self.pair_counts[ordered[0][0] * _SHIFT + ordered[0][1]]
        codes = [x * _SHIFT + y for x, y in ordered[:MAX_TIES_KEPT]]
        return ordered[0], count, codes, len(tied), best

    # -- merging -------------------------------------------------------------------------------
    def apply(self, step: int, pair: tuple[int, int], count: int, ties, num_ties: int, score, forced: bool) -> None:
        h, cfg = self.h, self.config
        a, b = pair
        left, right = h.symbols[a], h.symbols[b]
        if cfg.algorithm == "wordpiece" and right.startswith(WORDPIECE_PREFIX):
            right = right[len(WORDPIECE_PREFIX):]
        new_str = left + right
        added = new_str not in h.symbol_ids
        new = self._add_symbol(new_str) if added else h.symbol_ids[new_str]

        # Rewrite each word holding the pair and note only the pairs next to each merge, as the
        # `tokenizers` trainer does: x a b y -> x ab y loses (x, a) and (b, y), gains (x, ab) and
        # (ab, y). The left neighbour is read from the rewritten part, so a b a b -> ab ab
        # correctly turns the (ab, a) of the first merge into (ab, ab). (a, b) itself ends at 0.
        delta: defaultdict[int, int] = defaultdict(int)  # pair code -> change of its count
        where, splits, freqs, word_steps = self.where, self.splits, h.freqs, h.word_steps
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
            word_steps[w].append(step)
        ab_count = self.pair_counts.get(ab, 0)
        if a != b:
            saved = ab_count  # occurrences of (a, b) cannot overlap, so each one was merged
        delta[ab] = -ab_count
        if cfg.algorithm == "wordpiece":
            # `saved` counts the merges actually made (a a a holds (a, a) twice but merges once).
            sf = self.symbol_freqs
            sf[new] = sf.get(new, 0) + saved
            sf[a] -= saved
            sf[b] -= saved
        cache = self.first_key_cache
        pair_counts, buckets, counts = self.pair_counts, self.buckets, self.sorted_counts
        last_entry, log_pair, log_count, log_prev = h.last_entry, h.log_pair, h.log_count, h.log_prev
        first_entry = entry = len(log_pair)
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
            # The log is made of lists during training: append straight to them.
            log_pair.append(code)
            log_count.append(new_c)
            log_prev.append(last_entry.get(code, -1))
            last_entry[code] = entry
            entry += 1
        h.log_step.extend([step] * (entry - first_entry))
        h.log_start.append(entry)
        h.step_words.extend(changed_words)
        h.step_words_start.append(len(h.step_words))
        h.merges.append((a, b, new))
        h.merge_counts.append(count)
        h.merge_scores.append(score)
        h.merge_added.append(added)
        h.merge_forced.append(forced)
        h.ties.append(ties)  # pair codes (a fresh list); an array of 8 bytes a pair once compacted
        h.num_ties.append(num_ties)
        h.vocab_len_after.append(len(h.symbols))
        self.total_tokens -= saved
        h.total_tokens_after.append(self.total_tokens)
        self._record_top(step)

    def next_merge(self, step: int):
        """Decide merge ``step``: returns (pair, count, ties, num_ties, score, forced) or sets the stop reason."""
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
                raise ValueError(f"Cannot force the pair {forced!r} at step {step}: it does not occur in the corpus then.")
            score = self._wp_score(ids) if cfg.algorithm == "wordpiece" else None
            return ids, count, [ids[0] * _SHIFT + ids[1]], 1, score, True
        if cfg.algorithm == "wordpiece":
            choice = self._choose_wordpiece()
            if choice is None:
                return self._stop("no_pairs")
            pair, count, ties, n, score = choice
        else:
            choice = self._choose_bpe()
            if choice is None:
                return self._stop("no_pairs")
            pair, count, ties, n = choice
            score = None
        if count < cfg.min_frequency:
            h.stop_count = count
            return self._stop("min_frequency")
        return pair, count, ties, n, score, False

    def _stop(self, reason: str) -> None:
        self.h.stop_reason = reason
        return None


def train_steps(
    corpus: Corpus,
    *,
    pre_tokenizer: str = "whitespace",
    vocab_size: int | None = None,
    num_merges: int | None = None,
    special_tokens: Iterable[str] = (),
    min_frequency: int = 0,
    tie_break: str = "first",
    algorithm: str = "bpe",
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
        pre_tokenizer=pre_tokenizer, vocab_size=vocab_size, num_merges=num_merges,
        special_tokens=tuple(dict.fromkeys(special_tokens)), min_frequency=min_frequency, tie_break=tie_break,
        algorithm=algorithm, full_byte_alphabet=full_byte_alphabet,
        forced_merges=tuple(sorted((step, tuple(pair)) for step, pair in (forced_merges or {}).items())),
    )
    # Built here, not inside the generator, so bad input raises at the call.
    return _run(_Trainer(corpus, config))


def _run(trainer: _Trainer) -> Iterator[TrainState]:
    step = 1
    try:
        while True:
            decision = trainer.next_merge(step)
            if decision is None:
                trainer.h._compact()  # before the last yield: a caller may stop reading there
            # Yield the previous state only now, so the last one already knows why training stopped.
            yield trainer.h.state(step - 1)
            if decision is None:
                return
            trainer.apply(step, *decision)
            step += 1
    finally:  # also when the caller stops early or a forced merge fails: never leave lists behind
        trainer.h._compact()


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
