"""The training page's downloads: tokenizer.json, vocab.json + merges.txt, the training log, and the run in
Stanford CS336's shapes (vocab ``dict[int, bytes]`` and merges ``list[tuple[bytes, bytes]]``, as JSON and as a
pickle of plain values), each built only when clicked."""

from __future__ import annotations

import streamlit as st

import bpe
from bpe import display
from bpe.formats import cs336
from ui import runs
from ui.settings import Settings


@st.cache_data(max_entries=8, show_spinner=False)
def _export(_history: bpe.History, settings: Settings, kind: str) -> str | bytes:
    """One download's content, built on click (deferred) and once per run."""
    tok = runs.tokenizer_for(settings, _history.num_merges)
    if kind == "csv":
        return bpe.training_log_csv(_history)
    if kind == "json":
        return bpe.to_tokenizer_json(tok)
    if kind in ("cs336_json", "cs336_pickle"):
        vocab, merges = _cs336(tok, settings)
        return cs336.to_cs336_json(vocab, merges) if kind == "cs336_json" else cs336.to_cs336_pickle(vocab, merges)
    vocab, merges = bpe.to_vocab_merges(tok)  # export_problems() ruled out the ValueErrors
    return vocab if kind == "vocab" else merges


def _cs336(tok: bpe.Tokenizer, settings: Settings):
    """The run's vocab and merges in CS336's shapes (a ValueError says why a run has none)."""
    if settings.algorithm != "bpe":
        raise ValueError("CS336's vocab and merges describe a BPE run, not WordPiece.")
    return cs336.cs336_vocab_merges(tok.merges, settings.pre_tokenizer, settings.special_tokens)


def _cs336_problem(tok: bpe.Tokenizer, settings: Settings) -> str | None:
    try:
        _cs336(tok, settings)
    except ValueError as exc:
        return str(exc)
    return None


@st.cache_data(max_entries=64, show_spinner=False)
def _problems(run_key: str, num_merges: int, _tok: bpe.Tokenizer, _settings: Settings) -> dict[str, str | None]:
    """Why each format cannot hold this run (None where it can), once per run for every session: building
    CS336's vocab took a quarter of a full page run, on every full run of every session. Keyed by the run's
    digest (hashing the settings would hash a pasted corpus on every call)."""
    problems = bpe.export_problems(_tok)
    problems["CS336"] = _cs336_problem(_tok, _settings)
    return problems


def downloads(history: bpe.History, settings: Settings) -> None:
    st.subheader("Downloads")
    tok = runs.tokenizer_for(settings, history.num_merges)
    problems = _problems(runs.run_key(settings), history.num_merges, tok, settings)
    cols = st.columns(3) * 2  # two rows of three
    for col, (kind, name, label, fmt) in zip(
        cols,
        [
            ("json", "tokenizer.json", "tokenizer.json", "tokenizer.json"),
            ("vocab", "vocab.json", "vocab.json", "vocab.json + merges.txt"),
            ("merges", "merges.txt", "merges.txt", "vocab.json + merges.txt"),
            ("csv", "training_log.csv", "Training log (CSV)", None),
            ("cs336_json", "cs336_vocab_merges.json", "CS336 vocab + merges (JSON)", "CS336"),
            ("cs336_pickle", "cs336_vocab_merges.pkl", "CS336 vocab + merges (pickle)", "CS336"),
        ],
    ):
        if fmt and problems[fmt]:
            col.caption(f"No {name}: {problems[fmt]}")
        else:
            # on_click="ignore": no rerun, so a second click right after the first still finds its file
            # (a rerun re-registers the deferred files, and a click in flight then gets "file not found").
            col.download_button(
                label, lambda kind=kind: _export(history, settings, kind), name, key=f"dl_{kind}", on_click="ignore"
            )
    st.caption(
        f"The tokenizer files hold the whole run ({display.plural(history.num_merges, 'merge')}); the log has every merge "
        'with its count and tied pairs. The CS336 files hold {"vocab": dict[int, bytes], "merges": '
        "list[tuple[bytes, bytes]]} (special tokens, the 256 bytes, then one token per merge); the JSON writes each "
        "byte as one character from U+0000 to U+00FF, the pickle holds only dicts, lists, tuples, bytes and ints."
    )
