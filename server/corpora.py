"""The corpus a training job reads: a preset's texts, a pasted or uploaded text as written, or a word-count table.

A pasted or uploaded text is one document, newlines and indents included, or the documents between its
special tokens when some are set (:func:`documents`), as CS336 and ``tokenizers`` users split their data;
it is never cut into lines (cut, the pieces ``Ċ`` and ``ĊĠĠĠ`` of a newline and an indent never existed).
A preset keeps its own list of texts (the course's sentences). Pure: it runs in the training worker.
What this leaves out: the limits themselves (``server/limits.py``) and training (``server/jobs.py``).
"""

from __future__ import annotations

import re

import bpe
from bpe.presets import PRESETS
from server import limits

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


def corpus_of(source: str, preset: str, text: str, counts: str, special_tokens=()):
    """The corpus a setting describes, or raise ValueError with what to fix. A text is trained as written
    (:func:`documents`); a preset keeps its own list of texts (the course's sentences), split at the
    special tokens in the same way."""
    if source == "preset":
        if preset not in PRESETS:
            raise ValueError(f"There is no preset called {preset!r}.")
        corpus = PRESETS[preset].corpus()
        if isinstance(corpus, dict) or not special_tokens:
            return corpus
        return [piece for t in corpus for piece in documents(t, special_tokens)]
    if source == "counts":
        if len(counts.encode("utf-8")) > limits.MAX_COUNTS_BYTES:
            raise ValueError(f"The word-count table is larger than {limits.COUNTS_LIMIT_TEXT}; give fewer rows.")
        return bpe.parse_word_counts(counts, line_name="Row")  # the page shows them as a table
    if limits.utf8_size(text) > limits.MAX_CORPUS_BYTES:
        raise ValueError(f"The corpus is larger than {limits.LIMIT_TEXT}; paste or upload less text.")
    if not text or text.isspace():  # not strip(): it copies a 20 MB text
        raise ValueError("The corpus is empty: paste some text, upload a text file, or pick a preset.")
    pieces = documents(text, special_tokens)
    if all(piece.isspace() for piece in pieces):
        raise ValueError("The corpus holds only special tokens: paste some text between them.")
    return pieces


def check_word_lengths(corpus, pre_tokenizer: str) -> None:
    """Refuse a word longer than MAX_WORD_CHARS (training and showing one is quadratic in its length).
    Whitespace-separated runs bound the words of every pre-tokenizer, so only a corpus with a long
    run is pre-tokenized here to find the real longest word (a search, not a split: a 20 MB document
    cut into its millions of runs took memory for nothing)."""
    words = corpus.keys() if isinstance(corpus, dict) else None
    if words is None:
        if not any(_LONG_RUN.search(text) for text in corpus):
            return
        words = bpe.count_words(corpus, pre_tokenizer)
    longest = max(words, key=len, default="")
    if len(longest) > MAX_WORD_CHARS:
        raise ValueError(
            f"The corpus has a word of {len(longest):,} characters (it starts “{longest[:30]}…”); the "
            f"limit is {MAX_WORD_CHARS:,}. Add spaces, or choose another pre-tokenizer."
        )
