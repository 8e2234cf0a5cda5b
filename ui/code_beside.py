"""The code beside the step: on the Train page, an expander with a reference loop's few lines (the
Hugging Face course's ``compute_pair_freqs`` / ``merge_pair`` or minbpe's ``get_stats`` / ``merge``)
and this step's values as that loop would print them: the top pair counts, the pair it picks and the
words it rewrites (before -> after). The code is the source of ``bpe.reference_loops`` itself
(``inspect.getsource``), the functions the tests run against the trainer; the values are this run's.
Also the link to a printable worksheet (``pages/worksheet.py``) from this step.
"""

from __future__ import annotations

import inspect
from pprint import pformat
from urllib.parse import urlencode

import streamlit as st

import bpe
from bpe import reference_loops as loops
from ui import links, session
from ui.panels import per_run
from ui.settings import Settings

TOP_PAIRS = 5  # pair counts shown, as the loop's dict would print sorted by count
EXACT_WORDS = (
    500  # up to this many distinct words (a class example), the counts are recomputed by the shown code (~15 ms)
)
WORDS_SHOWN = 5  # rewritten words shown
WORKSHEET_STEPS = 5  # steps on the worksheet the Train page links to
OPEN_KEY = "code_beside_open"  # the expander's open state (session state)
STYLES = {
    "course": ("Hugging Face course", (loops.compute_pair_freqs, loops.merge_pair, loops.course_step)),
    "minbpe": ("minbpe", (loops.get_stats, loops.merge, loops.minbpe_step)),
}
SOURCES = {key: "\n\n".join(inspect.getsource(f) for f in fns) for key, (_, fns) in STYLES.items()}


@per_run
def step_values(history: bpe.History, step: int) -> dict:
    """This step's values: the top pair counts it chose from, the pair, and the words it rewrote as
    (word, before, after), the first few. Up to EXACT_WORDS distinct words the counts are computed by
    the displayed ``compute_pair_freqs`` itself from the run's splits, so equal counts come in the order
    a print shows them (first seen first); on a larger corpus they are the run's stored top counts."""
    s = history.state(step)
    before, after = history.splits_at(step - 1), history.splits_at(step)
    if len(history.words) <= EXACT_WORDS:
        word_freqs = dict(zip(history.words, history.freqs))
        pair_freqs = loops.compute_pair_freqs({w: list(before[w]) for w in word_freqs}, word_freqs)
        top = sorted(pair_freqs.items(), key=lambda x: x[1], reverse=True)[:TOP_PAIRS]
    else:
        top = s.top_pairs(TOP_PAIRS)
    changed = history.words_changed_at(step)  # not s.changes(): that also lists every pair count it moved
    words = [history.words[i] for i in changed[:WORDS_SHOWN]]
    return {
        "top": top,
        "exact": len(history.words) <= EXACT_WORDS,
        "pair": s.pair,
        "rewritten": [(w, before[w], after[w]) for w in words],
        "num_rewritten": len(changed),
    }


def values_text(style: str, history: bpe.History, step: int) -> str:
    """What the loop of ``style`` holds at merge ``step``, as a Python session would print it."""
    v = step_values(history, step)
    top = pformat(v["top"], width=60)  # one pair a line when they do not fit on one
    if not v["exact"]:
        top += "  # the run's top counts: among equal counts, a print may list other pairs or another order"
    if style == "course":
        lines = [
            ">>> pair_freqs = compute_pair_freqs(splits, word_freqs)",
            f">>> sorted(pair_freqs.items(), key=lambda x: x[1], reverse=True)[:{TOP_PAIRS}]",
            top,
            ">>> best_pair",
            repr(v["pair"]),
            ">>> splits = merge_pair(*best_pair, splits)",
        ]
    else:
        lines = [
            ">>> stats = {}",
            ">>> for word, freq in word_freqs.items(): get_stats(splits[word], stats, freq)",
            f">>> sorted(stats.items(), key=lambda x: x[1], reverse=True)[:{TOP_PAIRS}]",
            top,
            ">>> pair = max(stats, key=stats.get)",
            ">>> pair",
            repr(v["pair"]),
            ">>> splits = {word: merge(ids, pair, pair[0] + pair[1]) for word, ids in splits.items()}",
        ]
    more = v["num_rewritten"] - len(v["rewritten"])
    lines.append(
        f"# it rewrites {v['num_rewritten']:,} word(s)" + (f", the first {len(v['rewritten'])}:" if more else ":")
    )
    lines += [f"# {word!r}: {list(b)!r} -> {list(a)!r}" for word, b, a in v["rewritten"]]
    return "\n".join(lines)


def worksheet_link(settings: Settings, step: int) -> str:
    """The worksheet page for the next WORKSHEET_STEPS merges from ``step``, with this run's link parameters."""
    params = links.settings_to_params(settings, step)
    params.update(ws_from=str(step + 1), ws_steps=str(WORKSHEET_STEPS))
    return "worksheet?" + urlencode(params)


def code_beside(history: bpe.History, settings: Settings, step: int) -> None:
    """The expander under the step panels (``pages/train.py``)."""
    # Drawn only while open (opening it reruns the step view): closed, as most students leave it, its elements
    # would cost every click on Next serving CPU (a class of 100 clicks on one process) for nothing shown.
    box = st.expander("The code beside the step", icon=":material/code:", key=OPEN_KEY, on_change="rerun")
    # The loop chosen stays chosen while the expander is closed (Streamlit forgets a widget it does not draw).
    session.keep_widgets(session.app_state().setdefault("train_widgets", {}), ("code_style",))
    if not box.open:
        return
    with box:
        style = st.radio(
            "Reference loop",
            list(STYLES),
            format_func=lambda k: STYLES[k][0],
            key="code_style",
            horizontal=True,
        )
        config = history.config
        if config.algorithm != "bpe":
            st.caption("These loops train BPE; this run trains WordPiece, which picks pairs by score (see above).")
        elif step == 0:
            st.caption("Step 0: nothing merged yet. Press Next to see the loop's first step with its values.")
        else:
            st.caption(f"Step {step:,}: the loop's values, from this run's splits before the merge.")
            st.code(values_text(style, history, step), language="python")
            s = history.state(step)
            if s.forced:
                st.caption("This merge was forced (a what-if): the loop would pick the most frequent pair instead.")
            elif s.num_tied > 1 and config.tie_break != "first":
                st.caption(
                    f"{s.num_tied:,} pairs tie here. Both loops take the first pair they meet; this run breaks ties "
                    f"by another rule ({bpe.TIE_RULE_SENTENCES[config.tie_break]}), so their pick can differ."
                )
        st.caption("The same loop in plain Python, as you might write it yourself:")
        st.code(SOURCES[style], language="python")
        st.link_button("Printable worksheet", worksheet_link(settings, step), icon=":material/print:")
