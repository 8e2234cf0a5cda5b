"""The Encode page's side by side: the tokenizer in use and others on the same text, with their counts.

The others are one of "fewer merges", "WordPiece on the same corpus" or "the other tokenizer"
(uploaded, or trained when an upload is in use), any trained tokenizers kept for comparing, any number
of uploaded tokenizer files (one tokenizer a file), and any popular tokenizers picked
(``encode_popular``). Each gets a token count (with the difference from the first) and a row in one
compact table (tokens, characters per token), and its chips, coloured with ids and bytes in their
tooltips, stretches of text where its boundaries differ from the first's underlined in red, the
sentences its file reader left (``Tokenizer.notes``) under it, and its own copy of the text, where
hovering one of its chips marks the characters. Two sit in two columns; three or more one under the
other. What this leaves out: the first tokenizer's own views (``pages/encode.py``).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace

import pandas as pd
import streamlit as st

import bpe
from bpe import display, hub
from bpe.presets import PRESETS
from server import uploads
from ui import encode_popular, encode_sources, runs
from ui.alerts import alert

OTHERS = {
    "merges": "The same tokenizer with fewer merges",
    "wordpiece": "WordPiece trained on the same corpus",
    "other": "The other tokenizer (uploaded / trained)",
}  # WordPiece first would train on every toggle
MAX_PICKS = 6


@dataclass
class First:
    """The tokenizer in use and what the page already made with it."""

    name: str
    tokenizer: bpe.Tokenizer  # as applied (its first k merges)
    whole: bpe.Tokenizer  # with all its merges
    encoding: object
    source: str


def second_tokenizer(kind: str, first: First, enc: dict, memo, settings) -> tuple[str, bpe.Tokenizer] | None:
    """The tokenizer of ``kind`` (one of OTHERS), or None after saying why there is none."""
    n = len(first.whole.merges)
    if kind == "merges":
        m = st.slider("Merges for the second tokenizer", 0, n, n // 2, key="compare_k") if n else 0
        return display.plural(m, "merge"), memo("compare_tok", (first.whole, m), lambda: first.whole.with_merges(m))
    if kind == "other" and first.source == encode_sources.TRAINED:
        other = encode_sources.uploaded(enc)
        if other is None:
            st.info("Choose 'Uploaded file' above and upload a tokenizer to compare with it.")
        return other
    if kind == "other":
        other = runs.current_tokenizer()
        return None if other is None else ("trained on the Train page", other)
    settings = replace(settings, algorithm="wordpiece")
    try:
        return "WordPiece, same corpus", runs.tokenizer_for(settings, runs.train(settings).num_merges)
    except ValueError as exc:
        alert("error", f"WordPiece cannot be trained with these settings: {exc}")
        return None


def _more_files(enc: dict) -> list[tuple[str, bpe.Tokenizer]]:
    """Any number of uploaded tokenizers, one a file (a tokenizer.json or a .tiktoken rank file), each read
    once off the server (``server.uploads``); a file that cannot be read says why and the others stay."""
    files = st.file_uploader(
        "Add tokenizer files to compare (any number: a tokenizer.json or a .tiktoken file each)",
        type=["json", "tiktoken"],
        accept_multiple_files=True,
        key="compare_files",
        max_upload_size=hub.MAX_BYTES // 1_000_000,
    )
    read = enc.setdefault("compare_files", {})  # file id -> (name, store key) or the error sentence
    out = []
    for f in files or ():
        if f.file_id not in read:
            try:
                with st.spinner(f"Reading {f.name} (in a process of its own)..."):
                    key, _ = uploads.read_files({f.name: f.getvalue()}, "gpt2")
                read[f.file_id] = (f.name, key)
            except ValueError as exc:
                read[f.file_id] = f"Could not use {f.name}: {exc}"
        entry = read[f.file_id]
        if isinstance(entry, str):
            alert("error", entry)  # quotes the file name: plain text
            continue
        found = uploads.STORE.get(entry[1])
        if found is None:  # set aside to make room for other sessions' files: read again next run
            read.pop(f.file_id)
            alert(
                "warning", f"{f.name} was set aside to make room for other files: it is read again on the next change."
            )
            continue
        out.append((entry[0], found[0]))
    return out


def _kept_runs(first: First, enc: dict, settings) -> list[tuple[str, bpe.Tokenizer]]:
    """Trained tokenizers kept for comparing: "Keep" adds the Train page's current one (its settings named),
    so runs trained one after another can sit side by side; "Clear" forgets them."""
    kept = enc.setdefault("kept_runs", {})  # settings -> (name, tokenizer)
    trained = runs.current_tokenizer()
    row = st.container(horizontal=True, vertical_alignment="center")
    if trained is not None and row.button("Keep the Train page's tokenizer for comparing", key="keep_run"):
        name = f"trained: {runs_name(settings)}"
        kept[settings] = (name, trained)
    if kept and row.button("Forget the kept tokenizers", key="forget_runs"):
        kept.clear()
    return [entry for entry in kept.values() if entry[1] is not trained or first.source != encode_sources.TRAINED]


def runs_name(settings) -> str:
    """A trained run's short name: its corpus and its size."""
    corpus = PRESETS[settings.preset].title if settings.source == "preset" else f"your {settings.source}"
    size = "all merges" if settings.limit == "none" else f"{settings.limit.replace('_', ' ')} {settings.limit_value:,}"
    return f"{display.shorten(corpus, 40)}, {settings.pre_tokenizer}, {size}"


def side_by_side(first: First, text: str, enc: dict, memo, settings, *, ws, as_text: bool, limit: int) -> None:
    """The toggle, and when it is on the others' choice and the comparison."""
    if not st.toggle("Side by side with other tokenizers", key="compare"):
        return
    kind = st.radio("Compare with", list(OTHERS), format_func=OTHERS.get, key="compare_with", horizontal=True)
    picks = st.multiselect(
        "And popular tokenizers",
        encode_popular.labels_now(),
        key="compare_popular",
        format_func=encode_popular.shown_label,
        max_selections=MAX_PICKS,
        placeholder="GPT-2, GPT-4o, Llama 3...",
        help="Each is fetched once from the Hugging Face Hub (or tiktoken's cache) and kept for this session.",
    )
    others = []
    second = second_tokenizer(kind, first, enc, memo, settings)
    if second is not None:
        others.append(second)
    others.extend(_kept_runs(first, enc, settings))
    others.extend(_more_files(enc))
    started = time.monotonic()
    for i, label in enumerate(picks):
        if time.monotonic() - started > hub.DEADLINE_S and label not in enc.get("popular", {}):
            # One run waits for the Hub at most about one fetch's deadline, however many are picked.
            st.info(
                f"Not fetched yet: {', '.join(p for p in picks[i:] if p not in enc.get('popular', {}))}; "
                "the others took this run's time, so they are fetched on the next change."
            )
            break
        try:
            others.append(encode_popular.fetch(enc, label))
        except ValueError as exc:
            alert("error", str(exc))  # quotes names and the Hub's answer: plain text
    if not others:
        return
    rows = [(first.name, first.tokenizer, first.encoding)]
    for i, (name, tok) in enumerate(others):
        try:
            rows.append((name, tok, memo(f"other_encoding_{i}", (tok, text), lambda tok=tok: tok.encode_full(text))))
        except ValueError as exc:
            alert("error", f"{name} cannot encode this text: {exc}")
    if len(rows) < 2:
        return
    first_count = len(first.encoding.ids)
    for col, (name, _, encoding) in zip(st.columns(len(rows)), rows):
        col.metric(
            f"Tokens, {display.md_escape(name)}",
            f"{len(encoding.ids):,}",
            delta=None if encoding is first.encoding else len(encoding.ids) - first_count,
            delta_color="off",
        )
    st.dataframe(
        pd.DataFrame(
            [(name, len(e.ids), round(len(text) / max(len(e.ids), 1), 2)) for name, _, e in rows],
            columns=["tokenizer", "tokens", "characters per token"],
        ),
        hide_index=True,
    )
    spans = [display.disagreement_spans(first.encoding.offsets, e.offsets, len(text)) for _, _, e in rows[1:]]
    places = st.columns(2) if len(rows) == 2 else [st.container() for _ in rows]
    for i, (place, (name, tok, encoding)) in enumerate(zip(places, rows)):
        if len(rows) > 2:
            place.caption(f"**{display.md_escape(name)}**: {display.plural(len(encoding.ids), 'token')}")
        marked = spans[0] if i == 0 and len(rows) == 2 else spans[i - 1] if i else ()
        for note in tok.notes if i else ():  # the first's notes are above, with its source
            place.caption(f"{display.md_escape(name)}: {display.md_escape(note)}")
        place.html(
            display.encoding_html(
                tok, encoding, text, show_whitespace=ws, limit=limit, marked=marked, as_text=as_text, hover=True
            )
            + display.source_html(text, "Hover a token to see its characters:", column=True)
        )
    with st.expander("Token ids, side by side"):
        for name, _, encoding in rows:
            st.caption(display.md_escape(name))
            st.code(str(list(encoding.ids)), language=None, wrap_lines=True)
    if len(rows) == 2:
        st.caption(f"Underlined in red: the {len(spans[0]):,} stretches of text where the token boundaries differ.")
    else:
        st.caption("Underlined in red: where each tokenizer's token boundaries differ from the first's.")
