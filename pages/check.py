"""Check my implementation: a student's own BPE merges against ours, the first step where they part, and why.

Widgets (the corpus or a saved run, and our settings, the student's files or pasted merges), then the engine
(``bpe.formats.student_runs`` reads the run, ``bpe.check`` compares and searches our settings, or
``bpe.check_saved`` against a saved run: ``ui/check_saved_input.py``), then
the result: both pairs with their counts at that step, the cause in one sentence, a link to that step
on the Train page, the words that count differently, and which of our settings reproduce the run
longest. Reading the files and comparing run off the serving process, each with a time and a memory
limit (``server/check_jobs.py``): a student's file cannot stall the class. A long uploaded or pasted corpus is
held by its digest, as on the Train page (``ui/corpus_box.py``), and read from the store only there.
"""

from __future__ import annotations

from urllib.parse import urlencode

import pandas as pd
import streamlit as st

import bpe
from bpe import check
from bpe.check_minbpe import minbpe_settings
from bpe.config import BYTE_LEVEL
from bpe.presets import PRESETS
from server import check_jobs, jobs
from server.stored_text import StoredText
from ui import check_files, check_saved_input, corpus_box, links, routing, session
from ui import session_keys as keys
from ui.alerts import alert, esc
from ui.settings import Settings

routing.through_router()  # a fresh server's first request may run this page alone (ui/routing.py)

MAX_CHECK_MERGES = 2_000
MAX_FILE_BYTES = 5_000_000  # a student's run is small
SOURCES = {"preset": "A preset", "text": "Your text", "counts": "Word counts", "saved": "A saved run"}
KEPT = ("chk_source", "chk_preset", "chk_text", "chk_counts", "chk_pre", "chk_rule", "chk_special", "chk_paste",
        "chk_target", "chk_target_kind")  # fmt: skip
# the Train page's pre-tokenizers, and none at all: the whole text one sequence of bytes (minbpe's BasicTokenizer)
PRE_TOKENIZERS = (*bpe.PRE_TOKENIZERS, "none")
PRE_NAMES = {"none": "none (the whole text, as bytes)"}
DEFAULTS = {"chk_source": "preset", "chk_preset": "cs336", "chk_text": "", "chk_counts": "low 5\nlower 2",
            "chk_target": 0, "chk_target_kind": "vocabulary size"}  # fmt: skip


def _apply_preset() -> None:
    """A preset brings the settings that reproduce its source (CS336's: greatest-bytes, <|endoftext|>)."""
    options = PRESETS[st.session_state["chk_preset"]].options
    st.session_state["chk_pre"] = options.get("pre_tokenizer", "whitespace")
    st.session_state["chk_rule"] = options.get("tie_break", "first")
    st.session_state["chk_special"] = ", ".join(options.get("special_tokens", ()))


def _upload_settings() -> None:
    """The files are read once, as they arrive (``ui/check_files.py``); a run uploaded in CS336's shapes switches
    our settings to CS336's before they are drawn again (gpt2 pre-tokenization, the greatest-bytes tie rule,
    bytes, its special tokens split out: <|endoftext|>), a minbpe ``.model`` to minbpe's (its split pattern, the
    first-seen tie, bytes, no special token split out, 256 + its merges as the vocabulary size)."""
    held = check_files.changed(session.app_state().setdefault("check", {}), MAX_FILE_BYTES, MAX_CHECK_MERGES)
    read = held["run"] if held is not None else None  # a file that cannot be read: the page says why
    state = session.app_state()["check"]
    state.pop("chk_cs336", None)
    state.pop("chk_minbpe", None)
    minbpe = minbpe_settings(read[0]) if read is not None else None
    if minbpe is not None:
        if minbpe.setup is not None:  # a pattern of its own leaves the pre-tokenizer as it was: the caption says so
            st.session_state["chk_pre"] = minbpe.setup.pre_tokenizer
        st.session_state["chk_rule"] = "first"
        st.session_state["chk_special"] = ""  # minbpe's train() splits none out: they are registered after it
        st.session_state["chk_target_kind"] = "vocabulary size"
        st.session_state["chk_target"] = minbpe.vocab_size
        state["chk_minbpe"] = (minbpe.pattern, minbpe.setup is not None, minbpe.vocab_size)
    if read is not None and read[0].format.startswith("CS336"):
        run = read[0]
        st.session_state["chk_pre"] = check.CS336_SETUP.pre_tokenizer
        st.session_state["chk_rule"] = check.CS336_SETUP.tie_break
        # the vocabulary's own special tokens; CS336's when there is no vocabulary to say
        specials = run.special_tokens or (() if run.vocab_size else check.CS336_SPECIALS)
        st.session_state["chk_special"] = ", ".join(specials)
        state["chk_cs336"] = True


def _setup(rule: str, pre: str) -> check.Setup:
    """Our settings from the boxes: bytes for a byte-level pre-tokenizer, and for none (minbpe's BasicTokenizer)."""
    return check.Setup(rule, pre, pre in BYTE_LEVEL or pre == "none")


def _read_run(held: dict | None, pasted: str):
    """The student's run from the uploaded files (read once: ``ui/check_files.py``), or else the pasted text (a
    ValueError says what to fix)."""
    if held is not None:
        if held["error"]:
            raise ValueError(held["error"])
        return held["run"]
    return check_jobs.read_run([], pasted, MAX_CHECK_MERGES)


@st.cache_data(max_entries=16, show_spinner="Comparing with our run…")
def _compare(source: str, preset: str, text, counts: str, _student, student_key, setup, specials, target=()):
    """The comparison (without our run's history, which the page does not need) and the settings ranking,
    computed off the server. ``text``: the text, or a text held by its digest (``StoredText``: cached by its
    digest, and read from the store off the server). ``target``: the student's target size, as
    ``(("vocab_size" or "num_merges"), size)``."""
    return check_jobs.compare(source, preset, text, counts, _student, setup, specials, target)


def _train_link(settings: Settings, step: int) -> str:
    """The Train page at ``step`` with these settings (``ui/links.py`` writes the parameters). The Train
    page is the default page, served at the app's root: ``/train?...`` would first say the page does not exist."""
    stored = session.app_state().get(keys.STORED, set())  # a corpus the store holds goes by its digest
    return "./?" + urlencode(links.settings_to_params(settings, step, stored))


def _pair_block(title: str, pair, count: int) -> None:
    """One side of the step: the pair, the token it makes, and its count in our corpus at that step."""
    st.markdown(f"**{title}**")
    if pair is None:
        st.caption("no merge here")
        return
    a, b = (esc(check.show_bytes(p)) for p in pair)
    joined = esc(check.show_bytes(pair[0] + pair[1]))
    st.html(
        f'<div class="bpe-check-pair" data-side="{esc(title)}"><code>{a}</code> + <code>{b}</code> → '
        f"<code>{joined}</code></div>"
    )
    st.caption(f"Count in our corpus at this step: {count:,}")


st.title("Check my implementation")
st.caption(
    "Upload the merges your own BPE code made (and its vocabulary if you have it), pick the corpus and settings "
    "you trained with, and see the first merge where your run leaves ours, and the likely reason. Read: "
    "merges.txt, vocab.json, tokenizer.json, minbpe's .model, subword-nmt codes, CS336's vocab and merges "
    "(JSON or a pickle of plain values; a pickle that names any class or function is refused unread)."
)
state = session.app_state().setdefault("check", {})
for key, value in DEFAULTS.items():
    state.setdefault(key, value)
if "chk_pre" not in state:
    st.session_state["chk_preset"] = state["chk_preset"]
    _apply_preset()
session.keep_widgets(state, KEPT)

left, right = st.columns(2)
with left:
    source = st.radio("Corpus", list(SOURCES), format_func=SOURCES.get, key="chk_source", horizontal=True)
    if source == "preset":
        st.selectbox("Preset", list(PRESETS), format_func=lambda k: PRESETS[k].title, key="chk_preset",
                     on_change=_apply_preset)  # fmt: skip
    elif source == "text":
        corpus_text = corpus_box.check_text_source(state, session.app_state())
    elif source == "saved":
        saved_file = check_saved_input.upload(state)
    else:
        st.text_area("Word counts, one 'word count' per line", key="chk_counts", height=120)
with right:
    if source == "saved":
        st.caption("A saved run is compared with its own pre-tokenizer, tie rule and special tokens.")
    pre = st.selectbox("Pre-tokenizer", PRE_TOKENIZERS, format_func=lambda p: PRE_NAMES.get(p, p), key="chk_pre",
                       disabled=source == "saved")  # fmt: skip
    rule = st.selectbox("Tie rule", bpe.TIE_RULES, key="chk_rule", disabled=source == "saved")
    sentence = bpe.TIE_RULE_SENTENCES[rule]
    st.caption(sentence[0].upper() + sentence[1:] + ".")  # not capitalize(): it would lowercase CS336
    special_text = st.text_input("Special tokens (comma-separated)", key="chk_special", disabled=source == "saved")
    if state.get("chk_cs336") and _setup(rule, pre) == check.CS336_SETUP:
        st.caption("Set to CS336's settings for your upload in CS336's shapes.")
    if state.get("chk_minbpe") and source != "saved":
        said, known, size = state["chk_minbpe"]
        st.caption(
            f"Set to minbpe's settings for your .model: its split pattern, {said}"
            + ("" if known else " (pick the closest pre-tokenizer)")
            + f", the pair seen first wins a tie, bytes, no special token split out, and a vocabulary of {size:,} "
            "(256 bytes + your merges: change it to the vocab_size you trained with)."
        )
    target_kind = st.radio("Your target", ["vocabulary size", "merges"], key="chk_target_kind", horizontal=True)
    target_size = st.number_input("Target size (0: not checked)", min_value=0, max_value=10_000_000, key="chk_target")

files = check_files.uploader(state, MAX_FILE_BYTES, MAX_CHECK_MERGES, on_change=_upload_settings)
pasted = st.text_area(
    "…or paste your merges ('a b' lines, a Python list such as ['s t', 'e st'], or any of the text formats)",
    key="chk_paste",
    height=100,
)

specials = tuple(t.strip() for t in special_text.split(",") if t.strip())
try:
    read = _read_run(files, pasted)
except ValueError as exc:
    alert("error", exc)
    st.stop()
if read is None:
    st.info("Upload your run's files or paste your merges to compare them with ours.")
    st.stop()
student, total_merges = read
if total_merges > MAX_CHECK_MERGES:
    alert("error", f"Your run has {total_merges:,} merges; the check reads the first {MAX_CHECK_MERGES:,}.")
preset, text, counts = state["chk_preset"], corpus_text if source == "text" else "", state["chk_counts"]
student_key = (student.format, student.merges, student.vocab_size, student.byte_level, student.end_of_word)
target_key = "vocab_size" if target_kind == "vocabulary size" else "num_merges"
target = ((target_key, int(target_size)),) if target_size else ()
if source == "saved":
    if saved_file is None:
        st.info("Upload the saved run (.bpe) to compare your merges with it.")
        st.stop()
    try:
        result, ranked, described = check_saved_input.compare(saved_file, student, student_key, target)
    except ValueError as exc:
        alert("error", f"{saved_file.name}: {exc}")  # the file name is the user's: plain text only
        st.stop()
    setup = result.setup
    st.caption("**Ours: the saved run** " + bpe.display.md_escape(saved_file.name) + ":")
    st.text(described)
else:
    if corpus_box.held_gone(session.app_state(), text):  # its summary says so, and to upload it again
        st.stop()
    try:  # the limits are the Train page's (server/limits.py); a text held by its digest was within them
        if not isinstance(text, StoredText):  # one held by its digest is read only off the server
            jobs.corpus_of(source, preset, text, counts)
    except ValueError as exc:
        if not (source == "text" and corpus_box.upload_refused(state, "chk_corpus_file")):  # it said why already
            alert("error", exc)
        st.stop()
    setup = _setup(rule, pre)
    try:
        result, ranked = _compare(source, preset, text, counts, student, student_key, setup, specials, target)
    except ValueError as exc:
        alert("error", exc)
        st.stop()

st.caption(f"Read as {student.format}: {len(student.merges):,} merges" + (
    f", a vocabulary of {student.vocab_size:,}" if student.vocab_size else "") + ".")  # fmt: skip
if result.setup != setup:
    st.caption(f"Compared with {result.setup.sentence()}, the settings your upload's format uses.")
if result.step is None:
    alert("info" if result.kind == "same" else "warning", result.cause)
else:
    equal = result.equal  # other settings reproduce every merge: that leads, the step follows
    if equal:
        alert("info", result.cause)
    st.header(f"With the settings compared here the runs part at step {result.step:,}" if equal else
              f"The runs part at step {result.step:,}")  # fmt: skip
    ours_col, theirs_col = st.columns(2)
    with ours_col:
        _pair_block("Our run", result.ours, result.our_count)
    with theirs_col:
        _pair_block("Your run", result.theirs, result.their_count)
    st.caption(check.LEGEND)
    if not equal:
        alert("warning", result.cause)
    corpus_fields = dict(stored=text) if isinstance(text, StoredText) else dict(text=text)  # by its digest
    train_settings = Settings(
        source=source, preset=preset, **corpus_fields, counts=counts, pre_tokenizer=result.setup.pre_tokenizer,
        limit="num_merges", limit_value=max(len(student.merges), result.step), special_tokens=specials,
        tie_break=result.setup.tie_break,
    )  # fmt: skip
    if source == "saved":  # a link cannot carry a run file
        st.caption(f"To step through it: open the run file on the Train page (Open a saved run), step {result.step:,}.")
    elif result.setup.pre_tokenizer not in bpe.PRE_TOKENIZERS:  # "none": the Train page always cuts the text
        st.caption("The Train page always pre-tokenizes, so it cannot step through a run on the whole text.")
    else:
        st.link_button(f"Go to step {result.step:,}", _train_link(train_settings, result.step))
    st.dataframe(pd.DataFrame(result.around(student), columns=["step", "our merge", "your merge"]), hide_index=True)
    if result.words:
        st.markdown("**Words that count your pair differently**")
        st.dataframe(
            pd.DataFrame(result.words, columns=["word", "in our corpus", "with the closest settings"]),
            hide_index=True,
        )
if ranked:
    st.header("Which of our settings reproduce your run longest")
    rows = [(s.tie_break, s.pre_tokenizer, "bytes" if s.byte_base else "characters", n) for s, n in ranked[:8]]
    st.dataframe(
        pd.DataFrame(
            rows, columns=["tie rule", "pre-tokenizer", "base", f"merges reproduced (of {len(student.merges):,})"]
        ),
        hide_index=True,
    )
