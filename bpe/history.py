"""The compact record of one training run that every step is rebuilt from.

The app steps back and forth through a run's states, so instead of copying the
corpus per step the trainer fills one :class:`History` shared by all of them:

- every word's split is never stored per step. For each word we keep the steps at
  which a merge changed it (at most ``len(word) - 1`` of them, since each change
  shortens the word). A word's split at step k is its initial split with those
  merges replayed: a handful of list operations.
- every change of a pair count is one entry in flat integer arrays (step, pair,
  new count, previous entry of the same pair), so the count of any pair at any
  step is a short walk back along that pair's chain.
- the top-K pair counts of every step are stored (K = ``TOP_K``), which is what a

A step is rebuilt from it on demand (:meth:`History.state`) in well under a
millisecond; the per-step views of splits and pair counts compute only what is read.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterator, Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING

from .state import STOP_SENTENCES, TOP_K, Pair, TrainState

if TYPE_CHECKING:
    from .trainer import TrainConfig

_SHIFT = 1 << 24  # pair (a, b) -> a * _SHIFT + b in the integer logs; 16M symbols is plenty


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
        total += _ragged_bytes(self.word_steps, "I")
        total += 100 * len(self.last_entry)  # dict entry + int key/value objects
        total += _ragged_bytes(self.ties, "Q")
        total += 8 * 6 * len(self.merges)
        return total

    def _compact(self) -> None:
        """Turn the lists training appended to into typed arrays (once training ends). The per-merge
        ties, per-word change steps and initial splits become one :class:`Ragged` each: a finished run
        crosses from the training process to the server as a few buffers instead of tens of thousands
        of small objects, and holds less memory."""
        if isinstance(self.log_step, array):
            return  # already done
        for name, code in _HISTORY_ARRAYS:
            seq = getattr(self, name)
            if not isinstance(seq, array):
                setattr(self, name, array(code, seq))
        self.ties = Ragged("Q", self.ties)
        self.word_steps = Ragged("I", self.word_steps)
        self.initial_splits = Ragged("I", self.initial_splits)

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
        return sorted(
            entries, key=lambda e: (-e[1], tie_rank.get(e[0], last), self.pair_str(e[0]) if lexicographic else e[0])
        )

    def splits_at(self, step: int) -> Mapping[str, tuple[str, ...]]:
        """Word -> tokens after ``step`` merges, each word rebuilt when it is read."""
        return _SplitsView(self, step)

    def pair_counts_after(self, step: int) -> Mapping[Pair, int]:
        """Pair -> count after ``step`` merges (what merge ``step + 1`` is chosen from)."""
        return _PairCountsView(self, step)

    def words_changed_at(self, step: int) -> list[int]:
        if step < 1:
            return []
        return list(self.step_words[self.step_words_start[step - 1] : self.step_words_start[step]])

    def state(self, step: int) -> TrainState:
        """The state after ``step`` merges (0 = the initial split)."""
        if isinstance(step, bool) or not isinstance(step, int):
            raise ValueError(f"The step must be a whole number, not {step!r}.")
        if not 0 <= step <= self.num_merges:
            raise ValueError(f"Step {step} does not exist: this run has steps 0 to {self.num_merges}.")
        return TrainState(history=self, step=step)

    def __len__(self) -> int:
        return self.num_merges + 1

    @property
    def final(self) -> TrainState:
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
            rows.append(
                {
                    "step": k,
                    "left": self.symbols[a],
                    "right": self.symbols[b],
                    "new_token": self.symbols[new],
                    "count": self.merge_counts[k - 1],
                    "score": None if score is None else str(score),
                    "tied": self.num_ties[k - 1] - 1,
                    "forced": self.merge_forced[k - 1],
                    "tied_pairs": [self.pair_str(divmod(c, _SHIFT)) for c in self.ties[k - 1][1:]]
                    if with_ties
                    else None,
                }
            )
        return rows

    def stop_sentence(self) -> str | None:
        if self.stop_reason is None:
            return None
        c = self.config
        return (
            "Training stopped: "
            + STOP_SENTENCES[self.stop_reason].format(
                vocab_size=c.vocab_size, num_merges=c.num_merges, count=self.stop_count, min_frequency=c.min_frequency
            )
            + "."
        )


# History sequences kept as lists during training and as arrays of these types after it.
# Unsigned wherever values cannot be negative (all but log_prev's -1): the array module converts
# an int to an unsigned item directly but parses a format string for each signed one, so the
# conversion at the end of training takes about half the time. Same sizes: I is 4 bytes, Q 8.
_HISTORY_ARRAYS = (
    ("step_words", "I"),
    ("step_words_start", "Q"),
    ("log_step", "I"),
    ("log_pair", "Q"),
    ("log_count", "Q"),
    ("log_prev", "q"),
    ("log_start", "Q"),
    ("top_pairs_flat", "Q"),
    ("top_counts_flat", "Q"),
    ("top_start", "Q"),
)


def _array_bytes(seq: array | list[int], code: str) -> int:
    """Bytes of ``seq`` as an array of type ``code`` (what a list will take once compacted)."""
    if isinstance(seq, array):
        return seq.buffer_info()[1] * seq.itemsize
    return len(seq) * array(code).itemsize


class Ragged(Sequence):
    """Many short integer sequences in two arrays: item ``i`` is ``flat[start[i]:start[i + 1]]`` (an
    ``array``, empty for an empty or None item). Reads like the list of arrays it replaces."""

    __slots__ = ("flat", "start")

    def __init__(self, code: str, items) -> None:
        self.flat = array(code)
        self.start = array("Q", [0])
        flat, start = self.flat, self.start
        for item in items:
            if item:
                flat.extend(item)
            start.append(len(flat))

    def __len__(self) -> int:
        return len(self.start) - 1

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        if i < 0:
            i += len(self)
        if not 0 <= i < len(self):
            raise IndexError(i)
        return self.flat[self.start[i] : self.start[i + 1]]

    def nbytes(self) -> int:
        return len(self.flat) * self.flat.itemsize + len(self.start) * self.start.itemsize

    def __getstate__(self):
        return self.flat, self.start

    def __setstate__(self, state) -> None:
        self.flat, self.start = state


def _ragged_bytes(seq, code: str) -> int:
    """Bytes of a per-merge or per-word sequence of arrays once compacted into a :class:`Ragged`."""
    if isinstance(seq, Ragged):
        return seq.nbytes()
    return sum(_array_bytes(item, code) for item in seq if item) + 8 * (len(seq) + 1)


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
