"""The training page's step panels: for one step, what was merged and why, the pair counts
(table and chart), the corpus splits, the vocabulary and the merge history. Each takes what
``bpe`` computed and draws it; no BPE logic here. Kept apart from ``pages/train.py`` so that
page reads as a description of the UI.
"""

from __future__ import annotations

import sys

import pyarrow as pa
import streamlit as st

import bpe
from bpe import display, formats
from bpe.display import mark_whitespace as stored  # a token as stored, with real whitespace made visible
from bpe.run_cache import approx_size
from ui import pair_bars, vocabulary
from ui import session_keys as keys
from ui.alerts import alert, esc
from ui.html_tables import cell, html_rows
from ui.pair_chart import ROLES
from ui.pair_chart import pair_chart_spec as _pair_chart_spec
from ui.settings import Settings

# A longer row of the splits table is drawn afresh each time, not kept: a word of up to MAX_WORD_CHARS (10,000)
# characters is a row of as many chips, and a few of them would push every other view out of the run's cache.
ROW_CHARS_KEPT = 1_200
# A step's HTML block is kept for the next session at that step up to this size; a larger one (long words' rows)
# is drawn afresh, for the reason above.
STEP_HTML_KEPT = 32_000
TOP_N = 20
HISTORY_ROWS = 15  # merge-history rows sent per step (the CSV download has them all)
# characters of a word shown in the "from" column (cut in the middle past that): a word of up to 10,000 characters
# (a pasted data file) made each step's pair view hold and send some 600 KB, kept per step on the run
FROM_WORD = 64
SPLIT_ROWS = 40  # most frequent words shown in the splits table (search finds the others)
PRESENT_SPLIT_ROWS = 8  # in presenter mode: the rewritten words first, then the most frequent


def per_run(fn=None, *, size=approx_size):
    """Cache ``fn(history, *args)`` in the run's own cache (``history.cache``, a ``bpe.RunCache``), shared by
    every session stepping through it; ``size`` gives a value's bytes (``@per_run(size=...)``).

    Not ``st.cache_resource``: that hashes its arguments on every call (a few ms per view per click), while
    a run is already the identity of its corpus and settings. Entries go when the run goes, and the run's
    cache keeps within its byte budget, which the run store counts. Values are never mutated."""
    if fn is None:
        return lambda f: per_run(f, size=size)

    def cached(history: bpe.History, *args):
        return history.cache.get_or_make(("view", fn.__name__, *args), lambda: fn(history, *args), size)

    cached.__wrapped__ = fn
    return cached


def rows_size(rows: tuple[dict, ...]) -> int:
    """Bytes of a tuple of flat dicts whose keys are shared constants (:func:`_pair_view`'s rows): the tuple,
    each dict and its values. ``approx_size`` walks keys and values generically, which on a step no session
    had seen yet cost more than making the rows."""
    return sys.getsizeof(rows) + sum(sys.getsizeof(row) + sum(map(sys.getsizeof, row.values())) for row in rows)


def kept_html(history: bpe.History, key: tuple, make) -> str:
    """A step's HTML block (``make()``) from the run's cache, where it is kept for every session that comes to
    the same step (a class steps through the same run) unless it is longer than STEP_HTML_KEPT."""
    if (html_text := history.cache.get(key)) is not None:
        return html_text
    html_text = make()
    if len(html_text) > STEP_HTML_KEPT:
        return html_text
    return history.cache.put(key, html_text, approx_size(html_text))


def as_text(history: bpe.History) -> bool:
    """Whether byte-level tokens are shown as the text they stand for (the "Bytes as text" toggle,
    see ``controls.mode_toggles``), or as stored (GPT-2's Ġ)."""
    return history.config.pre_tokenizer in bpe.BYTE_LEVEL and bool(st.session_state.get(keys.BYTE_TEXT))


def shower(text: bool):
    """How a token is written: as text (``␣Straße``) or as stored, real whitespace made visible."""
    return display.byte_text if text else stored


def stored_title(token: str, text: bool) -> str:
    """A tooltip with the stored form and bytes of a token shown as text ("" when they read alike)."""
    return display.byte_title(token) if text and display.byte_text(token) != token else ""


PAIR_COLUMNS = ("rank", "pair", "stored", "count", "score", "value", "tied", "chosen", "role", "from")


@per_run(size=rows_size)
def _pair_view(_history: bpe.History, step: int, text: bool = False) -> tuple[dict, ...]:
    """Pair counts this merge was chosen from (top pairs, with tie/chosen flags and where each
    count comes from), one dict a row with the keys PAIR_COLUMNS. Plain rows, not a DataFrame:
    building and slicing one cost more than everything else in a step's table and chart. Cached
    per step as a shared resource: the page never mutates it."""
    show = shower(text)
    s = _history.state(step)
    if _history.config.algorithm == "wordpiece":  # ranked by score, the number WordPiece chooses by
        top = s.top_scores(TOP_N, after=not step)
    else:
        top = [(pair, count, None) for pair, count in s.top_pairs(TOP_N, after=not step)]
    merge = s if step else (_history.state(1) if _history.num_merges else None)
    # Before the first merge nothing is chosen or tied yet: step 0 marks no pair (step 1 says which won).
    chosen, tied = (merge.pair, set(merge.tied)) if merge and step else (None, set())
    where = (merge or s).provenance_of(
        [p for p, _, _ in top[:10]], show=lambda word: display.shorten(show(word), FROM_WORD)
    )
    rows = []
    for rank, ((a, b), count, score) in enumerate(top):
        role = "chosen" if (a, b) == chosen else "tied" if (a, b) in tied else "other"
        rows.append(
            {
                "rank": rank,
                "pair": f"{show(a)} {show(b)}",
                "stored": f"{a} {b}",
                "count": count,
                "score": str(score) if score is not None else "",
                "value": float(score if score is not None else count),
                "tied": role == "tied",
                "chosen": role == "chosen",
                "role": role,
                "from": where.get((a, b), ""),
            }
        )
    return tuple(rows)


@per_run
def _pair_chart_data(_history: bpe.History, step: int, text: bool = False) -> pa.Table:
    """The chart's rows as an Arrow table, made once per step and shared: Streamlit sends a chart's
    data as Arrow, and converting the pandas table again on every click cost more than making it."""
    rows = _pair_view(_history, step, text)
    return pa.table(
        {
            name: [row[name] for row in rows]
            for name in ("rank", "pair", "stored", "count", "score", "value", "role", "from")
        }
    )


def step_panels(
    history: bpe.History,
    settings: Settings,
    step: int,
    hide_counts: bool = False,
    counts_step: int | None = None,
    present: bool = False,
    after_step=None,
    compact: bool = False,
    line: str = "",
) -> None:
    """Everything about one step, in as few Streamlit elements as possible: each element is a
    message the browser processes on every click, and a click must feel instant. Text, tables
    and chips are plain HTML (three ``st.html`` blocks); the chart is the one Altair element.
    ``hide_counts`` leaves out the pair counts (table and chart) while a prediction is open;
    ``counts_step`` shows the counts another step chose from (a prediction of step+1, answered).
    The splits and vocabulary come right after the pair counts, the history last. ``present``
    (presenter mode) puts the step and chart beside the splits and vocabulary, so a projector shows
    all four at once in larger type; the pair table and history follow below. ``after_step`` draws
    what goes right below the step box (the what-if panel). ``compact`` (a phone following a live class: each of
    the teacher's steps reruns this on every phone at once) draws the chart as HTML bars and folds the pair table,
    both in the splits' block below the step box: six fewer elements a step. ``line``: our own HTML drawn in the
    step box's block, right below the box (a following student's line: one element fewer on every phone)."""
    s = history.state(step)
    text = as_text(history)
    counts_step = step if counts_step is None else counts_step
    # The step box is drawn first, before the counts and splits are computed: the browser shows the new
    # step while the server works out the rest (on a large run, most of a click's time).
    if present:
        left, right = st.columns([5, 4], gap="large")
        with left:
            st.html(_this_step_html(s, history, text, present=True) + line)
            _step_notes(s, present=True)
            table = _pair_view(history, counts_step, text)
            _counts(history, table, counts_step, text, hide_counts, chart_only=True)
            if after_step:
                after_step()  # below the chart here: the step box and the chart stay in a projector's view
        right.html(vocabulary.newest_strip_html(s, text) + _splits_vocab_html(s, history, settings, text, present))
        st.html(
            f"<div>{_pair_table_html(history, counts_step, text) if not hide_counts and table else ''}"
            f'</div><div class="bpe-lazy">{_history_html(history, step, text)}</div>'
        )
        return
    st.html(_this_step_html(s, history, text) + line)
    _step_notes(s)
    if after_step:
        after_step()
    table = _counts(history, _pair_view(history, counts_step, text), counts_step, text, hide_counts, compact=compact)
    st.html(
        table
        + _splits_vocab_html(s, history, settings, text, present)
        + f'<div class="bpe-lazy">{fold("Merge history", _history_html(history, step, text))}</div>'
    )


def fold(summary: str, body: str) -> str:
    """A part a phone shows folded (ui/style.css): a closed ``<details>`` whose content wider screens show
    anyway, without its summary line. ``summary`` is our own text."""
    return f'<details class="bpe-fold"><summary>{summary}</summary>{body}</details>' if body else ""


def _splits_vocab_html(s: bpe.TrainState, history: bpe.History, settings: Settings, text: bool, present: bool) -> str:
    """The corpus splits and the vocabulary: side by side, or in presenter mode stacked in their column
    (side by side in half of a projector's width, the chips of a real paragraph's words were cut at the
    column's edge)."""
    query = st.session_state.get(keys.SPLIT_SEARCH, "")  # the box is below the step view: controls.search_box()
    if query:
        return _splits_vocab_body(s, history, settings, query, text, present)
    # Without a search it is the same for every session at this step: made once, kept in the run's cache (the
    # settings it reads are the vocabulary's target and special tokens; the whole settings would hash the corpus).
    target = settings.limit_value if settings.limit == "vocab_size" else None
    key = ("view", "splits_vocab", s.step, text, present, target, tuple(settings.special_tokens))
    return kept_html(history, key, lambda: _splits_vocab_body(s, history, settings, "", text, present))


def _splits_vocab_body(
    s: bpe.TrainState, history: bpe.History, settings: Settings, query: str, text: bool, present: bool
) -> str:
    return (
        f'<div class="{"bpe-stack" if present else "bpe-grid bpe-lazy"}">'
        f"<div>{_splits_html(s, history, query, text, present)}</div>"
        + (
            f"<div>{vocabulary.vocabulary_html(s, settings, text, present)}</div>"
            if present
            else f"<div>{fold('Vocabulary', vocabulary.vocabulary_html(s, settings, text, present))}</div>"
        )
        + "</div>"
    )


def _counts(
    history, table, counts_step: int, text: bool, hide_counts: bool, chart_only: bool = False, compact: bool = False
) -> str:
    """The pair counts: the chart and, beside it, the table (the chart alone in presenter mode). ``compact``: nothing
    drawn, the chart as HTML bars and the table folded returned for the block below ("" otherwise)."""
    if hide_counts:
        st.info(
            "The pair counts are hidden until you answer: count the pairs in the corpus splits below.",
            icon=":material/visibility_off:",
        )
    elif not table:
        st.write("No pairs: every word is a single token.")
    else:
        wordpiece = history.config.algorithm == "wordpiece"
        roles = tuple(r for r in ROLES if any(row["role"] == r for row in table))
        if chart_only:
            st.vega_lite_chart(
                _pair_chart_data(history, counts_step, text),
                _pair_chart_spec(wordpiece, True, roles),
                width="stretch",
                key="pairs_chart",
                theme=None,
            )  # its own larger axis type, not the theme's
            return ""
        if compact:  # the chart as HTML bars, in the block below (ui/pair_bars.py): no chart element per phone
            return _pair_bars_html(history, counts_step, text) + (
                f'<div class="bpe-lazy">{fold("Pair counts table", _pair_table_html(history, counts_step, text))}</div>'
            )
        # In a keyed container: a phone caps the chart's height (ui/style.css), its legend on top.
        left, right = st.container(key="bpe_counts").columns(2, gap="large")
        left.vega_lite_chart(
            _pair_chart_data(history, counts_step, text),
            _pair_chart_spec(wordpiece, False, roles),
            width="stretch",
            key="pairs_chart",
        )
        right.html(fold("Pair counts table", _pair_table_html(history, counts_step, text)))
    return ""


REWRITTEN_ROW = ' class="rw"'  # a splits row this step's merge rewrote (a phone lists them first: style.css)
PRESENT_TOKEN_CHARS = 16  # a token or word in presenter mode's step box is cut in the middle past this
PRESENT_SHARES = 4  # words named in presenter mode's "where the count comes from" (the rest summed up)


def _this_step_html(s: bpe.TrainState, history: bpe.History, text: bool = False, present: bool = False) -> str:
    """The step box, made once per step and way of showing it, kept in the run's cache (:func:`_step_box`)."""
    return kept_html(history, ("view", "step_box", s.step, text, present), lambda: _step_box(s, history, text, present))


def _step_box(s: bpe.TrainState, history: bpe.History, text: bool, present: bool) -> str:
    """The step box. In presenter mode it stays short enough to leave the chart in view: fewer words in the
    count's sentence, the tie rule's sentence in a tooltip, and the stop sentence inside it (not an alert)."""
    show = shower(text)
    n = history.num_merges
    if s.step == 0:
        # data-announce: what the page's live region reads out (ui/keys.js), once per step. The hint names
        # keys with a keyboard and taps on a touch screen (ui/style.css shows one: pointer coarse or fine).
        return (
            f'<div class="bpe-step"><h2 class="bpe-step-title" data-announce="Step 0 of {n:,}: every word is '
            f'split into its base symbols.">Step 0 of {n:,}</h2>'
            '<p>Every word is split into its base symbols. <span class="bpe-keys-hint">Press <b>Next</b> (or →, '
            'PageDown, Space)</span><span class="bpe-tap-hint">Tap <b>Next</b></span> to make the first merge.</p>'
            "</div>"
        )
    a, b = s.pair
    announce = f"Step {s.step:,} of {n:,}: {show(a)} + {show(b)} → {show(s.new_token)}, count {s.count:,}"
    full = show
    if present:  # long tokens cut in the middle (the whole in the tooltip), so the box stays a few lines

        def show(token: str) -> str:
            return display.shorten(full(token), PRESENT_TOKEN_CHARS)

    def chip(token: str, color: str, bold: bool = False) -> str:
        tip = stored_title(token, text) or (full(token) if show(token) != full(token) else "")
        return display.chip(show(token), color, bold=bold, title=tip)

    lines = [
        f'<h2 class="bpe-step-title" data-announce="{esc(announce)}">Step {s.step:,} of {n:,}: '
        f"{chip(a, display.PALETTE[0])} + {chip(b, display.PALETTE[1])} → "
        f"{chip(s.new_token, display.HIGHLIGHT, bold=True)} "
        f'<span id="merge-count">count {s.count:,}</span></h2>',
        f"<p>Where the count comes from: "
        f"{esc(s.provenance_sentence(PRESENT_SHARES if present else 8, show=show))} = {s.count:,}.</p>",
    ]
    if s.score is not None:
        lines.append(f"<p>WordPiece {esc(s.score_formula(show=show))}.</p>")
    if s.num_tied > 1 and not s.forced:
        named = 4 if present else 6  # the winner and the first others
        others = ", ".join(f"({esc(show(x))}, {esc(show(y))})" for x, y in s.tied[1:named]) + (
            f" and {s.num_tied - named:,} more" if s.num_tied > named else ""
        )
        lines.append(
            f"<p>{s.num_tied - 1} other {'pair' if s.num_tied == 2 else 'pairs'} tied at this "
            f"{'score' if s.score else 'count'}: {others}. "
            + (
                f'Tie rule <b title="{esc(s.tie_sentence)}">{esc(s.tie_rule)}</b>.</p>'
                if present
                else f"Tie rule <b>{esc(s.tie_rule)}</b>: {esc(s.tie_sentence)}.</p>"
            )
        )
    if present and s.stop_sentence:
        lines.append(f'<p class="bpe-stop">{esc(s.stop_sentence)}</p>')
    return f'<div class="bpe-step">{"".join(lines)}</div>'


def _step_notes(s: bpe.TrainState, present: bool = False) -> None:
    """The rare notes (a forced merge, a token already known, the end) as Streamlit alerts (the end inside the
    step box in presenter mode)."""
    if s.step and s.forced:
        st.warning("What-if: this pair was chosen by hand, not by its count.")
    if s.step and not s.token_added:
        alert(
            "info",
            f"“{shower(as_text(s.history))(s.new_token)}” was already in the vocabulary, so it keeps "
            "its id: the vocabulary does not grow.",
        )  # plain text: the token is the corpus's
    if s.stop_sentence and not present:
        st.success(s.stop_sentence)


@per_run
def _pair_bars_html(_history: bpe.History, step: int, text: bool = False) -> str:
    """The pair chart as HTML bars (a following phone's), made once per step for every phone of the class."""
    return pair_bars.bars_html(_pair_view(_history, step, text), _history.config.algorithm == "wordpiece")


@per_run
def _pair_table_html(_history: bpe.History, step: int, text: bool = False) -> str:
    table = _pair_view(_history, step, text)
    wordpiece = _history.config.algorithm == "wordpiece"
    marks = [c for c in ("tied", "chosen") if any(row[c] for row in table)]  # step 0 has neither
    columns = ["pair", *(["score"] if wordpiece else []), "count", *marks, "from"]
    cells = [["✓" if v is True else "" if v is False else v for v in (row[c] for c in columns)] for row in table]
    title = f"Pair counts step {step:,} chose from (before its merge)" if step else "Pair counts before the first merge"
    tips = {"pair": [f"stored as {r['stored']}" if text and r["stored"] != r["pair"] else "" for r in table]}
    return (
        f'<h3 class="bpe-h">{title}</h3>'
        + html_rows(columns, cells, "pairs", tips)
        + '<p class="bpe-note">'
        + ("✓ chosen: the pair merged at this step. " if "chosen" in marks else "")
        + (f"✓ tied: same {'score' if wordpiece else 'count'}, lost on the tie rule. " if "tied" in marks else "")
        + ("" if step else "Press Next to see which pair is merged first. ")
        + "The chart shows the same rows"
        + (" (score = count(ab) / (count(a) × count(b)))" if wordpiece else "")
        + ".</p>"
    )


def _splits_html(s: bpe.TrainState, history: bpe.History, query: str, text: bool = False, present: bool = False) -> str:
    """The most frequent words and their tokens at this step; ✱ marks the words this merge rewrote. In
    presenter mode the rewritten words come first (most frequent first), so one is always in view."""
    changed = set(history.words_changed_at(s.step))
    order = history.words_by_frequency()
    if query:
        order = [i for i in order if query in history.words[i]]
    if present and changed:
        order = [i for i in order if i in changed] + [i for i in order if i not in changed]
    top = order[: PRESENT_SPLIT_ROWS if present else SPLIT_ROWS]
    rows = [
        _split_row(history, i, s.splits[history.words[i]], s.new_token if i in changed else None, text) for i in top
    ]
    more = len(order) - len(top)
    return (
        '<h3 class="bpe-h">Corpus splits</h3>'
        '<table class="bpe-table" data-table="splits"><thead><tr><th>word</th><th>freq</th><th>tokens</th></tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table>"
        + (
            f'<p class="bpe-note">… and {more:,} more words (most frequent shown first; search to find others).</p>'
            if more > 0
            else ""
        )
        + (f'<p class="bpe-note">No word contains “{esc(query)}”.</p>' if query and not order else "")
        + ('<p class="bpe-note">✱ rewritten by this merge.</p>' if changed else "")
    )


def _split_row(history: bpe.History, i: int, tokens: tuple[str, ...], new_token: str | None, text: bool) -> str:
    """One word's row of the splits table (``new_token`` when this step's merge rewrote it, marked ✱). Kept
    in the run's cache: the most frequent words mostly keep their tokens from step to step, and their chips
    were most of a step's work on a large run."""
    key = ("row", i, tokens, new_token, text)
    if (row := history.cache.get(key)) is not None:
        return row
    word, mark, chips = history.words[i], "✱ " if new_token is not None else "", vocabulary.chip_cache(history)
    row = (
        f"<tr{REWRITTEN_ROW if mark else ''}>{cell('word', mark + shower(text)(word), stored_title(word, text))}<td>{history.freqs[i]:,}</td>"
        f"<td>{display.chips_html(list(tokens), highlight=[new_token] if mark else [], as_text=text, cache=chips)}</td></tr>"
    )
    if len(row) > ROW_CHARS_KEPT:
        return row
    return history.cache.put(key, row, approx_size(row))


HISTORY_COLUMNS = ("merge", "pair", "new token", "count", "tied with", "tokens in corpus")


@per_run
def _history_rows(_history: bpe.History, text: bool = False) -> tuple[tuple, ...]:
    """The merge history's table rows (HISTORY_COLUMNS, then the new token as stored, for its tooltip),
    one per merge; a step slices them (plain tuples: a DataFrame's slicing cost ms on every click)."""
    show = shower(text)
    return tuple(
        (
            r["step"],
            f"{show(r['left'])} {show(r['right'])}",
            show(r["new_token"]),
            r["count"],
            r["tied"],  # how many other pairs had the same count
            _history.total_tokens_after[r["step"]],
            r["new_token"],
        )
        for r in formats.merge_rows(_history, with_ties=False)
    )


@per_run
def _sparklines(_history: bpe.History) -> tuple[str, str]:
    return (
        display.sparkline_image(_history.total_tokens_after, title="Corpus length in tokens"),
        display.sparkline_image(_history.merge_counts, title="Count of the winning pair"),
    )


def _history_html(history: bpe.History, step: int, text: bool = False) -> str:
    """The merge history up to this step, kept in the run's cache (:func:`kept_html`)."""
    return kept_html(history, ("view", "history", step, text), lambda: _history_body(history, step, text))


def _history_body(history: bpe.History, step: int, text: bool) -> str:
    if not history.num_merges:
        return ""
    rows = _history_rows(history, text)[max(0, step - HISTORY_ROWS) : step][::-1]
    tips = {"new token": [stored_title(r[-1], text) for r in rows]}
    table = (
        html_rows(HISTORY_COLUMNS, [r[:-1] for r in rows], "history", tips)
        if step
        else '<p class="bpe-note">No merge yet.</p>'
    )
    note = (
        (
            f'<p class="bpe-note">The last {HISTORY_ROWS} of {step:,} merges; the training log (CSV, below) has '
            "them all.</p>"
        )
        if step > HISTORY_ROWS
        else ""
    )
    # Inline SVG images rather than Altair: drawn once per run (cached), only the marker moves.
    tokens_img, counts_img = _sparklines(history)
    lines = display.sparkline_marker(tokens_img, len(history.total_tokens_after), step) + display.sparkline_marker(
        counts_img, len(history.merge_counts), step - 1 if step else None
    )
    return f'<h3 class="bpe-h">Merge history</h3><div class="bpe-grid"><div>{table}{note}</div><div>{lines}</div></div>'
