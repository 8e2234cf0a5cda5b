"""Texts cleaned as students clean them before training: lowercased, each run of non-letters made one space.

Course trainers often train on ``re.sub('[^a-z]', ' ', text.lower())`` (or keep every letter, ``str.isalpha``, or
the ASCII letters in their case), so
punctuation, digits and, for a-z, every letter outside ASCII never reach their words (or all but the few letters of
a course's alphabet, ``äöüß``, which the run's own tokens show). :data:`FILTERS` holds each
cleaning with the words that say it; :func:`filtered` applies one to a corpus of text.

Left out: weighing this cause against the others (:mod:`bpe.check_cause`) and plain lowercasing (there).
"""

from __future__ import annotations

import re
import string
from collections.abc import Callable, Mapping

from .pre_tokenizers import Corpus

_NOT_AZ = re.compile(r"[^a-z]+")
_NOT_ASCII_LETTER = re.compile(r"[^A-Za-z]+")
_NOT_LETTER = re.compile(r"[\W\d_]+")
_NOT_AZ_DIGIT = re.compile(r"[^a-z0-9]+")

LOWER = ("lowercases the text", str.lower)  # plain lowercasing: told by bpe.check_cause, applied here too
FILTERS: dict[str, tuple[str, Callable[[str], str]]] = {
    "a-z": ("keeps only the letters a-z of the lowercased text, every run of other characters made one space (so each "
            "run of whitespace is one space)",
            lambda text: _NOT_AZ.sub(" ", text.lower())),
    "letters": ("keeps only the letters of the lowercased text, every run of digits, punctuation marks and other "
                "symbols made one space (so each run of whitespace is one space)", lambda text: _NOT_LETTER.sub(" ", text.lower())),
    "a-z0-9": ("keeps only the letters a-z and the digits 0-9 of the lowercased text, every run of other characters "
               "made one space (re.sub(r'[^a-zA-Z0-9]+', ' ', text): each run of whitespace is one space)", lambda text: _NOT_AZ_DIGIT.sub(" ", text.lower())),
    "A-Za-z": ("keeps only the ASCII letters of the text, in their case, every run of other characters made one space "
               "(re.sub(r'[^A-Za-z]+', ' ', text): each run of whitespace is one space)",
               lambda text: _NOT_ASCII_LETTER.sub(" ", text)),
}  # fmt: skip


def filtered(corpus: Corpus, name: str, extra: str = "") -> Corpus | None:
    """The corpus cleaned by the filter ``name`` (or ``"lower"``), or None for word counts (a filter reads the
    text). ``extra``: with ``a-z``, letters kept besides a-z (a course's alphabet: ``äöüß``)."""
    if isinstance(corpus, Mapping):
        return None
    if name == "a-z" and extra:
        kept = re.compile(f"[^a-z{re.escape(extra)}]+")
        clean: Callable[[str], str] = lambda text: kept.sub(" ", text.lower())  # noqa: E731
    else:
        clean = LOWER[1] if name == "lower" else FILTERS[name][1]
    return clean(corpus) if isinstance(corpus, str) else [clean(t) for t in corpus]


def extra_marks(tokens, marks: str = "") -> str:
    """The ASCII punctuation marks a run's tokens hold (but ``marks``, its own word marks), sorted: what a filter of
    a-z kept besides, as a course's ``re.sub(r"[^a-zA-Z!?.,']", " ", s)`` keeps them."""
    return "".join(sorted({c for t in tokens for c in t if c in string.punctuation and c not in marks}))


def kept_sentence(extra: str) -> str:
    """The a-z filter keeping ``extra`` too, said to the student."""
    letters = [c for c in extra if c.isalpha()]
    marks = [f"'{c}'" for c in extra if not c.isalpha()]
    kept = ", ".join(letters) + (" and the marks " if letters and marks else "the marks " if marks else "")
    kept += ", ".join(marks)
    return (
        f"keeps only the letters a-z and {kept} of the lowercased text, every run of other characters made one space "
        "(so each run of whitespace is one space)"
    )


def extra_letters(tokens) -> str:
    """The letters outside a-z that a run's tokens hold (lowercase, sorted): what an a-z filter kept besides."""
    return "".join(sorted({c for t in tokens for c in t if c.isalpha() and not c.isascii() and c == c.lower()}))
