"""The training page's panels. Each takes what ``bpe`` computed and draws it; no BPE logic here.

Kept apart from ``app_pages/train.py`` so that page reads as a description of the UI.
"""

from __future__ import annotations

import re
import threading
import weakref
from collections import OrderedDict
from dataclasses import replace

import altair as alt
import pandas as pd
import streamlit as st

import bpe
from bpe import display
from bpe.display import mark_whitespace as stored  # a token as stored, with real whitespace made visible
from bpe.display import md_escape as md  # tokens and words shown inside markdown
from bpe.presets import PRESETS
from app_pages import common

SOURCES = {"preset": "Preset", "text": "Paste or upload text", "counts": "Word-count table"}
LIMITS = {"num_merges": "Number of merges", "vocab_size": "Vocabulary size", "none": "Until no pair is left"}
EXPLAIN = {
    "whitespace": "split on whitespace, the spaces are dropped",
    "gpt2": "GPT-2's regex, then each UTF-8 byte as a character (space → Ġ)",
    "gpt4": "GPT-4's cl100k regex (numbers in groups of 3), same byte map",
    "sennrich": "whitespace split, each word ends in the symbol </w>",
    "space-suffix": "each word keeps its trailing space (How BPE works)",
}
TOP_N = 20
HISTORY_ROWS = 15  # merge-history rows sent per step (the CSV download has them all)
VOCAB_CHIPS = 120  # newest learned tokens drawn as chips
ALPHABET_CHIPS = 40  # a larger base alphabet is drawn as one line of text
SPLIT_ROWS = 40  # most frequent words shown in the splits table (search finds the others)


# -- sidebar: corpus and settings ----------------------------------------------------------------
def _seed(key: str, value) -> None:
    """Give a widget its value from our saved settings when Streamlit has forgotten it
    (widget state is dropped while another page is shown)."""
    if key not in st.session_state:
        st.session_state[key] = value


def _apply_preset() -> None:
    s = common.preset_settings(st.session_state["preset"])
    for key, value in _widget_values(s).items():
        st.session_state[key] = value
    st.session_state["step"] = 0


def _widget_values(s: common.Settings) -> dict:
    return {
        "pre_tokenizer": s.pre_tokenizer, "limit": s.limit, "limit_value": s.limit_value,
        "tie_break": s.tie_break, "min_frequency": s.min_frequency, "algorithm": s.algorithm,
        "full_bytes": s.full_byte_alphabet, "special_tokens": ", ".join(s.special_tokens),
    }


def corpus_and_settings(state: dict) -> common.Settings:
    """The sidebar; returns the settings it describes (the corpus is validated by training)."""
    saved: common.Settings = state["settings"]
    _seed("source", saved.source)
    _seed("preset", saved.preset)
    _seed("corpus_text", saved.text)
    _seed("counts_text", saved.counts)
    for key, value in _widget_values(saved).items():
        _seed(key, value)

    st.header("Corpus")
    source = st.radio("Corpus", list(SOURCES), format_func=SOURCES.get, key="source", label_visibility="collapsed")
    text, counts = st.session_state["corpus_text"], st.session_state["counts_text"]
    if source == "preset":
        st.selectbox("Preset", list(PRESETS), format_func=lambda k: PRESETS[k].title, key="preset",
                     on_change=_apply_preset)
        p = PRESETS[st.session_state["preset"]]
        st.caption(f"**Source:** {p.source}. **Reproduces:** {p.reproduces}.")
    elif source == "text":
        upload = st.file_uploader("Upload a .txt file", type=["txt"], key="corpus_file",
                                  max_upload_size=common.MAX_CORPUS_BYTES // 1_000_000)
        if upload is not None and state.get("uploaded") != upload.file_id:
            try:
                uploaded = bpe.text_from_bytes(upload.getvalue(), repr(upload.name))
                if not uploaded.strip():
                    raise ValueError(f"The file {upload.name!r} is empty: nothing to train on. The text box keeps "
                                     "what it had.")
                st.session_state["corpus_text"] = uploaded
                state["uploaded"] = upload.file_id
            except ValueError as exc:
                st.error(md(str(exc)))
        st.text_area(f"Text (up to {common.MAX_CORPUS_BYTES // 1_000_000} MB)", key="corpus_text", height=160)
        text = st.session_state["corpus_text"]
    else:
        st.caption("One word per row with how often it occurs.")
        counts = _counts_editor(st.session_state["counts_text"])
        st.session_state["counts_text"] = counts

    st.header("Settings")
    st.selectbox("Pre-tokenizer", bpe.PRE_TOKENIZERS, key="pre_tokenizer", help="How text is cut into words.")
    st.caption(EXPLAIN[st.session_state["pre_tokenizer"]])
    limit = st.radio("Stop after", list(LIMITS), format_func=LIMITS.get, key="limit", horizontal=True)
    if limit != "none":
        st.number_input(LIMITS[limit], min_value=0, max_value=100_000, step=1, key="limit_value",
                        help="Special tokens count towards the vocabulary size.")
    st.selectbox("Tie rule", bpe.TIE_RULES, key="tie_break",
                  help="Which pair wins when several have the highest count.")
    st.caption(bpe.TIE_RULE_SENTENCES[st.session_state["tie_break"]].capitalize() + ".")
    st.number_input("Minimum frequency", min_value=0, step=1, key="min_frequency",
                    help="Stop when the best pair occurs fewer times than this.")
    st.radio("Algorithm", bpe.ALGORITHMS, key="algorithm", horizontal=True,
             format_func={"bpe": "BPE", "wordpiece": "WordPiece"}.get,
             help="WordPiece scores a pair by count(ab) / (count(a) × count(b)) instead of its count.")
    st.text_input("Special tokens (comma-separated)", key="special_tokens",
                  help="They take the first ids and count towards the vocabulary size.")
    st.toggle("Start from all 256 bytes", key="full_bytes", disabled=st.session_state["pre_tokenizer"] not in bpe.BYTE_LEVEL,
              help="Byte-level only: GPT-2's base vocabulary instead of only the characters seen.")

    settings = common.Settings(
        source=source, preset=st.session_state["preset"], text=text if source == "text" else "",
        counts=counts if source == "counts" else "", pre_tokenizer=st.session_state["pre_tokenizer"],
        limit=limit, limit_value=int(st.session_state["limit_value"]),
        special_tokens=tuple(t.strip() for t in st.session_state["special_tokens"].split(",") if t.strip()),
        tie_break=st.session_state["tie_break"], min_frequency=int(st.session_state["min_frequency"]),
        algorithm=st.session_state["algorithm"],
        full_byte_alphabet=bool(st.session_state["full_bytes"]) and st.session_state["pre_tokenizer"] in bpe.BYTE_LEVEL,
        forced=saved.forced if _same_corpus(saved, source, text, counts) else (),
    )
    _preview(settings)
    return settings


def _same_corpus(saved: common.Settings, source: str, text: str, counts: str) -> bool:
    return (saved.source, saved.preset if source == "preset" else "", saved.text, saved.counts) == (
        source, st.session_state["preset"] if source == "preset" else "", text if source == "text" else "",
        counts if source == "counts" else "")


def _counts_editor(counts_text: str) -> str:
    """An editable (word, count) table; returns it as 'word count' lines for the engine to check."""
    rows = [line.split(maxsplit=1) for line in counts_text.splitlines() if line.strip()]
    frame = pd.DataFrame([(r[0], r[1] if len(r) > 1 else "") for r in rows] or [("hug", "10")],
                         columns=["word", "count"])
    edited = st.data_editor(frame, num_rows="dynamic", key="counts_editor", hide_index=True,
                            column_config={"count": st.column_config.TextColumn("count")})
    lines = [f"{w} {c}".strip() for w, c in zip(edited["word"].fillna(""), edited["count"].fillna(""))
             if str(w).strip() or str(c).strip()]
    return "\n".join(lines)


@st.cache_data(max_entries=64, show_spinner=False)
def _preview_words(settings: common.Settings) -> list[tuple[str, int | None]]:
    """The first words after pre-tokenization, with their counts for a word-count corpus."""
    corpus = common.corpus_of(settings)
    if isinstance(corpus, dict):
        return list(corpus.items())[:12]
    words: list[str] = []
    for text in corpus:
        words += bpe.pre_tokenize(text, settings.pre_tokenizer)
        if len(words) >= 12:
            break
    return [(w, None) for w in words[:12]]


def _preview(settings: common.Settings) -> None:
    try:
        words = _preview_words(replace(settings, forced=()))
    except ValueError:
        return  # the page shows the error once, next to the results
    st.caption("First words after pre-tokenization:")
    # As the splits show them: stored symbols (Ġ), real whitespace as ·, a count after its word.
    st.html(" ".join(display.chips_html([w])
                     + (f'<span class="bpe-note"> ×{c:,}</span>' if c is not None else "") for w, c in words))


# -- the step panels --------------------------------------------------------------------------------
_VIEWS: "weakref.WeakKeyDictionary[bpe.History, OrderedDict]" = weakref.WeakKeyDictionary()
_VIEWS_LOCK = threading.Lock()
VIEWS_PER_RUN = 512


def per_run(fn):
    """Cache ``fn(history, *args)`` on the run itself, shared by every session stepping through it.

    Not ``st.cache_resource``: that hashes its arguments on every call (a few ms per view per
    click), while a run is already the identity of its corpus and settings. Entries go when the
    run goes (weak keys); each run keeps its last VIEWS_PER_RUN views. Values are never mutated."""
    def cached(history: bpe.History, *args):
        key = (fn.__name__, *args)
        with _VIEWS_LOCK:
            views = _VIEWS.setdefault(history, OrderedDict())
            if key in views:
                views.move_to_end(key)
                return views[key]
        value = fn(history, *args)
        with _VIEWS_LOCK:
            views[key] = value
            if len(views) > VIEWS_PER_RUN:
                views.popitem(last=False)
        return value
    cached.__wrapped__ = fn
    return cached


@per_run
def _pair_view(_history: bpe.History, step: int) -> pd.DataFrame:
    """Pair counts this merge was chosen from (top pairs, with tie/chosen flags and where each
    count comes from). Cached per step as a shared resource: the page never mutates it."""
    s = _history.state(step)
    if _history.config.algorithm == "wordpiece":  # ranked by score, the number WordPiece chooses by
        top = s.top_scores(TOP_N, after=not step)
    else:
        top = [(pair, count, None) for pair, count in s.top_pairs(TOP_N, after=not step)]
    merge = s if step else (_history.state(1) if _history.num_merges else None)
    chosen, tied = (merge.pair, set(merge.tied)) if merge else (None, set())
    where = (merge or s).provenance_of([p for p, _, _ in top[:10]], show=stored)
    rows = []
    for rank, ((a, b), count, score) in enumerate(top):
        role = "chosen" if (a, b) == chosen else "tied" if (a, b) in tied else "other"
        rows.append({"rank": rank, "pair": f"{stored(a)} {stored(b)}", "count": count,
                     "score": str(score) if score is not None else "", "value": float(score if score is not None else count),
                     "tied": role == "tied", "chosen": role == "chosen", "role": role, "from": where.get((a, b), "")})
    return pd.DataFrame(rows, columns=["rank", "pair", "count", "score", "value", "tied", "chosen", "role", "from"])


@st.cache_resource(show_spinner=False)
def _pair_chart_spec(wordpiece: bool = False) -> dict:
    """The bar chart, built with Altair once; each step only sends its data (Altair's
    to_dict costs ~30 ms, too much to pay on every click). The bars are the counts, or for
    WordPiece the scores (``value`` holds either)."""
    colors = alt.Scale(domain=["chosen", "tied", "other"], range=[display.HIGHLIGHT, "#8ecae6", "#c9ccd1"])
    chart = (
        alt.Chart(alt.NamedData(name="pairs"))  # the data comes with each step
        .mark_bar()
        .encode(
            x=alt.X("value:Q", title="score" if wordpiece else "count"),
            # Sorted by the table's row order, not sort=None: the chart is reused from step to step with
            # new data, and with sort=None Vega kept the first step's order for pairs it had seen.
            y=alt.Y("pair:N", sort=alt.EncodingSortField(field="rank", op="min", order="ascending"), title=None,
                    axis=alt.Axis(labelLimit=160)),
            color=alt.Color("role:N", scale=colors, legend=alt.Legend(orient="bottom", title=None)),
            tooltip=["pair:N", *(["score:N"] if wordpiece else []), "count:Q", "role:N",
                     alt.Tooltip("from:N", title="from")],
        )
        .properties(height=alt.Step(24))  # 24 px per bar: the plot grows with the number of pairs
    )
    spec = chart.to_dict()
    spec.pop("data", None)
    spec.pop("datasets", None)
    return spec


def step_panels(history: bpe.History, settings: common.Settings, step: int, hide_counts: bool = False,
                counts_step: int | None = None) -> None:
    """Everything about one step, in as few Streamlit elements as possible: each element is a
    message the browser processes on every click, and a click must feel instant. Text, tables
    and chips are plain HTML (three ``st.html`` blocks); the chart is the one Altair element.
    ``hide_counts`` leaves out the pair counts (table and chart) while a prediction is open;
    ``counts_step`` shows the counts another step chose from (a prediction of step+1, answered)."""
    s = history.state(step)
    st.html(_this_step_html(s, history))
    _step_notes(s)
    counts_step = step if counts_step is None else counts_step
    table = _pair_view(history, counts_step)
    if hide_counts:
        st.info("The pair counts are hidden until you answer: count the pairs in the corpus splits below.",
                icon=":material/visibility_off:")
    elif table.empty:
        st.write("No pairs: every word is a single token.")
    else:
        left, right = st.columns(2, gap="large")
        wordpiece = history.config.algorithm == "wordpiece"
        left.vega_lite_chart(table, _pair_chart_spec(wordpiece), width="stretch", key="pairs_chart")
        right.html(_pair_table_html(history, counts_step))
    query = st.session_state.get("split_search", "")  # the box is below the step view: see search_box()
    st.html(
        f'<div class="bpe-lazy">{_history_html(history, step)}</div>'
        '<div class="bpe-grid bpe-lazy">'
        f"<div>{_splits_html(s, history, query)}</div><div>{_vocabulary_html(s, settings)}</div>"
        "</div>"
    )


def search_box() -> None:
    """The splits' search box, drawn just below the step view but outside it: typing reruns the
    page once, while stepping (a rerun of the step view only) does not send the box again."""
    st.text_input("Search the corpus splits above", key="split_search", placeholder="type part of a word",
                  help="Shows the most frequent words containing this text.")


def _this_step_html(s: bpe.TrainState, history: bpe.History) -> str:
    esc = common.esc
    if s.step == 0:
        return (f'<div class="bpe-step"><div class="bpe-step-title">Step 0 of {history.num_merges}</div>'
                "<p>Every word is split into its base symbols. Press <b>Next</b> to make the first merge.</p></div>")
    a, b = s.pair
    lines = [
        f'<div class="bpe-step-title">Step {s.step} of {history.num_merges}: '
        f"{display.chip(stored(a), display.PALETTE[0])} + {display.chip(stored(b), display.PALETTE[1])} → "
        f'{display.chip(stored(s.new_token), display.HIGHLIGHT, bold=True)} <span id="merge-count">count {s.count}</span></div>',
        f"<p>Where the count comes from: {esc(s.provenance_sentence(show=stored))} = {s.count}.</p>",
    ]
    if s.score is not None:
        lines.append(f"<p>WordPiece {esc(s.score_formula(show=stored))}.</p>")
    if s.num_tied > 1 and not s.forced:
        others = ", ".join(f"({esc(stored(x))}, {esc(stored(y))})" for x, y in s.tied[1:6]) + (
            f" and {s.num_tied - 6:,} more" if s.num_tied > 6 else "")
        lines.append(f"<p>{s.num_tied - 1} other pair(s) tied at this {'score' if s.score else 'count'}: {others}. "
                     f"Tie rule <b>{esc(s.tie_rule)}</b>: {esc(s.tie_sentence)}.</p>")
    return f'<div class="bpe-step">{"".join(lines)}</div>'


def _step_notes(s: bpe.TrainState) -> None:
    """The rare notes (a forced merge, a token already known, the end) as Streamlit alerts."""
    if s.step and s.forced:
        st.warning("What-if: this pair was chosen by hand, not by its count.")
    if s.step and not s.token_added:
        st.info(f"“{md(stored(s.new_token))}” was already in the vocabulary, so it keeps its id: the vocabulary does not grow.")
    if s.stop_sentence:
        st.success(s.stop_sentence)


_NOT_CLASS = re.compile(r"[^a-z0-9]+")


def html_table(frame: pd.DataFrame, name: str) -> str:
    """A DataFrame as an escaped HTML table (``data-table`` names it for tests and styling)."""
    esc = common.esc
    # Each cell carries its column's name as a class, for styling (the "from" column is small print).
    classes = [_NOT_CLASS.sub("-", str(c).lower()) for c in frame.columns]
    head = "".join(f'<th class="{k}">{esc(c)}</th>' for k, c in zip(classes, frame.columns))
    body = "".join("<tr>" + "".join(f'<td class="{k}">{esc(v)}</td>' for k, v in zip(classes, row)) + "</tr>"
                   for row in frame.itertuples(index=False, name=None))
    return f'<table class="bpe-table" data-table="{name}"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'


@per_run
def _pair_table_html(_history: bpe.History, step: int) -> str:
    table = _pair_view(_history, step)
    wordpiece = _history.config.algorithm == "wordpiece"
    cells = table[["pair", *(["score"] if wordpiece else []), "count", "tied", "chosen", "from"]].replace(
        {True: "✓", False: ""})
    title = f"Pair counts step {step} chose from (before its merge)" if step else "Pair counts before the first merge"
    return (f'<div class="bpe-h">{title}</div>' + html_table(cells, "pairs")
            + f'<p class="bpe-note">✓ chosen: the pair merged at this step; ✓ tied: same {"score" if wordpiece else "count"}, '
            "lost on the tie rule. The chart shows the same rows"
            + (" (score = count(ab) / (count(a) × count(b)))" if wordpiece else "") + ".</p>")


def _vocabulary_html(s: bpe.TrainState, settings: common.Settings) -> str:
    h = s.history
    target = settings.limit_value if settings.limit == "vocab_size" else None
    vocab = s.vocab
    specials = len(settings.special_tokens)
    learned = vocab[h.num_base:]
    newest = learned[-VOCAB_CHIPS:]
    return (
        f'<div class="bpe-h">Vocabulary: {s.vocab_size}' + (f" of {target}" if target else "") + "</div>"
        f'<p class="bpe-note">{specials} special, {h.num_base - specials} base symbols, {len(learned)} learned'
        + (f" (the last {len(newest)} shown)" if len(newest) < len(learned) else "") + "</p>"
        '<div class="bpe-scroll">'
        + display.chips_html(list(vocab[:specials]), titles=["special"] * specials)
        + _alphabet_html(vocab[specials:h.num_base])
        + "<br>"
        + display.chips_html(list(newest), highlight=[s.new_token] if s.step else [])
        + "</div>"
    )


def _alphabet_html(symbols) -> str:
    """The base symbols as chips, or past ALPHABET_CHIPS of them (a byte-level alphabet) as one
    line of text: every element is redrawn on every step, and 256 chips are a lot of them."""
    if len(symbols) <= ALPHABET_CHIPS:
        return display.chips_html(list(symbols))
    return f'<span class="bpe-alphabet">{common.esc(" ".join(map(stored, symbols)))}</span>'


def _splits_html(s: bpe.TrainState, history: bpe.History, query: str) -> str:
    changed = set(history.words_changed_at(s.step))
    order = history.words_by_frequency()
    if query:
        order = [i for i in order if query in history.words[i]]
    top = order[:SPLIT_ROWS]
    rows = []
    for i in top:
        tokens = s.splits[history.words[i]]
        mark = "✱ " if i in changed else ""
        rows.append(
            f"<tr><td>{mark}{common.esc(stored(history.words[i]))}</td><td>{history.freqs[i]:,}</td>"
            f"<td>{display.chips_html(list(tokens), highlight=[s.new_token] if i in changed else [])}"
            "</td></tr>"
        )
    more = len(order) - len(top)
    return (
        '<div class="bpe-h">Corpus splits</div>'
        '<table class="bpe-table" data-table="splits"><thead><tr><th>word</th><th>freq</th><th>tokens</th></tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table>"
        + (f'<p class="bpe-note">… and {more:,} more words (most frequent shown first; search to find others).</p>'
           if more > 0 else "")
        + (f'<p class="bpe-note">No word contains “{common.esc(query)}”.</p>' if query and not order else "")
        + ('<p class="bpe-note">✱ rewritten by this merge.</p>' if changed else "")
    )


@per_run
def _history_frame(_history: bpe.History) -> pd.DataFrame:
    rows = _history.merge_rows(with_ties=False)
    frame = pd.DataFrame({
        "rank": [r["step"] for r in rows], "pair": [f"{stored(r['left'])} {stored(r['right'])}" for r in rows],
        "new token": [stored(r["new_token"]) for r in rows], "count": [r["count"] for r in rows],
        "tied with": [r["tied"] for r in rows],  # how many other pairs had the same count
        "tokens in corpus": [_history.total_tokens_after[r["step"]] for r in rows],
    })
    return frame


@per_run
def _sparklines(_history: bpe.History) -> tuple[str, str]:
    return (display.sparkline_image(_history.total_tokens_after, title="Corpus length in tokens (compression)"),
            display.sparkline_image(_history.merge_counts, title="Count of the winning pair"))


def _history_html(history: bpe.History, step: int) -> str:
    if not history.num_merges:
        return ""
    frame = _history_frame(history)
    table = html_table(frame.iloc[max(0, step - HISTORY_ROWS):step].iloc[::-1], "history") if step else \
        '<p class="bpe-note">No merge yet.</p>'
    note = (f'<p class="bpe-note">The last {HISTORY_ROWS} of {step:,} merges; the training log (CSV, below) has '
            "them all.</p>") if step > HISTORY_ROWS else ""
    # Inline SVG images rather than Altair: drawn once per run (cached), only the marker moves.
    tokens_img, counts_img = _sparklines(history)
    lines = (display.sparkline_marker(tokens_img, len(history.total_tokens_after), step)
             + display.sparkline_marker(counts_img, len(history.merge_counts), step - 1 if step else None))
    return (f'<div class="bpe-h">Merge history</div><div class="bpe-grid"><div>{table}{note}</div>'
            f"<div>{lines}</div></div>")


def mode_toggles(settings: common.Settings) -> None:
    """Play, its speed, Predict and What if, in one row outside the step view: they change
    rarely, so a step (a rerun of the step view only) does not send them again."""
    if settings.forced and "what_if" not in st.session_state:
        st.session_state["what_if"] = True  # a shared what-if link opens with its panel shown
    row = st.container(horizontal=True, vertical_alignment="center", gap="medium")
    row.toggle("Play", key="play", help="Advance one merge at a time, at the chosen speed.")
    st.session_state.setdefault("speed", 1.0)  # a default in session state, not value=: the page restores it
    row.select_slider("Seconds per merge", options=[0.25, 0.5, 1.0, 2.0, 3.0], key="speed", width=220)
    row.toggle("Predict the next merge", key="predict",
               help="Guess which pair step k+1 merges, from the splits of step k.")
    row.toggle("What if…", key="what_if",
               help="What if another pair were merged next? Pick one instead of the winner; training "
                    "continues from there.")


def pair_text(pair: tuple[str, str]) -> str:
    """``u + g``: a pair in plain text, its tokens' whitespace made visible."""
    return f"{stored(pair[0])} + {stored(pair[1])}"


def predict(history: bpe.History, step: int, state: dict) -> str | None:
    """The course's "Now your turn!": guess the next merge before pressing Next (shown while the
    toggle made by :func:`mode_toggles` is on). Returns ``"pending"`` while a guess is awaited (the
    pair counts would give the answer away, so the page hides them), ``"answered"`` once it is made
    (the page then shows the counts step+1 chose from), else None. Guesses are kept per step for
    the run, so stepping back to an answered step shows its answer again."""
    if not st.session_state.get("predict"):
        return None
    if step >= history.num_merges:
        st.write("Training has stopped: there is no next merge to predict.")
        return None
    if state.get("guesses", (None,))[0] != state["settings"]:  # a new run: forget the old guesses
        state["guesses"] = (state["settings"], {})
    guesses = state["guesses"][1]
    upcoming = history.state(step + 1)
    # Candidates are the pairs present now, shown alphabetically so their order gives nothing away.
    candidates = sorted({p for p, _ in history.state(step).top_pairs(6, after=True)} | {upcoming.pair})
    before = guesses.get(step)
    guess = st.radio(f"Which pair will step {step + 1} merge?", candidates, key=f"guess_{step}",
                     index=candidates.index(before) if before in candidates else None,
                     format_func=lambda p: md(pair_text(p)), horizontal=True)  # radio labels are markdown
    if guess is None:
        return "pending"
    guesses[step] = guess
    right, why = upcoming.judge_prediction(guess, show=stored)
    (st.success if right else st.warning)(md(why))
    return "answered"


# -- what-if, compare, downloads ----------------------------------------------------------------
def _force(settings: common.Settings, state: dict, step: int) -> None:
    """Button callback (runs before the widgets): force the chosen pair at step+1 and retrain."""
    pair = tuple(st.session_state["what_if_pair"])
    forced = {k: v for k, v in settings.forced if k <= step}
    forced[step + 1] = pair
    new = replace(settings, forced=tuple(sorted(forced.items())))
    try:
        common.train(new)
    except ValueError as exc:
        state["what_if_error"] = str(exc)
        return
    state["settings"], state["before_what_if"] = new, replace(settings, forced=())
    state["rerun_app"] = True
    st.session_state["step"] = step + 1


def _unforce(settings: common.Settings, state: dict) -> None:
    state["settings"] = replace(settings, forced=())
    state.pop("before_what_if", None)
    state["rerun_app"] = True


def what_if(history: bpe.History, settings: common.Settings, state: dict) -> None:
    """Shown while the toggle made by :func:`mode_toggles` is on (a toggle, not an expander: a
    closed expander's widgets would still be sent on every step)."""
    step = st.session_state.get("step", 0)
    if not st.session_state.get("what_if"):
        return
    with st.container(border=True):
        if state.get("what_if_error"):
            st.error(state.pop("what_if_error"))
        candidates = [p for p, _ in history.state(step).top_pairs(8, after=True)]
        if step >= history.num_merges:
            # Training stops here, so a merge forced at the next step would never happen.
            reason = history.state(step).stop_sentence or "Training stopped here."
            st.write(f"This is the last step. {md(reason)} Go back a step to merge another pair instead"
                     + (", or raise the limit in the sidebar." if candidates else "."))
        elif not candidates:
            st.write("No pair is left to merge at this step.")
        else:
            st.selectbox(f"Merge at step {step + 1} instead", candidates, key="what_if_pair",
                         format_func=pair_text)  # selectbox options are plain text, not markdown
            st.button("Merge this pair and retrain from here", key="what_if_go", on_click=_force,
                      args=(settings, state, step))
        if settings.forced:
            st.write("Forced merges in this run: " + ", ".join(f"step {k}: {md(pair_text(p))}" for k, p in settings.forced))
            before = state.get("before_what_if")
            if before is not None:
                try:
                    original = common.train(before)
                except ValueError:
                    original = None
                diverge = bpe.first_difference(original, history) if original else None
                if diverge:
                    st.write(f"The runs diverge at step {diverge}: the original merged "
                             f"{md(pair_text(original.state(diverge).pair))}, this one "
                             f"{md(pair_text(history.state(diverge).pair))}; "
                             f"{sum(a != b for a, b in zip(original.merges, history.merges))} of the first "
                             f"{min(original.num_merges, history.num_merges)} merges differ.")
            st.button("Undo all what-ifs", key="what_if_reset", on_click=_unforce, args=(settings, state))


def compare_tie_rules(history: bpe.History, settings: common.Settings) -> None:
    with st.expander("Compare tie rules", icon=":material/balance:"):
        cols = st.columns([2, 2, 1])
        one = cols[0].selectbox("Rule A", bpe.TIE_RULES, index=0, key="cmp_a")
        two = cols[1].selectbox("Rule B", bpe.TIE_RULES, index=1, key="cmp_b")
        # Comparing trains twice, so it waits for a click instead of running on every page load.
        if not cols[2].button("Compare", key="cmp_go") and st.session_state.get("cmp_done") != (settings, one, two):
            return
        st.session_state["cmp_done"] = (settings, one, two)
        try:
            ha, hb = common.train(replace(settings, tie_break=one)), common.train(replace(settings, tie_break=two))
        except ValueError as exc:
            st.error(str(exc))
            return
        k = bpe.first_difference(ha, hb)
        if k is None:
            st.success(f"'{one}' and '{two}' make the same merges on this corpus.")
        else:
            sa, sb = ha.state(k), hb.state(k)
            st.write(f"They first differ at **step {k}**: '{one}' merges {md(pair_text(sa.pair))} → "
                     f"{md(stored(sa.new_token))}, '{two}' merges {md(pair_text(sb.pair))} → {md(stored(sb.new_token))} "
                     f"(both at count {sa.count}).")


@st.cache_data(max_entries=8, show_spinner=False)
def _export(_history: bpe.History, settings: common.Settings, kind: str) -> str:
    """One download's content, built on click (deferred) and once per run."""
    tok = common.tokenizer_for(settings, _history.num_merges)
    if kind == "csv":
        return bpe.training_log_csv(_history)
    if kind == "json":
        return bpe.to_tokenizer_json(tok)
    vocab, merges = bpe.to_vocab_merges(tok)  # export_problems() ruled out the ValueErrors
    return vocab if kind == "vocab" else merges


def downloads(history: bpe.History, settings: common.Settings) -> None:
    st.subheader("Downloads")
    problems = bpe.export_problems(common.tokenizer_for(settings, history.num_merges))
    cols = st.columns(4)
    for col, (kind, name, label, fmt) in zip(cols, [
        ("json", "tokenizer.json", "tokenizer.json", "tokenizer.json"),
        ("vocab", "vocab.json", "vocab.json", "vocab.json + merges.txt"),
        ("merges", "merges.txt", "merges.txt", "vocab.json + merges.txt"),
        ("csv", "training_log.csv", "Training log (CSV)", None),
    ]):
        if fmt and problems[fmt]:
            col.caption(f"No {name}: {problems[fmt]}")
        else:
            # on_click="ignore": no rerun, so a second click right after the first still finds its file
            # (a rerun re-registers the deferred files, and a click in flight then gets "file not found").
            col.download_button(label, lambda kind=kind: _export(history, settings, kind), name, key=f"dl_{kind}",
                                on_click="ignore")
    st.caption(f"The tokenizer files hold the whole run ({history.num_merges:,} merges); the log has every merge "
               "with its count and tied pairs.")
