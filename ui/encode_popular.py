"""The Encode page's pick-list of popular tokenizers (``bpe.popular``): GPT-2, GPT-4, GPT-4o, Llama 3...

A pick is fetched once per session and kept in ``enc["popular"]`` (label -> (name, tokenizer)), so a
rerun that flips a toggle never asks the Hub again. Fetching goes through ``encode_sources.hub_tokenizer``
(``bpe.hub``'s size cap, deadline and per-name lock; the file read in a process of its own) or, for
GPT-4 and GPT-4o when tiktoken's cache has their file, ``server.uploads.read_files`` on those bytes
(``bpe.formats.rank_files``). A pick that cannot be fetched says so in one sentence and leaves the page
usable. What this leaves out: the typed Hub name (``encode_sources``) and the comparison
(``encode_compare``).
"""

from __future__ import annotations

import os
import time

import streamlit as st

import bpe
from bpe import hub, popular
from server import uploads
from ui import encode_sources, runs
from ui import session_keys as keys
from ui.alerts import alert

LABELS = [p.label for p in popular.POPULAR]
RETRY_S = 30.0  # a pick that failed is not asked again for this long (each rerun would wait on the network)


def available(label: str) -> bool:
    """Whether the pick can be read now without the network: its file is in tiktoken's cache or in this
    machine's Hugging Face cache (a look at the disk only)."""
    pick = popular.BY_LABEL[label]
    if pick.tiktoken is not None:
        path = popular.tiktoken_cache_path(pick.tiktoken)
        if path is not None and os.path.isfile(path):
            return True
    from huggingface_hub import try_to_load_from_cache

    return isinstance(try_to_load_from_cache(pick.repo_id, "tokenizer.json"), str)


def labels_now() -> list[str]:
    """The picks, those available on this machine first (each group in the list's order)."""
    return sorted(LABELS, key=lambda label: not available(label))


def shown_label(label: str) -> str:
    """A pick as the lists name it: whether it is here now, or fetched from the Hub when picked."""
    return f"{label} · on this machine" if available(label) else f"{label} · from the Hub (needs the network)"


def fetch(enc: dict, label: str) -> tuple[str, bpe.Tokenizer]:
    """The tokenizer of the pick ``label`` and the name the page calls it, fetched once per session;
    a ValueError's one sentence says why it could not be fetched."""
    kept = enc.setdefault("popular", {})
    if label in kept:
        return kept[label]
    failed = enc.setdefault("popular_failed", {})
    if label in failed and time.monotonic() - failed[label][0] < RETRY_S:
        raise ValueError(failed[label][1])
    try:
        kept[label] = _fetch(label)
    except ValueError as exc:
        failed[label] = (time.monotonic(), str(exc))
        raise
    failed.pop(label, None)
    return kept[label]


def _fetch(label: str) -> tuple[str, bpe.Tokenizer]:
    pick = popular.BY_LABEL[label]
    if pick.tiktoken is not None:
        data = popular.tiktoken_cached(pick.tiktoken)
        if data is not None:
            pattern = popular.TIKTOKEN_FILES[pick.tiktoken][2]
            with st.spinner(f"Reading {pick.tiktoken} from tiktoken's cache (in a process of its own)..."):
                _, (tok, _, _) = uploads.read_files({f"{pick.tiktoken}.tiktoken": data}, "gpt2", pattern)
            return f"{label}, tiktoken's {pick.tiktoken}", tok
    try:
        tok = encode_sources.hub_tokenizer(pick.repo_id)
    except hub.HubUnavailable:
        also = f" or of tiktoken's {pick.tiktoken} file" if pick.tiktoken else ""
        raise ValueError(
            f"{label} could not be fetched: the Hugging Face Hub cannot be reached from this server and it has "
            f"no copy of {pick.repo_id}'s tokenizer.json{also}, so upload a tokenizer file instead "
            "(Uploaded file, above)."
        ) from None
    except ValueError as exc:
        raise ValueError(f"{label} could not be fetched: {exc}") from None
    return f"{label} ({pick.repo_id})", tok


def from_popular(enc: dict) -> tuple[str, bpe.Tokenizer]:
    """The pick-list; the tokenizer picked, or the page stops after saying what to do."""
    label = st.selectbox(
        "Popular tokenizer",
        labels_now(),
        index=None,
        key=keys.POPULAR_PICK,
        format_func=shown_label,
        placeholder="Pick a tokenizer",
        help="Fetched from the Hugging Face Hub once into this machine's cache (GPT-4 and GPT-4o are read from "
        "tiktoken's cache when it has them).",
    )
    st.caption(
        "From the Hub: "
        + ", ".join(f"{p.label} `{p.repo_id}`" for p in popular.POPULAR)
        + ". Llama 3 and Mistral are ungated copies of the same files."
    )
    if label is None:
        st.info("Pick a tokenizer to tokenize with it.")
        st.stop()
    try:
        return fetch(enc, label)
    except ValueError as exc:
        alert("error", str(exc))  # quotes names and the Hub's answer: plain text
    # A pick that failed keeps the page: the text box and the tokens, with the tokenizer trained on Train.
    trained = runs.current_tokenizer()
    if trained is None:
        st.stop()
    st.caption("Meanwhile the text below is tokenized with the tokenizer trained on the Train page.")
    return "the tokenizer trained on the Train page", trained
