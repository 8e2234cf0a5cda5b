"""One step of a training run, and everything the page explains about it.

A :class:`TrainState` is an immutable view of step k of a :class:`~bpe.history.History`:
the merge it made (pair, count, score, ties and the tie rule that decided), the
corpus splits and pair counts at that step, the vocabulary so far, where the
merge's count comes from (:mod:`bpe.provenance`, :meth:`TrainState.provenance_sentence`),
what it changed (:class:`StepChanges`), and how a student's predicted merge compares
(:meth:`TrainState.judge_prediction`). It holds no data of its own beyond the step
number; everything is read from the shared history through its reader methods.

Left out: storing anything (the layout is :mod:`bpe.history`'s) and choosing merges (:mod:`bpe.trainer`).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from .config import STOP_SENTENCES, TIE_RULE_SENTENCES, TOP_K, Pair
from .provenance import Contribution, contributions, sentence, shares_of

# The run's bpe.history.History. Not imported: history imports this module (History.state builds a
# TrainState), and the engine has no import circle, not even a type-only one.
HistoryRecord = Any


def stop_sentence(history: HistoryRecord) -> str | None:
    """Why ``history``'s run stopped, in one sentence (None while it has not stopped)."""
    if history.stop_reason is None:
        return None
    c = history.config
    return (
        "Training stopped: "
        + STOP_SENTENCES[history.stop_reason].format(
            vocab_size=c.vocab_size, num_merges=c.num_merges, count=history.stop_count, min_frequency=c.min_frequency
        )
        + "."
    )


@dataclass(frozen=True)
class StepChanges:
    """What one merge changed: the words rewritten and the pair counts that moved."""

    words: tuple[str, ...]
    vanished: tuple[tuple[Pair, int], ...]  # (pair, count before)
    appeared: tuple[tuple[Pair, int], ...]  # (pair, count after)
    changed: tuple[tuple[Pair, int, int], ...]  # (pair, before, after)


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

    history: HistoryRecord = field(repr=False)
    step: int

    # -- the merge ---------------------------------------------------------------------------
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
        return tuple(h.pair_str(h.pair_of(c)) for c in h.ties[self.step - 1])

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
        return self.history.pair_counts_after(max(self.step - 1, 0))

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

        >>> from bpe import run_training
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
        scored = [
            (Fraction(count, symbol_counts[a] * symbol_counts[b]), count, h.pair_str((a, b)))
            for (a, b), count in pair_counts.items()
        ]
        scored.sort(key=lambda t: (-t[0], first.get(t[2], len(first)), -t[1]))
        return [(pair, count, score) for score, count, pair in scored[:n]]

    # -- corpus ------------------------------------------------------------------------------
    @property
    def splits(self) -> Mapping[str, tuple[str, ...]]:
        return self.history.splits_at(self.step)

    @property
    def vocab(self) -> tuple[str, ...]:
        h = self.history
        size = h.vocab_len_after[self.step]
        return tuple(h.symbols[:size])

    @property
    def vocab_size(self) -> int:
        return self.history.vocab_len_after[self.step]

    @property
    def merges(self) -> tuple[Pair, ...]:
        h = self.history
        return tuple(h.pair_str(m[:2]) for m in h.merges[: self.step])

    def provenance(self) -> list[Contribution]:
        """Where this merge's count comes from: every word that held the pair, in corpus order."""
        return contributions(self)

    def provenance_sentence(self, limit: int = 8, show: Callable[[str], str] = str) -> str:
        """``ug = hug 10 + pug 5 + hugs 5``, largest shares first (:func:`bpe.provenance.sentence`)."""
        return sentence(self, limit, show)

    def provenance_of(self, pairs: Iterable[Pair], limit: int = 6, show: Callable[[str], str] = str) -> dict[Pair, str]:
        """Where each of several pairs' counts (as chosen from at this step) comes from:
        ``"hug 10 + pug 5 + hugs 5 + 1,234 in 56 more words"`` (:func:`bpe.provenance.shares_of`)."""
        return shares_of(self, pairs, limit, show)

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
        return f"score = count({a} {b}) / (count({a}) × count({b})) = {self.count} / ({ca} × {cb}) = {self.score}"

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
                return True, (
                    f"Right: {best} is tied with {self.num_tied - 1} other pair(s), and the tie rule "
                    f"picks it: {self.tie_sentence}."
                )
            return True, f"Right: {best} {best_sentence}; no other pair reaches that {what}."
        if tuple(guess) in self.tied:
            return False, (
                f"Close: {show(guess[0])} + {show(guess[1])} ties with {best}, but the tie rule picks the other: "
                f"{self.tie_sentence}."
            )
        if self.forced:
            return False, f"This step was forced as a what-if: {best} was merged by hand."
        if self.score is not None:
            ca, cb = self.symbol_count(guess[0]), self.symbol_count(guess[1])
            guess_score = Fraction(guess_count, ca * cb) if guess_count else Fraction(0)
            return False, (
                f"Not this time: {show(guess[0])} + {show(guess[1])} scores {guess_count} / ({ca} × {cb}) = "
                f"{guess_score} at this point, but {best} is higher. WordPiece divides a pair's count by "
                "the counts of its two parts, so rare parts score high."
            )
        return False, (
            f"Not this time: {show(guess[0])} + {show(guess[1])} occurs {guess_count} times at this point, "
            f"but {best} is higher. Counts change after each merge: look at the splits."
        )

    def changes(self) -> StepChanges:
        """Words this merge rewrote and the pair counts it moved."""
        if not self.step:
            return StepChanges((), (), (), ())
        h = self.history
        words = tuple(h.words[i] for i in h.words_changed_at(self.step))
        vanished, appeared, changed = [], [], []
        for ids, before, after in h.count_changes(self.step):
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
        return stop_sentence(self.history) if self.is_last else None
