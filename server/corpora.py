"""The corpus a training job reads: a preset's texts, a pasted or uploaded text, or a word-count table, under the server's limits.

The checks and the cutting into documents are the engine's (:mod:`bpe.corpus_text`); this module picks the
source a setting names and applies the limits the server sets (``server/limits.py``). Pure: it runs in the
training worker. What this leaves out: training (``server/jobs.py``).
"""

from __future__ import annotations

from bpe.corpus_text import counts_table, preset_documents, text_documents
from server import limits


def corpus_of(source: str, preset: str, text: str, counts: str, special_tokens=()):
    """The corpus a setting describes, or raise ValueError with what to fix. A text is trained as written
    (:func:`bpe.corpus_text.documents`); a preset keeps its own list of texts (the course's sentences), split
    at the special tokens in the same way."""
    if source == "preset":
        return preset_documents(preset, special_tokens)
    if source == "counts":
        return counts_table(counts, max_bytes=limits.MAX_COUNTS_BYTES)
    return text_documents(text, special_tokens, max_bytes=limits.MAX_CORPUS_BYTES)
