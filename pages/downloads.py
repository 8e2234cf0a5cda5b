"""The training page's downloads: tokenizer.json, vocab.json + merges.txt and the training log,
each built only when clicked."""

from __future__ import annotations

import streamlit as st

import bpe
from bpe import display
from pages import runs
from pages.settings import Settings
from server import startup

if __name__ == "__main__":  # opened as a page (a fresh server's first request): go through the router
    startup.ensure_router()


@st.cache_data(max_entries=8, show_spinner=False)
def _export(_history: bpe.History, settings: Settings, kind: str) -> str:
    """One download's content, built on click (deferred) and once per run."""
    tok = runs.tokenizer_for(settings, _history.num_merges)
    if kind == "csv":
        return bpe.training_log_csv(_history)
    if kind == "json":
        return bpe.to_tokenizer_json(tok)
    vocab, merges = bpe.to_vocab_merges(tok)  # export_problems() ruled out the ValueErrors
    return vocab if kind == "vocab" else merges


def downloads(history: bpe.History, settings: Settings) -> None:
    st.subheader("Downloads")
    problems = bpe.export_problems(runs.tokenizer_for(settings, history.num_merges))
    cols = st.columns(4)
    for col, (kind, name, label, fmt) in zip(
        cols,
        [
            ("json", "tokenizer.json", "tokenizer.json", "tokenizer.json"),
            ("vocab", "vocab.json", "vocab.json", "vocab.json + merges.txt"),
            ("merges", "merges.txt", "merges.txt", "vocab.json + merges.txt"),
            ("csv", "training_log.csv", "Training log (CSV)", None),
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
        "with its count and tied pairs."
    )
