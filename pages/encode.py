"""Encode: cut a text into tokens with the tokenizer trained on the Train page, or an uploaded one.

Widgets, then one or two engine calls, then output. Colours, labels, tooltips and escaping
come from ``bpe.display``; the tokenizer in use (trained, uploaded files, a Hub model) from
``encode_sources.py``; a tokenizer's notes (how its file reads unusually) are shown whatever its
source. The page keeps its
widget values and the uploaded tokenizer in ``state["encode"]`` so nothing is lost when
the user visits the Train page and comes back.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

import bpe
from bpe import display
from ui import encode_compare, encode_present, encode_sources, encode_start, routing, runs, session
from ui import session_keys as keys
from ui.alerts import alert
from ui.assets import HOVER_JS
from ui.encode_sources import SOURCES, TRAINED, UPLOADED
from ui.settings import Settings

routing.through_router()  # a fresh server's first request may run this page alone (ui/routing.py)

MAX_TEXT_BYTES = 100_000  # 100 KB, stated in the text box's label
MAX_CHIPS = 2_000
ALGORITHM_NAMES = {"bpe": "BPE", "wordpiece": "WordPiece"}
SAMPLE = "This is not a token. 🙂 hugs"
MAX_REPLAY_SYMBOLS = 300  # the merge replay is drawn for words of up to this many symbols
REPLAY_BUDGET = 3_000  # symbols drawn over all of a replay's steps
MAX_TREE_NODES = display.MAX_TREE_NODES
KEPT = (
    "encode_text",
    "encode_source",
    "show_ws",
    "byte_text",
    "k",
    "compare",
    "compare_with",
    "compare_k",
    "compare_popular",
    "popular_pick",
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


UNREACHABLE_TREE = (
    "No merge of lower-ranked tokens builds this token: the rank file ranks it below a part it is made of, "
    "so it has no merge tree, and tiktoken (as this page) takes a piece that is exactly this token whole, "
    "or joins two tokens into it by its rank."
)
UNREACHABLE_REPLAY = (
    "No merge of lower-ranked tokens builds {}: tiktoken (as this page) joins two tokens into such a token "
    "at its rank (the step named rank N), or takes a piece that is exactly the token whole."
)


def sample_for(settings: Settings) -> str:
    """The first text for a tokenizer trained with ``settings``: words its corpus has."""
    if settings.source == "preset":
        return SAMPLES.get(settings.preset, SAMPLE)
    if settings.source == "counts":
        return " ".join(line.split()[0] for line in settings.counts.splitlines() if line.split())[:200] or SAMPLE
    first = next((line for line in settings.text_head()[:100_000].splitlines() if line.strip()), "")  # not all 100 MB
    return first[:200] or SAMPLE


state = session.app_state()
enc = state.setdefault(
    "encode",
    {
        "encode_text": sample_for(state[keys.SETTINGS]),
        "uploaded": None,
        "upload_error": None,
        "files": None,
        "upload_hint": None,
    },
)
enc.setdefault("auto_text", enc["encode_text"])
if st.session_state.get("encode_text", enc["encode_text"]) == enc["auto_text"]:
    # Not edited by the user: the sample follows the Train page's corpus.
    st.session_state["encode_text"] = enc["encode_text"] = enc["auto_text"] = sample_for(state[keys.SETTINGS])
session.keep_widgets(enc, KEPT)  # e.g. the box showed "" and k 0 after an early stop, while the tokens used both
if st.query_params.get("tokenizer") == "trained":  # the Train page's "Encode your own text with this tokenizer"
    st.session_state[keys.ENCODE_SOURCE] = enc["encode_source"] = TRAINED
    del st.query_params["tokenizer"]


def memo(name: str, key: tuple, compute):
    """``compute()``, kept until ``key`` changes (tokenizers compare by identity, text by value):
    reruns that only flip a toggle or pick a word do not encode 100 KB again."""
    if enc.get(name, (None,))[0] != key:
        enc[name] = (key, compute())
    return enc[name][1]


st.title("Encode: how the tokenizer cuts your text")
link_settings, link_notes = state.get(keys.LINK_NOTES, (None, ()))
if state[keys.SETTINGS] == link_settings:  # a link opened on this page (/encode?step=x): say what it could not restore
    for note in link_notes:
        alert("warning", note)  # it quotes the link: plain text only

# -- which tokenizer ----------------------------------------------------------------------------------
source = st.radio("Tokenizer", SOURCES, key=keys.ENCODE_SOURCE, horizontal=True)
encode_start.offer(source, state[keys.SETTINGS], state, enc)  # the toy example in use: tokenizers for real text
name, tok = encode_sources.tokenizer_in_use(source, enc)
if source != UPLOADED:  # an upload's notes are in its hint, shown beside the uploader
    for note in tok.notes:  # how the file reads unusually (bpe.formats): plain text
        alert("info", note)
unk_note = ""
if source == TRAINED:
    # The Train page counts the vocabulary it learned; the tokenizer adds [UNK] (character level) or
    # the bytes its corpus never had (byte level), so the two sizes differ: say why.
    trained = runs.train(state[keys.SETTINGS])
    learned = trained.state(trained.num_merges).vocab_size
    if tok.vocab_size > learned and tok.pre_tokenizer in bpe.BYTE_LEVEL and tok.algorithm == "bpe":
        unk_note = (
            f" ({learned:,} from training, plus the {tok.vocab_size - learned:,} bytes its corpus never had, "
            "so no text is unknown)"
        )
    elif tok.unk_token is not None and tok.unk_token in tok.vocab:
        unk_note = f" (with {display.md_escape(tok.unk_token)} at the end, for anything the training corpus never had)"
n = len(tok.merges)
train_step = state.get(keys.STEP, 0) if source == TRAINED else n
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
        format_func={"step": f"As at Train step {train_step:,}", "all": f"All {display.plural(n, 'merge')}"}.get,
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
present = encode_present.toggle(left)  # presenter view: large tokens and one word's replay (encode_present.py)
as_text = True
if tok.byte_level:
    # The Train page's toggle (same key, kept by both pages): the course's presets print Ġ, others text.
    if keys.BYTE_TEXT not in st.session_state:
        settings = state[keys.SETTINGS]
        st.session_state[keys.BYTE_TEXT] = source != TRAINED or not (
            settings.source == "preset" and settings.preset in ("course", "notebook")
        )
    as_text = left.toggle(
        "Bytes as text",
        key=keys.BYTE_TEXT,
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
    alert("error", str(exc))  # the engine's sentence says what stopped it and what to do
    st.stop()

# -- tokens, ids, counts --------------------------------------------------------------------------------
# How whitespace reads: · and ↵ (the toggle), as text like the Train page (␣), or as stored (Ġ).
ws = True if show_ws else "text" if as_text and tok.byte_level else False
if present:
    encode_present.view(shown, encoding, text, ws, as_text)
    st.stop()
st.html(
    display.encoding_html(shown, encoding, text, show_whitespace=ws, limit=MAX_CHIPS, as_text=as_text, hover=True)
    + display.source_html(text)
)
st.html(HOVER_JS, unsafe_allow_javascript=True)  # our own constant script, no user text
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
                + " ".join(display.md_escape(display.token_label(shown, t, ws)) for t in trace.tokens[:40])
                + (" …" if len(trace.tokens) > 40 else "")
            )
        if shown.algorithm == "wordpiece":
            replay.caption("WordPiece applies no merges when encoding: it takes the longest vocabulary match.")
        # A rank file's token no merge builds: the replay still joins two tokens into it (by its rank)
        made = dict.fromkeys((*(s.pair[0] + s.pair[1] for s in trace.steps), *trace.tokens))
        odd = [display.md_escape(display.token_label(shown, t, ws)) for t in made if display.by_rank_only(shown, t)]
        if odd:
            replay.caption(UNREACHABLE_REPLAY.format(", ".join(odd)))
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
    if display.by_rank_only(shown, token):
        tree.caption(UNREACHABLE_TREE)
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
encode_compare.side_by_side(
    encode_compare.First(name, shown, tok, encoding, source),
    text,
    enc,
    memo,
    state[keys.SETTINGS],
    ws=ws,
    as_text=as_text,
    limit=MAX_CHIPS,
)
