"""The engine's shared vocabulary: types, constants, the tie rules, the algorithms and the training options.

Every other engine module may import this one; it imports nothing from ``bpe``, so reading it needs
no other file. It holds:

- the aliases ``Pair`` (two token strings) and ``Span`` (a ``(start, end)`` character range);
- :data:`TIE_RULE_SENTENCES` and :data:`ALGORITHM_RULES`: one table per choice the trainer makes,
  each entry carrying what the choice means, so a new rule or algorithm is added in one place;
- :data:`STOP_SENTENCES`, why a run stopped;
- the names of the training pre-tokenizers (their patterns live in :mod:`bpe.pre_tokenizers`);
- :class:`TrainConfig`, the options of a run, checked when built;
- the sizes a run keeps per step (``TOP_K``, ``MAX_TIES_KEPT``) and the pair code shared by the
  trainer and the history (``PAIR_SHIFT``);
- the limits on a file's values (:data:`MAX_TOKEN_ID`, :data:`MAX_NESTING`, :func:`check_nesting`) and
  :func:`shown`, which every error message quoting a file's value goes through.

Left out: behaviour. How a tie rule orders pairs is the trainer's; how a step reads is the history's.

>>> TrainConfig(tie_break="hf").tie_break
'hf'
>>> ALGORITHM_RULES["wordpiece"].continuing_prefix
'##'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

Pair = tuple[str, str]  # two adjacent tokens, as strings
Span = tuple[int, int]  # a (start, end) range of characters in a text

WORDPIECE_PREFIX = "##"  # WordPiece marks a symbol that continues a word
TOP_K = 24  # pairs kept per step for tables and charts (the page shows 20)
MAX_TIES_KEPT = 200  # tied pairs kept per step (their total is always kept)
PAIR_SHIFT = 1 << 24  # pair (a, b) of symbol ids -> the code a * PAIR_SHIFT + b; 16M symbols is plenty
MAX_TOKEN_ID = 2**31 - 1  # a file's token ids (and ranks) are whole numbers from 0 to this (tokenizers: u32)
MAX_NESTING = 64  # levels of components inside components a file may nest (Sequence of Sequence ...)
SHOWN_CHARS = 80  # characters of a file's value quoted in an error message


SHOWN_NODES = 10_000  # values a quote walks at most: a file's shared references cannot make it exponential


def shown(value: object) -> str:
    """A file's value as an error message quotes it: its ``repr``, cut to :data:`SHOWN_CHARS` characters
    and the length said (a 20 MB merge entry is not echoed whole). Never the ``repr`` of the whole value:
    it is written by a walk that stops after :data:`SHOWN_NODES` values (a 738-byte pickle of 60 levels
    of lists, each holding the next twice, has a ``repr`` of 2**60 lists), so a length past that is said
    as "over"; a value nested deeper than :data:`MAX_NESTING` is described instead.

    >>> shown("ab")
    "'ab'"
    >>> shown("x" * 1000)
    "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx… (1,002 characters)"
    >>> shown([(1, b"a"), {"k": None}])
    "[(1, b'a'), {'k': None}]"
    """
    quote = _Quote()
    try:
        quote.walk(value, 0)
    except _Deep:
        return f"a {type(value).__name__} nested too deeply to show"
    except _Long:
        pass
    text = "".join(quote.parts)
    if quote.total <= SHOWN_CHARS and quote.complete:
        return text
    return f"{text[:SHOWN_CHARS]}… ({'' if quote.complete else 'over '}{quote.total:,} characters)"


class _Deep(Exception):
    pass


class _Long(Exception):
    pass


class _Quote:
    """The start of a value's ``repr`` (enough to cut at :data:`SHOWN_CHARS`) and its length, counted
    over at most :data:`SHOWN_NODES` values."""

    KEPT = 2 * SHOWN_CHARS  # characters written out; past them only the length is counted

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.made = 0
        self.total = 0
        self.nodes = 0
        self.complete = True

    def put(self, text: str, size: int | None = None) -> None:
        self.total += len(text) if size is None else size
        if self.made < self.KEPT:
            self.parts.append(text[: self.KEPT - self.made])
            self.made += len(self.parts[-1])

    def walk(self, value: object, depth: int) -> None:
        self.nodes += 1
        if self.nodes > SHOWN_NODES:
            self.complete = False
            raise _Long
        if isinstance(value, (str, bytes)):
            cut = len(value) > self.KEPT
            self.put(repr(value[: self.KEPT]) if cut else repr(value), len(value) + 2 if cut else None)
        elif isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 1_000:
            self.put(f"<a whole number of {value.bit_length():,} bits>")  # repr() of a huge int is quadratic
        elif value is None or isinstance(value, (bool, int, float)):
            self.put(repr(value))
        elif isinstance(value, (list, tuple, dict, set, frozenset)):
            if depth >= MAX_NESTING:
                raise _Deep
            self._container(value, depth)
        else:  # no repr() of an object of another type: it could be anything
            self.put(f"<{type(value).__name__}>")

    def _container(self, value, depth: int) -> None:
        opening, closing = {list: "[]", tuple: "()", dict: "{}"}.get(type(value), "{}")
        if isinstance(value, (set, frozenset)) and not value:
            self.put(f"{type(value).__name__}()")
            return
        self.put(opening)
        for k, item in enumerate(value.items() if isinstance(value, dict) else value):
            if k:
                self.put(", ")
            if isinstance(value, dict):
                self.walk(item[0], depth + 1)
                self.put(": ")
                item = item[1]
            self.walk(item, depth + 1)
        if isinstance(value, tuple) and len(value) == 1:
            self.put(",")
        self.put(closing)


def check_nesting(value: object, what: str, limit: int = MAX_NESTING) -> None:
    """Raise a ValueError if lists and objects in ``value`` nest more than ``limit`` deep (checked
    without recursion, so any depth gets the sentence)."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children = item.values()
        elif isinstance(item, (list, tuple)):
            children = item
        else:
            continue
        if depth > limit:
            raise ValueError(
                f"The file's {what} nests more than {limit} levels deep (components inside components); "
                f"BPE Explorer reads at most {limit}."
            )
        stack.extend((c, depth + 1) for c in children if isinstance(c, (dict, list, tuple)))


# The training pre-tokenizers by name (how each cuts text is in bpe/pre_tokenizers.py), and the
# byte-level ones, whose symbols are GPT-2's byte characters.
PRE_TOKENIZERS: tuple[str, ...] = ("whitespace", "gpt2", "gpt4", "sennrich", "space-suffix")
BYTE_LEVEL: frozenset[str] = frozenset({"gpt2", "gpt4"})

TieRule = Literal["first", "hf", "lexicographic", "greatest-bytes", "greatest"]
Algorithm = Literal["bpe", "wordpiece"]

# The tie rules, each with the sentence that states it ("forced" is not a rule one chooses: it names a
# merge made by hand).
TIE_RULE_SENTENCES: dict[str, str] = {
    "first": "the pair seen first, reading words in first-seen order and each word left to right, wins",
    "hf": "the pair with the smallest (left id, right id) wins, as in the tokenizers library",
    "lexicographic": "the alphabetically smallest pair (left, then right) wins",
    "greatest-bytes": "the lexicographically greatest pair wins, comparing the bytes each token stands for (left, "
    "then right), as Stanford CS336's assignment 1 does",
    "greatest": "the lexicographically greatest pair wins, comparing the tokens as shown (left, then right); it "
    "differs from greatest-bytes only for byte-level tokens: 'Ġ' (a space, byte 0x20) comes after every letter as a "
    "character but before them as a byte, so ('Ġ', 't') beats ('a', 't') under this rule and loses to it under greatest-bytes",
    "forced": "this pair was chosen by hand (a what-if), whatever its count",
}
TIE_RULES: tuple[str, ...] = get_args(TieRule)
GREATEST_RULES: frozenset[str] = frozenset({"greatest-bytes", "greatest"})  # the larger pair wins


def descending(value: str | bytes) -> tuple[int, ...]:
    """A sort key that puts the greatest string (or bytes) first: each code negated, then a 1 that
    sorts after any negated code, so a longer string comes before its own prefix ("ab" before "a").

    >>> sorted(["a", "ab", "b"], key=descending)
    ['b', 'ab', 'a']
    """
    codes = value if isinstance(value, bytes) else map(ord, value)
    return (*(-c for c in codes), 1)


@dataclass(frozen=True)
class AlgorithmRule:
    """What an algorithm changes in training: the prefix its word-inner symbols carry, and whether a pair
    is chosen by its score ``count(ab) / (count(a) * count(b))`` instead of its count."""

    name: str
    label: str
    continuing_prefix: str
    scored: bool


ALGORITHM_RULES: dict[str, AlgorithmRule] = {
    "bpe": AlgorithmRule("bpe", "BPE", "", scored=False),
    "wordpiece": AlgorithmRule("wordpiece", "WordPiece", WORDPIECE_PREFIX, scored=True),
}
ALGORITHMS: tuple[str, ...] = get_args(Algorithm)

STOP_SENTENCES = {
    "vocab_size": "the vocabulary reached its target size of {vocab_size} tokens",
    "num_merges": "the requested number of merges ({num_merges}) was reached",
    "min_frequency": "the best pair occurs {count} times, below the minimum frequency of {min_frequency}",
    "no_pairs": "no pair left: every word is a single token",
    "stopped": "Stop was pressed after merge {count:,}, before the run was complete",
}


@dataclass(frozen=True)
class TrainConfig:
    """The options shared by :func:`~bpe.trainer.train_steps` and :func:`bpe.train`, checked when built."""

    pre_tokenizer: str = "whitespace"
    vocab_size: int | None = None
    num_merges: int | None = None
    special_tokens: tuple[str, ...] = ()
    min_frequency: int = 0
    tie_break: TieRule = "first"
    algorithm: Algorithm = "bpe"
    full_byte_alphabet: bool = False
    forced_merges: tuple[tuple[int, Pair], ...] = ()

    def __post_init__(self) -> None:
        if self.pre_tokenizer not in PRE_TOKENIZERS:
            raise ValueError(
                f"Unknown pre-tokenizer {self.pre_tokenizer!r}; choose one of: {', '.join(PRE_TOKENIZERS)}."
            )
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
        if self.full_byte_alphabet and self.pre_tokenizer not in BYTE_LEVEL:
            raise ValueError("The full 256-byte alphabet only applies to byte-level pre-tokenizers (gpt2, gpt4).")
        for token in self.special_tokens:
            if not isinstance(token, str) or not token:
                raise ValueError(f"Special tokens must be non-empty strings; got {token!r}.")
        for step, pair in self.forced_merges:
            if isinstance(step, bool) or not isinstance(step, int) or step < 1:
                raise ValueError(f"A forced merge needs a step number of 1 or more; got {step!r}.")
            if not (isinstance(pair, tuple) and len(pair) == 2 and all(isinstance(s, str) for s in pair)):
                raise ValueError(f"The forced merge at step {step} must be a pair of two strings; got {pair!r}.")

    @property
    def rule(self) -> AlgorithmRule:
        """The algorithm's entry in :data:`ALGORITHM_RULES`."""
        return ALGORITHM_RULES[self.algorithm]
