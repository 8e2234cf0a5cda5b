"""The live class on the Train page: the teacher starts and drives it, students follow it and vote.

The teacher (presenter mode) presses "Start a class": ``server/classroom.py`` makes a code and a token, kept
in this session and in a cookie of this browser (``COOKIE``: a reload is still the teacher's; never a link).
From then on every view the teacher's step view draws is published (:func:`after_step`), and a box
(:func:`class_box`, a fragment polling every ``POLL_S``) shows the class code, its link's QR code, how many
students follow, and the vote: below the step view in presenter mode (a projector's height is the step's),
above it otherwise. A student opens the link (``?class=<code>``) and their browser waits on the class state
route for the teacher's next move (``server/class_route.py``, served by ``serve.py``: an HTTP answer, not a
script run; where it is not served, a fragment polls, :func:`follow_poll`). When the serial is new, the
browser presses the step view's hidden button (``class.js``): the step view runs, not the page, and its first
lines (:func:`poll_step`) take the teacher's step. Another corpus or other settings rerun the page, whose first lines (:func:`follow`) open
the teacher's link as if the student had opened it. A following student's line is drawn in the step box's
block (:func:`follow_line`), its buttons and the vote right below it (:func:`student_bar`), so a phone shows the
step first; a following phone has no step controls (the teacher steps for it). "Explore on my own" stops
following; "Follow the teacher" applies the current view again. While a vote is open the pair counts are hidden on every
screen. What this leaves out: the class state itself (``server/classroom.py``).
"""

from __future__ import annotations

import secrets
import time
from urllib.parse import urlencode, urlunsplit

import altair as alt
import pandas as pd
import streamlit as st

import bpe
from bpe.display import md_escape as md  # button labels are markdown
from server import class_route, corpus_store
from server import classroom as live
from ui import assets, explore, links, session, share
from ui import session_keys as keys
from ui.alerts import alert, esc

POLL_S = 1.0  # students see the teacher's step within about this (plus one page run)
ROUTE_PAUSE_S = 0.5  # a following browser's pause before asking the class state route again after a quick answer
COOKIE = "bpe_class"  # the teacher's browser: "<code>.<token>" of its class (class.js), read back on a reload
HEARTBEAT_S = 4.0  # a student's page says it is open this often (live.SEEN_WINDOW_S counts the last few)
CANDIDATES = 6  # the vote offers the pairs with the highest counts, and the one that merges
RETRIES = 3  # a student's page applies the same view at most this many times more (see after_step)
RETRY_PRESS_S = 3.0  # a browser presses the hidden button again if its press brought no new step this long
# The step and the sidebar's widgets. A polling fragment's request carries the browser's values of every widget,
# and those the script has just changed (Next's step, a preset's settings) may not have reached the browser yet:
# the teacher's box puts them back, and a student's page applies the teacher's view again when they drift.
WATCHED = (
    "step", "source", "preset", "counts_text", "pre_tokenizer", "limit", "limit_value", "tie_break",
    "min_frequency", "algorithm", "full_bytes", "special_tokens",
)  # fmt: skip


def _class(state: dict) -> dict:
    """This session's side of the class: the teacher's {code, token, published} or a student's
    {code, following, serial, vote, settings}."""
    return state.setdefault("class", {})


def _store():
    return corpus_store.store()


def _js(**values) -> str:
    """``ui/class.js`` told what to do: keep (or forget) the teacher's cookie, or press the sync button."""
    return assets.class_js({"cookie": COOKIE, "maxAge": live.IDLE_S, **values})


def class_link(code: str) -> str:
    """The students' link: the app's address and the class code only (never the teacher's token)."""
    scheme, host, path = share.page_address()
    return urlunsplit((scheme, host, path, urlencode({"class": code}), ""))


# -- a student's page follows ------------------------------------------------------------------------
def follow(state: dict) -> None:
    """At the top of the Train page, before the sidebar: join the class of the link, and apply the
    teacher's newest view if this student follows it."""
    mine = _class(state)
    code = st.query_params.get("class")
    if not mine.get("code") and not code:
        _restore_teacher(mine)
    if mine.get("token"):
        return
    if code and code != mine.get("code") and live.valid_code(code):
        mine.clear()
        mine.update(code=code, following=True, serial=None)
    if not mine.get("code") or not mine.get("following"):
        return
    try:
        shown = live.view(_store(), mine["code"])
    except corpus_store.StoreUnavailable as exc:
        mine["problem"] = str(exc)
        return
    if shown is None:
        mine.update(following=False, gone=True)
        return
    if shown.serial == mine.get("serial"):
        return
    if shown.serial != mine.get("tried"):
        mine.update(tried=shown.serial, retries=0)
    mine.update(serial=shown.serial, vote=shown.vote, step=shown.step)
    same_run = mine.get("expected") == state.get(keys.SETTINGS) and _run_params(mine.get("params")) == _run_params(
        shown.params
    )
    mine["params"] = shown.params
    if same_run:  # only the step (or the vote): no need to start the session again
        st.session_state[keys.STEP] = state[keys.STEP] = shown.step
        return
    # Another corpus or other settings: open the teacher's link as a new session would.
    mine["expected"] = links.settings_from_params(shown.params, [])
    kept = dict(mine)
    for key in list(st.session_state.keys()):
        del st.session_state[key]
    st.query_params.from_dict({**shown.params, "class": mine["code"]})
    session.app_state()["class"] = kept
    st.rerun()


def _run_params(params: dict | None) -> dict | None:
    return None if params is None else {k: v for k, v in params.items() if k != "step"}


def after_step(state: dict, settings, step: int, stored) -> None:
    """In the step view, after the URL is written: the teacher publishes the view; a student's URL keeps
    the class code (a reload joins again)."""
    mine = _class(state)
    if mine.get("token"):
        mine["widgets"] = {k: st.session_state[k] for k in WATCHED if k in st.session_state}
        params = links.settings_to_params(settings, step, stored)
        if params != mine.get("published"):
            try:
                live.move(_store(), mine["code"], mine["token"], params)
                mine["published"] = params
            except (live.ClassError, corpus_store.StoreUnavailable) as exc:
                mine["problem"] = str(exc)
    elif mine.get("code") and not mine.get("gone"):  # its URL keeps the class code: link_params
        drifted = settings != mine.get("expected") or step != mine.get("step")
        if mine.get("following") and mine.get("serial") is not None and drifted and mine["retries"] < RETRIES:
            mine["retries"] += 1
            mine["serial"] = None  # apply the teacher's view again
            st.rerun(scope="app")


def link_params(state: dict) -> dict[str, str]:
    """What a student's URL keeps besides the view: the class code, so a reload joins again (the teacher's never
    does: its token is in a cookie, the code would make the teacher's page a student's)."""
    mine = _class(state)
    return {"class": mine["code"]} if mine.get("code") and not mine.get("token") and not mine.get("gone") else {}


def vote_pending(state: dict, step: int) -> bool:
    """Whether the class is answering "Which pair merges next?" at this step (the counts would tell)."""
    mine = _class(state)
    vote = mine.get("vote")
    following = mine.get("token") or mine.get("following")
    return bool(following and vote is not None and not vote.revealed and vote.step == step)


# -- the box beside the step view ----------------------------------------------------------------------
def class_box(state: dict, history: bpe.History, present: bool) -> None:
    """The teacher's class controls (or "Start a class" in presenter mode), or a student's follow bar.
    ``pages/train.py`` draws it below the step view in presenter mode, above it otherwise."""
    mine = _class(state)
    if problem := mine.pop("problem", None):
        alert("warning", problem)
    if mine.pop("forget", False):  # the class ended: this browser no longer keeps its token
        st.html(_js(keep=""), unsafe_allow_javascript=True)
    if mine.get("token"):
        mine["full_run"] = True  # the box is drawn by the page's run: no stale values to put back
        st.fragment(_teacher_box, run_every=POLL_S)(state, history)
        mine["full_run"] = False
    elif mine.get("gone"):
        st.info("The class has ended: you can go on exploring here on your own.", icon=":material/school:")
    elif mine.get("code") and not following(state):  # following: follow_poll, below the step view
        st.fragment(_student_box, run_every=POLL_S)(state, history)
    elif present and st.button("Start a class", icon=":material/school:", key="class_start"):
        params = links.settings_to_params(state[keys.SETTINGS], state[keys.STEP], state.get(keys.STORED, set()))
        try:
            code, token = live.start(_store(), params)
        except (live.ClassError, corpus_store.StoreUnavailable) as exc:
            alert("error", f"{exc} The class could not start.")
            return
        mine.update(code=code, token=token, published=params, vote=None)
        st.rerun()


def follow_poll(state: dict, history: bpe.History) -> None:
    """A following student's poll of the class (``pages/train.py`` draws it below the step view: it shows
    nothing until the teacher moves, and the step box stays first on a phone). Where this server serves the
    class state route (``serve.py``), the browser asks it (``class.js``: an HTTP answer, not a script run; it
    waits for the teacher's next move) and presses the step view's hidden button when the serial is new; else
    a fragment polls."""
    if not following(state):
        return
    if class_route.served():
        st.html(_js(follow=ROUTE_PAUSE_S * 1000, retry=RETRY_PRESS_S * 1000), unsafe_allow_javascript=True)
    else:
        st.fragment(_student_box, run_every=POLL_S)(state, history)


def _follower(mine: dict) -> str:
    """This page's anonymous id in the class's attendance (the route's polls and the fragment's heartbeats)."""
    return mine.setdefault("fid", secrets.token_urlsafe(12))


def _restore_teacher(mine: dict) -> None:
    """A reloaded teacher's page: its browser's cookie names the class and holds its token (never a link)."""
    cookie = st.context.cookies.get(COOKIE)
    if not isinstance(cookie, str):  # none (or no browser: a test)
        return
    code, _, token = cookie.partition(".")
    try:
        if code and token and live.is_teacher(_store(), code, token):
            mine.update(code=code, token=token, published=None, vote=None)
    except corpus_store.StoreUnavailable:
        pass  # the page works without the class; the next load tries again


def _teacher_box(state: dict, history: bpe.History) -> None:
    mine = _class(state)
    if not mine.get("token"):  # "End class" was pressed
        st.rerun(scope="app")
    for key, value in {} if mine.get("full_run") else mine.get("widgets", {}).items():
        if st.session_state.get(key) != value:  # a value this poll brought back from before a change
            st.session_state[key] = value
    store = _store()
    try:
        shown = live.view(store, mine["code"])
        seen = live.attendance(store, mine["code"])
    except corpus_store.StoreUnavailable as exc:
        alert("warning", f"{exc} The class goes on when it is back.")
        return
    if shown is None:
        mine.clear()
        mine["forget"] = True
        mine["problem"] = f"The class has ended: nobody moved it for {live.IDLE_S // 60} minutes. Start a new one."
        st.rerun(scope="app")
    row = st.container(horizontal=True, vertical_alignment="center", key="class_row")
    # The same script every poll: the browser runs it once, when the box first draws it.
    row.html(_js(keep=f"{mine['code']}.{mine['token']}"), unsafe_allow_javascript=True)
    row.html(
        f'<p class="bpe-class">Class <b data-testid="bpe-class-code">{esc(mine["code"])}</b> · '
        f'<span data-testid="bpe-following">{seen["follow"]} following</span>'
        + (f" · {seen['own']} on their own" if seen["own"] else "")
        + "</p>"
    )
    link = class_link(mine["code"])
    with row.popover("Class link", icon=":material/qr_code_2:"):
        st.html(share.share_html(link))
        st.caption(f"The class ends when you end it, or after {live.IDLE_S // 60} minutes without a step.")
    vote = shown.vote
    if vote is None:
        row.button("Which pair merges next?", key="class_ask", on_click=_act, args=(state, live.open_vote))
    elif not vote.revealed:
        answers = sum(live.tally(store, mine["code"], vote.number).values())
        row.html(f'<p class="bpe-class"><b data-testid="bpe-answers">{answers}</b> answers</p>')
        row.button("Reveal", key="class_reveal", type="primary", on_click=_act, args=(state, live.reveal))
    row.button("End class", key="class_end", on_click=_act, args=(state, live.end))
    if mine.get("vote") != vote:  # the step view must hide or show the counts: the whole page runs
        mine["vote"] = vote
        st.rerun(scope="app")
    if vote is not None and vote.revealed:
        _reveal(history, vote, live.tally(store, mine["code"], vote.number))


def _act(state: dict, action) -> None:
    """A teacher's button (a callback, before the page runs): open or reveal a vote, or end the class."""
    mine = _class(state)
    try:
        result = action(_store(), mine["code"], mine["token"])
    except (live.ClassError, corpus_store.StoreUnavailable) as exc:
        mine["problem"] = str(exc)
        return
    if result is None:  # ended
        mine.clear()
        mine["forget"] = True


def candidates(history: bpe.History, step: int) -> list[tuple[tuple[str, str], int]]:
    """The vote's pairs, alphabetically (the order gives nothing away), with their true counts."""
    top = dict(history.state(step).top_pairs(CANDIDATES, after=True))
    upcoming = history.state(step + 1)
    top.setdefault(upcoming.pair, upcoming.count or 0)
    return sorted(top.items())


def _reveal(history: bpe.History, vote: live.Vote, tally) -> None:
    """The class's answers beside the true counts, then the merge."""
    if vote.step >= history.num_merges:
        return
    rows = [
        {"pair": explore.pair_text(p), "what": what, "n": n}
        for p, count in candidates(history, vote.step)
        for what, n in (("class votes", tally.get(p, 0)), ("count in the corpus", count))
    ]
    chart = (
        alt.Chart(pd.DataFrame(rows))
        .mark_bar()
        .encode(
            y=alt.Y("pair:N", title=None, sort=None),
            x=alt.X("n:Q", title=None),
            color=alt.Color("what:N", legend=alt.Legend(orient="top", title=None)),
            yOffset="what:N",
            tooltip=["pair", "what", "n"],
        )
        .properties(height=40 * len(rows) // 2 + 40)
    )
    st.altair_chart(chart, width="stretch")
    upcoming = history.state(vote.step + 1)
    right = tally.get(upcoming.pair, 0)
    st.html(
        f'<p class="bpe-class" data-testid="bpe-reveal">Step {vote.step + 1} merges '
        f"<b>{esc(explore.pair_text(upcoming.pair))}</b> (count {upcoming.count}): {right} of "
        f"{sum(tally.values())} answers chose it.</p>"
    )


def following(state: dict) -> bool:
    """Whether this session is a student following the teacher: its step view is the class's polling fragment."""
    mine = _class(state)
    return bool(mine.get("code") and mine.get("following") and not mine.get("token") and not mine.get("gone"))


def poll_step(state: dict) -> None:
    """The first lines of the step view: a following student takes the teacher's step (and vote). The browser
    (``class.js``, told by the class state route or by the poll of :func:`_student_box`) presses the step view's
    hidden button when the teacher moved, so a new step costs a step view's run, as a click on Next does, not the
    whole page's; another corpus or other settings run the whole page (:func:`follow`); an ended class too."""
    mine = _class(state)
    if mine.pop("relayout", False):
        st.rerun(scope="app")  # "Explore on my own" was pressed here: the bar moves above the step view
    if not following(state):
        return
    try:
        shown = live.shared_view(_store(), mine["code"])  # the read the poll that pressed the button made
    except corpus_store.StoreUnavailable:
        shown = False
    if shown is None and class_route.served():  # the route said the class ended (no fragment polls to say so)
        mine.update(gone=True, following=False)
        st.rerun(scope="app")
    shown = shown or None
    if shown is not None and shown.serial != mine.get("serial"):
        if not _same_run(state, shown):
            mine["serial"] = None
            st.rerun(scope="app")
        mine.update(serial=shown.serial, vote=shown.vote, step=shown.step, params=shown.params)
    if shown is not None:
        mine["shown"] = shown  # the bar below the step box draws its vote
    # Every run, not only a new serial's: a following student's own Next comes back to the teacher's step.
    if mine.get("step") is not None:
        st.session_state["step"] = state["step"] = mine["step"]


def _same_run(state: dict, shown: live.View) -> bool:
    """Whether ``shown`` is this page's corpus and settings (then only its step or vote is new)."""
    mine = _class(state)
    return mine.get("expected") == state.get("settings") and _run_params(mine.get("params")) == _run_params(
        shown.params
    )


def _poll(mine: dict) -> live.View | None:
    """The class's view, and this student's heartbeat every ``HEARTBEAT_S``; None if the store is away (the next
    poll tries again). A class that has ended reruns the page, which says so. The read and the heartbeat are
    shared with this server's other pages of the class (``live.shared_view``, ``live.beat``): a class of a hundred
    polls a hundred times a second, and one store read and write serve them all."""
    store = _store()
    try:
        shown = live.shared_view(store, mine["code"])
        if time.monotonic() - mine.get("beat", 0.0) > HEARTBEAT_S and shown is not None:
            live.beat(store, mine["code"], _follower(mine), bool(mine.get("following")))
            mine["beat"] = time.monotonic()
    except corpus_store.StoreUnavailable:
        return None
    if shown is None:
        mine.update(gone=True, following=False)
        st.rerun(scope="app")
    mine["shown"] = shown
    return shown


def _student_box(state: dict, history: bpe.History) -> None:
    """A student's poll: exploring on their own, their bar (the projector counts them); following, nothing to
    see until the teacher moves, then the step view is asked to take the new step (``class.js``), or the whole
    page runs for another corpus or other settings."""
    mine = _class(state)
    if mine.pop("relayout", False):
        st.rerun(scope="app")  # the bar moves: into the step view when following, above it when not
    shown = _poll(mine)
    if shown is None:
        return
    if not following(state):
        _bar(state, history)
    elif shown.serial != mine.get("serial"):
        if not _same_run(state, shown):
            st.rerun(scope="app")  # the page's first lines (follow) open the teacher's link
        # A new block each poll (the count), so the browser runs it again if a press was lost in a run.
        mine["asks"] = mine.get("asks", 0) + 1
        st.html(
            f'<span data-bpe-sync="{shown.serial}.{mine["asks"]}"></span>' + _js(sync=shown.serial),
            unsafe_allow_javascript=True,
        )


def follow_line(state: dict) -> str:
    """A following student's line, "Following the teacher", or "": ``ui/panels.py`` puts it in the step box's block
    (one element fewer on every phone at every step). It carries the serial this step view shows and where the
    browser asks for the class's (``class.js``)."""
    mine = _class(state)
    if not following(state) or mine.get("shown") is None:
        return ""
    poll = f"{class_route.PATH}/{mine['code']}?f={_follower(mine)}" if class_route.served() else ""
    return (
        f'<p class="bpe-class" data-testid="bpe-class-mode" data-bpe-serial="{mine.get("serial")}" '
        f'data-bpe-poll="{esc(poll)}">Following the teacher · class {esc(mine["code"])}</p>'
    )


def student_bar(state: dict, history: bpe.History) -> None:
    """In the step view, right below the step box and its line (:func:`follow_line`): a following student's
    buttons and the vote (a phone shows the step first)."""
    if following(state):
        _bar(state, history)


def _bar(state: dict, history: bpe.History) -> None:
    """A student's buttons (following: its line is :func:`follow_line`; on their own: the line and the button that
    switches) and, while following, the vote."""
    mine = _class(state)
    shown = mine.get("shown")
    if shown is None or not mine.get("code") or mine.get("token"):
        return
    if mine.get("following"):
        # Its line is in the step box's block (follow_line); no row: the second button is hidden.
        st.button("Explore on my own", key="class_own", on_click=_set_following, args=(mine, False))
        st.button("Take the teacher's step", key="class_sync")  # hidden (style.css): pressed by class.js
    else:
        row = st.container(horizontal=True, vertical_alignment="center", key="class_row")
        row.html(
            f'<p class="bpe-class" data-testid="bpe-class-mode">Exploring on your own · class {esc(mine["code"])}</p>'
        )
        row.button("Follow the teacher", key="class_follow", type="primary", on_click=_set_following, args=(mine, True))
        return
    vote = shown.vote
    if vote is None or vote.step != state[keys.STEP] or vote.step >= history.num_merges:
        return
    if vote.revealed:
        upcoming = history.state(vote.step + 1)
        st.html(f'<p class="bpe-class">Step {vote.step + 1} merges <b>{esc(explore.pair_text(upcoming.pair))}</b>.</p>')
        return
    answer = live.voted(_store(), mine["code"], vote.number, session.session_id())
    if answer is not None:
        st.html(
            f'<p class="bpe-class" data-testid="bpe-voted">Your answer: {esc(explore.pair_text(answer))}. '
            "Wait for the teacher to reveal the class's answers.</p>"
        )
        return
    st.html(f'<p class="bpe-class">Which pair will step {vote.step + 1} merge? Tap your answer.</p>')
    choices = st.container(horizontal=True, key="class_choices")
    for i, (pair, _) in enumerate(candidates(history, vote.step)):
        choices.button(
            md(explore.pair_text(pair)),
            key=f"class_vote_{vote.number}_{i}",
            on_click=_cast,
            args=(mine, vote.number, pair),
        )


def _set_following(mine: dict, on: bool) -> None:
    mine["following"] = on
    mine["relayout"] = True  # the bar moves: following, it is below the step box; else above the step view
    mine["beat"] = 0.0  # the projector's count changes at the next poll
    if on:
        mine["serial"] = None  # apply the teacher's current view now


def _cast(mine: dict, number: int, pair: tuple[str, str]) -> None:
    try:
        live.cast(_store(), mine["code"], session.session_id(), pair)
    except corpus_store.StoreUnavailable as exc:
        mine["problem"] = str(exc)
