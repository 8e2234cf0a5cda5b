"""Our side of a check: the settings of our run, training it on the student's corpus, and the search for
the settings that reproduce the student's merges longest.

:class:`Setup` names a run's settings (tie rule, pre-tokenizer, byte or character base);
:func:`train_setup` trains our run with them on the corpus as typed (special tokens split out first, as
CS336 asks); :func:`history_bytes` gives its merges as byte pairs, so they compare with any student's;
:func:`student_words` gives the words as byte tuples for replaying a student's loop
(:mod:`bpe.merge_faults`). :func:`best_settings` ranks our settings by how many of the student's merges
each reproduces, within an allowance of work (:mod:`bpe.check_work`), trying the likeliest first (those the
caller prefers, CS336's for a CS336 upload).

Left out: why the runs part (:mod:`bpe.check`).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from . import pre_tokenizers as pt
from .check_work import MergeCost, Work, once
from .config import BYTE_LEVEL, PRE_TOKENIZERS, TIE_RULES
from .formats.cs336 import BytePair
from .formats.student_runs import END_OF_WORD, StudentRun
from .history import History
from .pre_tokenizers import Corpus
from .tie_order import token_bytes
from .trainer import run_training, train_steps

MAX_SEARCH_CHARS = 200_000  # corpora larger than this are not searched over settings
# the cuts the search tries: the Train page's, and none at all (minbpe trains on the whole text as one sequence,
# with its first-seen tie; a CS336 student who appends every pre-token of a document to one list does the same with
# CS336's greatest-bytes tie, or with the smallest pair as an ascending sort or a heap of (-count, pair) picks it;
# only those rules are tried with it: one long word is slow to set up)
SEARCH_CUTS = (*PRE_TOKENIZERS, "none")
NONE_TIES = ("first", "greatest-bytes", "lexicographic")


@dataclass(frozen=True)
class Setup:
    """Our settings for a run: the tie rule, how text is cut into words, and whether words start as
    bytes (GPT-2's byte characters, a 256-byte base) or as characters."""

    tie_break: str = "first"
    pre_tokenizer: str = "whitespace"
    byte_base: bool = False

    def describe(self) -> str:
        base = "bytes" if self.byte_base else "characters"
        return f"tie rule {self.tie_break}, pre-tokenizer {self.pre_tokenizer}, {base}"

    def sentence(self, base: bool = True) -> str:
        """The settings in words: 'gpt2 pre-tokenization, the greatest-bytes tie rule and a 256-byte base'
        (``base=False``: without the base, where it makes no difference)."""
        cut = self.cut_sentence()
        if not base:
            return f"{cut} and the {self.tie_break} tie rule"
        start = "a 256-byte base" if self.byte_base else "characters as the base"
        return f"{cut}, the {self.tie_break} tie rule and {start}"

    def cut_sentence(self) -> str:
        """How the text is cut: 'gpt2 pre-tokenization', or 'no pre-tokenization (each text one sequence)'."""
        if self.pre_tokenizer == "none":
            return "no pre-tokenization (each text one sequence)"
        return f"{self.pre_tokenizer} pre-tokenization"


CS336_SETUP = Setup("greatest-bytes", "gpt2", True)
CS336_SPECIALS = ("<|endoftext|>",)


def raw_word_counts(corpus: Corpus, pre_tokenizer: str, special_tokens: Sequence[str] = ()) -> dict[str, int]:
    """Word counts of the text as typed (not byte-mapped): special tokens split out first, then the text
    cut by ``pre_tokenizer``; word counts are taken as given. A text is cut once per check (:func:`once`): every
    setting and search asks for its words."""
    key = ("words", corpus, pre_tokenizer, tuple(special_tokens))
    return dict(once(key, lambda: _raw_word_counts(corpus, pre_tokenizer, special_tokens)))


def _raw_word_counts(corpus: Corpus, pre_tokenizer: str, special_tokens: Sequence[str]) -> dict[str, int]:
    if isinstance(corpus, Mapping):
        return pt.check_word_counts(corpus)
    cut = "whitespace" if pre_tokenizer == "sennrich" else pre_tokenizer
    counts: dict[str, int] = {}
    for word, n in pt.count_words(_texts(corpus, special_tokens), cut).items():
        if cut in BYTE_LEVEL:
            word = pt.symbols_to_bytes(word).decode("utf-8")
        counts[word] = counts.get(word, 0) + n
    if not counts:
        raise ValueError("The corpus is empty: paste some text or word counts, or pick a preset.")
    return counts


def _texts(corpus: str | Sequence[str], special_tokens: Sequence[str]) -> list[str]:
    texts = [corpus] if isinstance(corpus, str) else list(corpus)
    if special_tokens:
        pattern = re.compile("|".join(re.escape(s) for s in sorted(special_tokens, key=len, reverse=True)))
        texts = [part for text in texts for part in pattern.split(text)]
    return texts


def last_seen(corpus: Corpus, pre_tokenizer: str, special_tokens: Sequence[str] = ()) -> list[str] | None:
    """The words as typed (the keys of :func:`raw_word_counts`) in the order of their last occurrence in the text, as
    a loop over every word in the text's order meets them last; None for word counts (no order to read). Read once
    per check (:func:`once`), and only where a tie key asks for it."""
    if isinstance(corpus, Mapping):
        return None
    key = ("last seen", corpus, pre_tokenizer, tuple(special_tokens))
    return once(key, lambda: _last_seen(corpus, pre_tokenizer, special_tokens))


def _last_seen(corpus: str | Sequence[str], pre_tokenizer: str, special_tokens: Sequence[str]) -> list[str]:
    pattern = pt.word_pattern("whitespace" if pre_tokenizer == "sennrich" else pre_tokenizer)
    last: dict[str, int] = {}
    at = 0
    for text in _texts(corpus, special_tokens):  # one text's words held at a time
        words = pattern.findall(text)
        last.update(zip(words, itertools.count(at)))  # a word met again keeps its latest place
        at += len(words)
    return sorted(last, key=last.__getitem__)


def text_order(
    corpus: Corpus, setup: Setup, special_tokens: Sequence[str], texts: Sequence[str]
) -> tuple[int, ...] | None:
    """The indexes of ``texts`` (the words of :func:`student_words`) in the order of their last occurrence in the
    text; None for word counts."""
    seen = last_seen(corpus, setup.pre_tokenizer, special_tokens)
    if seen is None:
        return None
    place = {w: k for k, w in enumerate(seen)}
    return tuple(sorted(range(len(texts)), key=lambda i: place.get(texts[i], -1)))


def base_symbols(text: str, byte_base: bool) -> tuple[bytes, ...]:
    """``text`` as base symbols in bytes: one byte each, or one character's UTF-8 bytes each."""
    if byte_base:
        return tuple(bytes([b]) for b in text.encode("utf-8"))
    return tuple(c.encode("utf-8") for c in text)


def student_words(
    corpus: Corpus, setup: Setup, special_tokens: Sequence[str] = (), end_of_word: bool = False
) -> tuple[list[str], list[tuple[bytes, ...]], list[int]]:
    """The words as typed, each as its base symbols in bytes (one byte each, or one character's UTF-8
    bytes each), and their counts."""
    counts = raw_word_counts(corpus, setup.pre_tokenizer, special_tokens)
    texts, words, freqs = [], [], []
    for text, n in counts.items():
        texts.append(text)
        words.append(setup_symbols(text, setup, end_of_word))
        freqs.append(n)
    return texts, words, freqs


def setup_symbols(text: str, setup: Setup, end_of_word: bool = False) -> tuple[bytes, ...]:
    """One word's base symbols as ``setup`` trains on it: with ``'</w>'`` glued to the last (``end_of_word``, as
    subword-nmt's codes) or alone after it (the ``sennrich`` pre-tokenizer on characters)."""
    symbols = list(base_symbols(text, setup.byte_base))
    if end_of_word and symbols:
        symbols[-1] += END_OF_WORD.encode()
    elif setup.pre_tokenizer == "sennrich" and not setup.byte_base:
        symbols.append(END_OF_WORD.encode())  # as train_setup's sennrich scheme splits a word: '</w>' alone
    return tuple(symbols)


def _scheme(setup: Setup) -> str:
    if setup.byte_base:
        return "gpt2"  # word counts given to a byte-level scheme are byte-mapped, whatever cut them
    return "sennrich" if setup.pre_tokenizer == "sennrich" else "whitespace"


def _training(corpus: Corpus, setup: Setup, special_tokens: Sequence[str], end_of_word: bool) -> tuple[Mapping, str]:
    counts = raw_word_counts(corpus, setup.pre_tokenizer, special_tokens)
    if end_of_word:
        return {(*w[:-1], w[-1] + END_OF_WORD): n for w, n in counts.items()}, "whitespace"
    return counts, _scheme(setup)


def train_setup(
    corpus: Corpus, setup: Setup, num_merges: int, special_tokens: Sequence[str] = (), end_of_word: bool = False
) -> History:
    """Our run with ``setup`` for ``num_merges`` merges. ``end_of_word``: words split as subword-nmt splits
    them (the last character carries ``</w>``)."""
    words, scheme = _training(corpus, setup, special_tokens, end_of_word)
    return run_training(
        words, pre_tokenizer=scheme, num_merges=num_merges, tie_break=setup.tie_break, special_tokens=special_tokens
    )


def setup_agreed(
    corpus: Corpus, setup: Setup, merges: Sequence[BytePair], special_tokens: Sequence[str] = (), end_of_word=False
) -> int:
    """How many of ``merges`` our run with ``setup`` makes before it parts from them: training stops at
    the first difference, so a setting that parts early costs little. Trained once per check (:func:`once`): the
    settings search, the comparison and the tie rules ask for the same settings."""
    key = ("agreed", corpus, setup, tuple(merges), tuple(special_tokens), end_of_word)
    return once(key, lambda: _setup_agreed(corpus, setup, merges, special_tokens, end_of_word))


def _setup_agreed(corpus, setup, merges, special_tokens, end_of_word) -> int:
    words, scheme = _training(corpus, setup, special_tokens, end_of_word)
    states = train_steps(
        words, pre_tokenizer=scheme, num_merges=len(merges), tie_break=setup.tie_break, special_tokens=special_tokens
    )
    history = next(states).history
    n = 0
    for _ in states:
        while n < len(history.merges):
            a, b = history.pair_str(history.merges[n][:2])
            if (token_bytes(a, scheme), token_bytes(b, scheme)) != merges[n]:
                states.close()
                return n
            n += 1
    return n


def history_bytes(history: History) -> list[BytePair]:
    """A run's merges as byte pairs."""
    scheme = history.config.pre_tokenizer
    return [
        (token_bytes(a, scheme), token_bytes(b, scheme))
        for a, b in (history.pair_str((m[0], m[1])) for m in history.merges)
    ]


def agreed(ours: Sequence[BytePair], theirs: Sequence[BytePair]) -> int:
    """How many merges two runs share before they part."""
    n = 0
    for a, b in zip(ours, theirs):
        if a != b:
            break
        n += 1
    return n


def best_settings(
    corpus: Corpus,
    student: StudentRun,
    special_tokens: Sequence[str] = (),
    units: float | None = None,
    *,
    prefer: Sequence[Setup] = (),
) -> list[tuple[Setup, int]]:
    """Our settings ranked by how many of the student's merges they reproduce, best first (ties in trying
    order). ``prefer``: settings tried first (CS336's are added for a CS336 upload). Stops when the trainings
    have spent ``units`` of work (each priced as the student's merges it makes, on the preferred settings' words:
    :class:`~bpe.check_work.MergeCost`), or when one reproduces every merge; empty for large corpora."""
    size = sum(map(len, corpus)) if not isinstance(corpus, str) else len(corpus)
    if size > MAX_SEARCH_CHARS:
        return []
    work = Work("settings", units)
    results: list[tuple[Setup, int]] = []
    cuts = SEARCH_CUTS
    if isinstance(corpus, Mapping):  # cut already: the pre-tokenizer is only a name, the preferred one (a saved run's)
        named = prefer[0].pre_tokenizer if prefer else "whitespace"
        cuts = (named if named != "sennrich" else "whitespace",)
    first = [*prefer, *((CS336_SETUP,) if student.format.startswith("CS336") else ())]
    every = [Setup(rule, cut, byte_base) for byte_base in (True, False) for cut in cuts for rule in TIE_RULES]
    if prefer:  # the fewest changes first: another tie rule, then another pre-tokenizer, then another base
        every.sort(key=lambda s: (s.byte_base != prefer[0].byte_base, s.pre_tokenizer != prefer[0].pre_tokenizer))
    cost = _cost(corpus, first[0] if first else every[0], student, special_tokens)
    for setup in dict.fromkeys([*first, *every]):
        if setup.pre_tokenizer == "sennrich" and (setup.byte_base or not student.end_of_word):
            continue
        if isinstance(corpus, Mapping) and setup.pre_tokenizer != cuts[0]:
            continue
        if setup.pre_tokenizer == "none" and setup.tie_break not in NONE_TIES and setup not in first:
            continue
        try:
            results.append((setup, setup_agreed(corpus, setup, student.merges, special_tokens, student.end_of_word)))
        except ValueError:
            continue
        work.spend(cost(results[-1][1] + 1) if cost is not None else 0)
        if results[-1][1] == len(student.merges) or work.spent():
            break
    # on equal reach: the preferred settings, then their pre-tokenizer (the fewest changes), then no
    # pre-tokenization (one bug that changes every word, where another pre-tokenizer matches a run without
    # word boundaries for a few merges by chance), then trying order
    cut = first[0].pre_tokenizer if first else None
    return sorted(
        results, key=lambda r: (-r[1], r[0] not in first, r[0].pre_tokenizer != cut, r[0].pre_tokenizer != "none")
    )


def _cost(corpus: Corpus, setup: Setup, student: StudentRun, special_tokens: Sequence[str]) -> MergeCost | None:
    """The price of training the student's first merges under ``setup`` (None where its corpus is empty): every
    setting that makes them rewrites about the same words."""
    try:
        _, words, _ = student_words(corpus, setup, special_tokens, student.end_of_word)
    except ValueError:
        return None
    return MergeCost(words, student.merges)
