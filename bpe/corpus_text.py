"""A pasted or uploaded corpus checked and cut into the documents it trains as, or a sentence saying what to fix.

A text is one document, newlines and indents included, or the documents between its special tokens when
some are set (:func:`documents`), as CS336 and ``tokenizers`` users split their data; it is never cut into
lines (cut, the pieces ``Ċ`` and ``ĊĠĠĠ`` of a newline and an indent never existed). A preset keeps its own
list of texts (the course's sentences). Each check raises ``ValueError`` with a sentence: a text
or word-count table over its size limit, an empty text, one of only special tokens, a word too long to train
(:func:`check_word_lengths`).

Left out: the limits themselves, which the server sets (``server/limits.py``), choosing between a preset, a
text and a table (``server/corpora.py``), and reading an uploaded file's bytes as UTF-8 a chunk at a time
(``server/corpus_upload.py``).
"""

from __future__ import annotations

import re

from .pre_tokenizers import count_words, parse_word_counts
from .presets import PRESETS

MAX_WORD_CHARS = 10_000  # the longest word (after pre-tokenization) a run may train on
_LONG_RUN = re.compile(rf"(?<!\S)\S{{{MAX_WORD_CHARS + 1}}}")  # a whitespace-free run longer than that, from its start


def documents(text: str, special_tokens=()) -> list[str]:
    """A pasted or uploaded text as the documents it trains as: the whole text, newlines and all, or the
    pieces between its special tokens when some are set (as CS336 and ``tokenizers`` users split their
    data: no pair spans a separator). Longer tokens are tried first, as in ``bpe.check.raw_word_counts``.

    >>> documents("a\\n  b<|endoftext|>c", ["<|endoftext|>"])
    ['a\\n  b', 'c']
    """
    specials = [s for s in dict.fromkeys(special_tokens) if s]
    if not specials:
        return [text]
    pattern = re.compile("|".join(re.escape(s) for s in sorted(specials, key=len, reverse=True)))
    return [piece for piece in pattern.split(text) if piece]


def _megabytes(max_bytes: int) -> str:
    return f"{max_bytes // 1_000_000} MB"


def utf8_size(text: str) -> int:
    """The size of ``text`` in UTF-8 (a lone surrogate counts 3, as a file's bytes can give one), counted a
    million characters at a time: encoded whole, a 100 MB corpus was another 100 MB held while it was measured.

    >>> utf8_size("naïve"), utf8_size("a" * 3)
    (6, 3)
    """
    if text.isascii():
        return len(text)
    step = 1 << 20
    return sum(len(text[at : at + step].encode("utf-8", "surrogatepass")) for at in range(0, len(text), step))


def text_documents(text: str, special_tokens=(), *, max_bytes: int) -> list[str]:
    """A pasted or uploaded text of at most ``max_bytes`` of UTF-8 as its :func:`documents`, or a ValueError
    saying what to fix.

    >>> text_documents("<|endoftext|> <|endoftext|>", ["<|endoftext|>"], max_bytes=100)
    Traceback (most recent call last):
    ...
    ValueError: The corpus holds only special tokens: paste some text between them.
    """
    if utf8_size(text) > max_bytes:
        raise ValueError(f"The corpus is larger than {_megabytes(max_bytes)}; paste or upload less text.")
    if not text or text.isspace():  # not strip(): it copies a 20 MB text
        raise ValueError("The corpus is empty: paste some text, upload a text file, or pick a preset.")
    pieces = documents(text, special_tokens)
    if all(piece.isspace() for piece in pieces):
        raise ValueError("The corpus holds only special tokens: paste some text between them.")
    return pieces


def counts_table(counts: str, *, max_bytes: int) -> dict[str, int]:
    """A word-count table of at most ``max_bytes`` of UTF-8, read (its rows named "Row", as the page shows
    them in a table), or a ValueError saying what to fix."""
    if len(counts.encode("utf-8")) > max_bytes:
        raise ValueError(f"The word-count table is larger than {_megabytes(max_bytes)}; give fewer rows.")
    return parse_word_counts(counts, line_name="Row")


def preset_documents(preset: str, special_tokens=()):
    """A preset's own texts (or its word counts), each split at the special tokens as a text is."""
    if preset not in PRESETS:
        raise ValueError(f"There is no preset called {preset!r}.")
    corpus = PRESETS[preset].corpus()
    if isinstance(corpus, dict) or not special_tokens:
        return corpus
    return [piece for t in corpus for piece in documents(t, special_tokens)]


def check_word_lengths(corpus, pre_tokenizer: str) -> None:
    """Refuse a word longer than MAX_WORD_CHARS (training and showing one is quadratic in its length).
    Whitespace-separated runs bound the words of every pre-tokenizer, so only a corpus with a long
    run is pre-tokenized here to find the real longest word (a search, not a split: a 20 MB document
    cut into its millions of runs took memory for nothing)."""
    words = corpus.keys() if isinstance(corpus, dict) else None
    if words is None:
        if not any(_LONG_RUN.search(text) for text in corpus):
            return
        words = count_words(corpus, pre_tokenizer)
    longest = max(words, key=len, default="")
    if len(longest) > MAX_WORD_CHARS:
        raise ValueError(
            f"The corpus has a word of {len(longest):,} characters (it starts “{longest[:30]}…”); the "
            f"limit is {MAX_WORD_CHARS:,}. Add spaces, or choose another pre-tokenizer."
        )
