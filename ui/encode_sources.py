"""The Encode page's tokenizer: the one trained on the Train page, a popular one (``encode_popular``), uploaded files (a tokenizer.json, a
``.tiktoken`` rank file, or vocab.json + merges.txt, told apart by content), or a model's tokenizer by
its Hugging Face Hub name. Files are read in a process of their own and the parsed tokenizers kept by
their bytes' digest, shared by every session within one memory budget (``server/uploads.py``); a
session keeps only the digest, and reads its files again if the tokenizer was set aside.
After a server restart the browser still lists the files it uploaded, but the new server never got
them (Streamlit 1.67 sends an empty list): the first run of a new session that finds "Uploaded
file" chosen says so and draws a fresh uploader under another key, which clears the stale list.
What this leaves out: reading the formats (``bpe.formats``, ``bpe.hub``) and
the encoding itself (``pages/encode.py``).
"""

from __future__ import annotations

import os

import streamlit as st

import bpe
from bpe import hub
from server import uploads
from ui import runs
from ui.alerts import alert

SOURCES = ("Trained on the Train page", "Popular tokenizer", "Uploaded file", "Hugging Face Hub")
TRAINED, POPULAR, UPLOADED, HUB = SOURCES
TIKTOKEN_PATTERNS = {
    "cl100k": "cl100k (GPT-3.5, GPT-4)",
    "o200k": "o200k (GPT-4o)",
    "gpt2": "gpt2 (GPT-2, r50k)",
    "typed": "Type a pattern",
}


def tokenizer_in_use(source: str, enc: dict) -> tuple[str, bpe.Tokenizer]:
    """The tokenizer of ``source`` (one of SOURCES) and the name the page calls it. Draws the uploader
    or the Hub form the source needs; until there is a tokenizer, says what to do and stops the page.
    ``enc`` is the Encode page's part of the session state (it keeps the uploaded and fetched ones)."""
    if enc.setdefault("runs", 0) == 0 and source == UPLOADED:
        # The session's first run of this page already has "Uploaded file" chosen (the choice starts
        # at the trained one): the browser kept its page through a server restart, and its uploader
        # still lists files this server never received. Say so, and draw the uploader under a new key.
        enc["upload_lost"], enc["uploader_key"] = RESTARTED, f"encode_files_{os.getpid()}"
    enc["runs"] += 1
    if source == UPLOADED:
        return _uploaded(enc)
    if source == HUB:
        return _from_hub(enc)
    if source == POPULAR:
        from ui import encode_popular  # it imports this module (hub_tokenizer)

        return encode_popular.from_popular(enc)
    name, tok = "the tokenizer trained on the Train page", runs.current_tokenizer()
    if tok is None:
        st.error("The Train page's settings do not train a tokenizer: fix them there, or upload a tokenizer file.")
        st.stop()
    return name, tok


RESTARTED = (
    "The server restarted since your upload, so it no longer has your file (the list above showed it "
    "still): upload the file again."
)


def uploaded(enc: dict) -> tuple[str, bpe.Tokenizer] | None:
    """The uploaded tokenizer in use (its name, the tokenizer), or None when there is none, or when it
    was set aside to make room for other files (the uploader reads it again when drawn)."""
    if enc.get("uploaded") is None:
        return None
    name, key = enc["uploaded"]
    found = uploads.STORE.get(key)
    return None if found is None else (name, found[0])


def _uploaded(enc: dict) -> tuple[str, bpe.Tokenizer]:
    files = st.file_uploader(
        "A Hugging Face tokenizer.json (BPE model: GPT-2, GPT-4o, Llama, Mistral...), a "
        "tiktoken .tiktoken rank file, or vocab.json + merges.txt",
        type=["json", "txt", "tiktoken"],
        accept_multiple_files=True,
        key=enc.get("uploader_key", "encode_files"),
        max_upload_size=hub.MAX_BYTES // 1_000_000,
    )
    # A tokenizer.json names its pre-tokenizer; only vocab.json + merges.txt need to be told.
    pre_choice, pattern = st.session_state.get("upload_pre", "gpt2"), "cl100k"
    if any(f.name.endswith(".tiktoken") for f in files or ()):
        chosen = st.selectbox(
            "Split pattern of the .tiktoken file (the file does not say)",
            list(TIKTOKEN_PATTERNS),
            format_func=TIKTOKEN_PATTERNS.get,
            key="tiktoken_pattern",
        )
        pattern = (
            chosen
            if chosen != "typed"
            else st.text_input("Split pattern (a regex, read as tiktoken reads it)", key="tiktoken_regex").strip()
        )
        if not pattern:
            st.info("Type the split pattern to read the .tiktoken file with it.")
            st.stop()
    elif any(f.name.endswith(".txt") for f in files or ()):
        pre_choice = st.selectbox(
            "Pre-tokenizer of vocab.json + merges.txt (the files do not say)",
            bpe.PRE_TOKENIZERS,
            index=bpe.PRE_TOKENIZERS.index("gpt2"),
            key="upload_pre",
        )
    if files:
        enc["upload_lost"] = None
    read_upload(enc, files, pre_choice, pattern)
    if enc.get("upload_lost"):
        alert("warning", enc["upload_lost"])
    if enc["upload_error"]:
        alert("error", enc["upload_error"])
    if enc.get("upload_hint"):
        alert("warning", enc["upload_hint"])
    found = uploaded(enc)
    if found is None:
        st.info("Upload a tokenizer file to tokenize with it.")
        st.stop()
    return found


def _from_hub(enc: dict) -> tuple[str, bpe.Tokenizer]:
    with st.form("hub_form", border=False):
        repo_id = st.text_input(
            "Model name on the Hugging Face Hub",
            key="hub_repo",
            placeholder=" or ".join(hub.EXAMPLES),
            help="The tokenizer.json is downloaded once into this machine's Hugging Face cache.",
        )
        fetched = st.form_submit_button("Load the tokenizer")
    st.caption("For example " + ", ".join(f"`{e}`" for e in hub.EXAMPLES) + ".")
    if fetched and repo_id.strip():
        try:
            enc["hub"] = (repo_id.strip(), hub_tokenizer(repo_id.strip()))
            enc["hub_error"] = None
        except ValueError as exc:
            kept = " The previous model is still in use." if enc.get("hub") else ""
            enc["hub_error"] = f"{exc}{kept}"
    if enc.get("hub_error"):
        alert("error", enc["hub_error"])  # quotes the typed name: plain text
    if not enc.get("hub"):
        st.info("Type a model's name and load it to tokenize with its tokenizer.")
        st.stop()
    return enc["hub"]


def hub_tokenizer(repo_id: str) -> bpe.Tokenizer:
    # Fetched outside st.cache_resource, whose lock would hold a second session for as long as a slow
    # download takes; hub's own lock per name waits a bounded time, then says the file is on its way.
    with st.spinner("Fetching the tokenizer from the Hugging Face Hub..."):
        path = hub.tokenizer_json_path(repo_id)
    with st.spinner("Reading the tokenizer (in a process of its own)..."):
        return uploads.STORE.get_or_parse(f"hub\0{repo_id}\0{path}", "hub", repo_id, path)


tokenizer_from_files = uploads.tokenizer_from_files  # read in the parsing process


def read_upload(enc: dict, files, pre_tokenizer: str, pattern: str = "cl100k") -> None:
    """Read newly uploaded files once, off the server (``server.uploads``); a bad file leaves the previous
    tokenizer in use. Files whose tokenizer was set aside to make room for others are read again."""
    signature = (pre_tokenizer, pattern, *((f.file_id, f.name) for f in files or ()))
    if signature == enc["files"]:
        if enc["uploaded"] is None or uploaded(enc) is not None:
            return
        if enc.get("uploaded_from") != signature:  # an earlier upload's tokenizer, set aside: its files are gone
            enc["uploaded"] = None
            enc["upload_error"] = (
                "The tokenizer uploaded before was set aside to make room for other sessions' files: upload it again."
            )
            return
        # this upload's tokenizer was set aside: read its files again
    enc["files"], enc["upload_error"], enc["upload_hint"] = signature, None, None
    if files:
        names = ", ".join(f.name for f in files)
        contents = {f.name: f.getvalue() for f in files}
        try:
            with st.spinner("Reading the tokenizer file (in a process of its own)..."):
                key, (_, used, enc["upload_hint"]) = uploads.read_files(contents, pre_tokenizer, pattern)
            enc["uploaded"], enc["uploaded_from"] = (used, key), signature
        except ValueError as exc:
            kept = "The previous tokenizer is still in use." if uploaded(enc) else "No tokenizer is loaded."
            enc["upload_error"] = f"Could not use {names}: {exc} {kept}"  # plain text: alerts.alert
