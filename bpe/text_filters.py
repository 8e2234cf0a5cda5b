"""Texts cleaned as students clean them before training: lowercased, and every character but letters made a space.

Course trainers often train on ``re.sub('[^a-z]', ' ', text.lower())`` (or keep every letter, ``str.isalpha``), so
punctuation, digits and, for a-z, every letter outside ASCII never reach their words. :data:`FILTERS` holds each
cleaning with the words that say it; :func:`filtered` applies one to a corpus of text.

Left out: weighing this cause against the others (:mod:`bpe.check_cause`) and plain lowercasing (there).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

from .pre_tokenizers import Corpus

_NOT_AZ = re.compile(r"[^a-z]+")
_NOT_LETTER = re.compile(r"[\W\d_]+")

FILTERS: dict[str, tuple[str, Callable[[str], str]]] = {
    "a-z": ("keeps only the letters a-z of the lowercased text, every other character made a space",
            lambda text: _NOT_AZ.sub(" ", text.lower())),
    "letters": ("keeps only the letters of the lowercased text, every digit, punctuation mark and other symbol made "
                "a space", lambda text: _NOT_LETTER.sub(" ", text.lower())),
}  # fmt: skip


def filtered(corpus: Corpus, name: str) -> Corpus | None:
    """The corpus cleaned by the filter ``name``, or None for word counts (a filter reads the text)."""
    if isinstance(corpus, Mapping):
        return None
    clean = FILTERS[name][1]
    return clean(corpus) if isinstance(corpus, str) else [clean(t) for t in corpus]
