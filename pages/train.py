"""Train: step through BPE merges with the counts, ties and splits of every step.

Sidebar: the corpus (preset, pasted text, upload, word-count table) and settings.
Main: the step controls and, all for the same step, what was merged and why, the
pair counts (table and chart), the corpus splits, the vocabulary and the history.
The page only renders what ``bpe`` computes; its parts live beside it: ``sidebar.py`` (corpus and
settings), ``controls.py`` (play, predict, presenter mode and the other toggles), ``panels.py`` (the
step panels), ``explore.py`` (predict, what-if, compare tie rules) and
``downloads.py``. The run itself comes from ``runs.py``, the URL is kept by ``links.py``.
"""

from __future__ import annotations

import secrets
from dataclasses import replace

import streamlit as st

from ui import (
    classroom,
    code_beside,
    controls,
    downloads,
    explore,
    intro,
    links,
    panels,
    routing,
    runs,
    session,
    share,
    sidebar,
)
from ui import session_keys as keys
from ui.alerts import alert
from ui.assets import KEYS_JS, PRESENT_CSS, SKIP_JS, SKIP_LINK

routing.through_router()  # a fresh server's first request may run this page alone (ui/routing.py)

state = session.app_state()
classroom.follow(state)  # a student in a live class takes the teacher's newest view (ui/classroom.py)
# Controls outside the sidebar that must survive a visit to the Encode page.
session.keep_widgets(
    state.setdefault("train_widgets", {}), ("speed", "predict", "what_if", "split_search", "byte_text", "present")
)
# Presenter mode: from the toggle, or from a teacher's link (present=1) on the first run.
st.session_state.setdefault(keys.PRESENT, st.query_params.get("present") == "1")
present = st.session_state[keys.PRESENT]
# The keyboard's short way past the sidebar and the toggles to Next (ui/skip.js): our own constant HTML.
st.html(SKIP_LINK + SKIP_JS, unsafe_allow_javascript=True)
if present:
    st.set_page_config(initial_sidebar_state="collapsed")
    st.html(PRESENT_CSS)
else:
    if state.get("was_present"):  # leaving presenter mode brings the sidebar back
        st.set_page_config(initial_sidebar_state="expanded")
    st.title("Train a BPE tokenizer, one merge at a time")
state["was_present"] = present

# -- corpus and settings (sidebar) ------------------------------------------------------------------
with st.sidebar:
    settings = sidebar.corpus_and_settings(state)

link_settings, link_notes = state.get(keys.LINK_NOTES, (None, ()))
if settings == link_settings:
    for note in link_notes:
        alert("warning", note)  # it quotes the link: plain text only
    if link_notes and settings.source == "text" and not settings.text and settings.stored is None:
        st.stop()  # a link whose corpus is gone: its sentence and the paste box, not "The corpus is empty"
if (
    settings.limit == "none"
    and settings.text_chars() > sidebar.LARGE_CORPUS_CHARS
    and state.get("no_limit_confirmed") != settings
):
    st.warning(
        f"“Until no pair is left” on {settings.text_chars():,} characters can make tens of thousands of merges "
        "and take minutes. Set a number of merges or a vocabulary size in the sidebar, or train anyway.",
        icon=":material/hourglass_top:",
    )
    if not st.button("Train until no pair is left", key="confirm_no_limit"):
        st.stop()
    state["no_limit_confirmed"] = settings
try:
    try:
        history = runs.train(settings)
    except ValueError as exc:
        if not settings.forced:
            raise
        # A what-if that cannot happen (say, from an edited link): show the run without it.
        alert("error", f"{exc} The run below leaves out the what-if merges.")
        settings = replace(settings, forced=())
        history = runs.train(settings)
except ValueError as exc:
    alert("error", exc)  # it may quote the corpus or a link
    st.stop()
state[keys.SETTINGS] = settings
stored = state.get(keys.STORED, set())
if links.corpus_digest(settings) not in stored and not links.corpus_fits_url(settings):
    st.info(
        f"This corpus is longer than {links.MAX_URL_CORPUS_CHARS:,} characters, too long to put in a link, and the "
        "corpus store could not keep it: the URL keeps the settings and step only. To share the run, download the "
        "training log below."
    )


# -- the step view: a fragment, so stepping reruns only this part ------------------------------------
def set_step(value: int) -> None:
    st.session_state[keys.STEP] = max(0, min(value, history.num_merges))


def step_view() -> None:
    classroom.poll_step(state)  # a following student takes the teacher's step (ui/classroom.py)
    last = history.num_merges
    if keys.STEP not in st.session_state or st.session_state[keys.STEP] > last:
        st.session_state[keys.STEP] = min(state.get(keys.STEP, 0), last)
    if st.session_state.get(keys.PLAY) and run_every:
        # Playing: each timed rerun of this fragment advances one merge; at the end, stop.
        if st.session_state[keys.STEP] < last:
            st.session_state[keys.STEP] += 1
        else:
            state["stop_play"] = True
            reason = history.state(last).stop_sentence or "Training stopped here."
            state["play_note"] = (
                f"Play stopped: step {last:,} is the last step. {reason} Press Start (or Home) "
                "to play the run again from the beginning."
            )
            st.rerun(scope="app")
    follower = classroom.following(state)  # the teacher steps for it: no step controls (ui/classroom.py)
    cur = st.session_state[keys.STEP]
    # Set by the script before the slider is drawn, so the browser always shows the step the panels
    # show: a Play tick cut short by a click on Pause could leave the slider one step ahead.
    st.session_state[keys.STEP] = st.session_state[keys.STEP]
    row = None if follower else step_controls(cur, last)
    step = st.session_state[keys.STEP]
    state[keys.STEP] = step
    links.sync_url(settings, step, stored, classroom.link_params(state))  # the class code in the same message
    if present and row is not None:
        st.query_params["present"] = "1"  # a link made in presenter mode opens in it
        share.share_button(row)  # a link and QR code of this step (ui/share.py)
    classroom.after_step(state, settings, step, stored)  # the teacher's view goes to the class
    guess = explore.predict(history, step, state)
    if step == last and last and not present:
        intro.next_steps(settings, step, stored)  # where to go from here: Encode, Check (ui/intro.py)
    # What-if sits right below the step box: after forcing a pair, the step it changed stays in view.
    panels.step_panels(
        history,
        settings,
        step,
        hide_counts=guess == "pending" or classroom.vote_pending(state, step),
        counts_step=step + 1 if guess == "answered" else step,
        present=present,
        after_step=lambda: (classroom.student_bar(state, history), explore.what_if(history, settings, state)),
        # Every phone of a class runs this at each of the teacher's steps, all at once: the fewest elements.
        compact=follower,
        line=classroom.follow_line(state),  # "Following the teacher", in the step box's block
    )
    if not follower:  # a following phone gets the step, its chart and words, no more
        code_beside.code_beside(history, settings, step)  # the reference loop's lines with this step's values
    if state.pop(keys.RERUN_APP, False):
        st.rerun(scope="app")  # a what-if changed the settings: the whole page must follow


def step_controls(cur: int, last: int):
    """Start, Back, Next, End and the slider in one row (sticky on a phone); the row. A following student has
    none: the teacher steps for the class, and "Explore on my own" brings them back."""
    # One horizontal container, not st.columns: every block is one more message per click.
    row = st.container(horizontal=True, vertical_alignment="center", key="bpe_steps")  # sticky on a phone
    # Material icons ship with Streamlit (emoji need a system font projectors may not have).
    row.button("Start", key="start", icon=":material/first_page:", on_click=set_step, args=(0,), disabled=cur == 0)
    row.button(
        "Back", key="back", icon=":material/chevron_left:", on_click=set_step, args=(cur - 1,), disabled=cur == 0
    )
    row.button(
        "Next",
        key="next",
        icon=":material/chevron_right:",
        on_click=set_step,
        args=(cur + 1,),
        disabled=cur == last,
        type="primary",
    )
    row.button("End", key="end", icon=":material/last_page:", on_click=set_step, args=(last,), disabled=cur == last)
    if last > 0:
        row.slider("Step", 0, last, key=keys.STEP, label_visibility="collapsed", width="stretch")
    return row


# Keys for the projector: presenter remotes send PageDown/PageUp. One listener on the page (installed
# once), not st.button(shortcut=...): that takes one key per button, does nothing while the step
# slider has focus (where PageDown natively steps backwards), and cannot keep the focus.
st.html(KEYS_JS, unsafe_allow_javascript=True)  # our own constant script, no user text
if state.pop("stop_play", False):
    st.session_state[keys.PLAY] = False
intro.first_minute(history, state, present)  # what BPE is and the corpus, until hidden (ui/intro.py)
if not present:
    controls.mode_toggles(settings)
if note := state.pop("play_note", None):
    st.info(note, icon=":material/stop_circle:")
runs.stopped_at(history, settings, state)  # a run cut short by Stop says so right above its step box
run_every = st.session_state.get(keys.SPEED, 1.0) if st.session_state.get(keys.PLAY) else None
if not present:
    classroom.class_box(state, history, present)  # follow a live class (a student), and its vote
st.fragment(step_view, run_every=run_every)()
classroom.follow_poll(state, history)  # a following student's poll: below, as it draws nothing until a step
if present:  # below the step view: a projector's height is the step's
    classroom.class_box(state, history, present)  # start or drive a live class, and its vote
    controls.mode_toggles(settings)
# This whole run's mark, after the step view: the server has registered its fragment once the browser has
# it. After a server restart ui/restore.js keeps the step controls waiting until a new mark arrives
# (a style-only block takes no space; a step, a fragment rerun, does not send it again).
st.html(f"<style>:root{{--bpe-run:'{secrets.token_hex(6)}'}}</style>")
controls.search_box()

# -- comparisons and downloads ----------------------------------------------------------------------
explore.compare_tie_rules(history, settings)
downloads.downloads(history, settings)
controls.worksheet_entry(history, settings)  # a printable sheet of the merges the teacher picks
