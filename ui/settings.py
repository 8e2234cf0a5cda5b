"""The settings of a training run: everything that decides it, as one frozen, hashable value.

A ``Settings`` is what the sidebar builds, what a link carries (``ui/links.py``), what names a run
in the run store (``server/run_store.py``) and what the worker trains from (``options()``). It holds the
corpus itself (preset name, pasted text or word-count table), or a long text by its digest in the corpus store
(``stored``, ``server/stored_text.py``), not the corpus read into words: that is :func:`corpus_of`, done in the
training worker.
"""

from __future__ import annotations

from dataclasses import dataclass

from bpe.presets import DEFAULT_PRESET, PRESETS
from server import jobs
from server.stored_text import StoredText


@dataclass(frozen=True)
class Settings:
    """Everything that decides a training run (hashable: it is part of the cache key)."""

    source: str = "preset"  # preset | text | counts
    preset: str = DEFAULT_PRESET
    text: str = ""
    counts: str = ""
    pre_tokenizer: str = "whitespace"
    limit: str = "num_merges"  # num_merges | vocab_size | none
    limit_value: int = 10
    special_tokens: tuple[str, ...] = ()
    tie_break: str = "first"
    min_frequency: int = 0
    algorithm: str = "bpe"
    full_byte_alphabet: bool = False
    forced: tuple[tuple[int, tuple[str, str]], ...] = ()
    saved_run: str = ""  # a saved run's (a .bpe file's) digest: its run, never a corpus's (the text is empty)
    stored: StoredText | None = None  # a long text held by its digest (source "text", ``text`` empty)

    def text_chars(self) -> int:
        """The text corpus's length in characters (a text held by its digest: counted when it was opened)."""
        return self.stored.chars if self.stored is not None else len(self.text)

    def text_head(self) -> str:
        """The text corpus, or the start of one held by its digest (its last, perhaps cut, word left out)."""
        return self.stored.preview() if self.stored is not None else self.text

    def options(self) -> dict:
        """Keyword arguments for ``bpe.train_steps``."""
        opts = dict(
            pre_tokenizer=self.pre_tokenizer,
            special_tokens=self.special_tokens,
            tie_break=self.tie_break,
            min_frequency=self.min_frequency,
            algorithm=self.algorithm,
            full_byte_alphabet=self.full_byte_alphabet,
            forced_merges=dict(self.forced),
        )
        if self.limit in ("num_merges", "vocab_size"):
            opts[self.limit] = self.limit_value
        return opts


def preset_settings(key: str) -> Settings:
    """The settings that reproduce a preset exactly."""
    p = PRESETS[key]
    o = p.options
    limit = "vocab_size" if "vocab_size" in o else "num_merges" if "num_merges" in o else "none"
    return Settings(
        source="preset",
        preset=key,
        pre_tokenizer=o.get("pre_tokenizer", "whitespace"),
        limit=limit,
        limit_value=o.get(limit, 10) if limit != "none" else 10,
        special_tokens=tuple(o.get("special_tokens", ())),
        tie_break=o.get("tie_break", "first"),
        forced=tuple(sorted(p.forced_merges.items())),
    )


def corpus_of(settings: Settings):
    """The corpus a setting describes (split at its special tokens), or raise ValueError with what to fix. A text
    held by its digest gives its start only: the worker reads the whole of it from the store."""
    text = settings.text_head()
    return jobs.corpus_of(settings.source, settings.preset, text, settings.counts, settings.special_tokens)
