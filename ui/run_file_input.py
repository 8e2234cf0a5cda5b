"""Open a saved run (a ``.bpe`` run file from ``python -m bpe train``) on the Train page and step through it.

Drawn at the end of the sidebar's corpus section. While a run file is open, the sidebar returns the settings
that name it (:func:`settings_for`: the run's own options, and its digest in ``Settings.saved_run``) and
no settings widgets: a saved run's options are fixed. It stays open until Close is pressed. The run itself goes into the run store
(``server/run_store.py``) under those settings' key on every rerun, so every part of the page that asks
``runs.train(settings)`` for the run (the step view, the downloads, the Encode page) gets this one.

Left out: what-if merges and tie-rule comparisons on a saved run (they train again, and a run file keeps the
word counts, not the text); comparing a student's merges with a saved run is the Check page's.
"""

from __future__ import annotations

import hashlib

import streamlit as st

import bpe
from bpe.cli import describe
from bpe.formats import run_file
from server import run_store
from ui import runs
from ui import session_keys as keys
from ui.alerts import alert
from ui.settings import Settings

MAX_RUN_FILE_MB = 60  # the server's own upload limit (.streamlit/config.toml); a 32,000-merge run takes a few MB


def settings_for(history: bpe.History, digest: str) -> Settings:
    """The settings that name a saved run: its options and its digest (``saved_run``), with no text. Trained
    again (the run evicted from the store), they give "The corpus is empty", never another run under its name."""
    c = history.config
    limit = "vocab_size" if c.vocab_size is not None else "num_merges" if c.num_merges is not None else "none"
    return Settings(
        source="text",
        text="",
        saved_run=digest,
        pre_tokenizer=c.pre_tokenizer,
        limit=limit,
        limit_value=getattr(c, limit) if limit != "none" else 10,
        special_tokens=c.special_tokens,
        tie_break=c.tie_break,
        min_frequency=c.min_frequency,
        algorithm=c.algorithm,
        full_byte_alphabet=c.full_byte_alphabet,
    )


def open_run(data: bytes) -> tuple[Settings, bpe.History]:
    """Read a run file's bytes and keep the run in the store; ValueError with a sentence for a bad file."""
    history = run_file.loads(data)
    settings = settings_for(history, hashlib.sha256(data).hexdigest())
    return settings, run_store.RUNS.put(runs.run_key(settings), history, history.nbytes())


def _close(state: dict) -> None:
    """Back to the corpus above: a preset (the text source would be the run's empty text)."""
    state.pop("saved_run", None)
    state["run_file_uploader"] = state.get("run_file_uploader", 0) + 1  # a new, empty uploader: the file is let go
    st.session_state[keys.SOURCE] = "preset"
    st.session_state[keys.STEP] = state[keys.STEP] = 0


def saved_run(state: dict) -> Settings | None:
    """The uploader; the settings of the open run, or None when none is open (the sidebar goes on).

    The run stays open until Close is pressed, also when the uploader forgets its file (another page was
    shown: Streamlit drops the widgets it did not draw)."""
    opened = state.get("saved_run")  # {"file_id", "name", "settings"} of the open run
    with st.expander("Open a saved run (.bpe)", expanded=opened is not None, icon=":material/folder_open:"):
        upload = st.file_uploader(
            "A run file written by python -m bpe train",
            key=f"run_file_upload_{state.get('run_file_uploader', 0)}",
            max_upload_size=MAX_RUN_FILE_MB,
            help="Train on text files of any size with `python -m bpe train FILE... --out run.bpe`; the run file "
            "keeps every step.",
        )
        st.caption(f"Up to {MAX_RUN_FILE_MB} MB; see docs/cli.md.")
    if upload is not None and (opened is None or opened["file_id"] != upload.file_id):
        try:
            settings, _ = open_run(upload.getvalue())
        except ValueError as exc:
            alert("error", f"{upload.name}: {exc}")  # the file name is the user's: plain text only
            return None
        opened = state["saved_run"] = {"file_id": upload.file_id, "name": upload.name, "settings": settings}
        st.session_state[keys.STEP] = state[keys.STEP] = 0  # a newly opened run starts at its first step
    if opened is None:
        return None
    settings = opened["settings"]
    history = run_store.RUNS.get(runs.run_key(settings))
    if history is None:  # dropped from the server's memory (the oldest runs go first): read it again if it is here
        if upload is None or upload.file_id != opened["file_id"]:
            state.pop("saved_run")  # not _close: the source radio above is drawn already and keeps its value
            alert("info", f"The saved run {opened['name']} was dropped from the server's memory: open the file again.")
            return None
        settings, history = open_run(upload.getvalue())
    st.caption("**Stepping through the saved run** " + bpe.display.md_escape(opened["name"]) + ":")
    st.text(describe(history))
    st.button("Close the saved run", key="close_run_file", icon=":material/close:", on_click=_close, args=(state,))
    return settings
