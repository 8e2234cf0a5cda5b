"""Pre-tokenizers: how a text is cut into words before BPE ever looks at pairs.

BPE never merges across word boundaries, so the pre-tokenizer decides what a
"word" is. Six schemes are offered, by name:

- ``whitespace``: split on runs of whitespace (the whitespace is dropped).
- ``gpt2``: GPT-2's split pattern (contractions, letters, numbers, punctuation,
  whitespace) run with the ``regex`` package, then every UTF-8 byte mapped to a
  printable character (space -> ``Ġ``, newline -> ``Ċ``). It equals the
  ``tokenizers`` library's ``ByteLevel(add_prefix_space=False)`` word for word.
- ``gpt4``: the cl100k split pattern (numbers in groups of up to three, case-
  insensitive contractions), same byte map.
- ``sennrich``: whitespace split; each word then ends in the symbol ``</w>``
  (Sennrich et al. 2016, Algorithm 1), so ``low`` starts as ``l o w </w>``.
- ``space-suffix``: each word keeps its trailing whitespace, as in the streaming
  example of "How BPE works": ``aa abc abc`` -> ``aa ``, ``abc ``, ``abc``.
- ``none``: no pre-tokenization, each text one word, as minbpe trains on the whole
  text as one sequence. The Check tries it; the Train page does not offer it.

Words can also be given directly as ``word count`` lines (:func:`parse_word_counts`).

Left out: normalisation (lower-casing, NFKC) and ``add_prefix_space``; a word is
exactly the text the pattern matched.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from functools import lru_cache

import regex

from .config import BYTE_LEVEL, PRE_TOKENIZERS, Span

END_OF_WORD = "</w>"
# a student's word mark of several characters stands in our words as one character the text never holds
# (bpe.check_marks), so that it is one symbol: one for a mark ending words, one for a mark starting them
MARK_ALIASES = {"end": "\ue000", "start": "\ue001"}

# GPT-2's pattern, as in openai/gpt-2 encoder.py and the `tokenizers` ByteLevel pre-tokenizer.
GPT2_PATTERN = r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""
# cl100k_base (GPT-3.5/GPT-4), as published in tiktoken.
GPT4_PATTERN = (
    r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*"""
    r"""|\s*[\r\n]+|\s+(?!\S)|\s+"""
)

_PATTERNS = {
    "whitespace": regex.compile(r"\S+"),
    "sennrich": regex.compile(r"\S+"),
    # A word and all the whitespace after it; leading whitespace stands alone.
    "space-suffix": regex.compile(r"\S+\s*|\s+"),
    "gpt2": regex.compile(GPT2_PATTERN),
    "gpt4": regex.compile(GPT4_PATTERN),
    "none": regex.compile(r"(?s).+"),  # the whole text, newlines included
}


@lru_cache(maxsize=1)
def bytes_to_unicode() -> dict[int, str]:
    """GPT-2's map from each of the 256 bytes to a printable character.

    Printable Latin-1 bytes map to themselves; the other 68 (control characters,
    space, DEL, ...) are shifted to code points 256 and up, in byte order. That is
    why space (0x20, the 33rd unprintable byte) becomes U+0120 ``Ġ`` and newline
    (0x0A) becomes U+010A ``Ċ``. The map is filled in the order of GPT-2's own two
    lists, ``bs`` (its keys) and ``cs`` (its values): the printable bytes first.

    >>> bytes_to_unicode()[ord(" ")]
    'Ġ'
    """
    printable = [*range(ord("!"), ord("~") + 1), *range(ord("¡"), ord("¬") + 1), *range(ord("®"), ord("ÿ") + 1)]
    mapping = {b: chr(b) for b in printable}
    shift = 0
    for b in range(256):
        if b not in mapping:
            mapping[b] = chr(256 + shift)
            shift += 1
    return mapping


@lru_cache(maxsize=1)
def unicode_to_bytes() -> dict[str, int]:
    """The inverse of :func:`bytes_to_unicode`."""
    return {c: b for b, c in bytes_to_unicode().items()}


_BYTE_TABLE = [bytes_to_unicode()[b] for b in range(256)]
_BYTE_TRANSLATE = {b: c for b, c in enumerate(_BYTE_TABLE) if chr(b) != c}  # latin-1 text -> GPT-2's symbols


def bytes_to_symbols(data: bytes) -> str:
    """Map raw bytes to GPT-2's printable characters, one character per byte."""
    return data.decode("latin-1").translate(_BYTE_TRANSLATE)


def symbols_to_bytes(symbols: str) -> bytes:
    """Undo :func:`bytes_to_symbols`; raises ValueError on a character outside the map."""
    inverse = unicode_to_bytes()
    try:
        return bytes(inverse[c] for c in symbols)
    except KeyError as exc:
        raise ValueError(f"{exc.args[0]!r} is not one of GPT-2's 256 byte characters.") from None


def check_pre_tokenizer(name: str) -> str:
    """Return ``name`` if it is a known pre-tokenizer, else raise a ValueError listing them."""
    if name not in _PATTERNS:
        raise ValueError(f"Unknown pre-tokenizer {name!r}; choose one of: {', '.join(PRE_TOKENIZERS)}.")
    return name


def is_byte_level(name: str) -> bool:
    """True for schemes whose symbols are GPT-2's byte characters (``gpt2``, ``gpt4``)."""
    return check_pre_tokenizer(name) in BYTE_LEVEL


def word_pattern(name: str) -> regex.Pattern:
    """The compiled pattern whose matches are the named scheme's words (before byte mapping)."""
    return _PATTERNS[check_pre_tokenizer(name)]


def pre_tokenize_with_offsets(text: str, name: str) -> list[tuple[str, Span]]:
    """Cut ``text`` into words, each with its (start, end) character span in ``text``.

    For byte-level schemes the word is already byte-mapped (``" is"`` -> ``"Ġis"``)
    while the span still points into the original text.
    """
    pattern = _PATTERNS[check_pre_tokenizer(name)]
    if name in BYTE_LEVEL:
        return [(bytes_to_symbols(m.group().encode("utf-8")), m.span()) for m in pattern.finditer(text)]
    return [(m.group(), m.span()) for m in pattern.finditer(text)]


def pre_tokenize(text: str, name: str) -> list[str]:
    """Cut ``text`` into words with the named scheme.

    >>> pre_tokenize("This is it.", "gpt2")
    ['This', 'Ġis', 'Ġit', '.']
    >>> pre_tokenize("aa abc abc", "space-suffix")
    ['aa ', 'abc ', 'abc']
    """
    return [word for word, _ in pre_tokenize_with_offsets(text, name)]


def word_symbols(word: str, name: str) -> tuple[str, ...]:
    """The initial split of a pre-tokenized word: one symbol per character,
    plus the end-of-word symbol ``</w>`` for ``sennrich``."""
    if name == "sennrich":
        return (*word, END_OF_WORD)
    return tuple(word)


def raw_word_to_word(word: str, name: str) -> str:
    """Turn a word typed by a person (``hug``) into the form the scheme trains on.

    Only byte-level schemes change it: its UTF-8 bytes are mapped to GPT-2's characters.
    """
    if is_byte_level(name):
        return bytes_to_symbols(word.encode("utf-8"))
    return word


def count_words(texts: Iterable[str], name: str) -> dict[str, int]:
    """Word frequencies over ``texts``, in first-seen order (the order the course's
    ``defaultdict`` keeps, which the ``"first"`` tie rule relies on)."""
    check_pre_tokenizer(name)
    # Count the raw matches first (findall runs in C) and byte-map each distinct word once.
    pattern = _PATTERNS[name]
    raw: Counter[str] = Counter()  # counts in C, keeps first-seen order
    for text in texts:
        if not isinstance(text, str):
            raise ValueError(f"Expected text (str) but got {type(text).__name__}; pass a string or a list of strings.")
        raw.update(pattern.findall(text))
    if name not in BYTE_LEVEL:
        return dict(raw)
    counts: dict[str, int] = {}
    for word, count in raw.items():
        key = bytes_to_symbols(word.encode("utf-8"))
        counts[key] = counts.get(key, 0) + count
    return counts


MAX_WORD_COUNT = 10**12  # a count above a trillion is refused (pair counts are stored as 64-bit integers)
MAX_SYMBOL_TOTAL = 2**62  # the sum over words of count × length must stay below this, for the same reason


def parse_word_counts(text: str, line_name: str = "Line") -> dict[str, int]:
    """Parse ``word count`` lines (``hug 10``) into a dict, in order of first appearance.

    Blank lines are skipped; a word given twice has its counts added. A line that is
    not a word followed by a whole number of at least 1 raises a ValueError naming
    the line, as ``line_name`` and its number (a page with a table says "Row").

    >>> parse_word_counts("hug 10\\npug 5")
    {'hug': 10, 'pug': 5}
    """
    counts: dict[str, int] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        parts = line.split()
        if len(parts) != 2:
            raise ValueError(
                f"{line_name} {number} ({line.strip()!r}) should be one word (without spaces) and its count, "
                "like 'hug 10'."
            )
        word, raw = parts
        try:
            count = int(raw)
        except ValueError:
            raise ValueError(
                f"{line_name} {number} ({line.strip()!r}): the count {raw!r} is not a whole number; write it like "
                "'hug 10'."
            ) from None
        if count < 1:
            raise ValueError(f"{line_name} {number} ({line.strip()!r}): a count must be 1 or more, not {count}.")
        if count > MAX_WORD_COUNT:
            raise ValueError(
                f"{line_name} {number} ({line.strip()[:80]!r}): a count must be at most {MAX_WORD_COUNT:,} "
                f"(a trillion), not {raw[:40]}{'…' if len(raw) > 40 else ''}."
            )
        counts[word] = counts.get(word, 0) + count
    if not counts:
        raise ValueError("No word counts found: write one 'word count' pair per line, like 'hug 10'.")
    return counts


def check_word_counts(counts: Mapping[str, object]) -> dict[str, int]:
    """Validate a word -> count mapping given in code (non-empty words, integer counts >= 1)."""
    checked: dict[str, int] = {}
    for word, count in counts.items():
        if not isinstance(word, str) or not word:
            raise ValueError(f"Every word must be a non-empty string; got {word!r}.")
        if isinstance(count, bool) or not isinstance(count, int):
            raise ValueError(f"The count of {word!r} must be a whole number, not {count!r}.")
        if count < 1:
            raise ValueError(f"The count of {word!r} must be 1 or more, not {count}.")
        if count > MAX_WORD_COUNT:
            raise ValueError(
                f"The count of {word[:80]!r} must be at most {MAX_WORD_COUNT:,} (a trillion), not {count:,}."
            )
        checked[word] = count
    if not checked:
        raise ValueError("The corpus is empty: give at least one word with a count.")
    return checked


def text_from_bytes(data: bytes, name: str = "the file") -> str:
    """Decode an uploaded file as UTF-8 text, refusing binary data with a clear sentence."""
    if b"\x00" in data[:65536]:
        raise ValueError(f"{name} looks like a binary file (it contains NUL bytes); upload a plain-text .txt file.")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ValueError(
            f"{name} is not UTF-8 text (byte {exc.start} cannot be decoded); save it as UTF-8 and upload it again."
        ) from None


# -- a training corpus as word counts ----------------------------------------------------------
Corpus = Mapping[str, int] | str | Iterable[str]  # word counts, a text, or texts


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
        return _check_total(check_word_counts({" ".join(k): v for k, v in corpus.items()}))  # type: ignore[union-attr]
    if isinstance(corpus, Mapping):
        counts = check_word_counts(corpus)
        if pre_tokenizer in BYTE_LEVEL:
            mapped: dict[str, int] = {}
            for word, count in counts.items():
                key = raw_word_to_word(word, pre_tokenizer)
                mapped[key] = mapped.get(key, 0) + count
            return _check_total(mapped)
        return _check_total(counts)
    texts = [corpus] if isinstance(corpus, str) else list(corpus)
    counts = count_words(texts, pre_tokenizer)
    if not counts:
        raise ValueError("The corpus is empty (or only whitespace): paste some text or word counts to train on.")
    return counts


def _check_total(counts: dict[str, int]) -> dict[str, int]:
    """Pair counts are kept as 64-bit integers: refuse word counts whose symbols add up past that."""
    total = sum(count * len(word) for word, count in counts.items())
    if total > MAX_SYMBOL_TOTAL:
        raise ValueError(
            f"The word counts add up to {total:.3g} symbols, more than a pair count can hold "
            f"({MAX_SYMBOL_TOTAL:.3g}): use smaller counts."
        )
    return counts
