"""Encode: cut a text into tokens with the tokenizer trained on the Train page, or an uploaded one.

Widgets, then one or two engine calls, then output. Colours, labels, tooltips and escaping
come from ``bpe.display``; file formats from ``bpe.formats``. The page keeps its
widget values and the uploaded tokenizer in ``state["encode"]`` so nothing is lost when
the user visits the Train page and comes back.
"""

from __future__ import annotations

import hashlib
from dataclasses import replace

import pandas as pd
import streamlit as st

import bpe
from bpe import display, formats, hub
from pages import common

MAX_TEXT_BYTES = 100_000  # 100 KB, stated in the text box's label
MAX_CHIPS = 2_000
ALGORITHM_NAMES = {"bpe": "BPE", "wordpiece": "WordPiece"}
SAMPLE = "This is not a token. 🙂 hugs"
SOURCES = ("Trained on the Train page", "Uploaded file", "Hugging Face Hub")
TIKTOKEN_PATTERNS = {
    "cl100k": "cl100k (GPT-3.5, GPT-4)",
    "o200k": "o200k (GPT-4o)",
    "gpt2": "gpt2 (GPT-2, r50k)",
    "typed": "Type a pattern",
}
MAX_REPLAY_SYMBOLS = 300  # the merge replay is drawn for words of up to this many symbols
REPLAY_BUDGET = 3_000  # symbols drawn over all of a replay's steps
MAX_TREE_NODES = display.MAX_TREE_NODES
OTHERS = {
    "merges": "The same tokenizer with fewer merges",
    "wordpiece": "WordPiece trained on the same corpus",
    "other": "The other tokenizer (uploaded / trained)",
}  # WordPiece first would train on every toggle
KEPT = (
    "encode_text",
    "encode_source",
    "show_ws",
    "byte_text",
    "k",
    "compare",
    "compare_with",
    "compare_k",
    "hub_repo",
    "tiktoken_pattern",
)
# A first text that suits each preset's tokenizer (the course tokenizes 'bug mug thug hugs' with the hug
# rules; a sentence would come out as mostly [UNK]). Pasted text and word counts start from their own words.
SAMPLES = {
    "hug": "bug mug thug hugs",
    "course": "This is not a token.",
    "notebook": "This is not a token.",
    "aa-abc": "aa abc abc abcaa",
    "sennrich": "lowest newer wider",
    "minbpe": "aaabdaaabac",
    "multilingual": "Tokenizers meet café, 日本語 and 🙂🚀.",
    "python-docs": 'def tokenize(text):\n    """Split text into words."""\n    return text.split()\n',
}


def sample_for(settings: common.Settings) -> str:
    """The first text for a tokenizer trained with ``settings``: words its corpus has."""
    if settings.source == "preset":
        return SAMPLES.get(settings.preset, SAMPLE)
    if settings.source == "counts":
        return " ".join(line.split()[0] for line in settings.counts.splitlines() if line.split())[:200] or SAMPLE
    first = next((line for line in settings.text.splitlines() if line.strip()), "")
    return first[:200] or SAMPLE


state = common.app_state()
enc = state.setdefault(
    "encode",
    {
        "encode_text": sample_for(state["settings"]),
        "uploaded": None,
        "upload_error": None,
        "files": None,
        "upload_hint": None,
    },
)
enc.setdefault("auto_text", enc["encode_text"])
if st.session_state.get("encode_text", enc["encode_text"]) == enc["auto_text"]:
    # Not edited by the user: the sample follows the Train page's corpus.
    st.session_state["encode_text"] = enc["encode_text"] = enc["auto_text"] = sample_for(state["settings"])
common.keep_widgets(enc, KEPT)  # e.g. the box showed "" and k 0 after an early stop, while the tokens used both


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


@st.cache_resource(max_entries=3, show_spinner="Fetching the tokenizer from the Hugging Face Hub...")
def hub_tokenizer(repo_id: str) -> bpe.Tokenizer:
    return hub.from_hub(repo_id)


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


def read_upload(files, pre_tokenizer: str, pattern: str = "cl100k") -> None:
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
            enc["upload_error"] = f"Could not use {names}: {exc} {kept}"  # plain text: common.alert


def memo(name: str, key: tuple, compute):
    """``compute()``, kept until ``key`` changes (tokenizers compare by identity, text by value):
    reruns that only flip a toggle or pick a word do not encode 100 KB again."""
    if enc.get(name, (None,))[0] != key:
        enc[name] = (key, compute())
    return enc[name][1]


st.title("Encode: how the tokenizer cuts your text")

# -- which tokenizer ----------------------------------------------------------------------------------
source = st.radio("Tokenizer", SOURCES, key="encode_source", horizontal=True)
if source == SOURCES[1]:
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
    read_upload(files, pre_choice, pattern)
    if enc["upload_error"]:
        common.alert("error", enc["upload_error"])
    if enc.get("upload_hint"):
        common.alert("warning", enc["upload_hint"])
    if enc["uploaded"] is None:
        st.info("Upload a tokenizer file to tokenize with it.")
        st.stop()
    name, tok = enc["uploaded"]
elif source == SOURCES[2]:
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
        common.alert("error", enc["hub_error"])  # quotes the typed name: plain text
    if not enc.get("hub"):
        st.info("Type a model's name and load it to tokenize with its tokenizer.")
        st.stop()
    name, tok = enc["hub"]
else:
    name, tok = "the tokenizer trained on the Train page", common.current_tokenizer()
    if tok is None:
        st.error("The Train page's settings do not train a tokenizer: fix them there, or upload a tokenizer file.")
        st.stop()
unk_note = ""
if source == SOURCES[0]:
    # The Train page counts the vocabulary it learned; the tokenizer adds [UNK] (character level) or
    # the bytes its corpus never had (byte level), so the two sizes differ: say why.
    trained = common.train(state["settings"])
    learned = trained.state(trained.num_merges).vocab_size
    if tok.vocab_size > learned and tok.pre_tokenizer in bpe.BYTE_LEVEL and tok.algorithm == "bpe":
        unk_note = (
            f" ({learned:,} from training, plus the {tok.vocab_size - learned:,} bytes its corpus never had, "
            "so no text is unknown)"
        )
    elif tok.unk_token is not None and tok.unk_token in tok.vocab:
        unk_note = f" (with {display.md_escape(tok.unk_token)} at the end, for anything the training corpus never had)"
n = len(tok.merges)
train_step = state.get("step", 0) if source == SOURCES[0] else n
# Which merges apply follows what the user did on the Train page: stopped at step k (the course's
# "bug -> b ug" needs its first 3 merges), the tokenizer as at that step; never stepped (or at the end),
# the whole run. A new tokenizer or a new Train step sets it again; the user can change it here.
at_step = 0 < train_step < n
base = enc.get("k_base")
if base is None or base[0] is not tok or base[1] != train_step or st.session_state.get("k", 0) > n:
    enc["k_base"] = (tok, train_step)
    enc["k"] = st.session_state["k"] = train_step if at_step else n
    enc["merges_choice"] = st.session_state["merges_choice"] = "step" if at_step else "all"


def _choose_merges() -> None:
    st.session_state["k"] = train_step if st.session_state["merges_choice"] == "step" else n


if at_step:
    st.session_state.setdefault("merges_choice", enc.get("merges_choice", "step"))
    enc["merges_choice"] = st.segmented_control(
        "Which merges to apply",
        ["step", "all"],
        key="merges_choice",
        on_change=_choose_merges,
        required=True,
        format_func={"step": f"As at Train step {train_step}", "all": f"All {display.plural(n, 'merge')}"}.get,
        help="The Train page is at an earlier step than its last: tokenize as at that step, or with the whole run.",
    )
in_use_line = st.empty()  # filled once the tokenizer in use is known (below)

# -- the text and the controls ---------------------------------------------------------------------------
text = st.text_area(f"Text to tokenize (up to {MAX_TEXT_BYTES // 1000} KB)", key="encode_text", height=110)
too_long = st.empty()  # the error goes here, above the controls, which stay drawn (see below)
left, right = st.columns([1, 2])
show_ws = left.toggle(
    "Show whitespace as · and ↵",
    key="show_ws",
    help="Off: as the tokenizer stores it (byte-level: Ġ for a space, Ċ for a newline).",
)
as_text = True
if tok.byte_level:
    # The Train page's toggle (same key, kept by both pages): the course's presets print Ġ, others text.
    if "byte_text" not in st.session_state:
        settings = state["settings"]
        st.session_state["byte_text"] = source != SOURCES[0] or not (
            settings.source == "preset" and settings.preset in ("course", "notebook")
        )
    as_text = left.toggle(
        "Bytes as text",
        key="byte_text",
        help="On: each token shows the text its bytes stand for (Straße, 世界, 😀); off: as stored "
        "(ĠStraÃŁe). The tooltip has the stored token and its bytes in hex.",
    )
k = right.slider("Or apply only the first k merges", 0, n, key="k") if n else 0
if len(text.encode("utf-8")) > MAX_TEXT_BYTES:
    # Stopped only now: a widget left out of a run loses its value in the browser (k would drop to 0).
    too_long.error(
        f"The text is {len(text.encode('utf-8')):,} bytes, over the {MAX_TEXT_BYTES // 1000} KB limit: "
        "shorten it to tokenize it (nothing was tokenized)."
    )
    st.stop()
shown = memo("shown", (tok, k), lambda: tok if k == n else tok.with_merges(k))
if k == n:
    in_use = "the only merge" if n == 1 else f"all {display.plural(n, 'merge')}"
else:
    first = "no merge" if k == 0 else "the first merge" if k == 1 else f"the first {k:,}"
    in_use = f"{first} of {display.plural(n, 'merge')}" + (
        f" (as at Train step {k:,})" if at_step and k == train_step else ""
    )
# One line saying which tokenizer is in use, merges and vocabulary as applied (not the whole run's).
in_use_line.caption(
    f"Using {display.md_escape(name)}: {ALGORITHM_NAMES[tok.algorithm]}, {tok.pre_tokenizer} "
    f"pre-tokenizer, **{in_use}**, {shown.vocab_size:,} tokens in the vocabulary"
    f"{unk_note if k == n else ''}."
)
try:
    encoding = memo("encoding", (shown, text), lambda: shown.encode_full(text))
except ValueError as exc:
    common.alert("error", f"{exc} Remove those characters or use another tokenizer.")
    st.stop()

# -- tokens, ids, counts --------------------------------------------------------------------------------
# How whitespace reads: · and ↵ (the toggle), as text like the Train page (␣), or as stored (Ġ).
ws = True if show_ws else "text" if as_text and tok.byte_level else False
st.html(display.encoding_html(shown, encoding, text, show_whitespace=ws, limit=MAX_CHIPS, as_text=as_text))
if len(encoding.ids) > MAX_CHIPS:
    st.caption(f"Showing the first {MAX_CHIPS:,} of {len(encoding.ids):,} tokens; the id list below is complete.")
cols = st.columns(5)
cols[0].metric("Characters", f"{len(text):,}")
cols[1].metric("Bytes (UTF-8)", f"{len(text.encode('utf-8')):,}")
cols[2].metric("Words", f"{len(display.word_spans(encoding)):,}", help="Words as the pre-tokenizer cuts them.")
cols[3].metric("Tokens", f"{len(encoding.ids):,}")
cols[4].metric("Characters per token", f"{len(text) / max(len(encoding.ids), 1):.2f}")
st.code(str(list(encoding.ids)), language=None, wrap_lines=True)
table = memo(
    "rows",
    (shown, text),
    lambda: pd.DataFrame(
        display.token_rows(shown, encoding, text), columns=list(display.TOKEN_COLUMNS)
    ).convert_dtypes(),
)
with st.expander("Token table"):
    st.dataframe(table, hide_index=True)

# -- how a word was built, and what a token is made of --------------------------------------------------
replay, tree = st.columns(2)
words = list(dict.fromkeys(text[s:e] for s, e in display.word_spans(encoding)))[:1000]
if words:
    word = replay.selectbox(
        "Merge replay for the word",
        words,
        key="replay_word",
        format_func=lambda w: (
            display.visible(w) if len(w) <= 80 else f"{display.visible(w[:60])}… ({len(w):,} characters)"
        ),
    )
    if len(word) > MAX_REPLAY_SYMBOLS:  # not even traced: a word's symbols are at least its characters
        replay.caption(
            f"This word has {len(word):,} characters; the merge replay is drawn for words of up to "
            f"{MAX_REPLAY_SYMBOLS} symbols, so pick a shorter word (its tokens are all in the table above)."
        )
    for trace in shown.trace(word, budget=REPLAY_BUDGET) if len(word) <= MAX_REPLAY_SYMBOLS else ():
        if len(trace.initial) > MAX_REPLAY_SYMBOLS:
            # Every step of a long word's replay repeats the whole word: it would not fit on a page.
            replay.caption(
                f"This word starts as {len(trace.initial):,} symbols and ends as {len(trace.tokens):,} "
                f"tokens; the merge replay is drawn for words of up to {MAX_REPLAY_SYMBOLS} symbols, so "
                "pick a shorter word (its tokens are all in the table above)."
            )
            continue
        replay.html(display.TOKEN_CSS + display.trace_html(shown, trace, ws))
        if trace.omitted:
            replay.caption(
                f"Showing the first {len(trace.steps):,} merge steps; {trace.omitted:,} more steps were "
                f"left out to keep the page readable. The word ends as {len(trace.tokens):,} tokens: "
                + " ".join(display.token_label(shown, t, ws) for t in trace.tokens[:40])
                + (" …" if len(trace.tokens) > 40 else "")
            )
        if shown.algorithm == "wordpiece":
            replay.caption("WordPiece applies no merges when encoding: it takes the longest vocabulary match.")
pieces = list(dict.fromkeys(encoding.tokens))[:1000]
if pieces:
    merged = [i for i, t in enumerate(pieces) if shown.token_rank(t) is not None]
    token = tree.selectbox(
        "Merge tree of the token",
        pieces,
        index=merged[0] if merged else 0,
        key="tree_token",
        format_func=lambda t: display.token_label(shown, t, ws),
    )
    built = shown.merge_tree(token)
    tree.html(display.merge_tree_html(shown, built, ws, limit=MAX_TREE_NODES))
    size = display.merge_tree_size(built, cap=MAX_TREE_NODES + 1)
    if size > MAX_TREE_NODES:
        tree.caption(
            f"This token is built by more than {MAX_TREE_NODES} merges; the tree opens the first "
            f"{MAX_TREE_NODES} (the rest show their token and …)."
        )

# -- bytes --------------------------------------------------------------------------------------------------
if shown.byte_level:
    with st.expander("Bytes: why a space is Ġ"):
        st.markdown(display.byte_level_explanation())
        cut = table[[display.cuts_character(shown, t) for t in table["token"]]]
        if len(cut):
            st.write(f"{len(cut):,} tokens here cut a UTF-8 character:")
            st.dataframe(cut, hide_index=True)
        st.dataframe(pd.DataFrame(display.byte_table_rows()), hide_index=True, height=250)


# -- side by side ----------------------------------------------------------------------------------------
def second_tokenizer(kind: str) -> tuple[str, bpe.Tokenizer] | None:
    """The tokenizer to compare with, or None after saying why there is none."""
    if kind == "merges":
        m = st.slider("Merges for the second tokenizer", 0, n, n // 2, key="compare_k") if n else 0
        return display.plural(m, "merge"), memo("compare_tok", (tok, m), lambda: tok.with_merges(m))
    if kind == "other" and source == SOURCES[0]:
        if enc["uploaded"] is None:
            st.info("Choose 'Uploaded file' above and upload a tokenizer to compare with it.")
        return enc["uploaded"]
    if kind == "other":
        other = common.current_tokenizer()
        return None if other is None else ("trained on the Train page", other)
    settings = replace(state["settings"], algorithm="wordpiece")
    try:
        return "WordPiece, same corpus", common.tokenizer_for(settings, common.train(settings).num_merges)
    except ValueError as exc:
        common.alert("error", f"WordPiece cannot be trained with these settings: {exc}")
        return None


if st.toggle("Side by side with a second tokenizer", key="compare"):
    second = second_tokenizer(
        st.radio("Compare with", list(OTHERS), format_func=OTHERS.get, key="compare_with", horizontal=True)
    )
    if second is not None:
        try:
            other_encoding = memo("other_encoding", (second[1], text), lambda: second[1].encode_full(text))
        except ValueError as exc:
            common.alert("error", f"The second tokenizer cannot encode this text: {exc}")
            st.stop()
        spans = display.disagreement_spans(encoding.offsets, other_encoding.offsets, len(text))
        a, b = st.columns(2)
        a.metric(f"Tokens, {display.md_escape(name)}", f"{len(encoding.ids):,}")
        b.metric(
            f"Tokens, {display.md_escape(second[0])}",
            f"{len(other_encoding.ids):,}",
            delta=len(other_encoding.ids) - len(encoding.ids),
            delta_color="off",
        )
        a.html(
            display.encoding_html(
                shown, encoding, text, show_whitespace=ws, limit=MAX_CHIPS, marked=spans, as_text=as_text
            )
        )
        b.html(
            display.encoding_html(
                second[1], other_encoding, text, show_whitespace=ws, limit=MAX_CHIPS, as_text=as_text, marked=spans
            )
        )
        st.caption(f"Underlined in red: the {len(spans):,} stretches of text where the token boundaries differ.")
