"""The Encode page's tokenizer: the one trained on the Train page, uploaded files (a tokenizer.json, a
``.tiktoken`` rank file, or vocab.json + merges.txt, told apart by content), or a model's tokenizer by
its Hugging Face Hub name. Parsed files are cached by their bytes' digest and shared by every session.
What this leaves out: reading the formats (``bpe.formats``, ``bpe.hub``) and
the encoding itself (``pages/encode.py``).
"""

from __future__ import annotations

import hashlib

import streamlit as st

import bpe
from bpe import formats, hub
from pages import runs
from pages.alerts import alert
from server import startup

if __name__ == "__main__":  # opened as a page (a fresh server's first request): go through the router
    startup.ensure_router()

SOURCES = ("Trained on the Train page", "Uploaded file", "Hugging Face Hub")
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
    if source == SOURCES[1]:
        return _uploaded(enc)
    if source == SOURCES[2]:
        return _from_hub(enc)
    name, tok = "the tokenizer trained on the Train page", runs.current_tokenizer()
    if tok is None:
        st.error("The Train page's settings do not train a tokenizer: fix them there, or upload a tokenizer file.")
        st.stop()
    return name, tok


def _uploaded(enc: dict) -> tuple[str, bpe.Tokenizer]:
    files = st.file_uploader(
        "A Hugging Face tokenizer.json (BPE model: GPT-2, GPT-4o, Llama, Mistral...), a "
        "tiktoken .tiktoken rank file, or vocab.json + merges.txt",
        type=["json", "txt", "tiktoken"],
        accept_multiple_files=True,
        key="encode_files",
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
    read_upload(enc, files, pre_choice, pattern)
    if enc["upload_error"]:
        alert("error", enc["upload_error"])
    if enc.get("upload_hint"):
        alert("warning", enc["upload_hint"])
    if enc["uploaded"] is None:
        st.info("Upload a tokenizer file to tokenize with it.")
        st.stop()
    return enc["uploaded"]


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


@st.cache_resource(max_entries=3, show_spinner="Reading the tokenizer...")  # a 100,000-token one holds ~80 MB
def _parsed(kind: str, digest: str, option: str, _data: tuple[bytes, ...]) -> bpe.Tokenizer:
    """A parsed tokenizer file, shared by every session that uploads the same bytes (keyed on their
    SHA-256): a 200,000-token vocabulary is read once, never per rerun."""
    if kind == "tiktoken":
        return formats.from_tiktoken(_data[0], option)
    if kind == "vocab+merges":
        return formats.from_vocab_merges(_data[0], _data[1], option)
    return formats.from_tokenizer_json(_data[0])


def _load(kind: str, option: str, *data: bytes) -> bpe.Tokenizer:
    digest = hashlib.sha256(b"\0".join(hashlib.sha256(d).digest() for d in data)).hexdigest()
    return _parsed(kind, digest, option, data)


def hub_tokenizer(repo_id: str) -> bpe.Tokenizer:
    # Fetched outside st.cache_resource, whose lock would hold a second session for as long as a slow
    # download takes; hub's own lock per name waits a bounded time, then says the file is on its way.
    with st.spinner("Fetching the tokenizer from the Hugging Face Hub..."):
        path = hub.tokenizer_json_path(repo_id)
    return _hub_parsed(repo_id, path)


@st.cache_resource(max_entries=3, show_spinner=False)
def _hub_parsed(repo_id: str, path: str) -> bpe.Tokenizer:
    return hub.read_tokenizer_json(repo_id, path)


def tokenizer_from_files(
    files: dict[str, bytes], pre_tokenizer: str, pattern: str = "cl100k"
) -> tuple[bpe.Tokenizer, str, str | None]:
    """A tokenizer.json, a .tiktoken rank file, or a vocab.json with its merges.txt: (tokenizer, the files
    used, a hint to show or None); ValueError naming the file and the fix. JSON files are told apart by
    content, not by name."""
    ranks = [n for n in files if n.endswith(".tiktoken")]
    if ranks:
        if len(files) > 1:
            others = ", ".join(n for n in files if n != ranks[-1])
            raise ValueError(
                f"{ranks[-1]} is a tiktoken rank file, which is read on its own: remove {others} from the list."
            )
        return _load("tiktoken", pattern, files[ranks[0]]), ranks[0], None
    jsons, txts = [n for n in files if n.endswith(".json")], [n for n in files if n.endswith(".txt")]
    vocabs = [n for n in jsons if _is_vocab(files[n])]
    if len(txts) > 1:
        raise ValueError(
            f"There are {len(txts)} merges files ({', '.join(txts)}): remove all but the one that "
            "belongs to the vocab.json."
        )
    if txts and vocabs:  # vocab.json + merges.txt, even with a tokenizer.json still in the list
        vocab, merges = vocabs[-1], txts[0]
        tok = _load("vocab+merges", pre_tokenizer, files[vocab], files[merges])
        others = [n for n in jsons if n != vocab]
        hint = (
            f"Using {vocab} + {merges}; remove {', '.join(others)} from the list to tidy up."
            if others
            else formats.vocab_byte_level_hint(files[vocab], pre_tokenizer)
        )
        return tok, f"{vocab} + {merges}", hint
    if txts:
        raise ValueError(
            f"{txts[0]} holds merges without their vocabulary: add the vocab.json that goes with it "
            "(both files together), or upload a tokenizer.json instead."
        )
    if vocabs and len(vocabs) == len(jsons):
        raise ValueError(
            f"{vocabs[-1]} is a vocabulary without its merges: add the merges.txt that goes with it "
            "(both files together), or upload a tokenizer.json instead."
        )
    full = [n for n in jsons if n not in vocabs]
    if not full:
        raise ValueError(
            "Upload one tokenizer.json, one .tiktoken file, or one vocab.json together with its merges.txt."
        )
    tok = _load("tokenizer.json", "", files[full[-1]])  # several: the one uploaded last
    others = [n for n in jsons if n != full[-1]]
    hint = (
        (f"Using the last file uploaded, {full[-1]}; remove the others ({', '.join(others)}) from the list to tidy up.")
        if others
        else None
    )
    return tok, full[-1], hint


def _is_vocab(data: bytes) -> bool:
    """A vocab.json: one JSON object of token -> id (a tokenizer.json has a "model" and more)."""
    import json

    try:
        value = json.loads(data)
    except ValueError:
        return False
    return (
        isinstance(value, dict)
        and "model" not in value
        and bool(value)
        and all(isinstance(v, int) for v in value.values())
    )


def read_upload(enc: dict, files, pre_tokenizer: str, pattern: str = "cl100k") -> None:
    """Parse newly uploaded files once; a bad file leaves the previous tokenizer in use."""
    signature = (pre_tokenizer, pattern, *((f.file_id, f.name) for f in files or ()))
    if signature == enc["files"]:
        return
    enc["files"], enc["upload_error"], enc["upload_hint"] = signature, None, None
    if files:
        names = ", ".join(f.name for f in files)
        contents = {f.name: f.getvalue() for f in files}
        try:
            tok, used, enc["upload_hint"] = tokenizer_from_files(contents, pre_tokenizer, pattern)
            enc["uploaded"] = (used, tok)
        except ValueError as exc:
            kept = "The previous tokenizer is still in use." if enc["uploaded"] else "No tokenizer is loaded."
            enc["upload_error"] = f"Could not use {names}: {exc} {kept}"  # plain text: alerts.alert
