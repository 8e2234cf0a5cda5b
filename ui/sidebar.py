"""The training page's sidebar: the corpus (preset, pasted or uploaded text, word-count table)
and the training settings, turned into one :class:`ui.settings.Settings`."""

from __future__ import annotations

from dataclasses import replace

import pandas as pd
import streamlit as st

import bpe
from bpe import display
from bpe.display import md_escape as md  # tokens and words shown inside markdown
from bpe.presets import HUG_COUNTS, PRESETS
from server import limits
from server.stored_text import StoredText
from ui import controls, corpus_box, counts_input, run_file_input, runs
from ui import session_keys as keys
from ui.alerts import alert, esc
from ui.settings import Settings, corpus_of, preset_settings

SOURCES = {"preset": "Preset", "text": "Paste or upload text", "counts": "Word-count table"}
LIMITS = {"num_merges": "Number of merges", "vocab_size": "Vocabulary size", "none": "Until no pair is left"}
EXPLAIN = {
    "whitespace": "split on whitespace, the spaces are dropped",
    "gpt2": "GPT-2's regex, then each UTF-8 byte as a character (space → Ġ)",
    "gpt4": "GPT-4's cl100k regex (numbers in groups of 3), same byte map",
    "sennrich": "whitespace split, each word ends in the symbol </w>",
    "space-suffix": "each word keeps its trailing space (How BPE works)",
}


SPECIALS_SPLIT = (
    "Special tokens are split out of the text before pre-tokenizing (as the Check page and CS336 do): the pieces "
    "between them are separate documents, and no pair spans a special token. A text is otherwise trained as "
    "written, newlines included."
)
PREVIEW_CHARS = 4_096  # the preview pre-tokenizes this much of each text
TEXT_MERGES = 1_000  # the stop a pasted or uploaded text starts with: a few seconds even for 5 MB
LARGE_CORPUS_CHARS = 100_000  # "until no pair is left" on more text than this asks first


def _source_changed() -> None:
    """A new corpus opens at step 0; pasted or uploaded text starts with a stop that trains in a few
    seconds (a preset's "until no pair is left" carried over made a 5 MB paste train for minutes)."""
    st.session_state[keys.STEP] = 0
    if st.session_state.get(keys.SOURCE) == "text":  # .get: a class's view may have dropped it before this runs
        st.session_state["limit"], st.session_state["limit_value"] = "num_merges", TEXT_MERGES


def _seed(key: str, value) -> None:
    """Give a widget its value from our saved settings when Streamlit has forgotten it
    (widget state is dropped while another page is shown)."""
    if key not in st.session_state:
        st.session_state[key] = value


def _apply_preset() -> None:
    s = preset_settings(st.session_state.get(keys.PRESET, Settings().preset))  # as in _source_changed
    for key, value in _widget_values(s).items():
        st.session_state[key] = value
    st.session_state[keys.STEP] = 0


def _widget_values(s: Settings) -> dict:
    return {
        "pre_tokenizer": s.pre_tokenizer,
        "limit": s.limit,
        "limit_value": s.limit_value,
        "tie_break": s.tie_break,
        "min_frequency": s.min_frequency,
        "algorithm": s.algorithm,
        "full_bytes": s.full_byte_alphabet,
        "special_tokens": ", ".join(s.special_tokens),
    }


def corpus_and_settings(state: dict) -> Settings:
    """The sidebar; returns the settings it describes (the corpus is validated by training)."""
    saved: Settings = state[keys.SETTINGS]
    _seed("source", saved.source)
    _seed("preset", saved.preset)
    _seed("counts_text", saved.counts)
    for key, value in _widget_values(saved).items():
        _seed(key, value)

    st.header("Corpus")
    source = st.radio(
        "Corpus",
        list(SOURCES),
        format_func=SOURCES.get,
        key=keys.SOURCE,
        label_visibility="collapsed",
        on_change=_source_changed,
    )
    text, counts, held = "", st.session_state[keys.COUNTS_TEXT], None
    if source == "preset":
        # A radio, not a select box: a select box cut the longer names ("Python documentation, 1 MB (a r…").
        st.radio(
            "Preset",
            list(PRESETS),
            format_func=lambda k: md(PRESETS[k].title),
            key=keys.PRESET,
            on_change=_apply_preset,
        )
        p = PRESETS[st.session_state[keys.PRESET]]
        st.caption(f"**Source:** {p.source}. **Reproduces:** {p.reproduces}.")
    elif source == "text":
        text = corpus_box.text_source(state, (saved.stored or saved.text) if saved.source == "text" else "")
        if isinstance(text, StoredText):  # a long text held by its digest (server/stored_text.py)
            held, text = text, ""
        else:
            counts_input.offer_counts(state, text)  # "hug 10" lines uploaded as text: offer to read them as counts
        if state.pop("new_text_corpus", False) and st.session_state["limit"] == "none":  # see _source_changed
            st.session_state["limit"], st.session_state["limit_value"] = "num_merges", TEXT_MERGES
    else:
        st.caption("One word per row with how often it occurs.")
        counts_input.upload_and_paste(state)  # a file or a pasted block fills the table
        if not st.session_state[keys.COUNTS_TEXT].strip() and "counts_table" not in state:
            # a new table starts from the preset's words (the course's five when the preset has none)
            st.session_state[keys.COUNTS_TEXT] = PRESETS[st.session_state[keys.PRESET]].word_counts or HUG_COUNTS
        counts = _counts_editor(st.session_state[keys.COUNTS_TEXT], state)
        st.session_state[keys.COUNTS_TEXT] = counts
        corpus_box.remember(state, "counts", counts)  # so the link carries its digest, not the table
        if warning := corpus_box.store_warning(state, "counts", counts):
            alert("warning", warning)
    if (saved_run := run_file_input.saved_run(state)) is not None:
        return saved_run  # a run file is open: its own settings, none to choose

    st.header("Settings")
    st.selectbox("Pre-tokenizer", bpe.PRE_TOKENIZERS, key="pre_tokenizer", help="How text is cut into words.")
    st.caption(EXPLAIN[st.session_state["pre_tokenizer"]])
    limit = st.radio("Stop after", list(LIMITS), format_func=LIMITS.get, key="limit", horizontal=True)
    if limit != "none":
        st.number_input(
            LIMITS[limit],
            min_value=0,
            max_value=100_000,
            step=1,
            key="limit_value",
            help="Special tokens count towards the vocabulary size.",
        )
    if source == "text":
        st.caption(
            f"Pasted or uploaded text starts at {TEXT_MERGES:,} merges (seconds of training for a few MB, about "
            f"a minute for {limits.LIMIT_TEXT}); raise it for more."
        )
    st.selectbox(
        "Tie rule", bpe.TIE_RULES, key="tie_break", help="Which pair wins when several have the highest count."
    )
    st.caption(bpe.TIE_RULE_SENTENCES[st.session_state["tie_break"]].capitalize() + ".")
    st.number_input(
        "Minimum frequency",
        min_value=0,
        step=1,
        key="min_frequency",
        help="Stop when the best pair occurs fewer times than this.",
    )
    st.radio(
        "Algorithm",
        bpe.ALGORITHMS,
        key="algorithm",
        horizontal=True,
        format_func={"bpe": "BPE", "wordpiece": "WordPiece"}.get,
        help="WordPiece scores a pair by count(ab) / (count(a) × count(b)) instead of its count.",
    )
    st.text_input(
        "Special tokens (comma-separated)",
        key="special_tokens",
        help="They take the first ids and count towards the vocabulary size.",
    )
    if source != "counts":
        st.caption(SPECIALS_SPLIT)
    st.toggle(
        "Start from all 256 bytes",
        key="full_bytes",
        disabled=st.session_state["pre_tokenizer"] not in bpe.BYTE_LEVEL,
        help="Byte-level only: GPT-2's base vocabulary instead of only the characters seen.",
    )

    settings = Settings(
        source=source,
        preset=st.session_state[keys.PRESET],
        text=text if source == "text" else "",
        stored=held if source == "text" else None,
        counts=counts if source == "counts" else "",
        pre_tokenizer=st.session_state["pre_tokenizer"],
        limit=limit,
        limit_value=int(st.session_state["limit_value"]),
        special_tokens=tuple(t.strip() for t in st.session_state["special_tokens"].split(",") if t.strip()),
        tie_break=st.session_state["tie_break"],
        min_frequency=int(st.session_state["min_frequency"]),
        algorithm=st.session_state["algorithm"],
        full_byte_alphabet=bool(st.session_state["full_bytes"]) and st.session_state["pre_tokenizer"] in bpe.BYTE_LEVEL,
        forced=saved.forced if _same_corpus(saved, source, text, counts, held) else (),
    )
    # The text that fills a box a link could not carry (``corpus=text``, e.g. put back from this browser's
    # storage after a server restart) keeps the link's step; any other new corpus opens at its first step.
    refilled = saved.source == source == "text" and not saved.text and saved.stored is None
    if not _same_corpus(saved, source, text, counts, held) and not refilled:
        st.session_state[keys.STEP] = state[keys.STEP] = 0
    _preview(settings)
    st.caption(runs.LIMITS_SENTENCE)
    if (
        source == "text"
        and held is None
        and corpus_box.blank(text)
        and (corpus_box.upload_refused(state) or corpus_box.paste_refused(state))
    ):
        st.stop()  # the refusal's sentence is the page's message, not "The corpus is empty"
    return settings


def _same_corpus(saved: Settings, source: str, text: str, counts: str, held: StoredText | None = None) -> bool:
    saved_counts = _complete_rows(saved.counts) if saved.source == "counts" else saved.counts
    return (saved.source, saved.preset if source == "preset" else "", saved.text, saved.stored, saved_counts) == (
        source,
        st.session_state[keys.PRESET] if source == "preset" else "",
        text if source == "text" else "",
        held if source == "text" else None,
        counts if source == "counts" else "",
    )


def _complete_rows(counts_text: str) -> str:
    """The rows of a word-count text the table trains on (see _counts_editor)."""
    rows = [line.split(maxsplit=1) for line in counts_text.splitlines() if line.strip()]
    return "\n".join(f"{r[0]} {r[1].strip()}" for r in rows if len(r) == 2 and _row_problem(r[0], r[1].strip()) is None)


def _counts_editor(counts_text: str, state: dict) -> str:
    """An editable (word, count) table; returns its complete, valid rows as 'word count' lines.

    The table given to ``st.data_editor`` is kept as it was first drawn (``state["counts_table"]``)
    and only rebuilt when the counts come from elsewhere (a link, another source): the editor's
    identity includes its data, so a table rebuilt from every edit was a new widget each time and
    the next edit was dropped (every second edit snapped back). A row still being typed (a word
    without a count, or a count without a word) is left out with a note; a row that cannot be a word
    count is left out with an error naming it; the other rows keep training."""
    table = state.get("counts_table")
    if table is None or counts_text != table["produced"]:
        rows = [line.split(maxsplit=1) for line in counts_text.splitlines() if line.strip()]
        frame = pd.DataFrame([(r[0], r[1] if len(r) > 1 else "") for r in rows], columns=["word", "count"])
        table = {"frame": frame, "version": (table or {}).get("version", 0) + 1, "produced": counts_text}
        state["counts_table"] = table
    edited = st.container(key="counts_table").data_editor(
        table["frame"],
        num_rows="dynamic",
        key=f"counts_editor_{table['version']}",
        hide_index=True,
        column_config={"count": st.column_config.TextColumn("count")},
    )
    lines, waiting, problems = [], [], []
    for number, (word, count) in enumerate(zip(edited["word"].fillna(""), edited["count"].fillna("")), start=1):
        word, count = str(word).strip(), str(count).strip()
        if not word and not count:
            continue
        problem = _row_problem(word, count, number)
        if problem is None:
            lines.append(f"{word} {count}")
        elif problem:
            problems.append(problem)
        else:
            waiting.append(f"row {number} ({word}: no count yet)" if word else f"row {number} ({count}: no word yet)")
    if waiting:  # plain text in our own block: a word is the user's and must never become a link
        st.html(
            f'<p class="bpe-note">Left out until complete: {esc(", ".join(waiting[:20]))}'
            + (f" and {len(waiting) - 20:,} more" if len(waiting) > 20 else "")
            + ".</p>"
        )
    for problem in problems[:5]:
        alert("error", problem + " The row is left out until it is fixed.")
    if len(problems) > 5:
        alert("error", f"{len(problems) - 5:,} more rows cannot be read; they are left out too.")
    table["produced"] = "\n".join(lines)
    return table["produced"]


def _row_problem(word: str, count: str, number: int = 1) -> str | None:
    """None for a good row, "" for a row still being typed (word or count missing), else the engine's
    sentence naming the row and what to fix (a space in the word, a count that is not a whole number,
    below 1 or too large)."""
    if not word or not count:
        return ""
    try:
        bpe.parse_word_counts(f"{word} {count}", line_name="Row")
    except ValueError as exc:
        message = str(exc)
        return f"Row {number}" + message[len("Row 1") :] if message.startswith("Row 1") else message
    return None


@st.cache_data(max_entries=64, show_spinner=False)
def _preview_words(key: str, _settings: Settings) -> list[tuple[str, int | None]]:
    """The first words after pre-tokenization, with their counts for a word-count corpus (cached by the
    run's digest: hashing a 5 MB pasted corpus on every run held the server)."""
    settings = _settings
    corpus = corpus_of(settings)
    if isinstance(corpus, dict):
        return list(corpus.items())[:12]
    words: list[str] = []
    for text in corpus:
        # The words of the text's first few KB only (a 20 MB document pre-tokenized whole to show 12 words
        # held the server for seconds); the last word of a cut prefix may be cut too, so it is left out.
        prefix = text[:PREVIEW_CHARS]
        found = bpe.pre_tokenize(prefix, settings.pre_tokenizer)
        words += found if len(prefix) == len(text) else found[:-1]
        if len(words) >= 12:
            break
    return [(w, None) for w in words[:12]]


def _preview(settings: Settings) -> None:
    try:
        bare = replace(settings, forced=())
        words = _preview_words(runs.run_key(bare), bare)
    except ValueError:
        return  # the page shows the error once, next to the results
    st.caption("First words after pre-tokenization:")
    # As the splits show them: as text or stored symbols (Ġ), real whitespace visible, a count after its word.
    controls.byte_text_default(settings)
    text = settings.pre_tokenizer in bpe.BYTE_LEVEL and bool(st.session_state.get(keys.BYTE_TEXT))  # see panels.as_text
    st.html(
        " ".join(
            display.chips_html([w], as_text=text) + (f'<span class="bpe-note"> ×{c:,}</span>' if c is not None else "")
            for w, c in words
        )
    )
