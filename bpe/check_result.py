"""What a check finds: where a student's run leaves ours, why, and the words that count the pair differently.

:class:`Comparison` holds the step, both pairs and their counts in our run, the cause in one sentence
and what names it (the kind, the tie rule, the merge-loop fault, other settings); :func:`pair_words`
and :func:`words_that_differ` list the words whose count of a pair differs between two runs.

Left out: finding the cause (:mod:`bpe.check`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from . import pre_tokenizers as pt
from .check_notation import clip, show_bytes, show_pair
from .check_setup import Setup
from .config import BYTE_LEVEL
from .formats.cs336 import BytePair
from .formats.student_runs import StudentRun
from .history import History


@dataclass(frozen=True)
class Comparison:
    """Where a student's run leaves ours and why.

    ``step`` is the first merge that differs (None when every merge agrees); ``ours``/``theirs`` the two
    pairs there, ``our_count``/``their_count`` both pairs' counts in our run before that merge; ``kind``
    names the cause (``byte-base``, ``pre-tokenizer``, ``tie``, ``case``, ``overlap``, ``merge-loop``,
    ``count``, ``whitespace``, ``specials``, ``split-specials`` (a special token split out where the settings keep
    it in), ``missing``, ``vocab-size``, ``shorter``, ``stops-early``,
    ``goes-past``, ``same``, ``reading``: a fault in reading the corpus in chunks; ``vocabulary``: merges written
    through a vocabulary that labels the bytes wrongly, ``fault`` naming how (:mod:`bpe.check_relabel`, ``renumbered``:
    :mod:`bpe.check_renumbered`); against a saved run also ``unknown``, a cause its word counts cannot tell, and
    ``past-saved``, a run that goes on past the saved one), ``cause`` says it in one sentence, ``rule`` is the tie rule that reproduces
    the student's choice, ``fault`` the merge-loop fault (a name in :data:`bpe.merge_faults.FAULTS`, or
    ``int-sum`` for tokens kept as ints and added, :mod:`bpe.check_ints`; for ``reading`` in
    :data:`bpe.count_faults.COUNT_FAULTS`),
    ``settings`` other settings that reproduce more of the run (``equal``: every merge, and the step is
    where the compared settings part), ``words`` the words that count differently (word, our count, the
    student's count). ``later_kind``/``later_step``: with other ``settings`` (or the counts of a
    ``reading`` fault) that reproduce only part of the run, the cause and the step where the student's run
    leaves ours under them (a merge-loop fault, a tie rule...), named after the settings.
    """

    agreed: int
    step: int | None
    ours: BytePair | None
    theirs: BytePair | None
    our_count: int
    their_count: int
    kind: str
    cause: str
    history: History
    setup: Setup
    rule: str | None = None
    words: tuple[tuple[str, int, int], ...] = ()
    our_merges: tuple[BytePair, ...] = ()
    fault: str | None = None
    settings: Setup | None = None
    equal: bool = False
    later_kind: str | None = None
    later_step: int | None = None

    def told_at_step_one(
        self, theirs: BytePair, kind: str, fault: str | None, cause: str, ours: BytePair | None = None
    ) -> Comparison:
        """This verdict, on the run read or cut another way, told after a cause found at step 1 (``kind``,
        ``fault``, ``cause``, with the student's merge ``theirs`` there, and ours, by default our first): its own
        kind and step kept as what comes after."""
        if ours is None and self.our_merges:
            ours = self.our_merges[0]
        return replace(
            self, agreed=0, step=1, ours=ours, theirs=theirs, our_count=0, their_count=0, kind=kind, cause=cause,
            fault=fault, later_kind=self.kind if self.step else None, later_step=self.step, equal=False,
        )  # fmt: skip

    def around(self, student: StudentRun, before: int = 2, after: int = 2) -> list[tuple[int, str, str]]:
        """(step, our merge, the student's merge) around the first difference, as text."""
        if self.step is None:
            return []
        rows = []
        for k in range(max(1, self.step - before), self.step + after + 1):
            ours = self.our_merges[k - 1] if k <= len(self.our_merges) else None
            theirs = student.merges[k - 1] if k <= len(student.merges) else None
            if ours is None and theirs is None:
                break
            rows.append((k, show_pair(ours) if ours else "", show_pair(theirs) if theirs else ""))
        return rows


def to_ours(pair: BytePair, history: History) -> tuple[str, str] | None:
    """The student's byte pair as our token strings (None if our symbols cannot spell it)."""
    if history.config.pre_tokenizer in BYTE_LEVEL:
        return (pt.bytes_to_symbols(pair[0]), pt.bytes_to_symbols(pair[1]))
    try:
        return (pair[0].decode("utf-8"), pair[1].decode("utf-8"))
    except UnicodeDecodeError:
        return None


def _occurrences(split: Sequence[str], pair: tuple[str, str], overlap: bool = True) -> int:
    n, i = 0, 0
    while i < len(split) - 1:
        if split[i] == pair[0] and split[i + 1] == pair[1]:
            n += 1
            i += 1 if overlap else 2
        else:
            i += 1
    return n


def pair_words(history: History, step: int, pair: tuple[str, str] | None, overlap: bool = True) -> dict[str, int]:
    """Word (as typed) -> the pair's count in it (occurrences x frequency) after ``step`` merges."""
    if pair is None:
        return {}
    scheme = history.config.pre_tokenizer
    out = {}
    for word, split in history.splits_at(step).items():
        n = _occurrences(split, pair, overlap)
        if n:
            text = pt.symbols_to_bytes(word).decode("utf-8", "replace") if scheme in BYTE_LEVEL else word
            out[show_bytes(text.encode("utf-8"))] = n * history.freqs[history.word_index[word]]
    return out


def words_that_differ(ours: dict[str, int], theirs: dict[str, int], limit: int = 8) -> tuple:
    rows = [(w, ours.get(w, 0), theirs.get(w, 0)) for w in dict.fromkeys([*ours, *theirs])]
    rows = [r for r in rows if r[1] != r[2]]
    rows.sort(key=lambda r: -abs(r[1] - r[2]))
    return tuple((clip(w), a, b) for w, a, b in rows[:limit])
