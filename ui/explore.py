"""The training page's ways to play with a run: predict the next merge, what if another pair
were merged (retrain from there), and compare two tie rules on the same corpus."""

from __future__ import annotations

from dataclasses import replace

import streamlit as st

import bpe
from bpe import display
from bpe.display import mark_whitespace
from bpe.display import md_escape as md  # tokens and words shown inside markdown
from ui import runs, session
from ui import session_keys as keys
from ui.alerts import alert, esc
from ui.html_tables import html_table
from ui.settings import Settings


def token_as_shown(token: str) -> str:
    """A token as the panels show it: as text (``␣Straße``) with "Bytes as text" on for a byte-level run,
    else as stored with real whitespace made visible (see panels.as_text)."""
    if session.app_state()[keys.SETTINGS].pre_tokenizer in bpe.BYTE_LEVEL and st.session_state.get(keys.BYTE_TEXT):
        return display.byte_text(token)
    return mark_whitespace(token)


def pair_text(pair: tuple[str, str]) -> str:
    """``u + g``: a pair in plain text, its tokens' whitespace made visible."""
    return f"{token_as_shown(pair[0])} + {token_as_shown(pair[1])}"


def predict(history: bpe.History, step: int, state: dict) -> str | None:
    """The course's "Now your turn!": guess the next merge before pressing Next (shown while the
    toggle made by ``controls.mode_toggles`` is on). Returns ``"pending"`` while a guess is awaited (the
    pair counts would give the answer away, so the page hides them), ``"answered"`` once it is made
    (the page then shows the counts step+1 chose from), else None. Guesses are kept per step for
    the run, so stepping back to an answered step shows its answer again."""
    if not st.session_state.get(keys.PREDICT):
        return None
    if step >= history.num_merges:
        st.write("Training has stopped: there is no next merge to predict.")
        return None
    if state.get("guesses", (None,))[0] != state[keys.SETTINGS]:  # a new run: forget the old guesses
        state["guesses"] = (state[keys.SETTINGS], {})
    guesses = state["guesses"][1]
    upcoming = history.state(step + 1)
    # Candidates are the pairs present now, shown alphabetically so their order gives nothing away.
    candidates = sorted({p for p, _ in history.state(step).top_pairs(6, after=True)} | {upcoming.pair})
    before = guesses.get(step)
    guess = st.radio(
        f"Which pair will step {step + 1} merge?",
        candidates,
        key=f"guess_{step}",
        index=candidates.index(before) if before in candidates else None,
        format_func=lambda p: md(pair_text(p)),
        horizontal=True,
    )  # radio labels are markdown
    if guess is None:
        return "pending"
    guesses[step] = guess
    right, why = upcoming.judge_prediction(guess, show=token_as_shown)
    (st.success if right else st.warning)(md(why))
    return "answered"


def _force(settings: Settings, state: dict, step: int, winner: tuple[str, str] | None = None) -> None:
    """Button callback (runs before the widgets): force the chosen pair at step+1 and retrain.
    Forcing the pair that wins anyway would change nothing: refused with a sentence."""
    pair = tuple(st.session_state["what_if_pair"])
    if pair == winner:
        state["what_if_error"] = (
            f"{pair_text(pair)} is what step {step + 1} merges anyway, so forcing it changes "
            "nothing: pick another pair to see a different run."
        )
        return
    forced = {k: v for k, v in settings.forced if k <= step}
    forced[step + 1] = pair
    new = replace(settings, forced=tuple(sorted(forced.items())))
    try:
        runs.train(new, block=True)  # a callback cannot draw the progress: it waits (off the GIL)
    except ValueError as exc:
        state["what_if_error"] = str(exc)
        return
    state[keys.SETTINGS], state["before_what_if"] = new, replace(settings, forced=())
    state[keys.RERUN_APP] = True
    state["what_if_done"] = (new, step + 1)  # the result is shown right away, the controls folded
    st.session_state[keys.STEP] = step + 1


def _unforce(settings: Settings, state: dict) -> None:
    state[keys.SETTINGS] = replace(settings, forced=())
    state.pop("before_what_if", None)
    state[keys.RERUN_APP] = True


def what_if(history: bpe.History, settings: Settings, state: dict) -> None:
    """Shown while the toggle made by ``controls.mode_toggles`` is on (a toggle, not an expander: a
    closed expander's widgets would still be sent on every step)."""
    step = st.session_state.get(keys.STEP, 0)
    if not st.session_state.get(keys.WHAT_IF):
        return
    with st.container(border=True):
        if state.get("what_if_error"):
            alert("error", state.pop("what_if_error"))
        candidates = [p for p, _ in history.state(step).top_pairs(8, after=True)]
        if step >= history.num_merges:
            # Training stops here, so a merge forced at the next step would never happen.
            reason = history.state(step).stop_sentence or "Training stopped here."
            st.write(
                f"This is the last step. {md(reason)} Go back a step to merge another pair instead"
                + (", or raise the limit in the sidebar." if candidates else ".")
            )
        elif not candidates:
            st.write("No pair is left to merge at this step.")
        elif state.get("what_if_done") == (settings, step):
            # Just forced: say what happened in one line (plain text: tokens are the corpus's).
            s = history.state(step)
            alert(
                "info",
                f"Step {step} now merges {pair_text(s.pair)} → {token_as_shown(s.new_token)} "
                f"(count {s.count}) and training went on from there. Step back to force another pair.",
            )
        else:
            winner = history.state(step + 1).pair
            # The runner-up first: the winner would be merged anyway.
            index = next((i for i, p in enumerate(candidates) if p != winner), 0)
            st.selectbox(
                f"Merge at step {step + 1} instead", candidates, key="what_if_pair", index=index, format_func=pair_text
            )  # selectbox options are plain text, not markdown
            st.button(
                "Merge this pair and retrain from here",
                key="what_if_go",
                on_click=_force,
                args=(settings, state, step, winner),
            )
        if settings.forced:
            st.write(
                "Forced merges in this run: " + ", ".join(f"step {k}: {md(pair_text(p))}" for k, p in settings.forced)
            )
            before = state.get("before_what_if")
            if before is not None:
                try:
                    original = runs.train(before)
                except ValueError:
                    original = None
                diverge = bpe.first_difference(original, history) if original else None
                if diverge:
                    st.write(
                        f"The runs diverge at step {diverge}: the original merged "
                        f"{md(pair_text(original.state(diverge).pair))}, this one "
                        f"{md(pair_text(history.state(diverge).pair))}; "
                        f"{sum(a != b for a, b in zip(original.merges, history.merges)):,} of the first "
                        f"{display.plural(min(original.num_merges, history.num_merges), 'merge')} differ."
                    )
            st.button("Undo all what-ifs", key="what_if_reset", on_click=_unforce, args=(settings, state))


def compare_tie_rules(history: bpe.History, settings: Settings) -> None:
    with st.expander("Compare tie rules", icon=":material/balance:"):
        cols = st.columns([2, 2, 1])
        one = cols[0].selectbox("Rule A", bpe.TIE_RULES, index=0, key="cmp_a")
        two = cols[1].selectbox("Rule B", bpe.TIE_RULES, index=1, key="cmp_b")
        # Comparing trains twice, so it waits for a click instead of running on every page load.
        if not cols[2].button("Compare", key="cmp_go") and st.session_state.get("cmp_done") != (settings, one, two):
            return
        st.session_state["cmp_done"] = (settings, one, two)
        try:
            ha, hb = runs.train(replace(settings, tie_break=one)), runs.train(replace(settings, tie_break=two))
        except ValueError as exc:
            alert("error", exc)
            return
        k = bpe.first_difference(ha, hb)
        if k is None:
            st.success(f"'{one}' and '{two}' make the same merges on this corpus.")
            return
        sa, sb = ha.state(k), hb.state(k)
        st.write(
            f"They first differ at **step {k}**: '{one}' merges {md(pair_text(sa.pair))} → "
            f"{md(token_as_shown(sa.new_token))}, '{two}' merges {md(pair_text(sb.pair))} → {md(token_as_shown(sb.new_token))} "
            f"(both at count {sa.count})."
        )
        # The two merge lists side by side from the first difference, rows that differ marked.
        last = min(max(ha.num_merges, hb.num_merges), k + COMPARE_ROWS - 1)
        left, right = st.columns(2)
        for col, rule, h, other in ((left, one, ha, hb), (right, two, hb, ha)):
            col.html(
                f'<h3 class="bpe-h">{esc(rule)}</h3>'
                + html_table(_merge_list(h, other, k, last), f"compare-{'a' if h is ha else 'b'}")
            )
        st.caption(f"Steps {k} to {last}; ≠ marks a step where the two rules merge different pairs.")
        st.button(
            f"Go to step {k}"
            + (f" (this page uses '{settings.tie_break}')" if settings.tie_break in (one, two) else ""),
            key="cmp_jump",
            icon=":material/arrow_downward:",
            on_click=lambda: st.session_state.update(step=k),
        )


COMPARE_ROWS = 10


def _merge_list(h: bpe.History, other: bpe.History, first: int, last: int):
    """Steps first..last of a run: the merge, its count, and whether the other run differs there."""
    import pandas as pd

    rows = []
    for step in range(first, last + 1):
        if step > h.num_merges:
            rows.append({"step": step, "merge": "(stopped)", "count": "", "": ""})
            continue
        s = h.state(step)
        same = step <= other.num_merges and other.state(step).pair == s.pair
        rows.append(
            {
                "step": step,
                "merge": f"{pair_text(s.pair)} → {token_as_shown(s.new_token)}",
                "count": s.count,
                "": "" if same else "≠",
            }
        )
    return pd.DataFrame(rows, columns=["step", "merge", "count", ""])
