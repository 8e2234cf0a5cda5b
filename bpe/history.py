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
  table or chart of one step needs.

The layout is this module's own: the trainer writes through a small API (:meth:`History.add_symbol`,
:meth:`~History.begin`, :meth:`~History.record_top`, :meth:`~History.record_merge`,
:meth:`~History.stop`, :meth:`~History.finish`) and the step view (:class:`~bpe.state.TrainState`)
reads through methods (:meth:`~History.count_at`, :meth:`~History.count_changes`,
:meth:`~History.candidate_words`, ...). A step is rebuilt on demand (:meth:`History.state`) in well
under a millisecond; the per-step views of splits and pair counts compute only what is read.

Once training has finished, a run is an immutable record: what is derived from it and worth keeping
between reads (rebuilt splits, provenance's searches, the pages' views) goes in its :attr:`History.cache`,
a :class:`~bpe.run_cache.RunCache` with one byte budget, not in fields of its own.

Left out: choosing merges (:mod:`bpe.trainer`), explaining a step and why the run stopped
(:mod:`bpe.state`) and where a count comes from (:mod:`bpe.provenance`).
"""

from __future__ import annotations

import bisect
from array import array
from collections.abc import Iterator, Mapping
from fractions import Fraction

from .config import PAIR_SHIFT, TOP_K, Pair, TrainConfig
from .ragged import Ragged, array_bytes, ragged_bytes
from .run_cache import RunCache
from .state import TrainState
from .step_views import PairCountsView, SplitsView

SPLIT_BYTES = 64  # a kept split's own cost besides its ids (8 bytes each), see split_ids_at


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
    ties. A :class:`TrainState` is a view of one step of it. Written only by the trainer; readers share
    it without locks (its :attr:`cache` has its own).
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
        # and become typed arrays when training ends (:meth:`finish`): 4 or 8 bytes an item
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
        # Computed once, on first read (see spellings, joined_spellings, words_by_frequency).
        self._spellings: list[str] | None = None
        self._joined: tuple[str, list[int]] | None = None
        self._by_freq: list[int] | None = None
        # The views derived from the run and kept for the next read (rebuilt splits here, provenance's
        # searches, the pages' rows and charts), within one byte budget: whoever keeps the run counts it.
        self.cache = RunCache()

    # -- writing: the trainer's API ------------------------------------------------------------
    def add_symbol(self, symbol: str) -> int:
        """Give ``symbol`` the next id and return it."""
        self.symbol_ids[symbol] = len(self.symbols)
        self.symbols.append(symbol)
        return self.symbol_ids[symbol]

    def begin(self, initial_splits: list[tuple[int, ...]], initial_counts: Mapping[int, int]) -> None:
        """Step 0: every symbol added so far is the base vocabulary; each word's initial split (ids);
        the initial pair counts (pair code -> count) in first-seen order."""
        self.num_base = len(self.symbols)
        self.initial_splits = initial_splits
        self.word_steps = [[] for _ in self.words]  # empty lists become None when compacted
        self.vocab_len_after.append(len(self.symbols))
        self.total_tokens_after.append(sum(len(s) * f for s, f in zip(initial_splits, self.freqs)))
        # No earlier entries to chain to.
        self.log_pair.extend(initial_counts)
        self.log_count.extend(initial_counts.values())
        self.log_step.extend([0] * len(initial_counts))
        self.log_prev.extend([-1] * len(initial_counts))
        self.last_entry.update((code, i) for i, code in enumerate(initial_counts))
        self.log_start.append(len(self.log_step))

    def record_top(self, codes: list[int], counts: list[int]) -> None:
        """The top-K pair counts after the latest step (pair codes and their counts; the order inside one
        count is not kept: readers order it)."""
        self.top_pairs_flat.extend(codes)
        self.top_counts_flat.extend(counts)
        self.top_start.append(len(self.top_pairs_flat))

    def record_merge(
        self,
        step: int,
        merge: tuple[int, int, int],
        *,
        count: int,
        score: Fraction | None,
        added: bool,
        forced: bool,
        ties: list[int],
        num_ties: int,
        changed_words: list[int],
        changed_codes: list[int],
        new_counts: list[int],
        total_tokens: int,
    ) -> None:
        """Merge ``step``: ``merge`` is (left id, right id, new id); ``ties`` the tied pair codes, winner
        first (a fresh list); the words it rewrote; each pair whose count moved and its new count."""
        last_entry, log_prev = self.last_entry, self.log_prev
        first_entry = entry = len(self.log_pair)
        for code in changed_codes:
            log_prev.append(last_entry.get(code, -1))
            last_entry[code] = entry
            entry += 1
        self.log_pair.extend(changed_codes)
        self.log_count.extend(new_counts)
        self.log_step.extend([step] * (entry - first_entry))
        self.log_start.append(entry)
        word_steps = self.word_steps
        for w in changed_words:
            word_steps[w].append(step)
        self.step_words.extend(changed_words)
        self.step_words_start.append(len(self.step_words))
        self.merges.append(merge)
        self.merge_counts.append(count)
        self.merge_scores.append(score)
        self.merge_added.append(added)
        self.merge_forced.append(forced)
        self.ties.append(ties)  # an array of 8 bytes a pair once compacted
        self.num_ties.append(num_ties)
        self.vocab_len_after.append(len(self.symbols))
        self.total_tokens_after.append(total_tokens)

    def stop(self, reason: str, count: int | None = None) -> None:
        """Training stopped: ``reason`` is a key of :data:`~bpe.config.STOP_SENTENCES` (``count``: the best
        count, for ``min_frequency``)."""
        self.stop_reason = reason
        if count is not None:
            self.stop_count = count

    # -- sizes -------------------------------------------------------------------------------
    @property
    def num_merges(self) -> int:
        return len(self.merges)

    def nbytes(self) -> int:
        """Approximate bytes of the per-step history (logs, changed words, top-K, ties), as
        compact arrays (during training, what the lists will take once converted)."""
        total = sum(array_bytes(getattr(self, name), code) for name, code in _HISTORY_ARRAYS)
        total += ragged_bytes(self.word_steps, "I")
        total += 100 * len(self.last_entry)  # dict entry + int key/value objects
        total += ragged_bytes(self.ties, "Q")
        total += 8 * 6 * len(self.merges)
        return total

    def finish(self) -> None:
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

    # -- a saved run: what a file keeps (bpe.formats.run_file knows how it is written) ---------------
    def saved_parts(self) -> dict[str, object]:
        """What :meth:`from_saved_parts` rebuilds this run from exactly, by name (the run is finished first)."""
        self.finish()
        return {name: getattr(self, name) for name in SAVED_PARTS}

    @classmethod
    def from_saved_parts(cls, config: TrainConfig, parts: Mapping[str, object]) -> History:
        """The run :meth:`saved_parts` described; its lookups (symbol ids, word index, last log entries) rebuilt."""
        h = cls(config, {})
        for name in SAVED_PARTS:
            setattr(h, name, parts[name])
        h.word_index, h.symbol_ids = {w: i for i, w in enumerate(h.words)}, {s: i for i, s in enumerate(h.symbols)}
        h.last_entry = dict(zip(h.log_pair, range(len(h.log_pair))))  # a pair's later entry overwrites
        return h

    # -- symbols -----------------------------------------------------------------------------
    def pair_of(self, code: int) -> tuple[int, int]:
        return divmod(code, PAIR_SHIFT)

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
        """The split of one word after ``step`` merges (as symbol ids).

        A word's split only changes at its own change steps, so the split after its first ``n`` changes
        serves every step until the next one: the run's cache keeps the splits it rebuilt, since the step view
        asks for the same frequent words on every step (the splits table, and the words behind the largest
        pair counts)."""
        steps = self.word_steps[word_index]
        # None (or an empty list during training): the word never changed
        n = bisect.bisect_right(steps, step) if steps else 0
        if not n:
            return tuple(self.initial_splits[word_index])
        key = ("split", word_index, n)
        split = self.cache.get(key)
        if split is None:
            ids = list(self.initial_splits[word_index])
            for s in steps[:n]:
                a, b, new = self.merges[s - 1]
                ids = _merge_word(ids, a, b, new)
            split = self.cache.put(key, tuple(ids), SPLIT_BYTES + 8 * len(ids))
        return split

    def count_at(self, ids: tuple[int, int], step: int) -> int:
        """The count of a pair after ``step`` merges, walking back its change chain."""
        entry = self.count_entry(ids, step)
        return self.log_count[entry] if entry >= 0 else 0

    def count_entry(self, ids: tuple[int, int], step: int) -> int:
        """The change-log entry that set the pair's count in force after ``step`` merges (-1: it never
        had one). The entry stays the same from that step until the pair's count next changes, and so
        do the words holding the pair: a merge only ever lowers the counts of the pairs it does not make
        (x a b -> x ab takes (x, a) from a word and gives no word an (x, a)), so a count that did not
        move means no word's share of it moved."""
        entry = self.last_entry.get(ids[0] * PAIR_SHIFT + ids[1], -1)
        log_step, log_prev = self.log_step, self.log_prev
        while entry >= 0 and log_step[entry] > step:
            entry = log_prev[entry]
        return entry

    def top_after(self, step: int) -> list[tuple[tuple[int, int], int]]:
        """The stored top-K counts after ``step``, highest first; equal counts in tie-rule order
        where it is known (the pairs tied for the next merge), else by id or string."""
        lo, hi = self.top_start[step], self.top_start[step + 1]
        entries = [(divmod(self.top_pairs_flat[i], PAIR_SHIFT), self.top_counts_flat[i]) for i in range(lo, hi)]
        tie_rank: dict[tuple[int, int], int] = {}
        if step < len(self.ties):
            # When more than K pairs share the best count, the stored top K holds any K of them;
            # the pairs tied for the next merge (stored in tie-rule order) must be there, winner
            # first. Tied BPE pairs share the merge's count; forced or WordPiece ties look theirs up.
            tie_rank = {divmod(c, PAIR_SHIFT): r for r, c in enumerate(self.ties[step])}
            known = {pair for pair, _ in entries}
            best = self.merge_counts[step]
            same_count = not self.config.rule.scored and not self.merge_forced[step]
            for code in self.ties[step][:TOP_K]:
                pair = divmod(code, PAIR_SHIFT)
                if pair not in known:
                    entries.append((pair, best if same_count else self.count_at(pair, step)))
        lexicographic = self.config.tie_break == "lexicographic"
        last = len(tie_rank)
        return sorted(
            entries, key=lambda e: (-e[1], tie_rank.get(e[0], last), self.pair_str(e[0]) if lexicographic else e[0])
        )

    def splits_at(self, step: int) -> Mapping[str, tuple[str, ...]]:
        """Word -> tokens after ``step`` merges, each word rebuilt when it is read."""
        return SplitsView(self, step)

    def pair_counts_after(self, step: int) -> Mapping[Pair, int]:
        """Pair -> count after ``step`` merges (what merge ``step + 1`` is chosen from)."""
        return PairCountsView(self, step)

    def words_changed_at(self, step: int) -> list[int]:
        if step < 1:
            return []
        return list(self.step_words[self.step_words_start[step - 1] : self.step_words_start[step]])

    def count_changes(self, step: int) -> Iterator[tuple[tuple[int, int], int, int]]:
        """The pair counts merge ``step`` moved, in log order: (pair ids, count before, count after)."""
        log_pair, log_count, log_prev = self.log_pair, self.log_count, self.log_prev
        for e in range(self.log_start[step], self.log_start[step + 1]):
            before = log_count[log_prev[e]] if log_prev[e] >= 0 else 0
            yield self.pair_of(log_pair[e]), before, log_count[e]

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
        if self._spellings is None:
            symbols = self.symbols
            self._spellings = ["".join(symbols[s] for s in split) for split in self.initial_splits]
        return self._spellings

    def joined_spellings(self) -> tuple[str, list[int]]:
        """All spellings in one string, separated by NUL, and where each starts: a regex over it
        finds every word holding a string in one C-level pass. Computed once."""
        if self._joined is None:
            spelled = self.spellings()
            starts, pos = [], 0
            for text in spelled:
                starts.append(pos)
                pos += len(text) + 1
            self._joined = ("\0".join(spelled), starts)
        return self._joined

    def words_by_frequency(self) -> list[int]:
        """Word indices, most frequent first (first-seen order among equals); computed once."""
        if self._by_freq is None:
            self._by_freq = sorted(range(len(self.words)), key=lambda i: -self.freqs[i])
        return self._by_freq


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
SAVED_PARTS = ("words", "freqs", "symbols", "num_base", "initial_splits", "merges", "merge_counts", "merge_scores")
SAVED_PARTS += ("merge_added", "merge_forced", "ties", "num_ties", "vocab_len_after", "word_steps")
SAVED_PARTS += (*(name for name, _ in _HISTORY_ARRAYS), "stop_reason", "stop_count", "total_tokens_after")
