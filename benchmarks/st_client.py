"""A Streamlit session without a browser: speaks the app's own websocket protocol (``/_stcore/stream``,
``BackMsg`` up, ``ForwardMsg`` down, from ``streamlit.proto``), as the frontend does.

What the frontend does and this client copies (read from Streamlit 1.67's server and protos):
- connect with the subprotocol ``streamlit`` (the frontend also passes its XSRF token and, on a
  reconnect, its old session id as further subprotocol entries; a client without an Origin header
  needs neither);
- send ``BackMsg.rerun_script`` with a ``ClientState``: the page's query string, and for a click the
  button's ``WidgetState(id=..., trigger_value=True)`` plus, when the button sits in an ``st.fragment``,
  that fragment's id (taken from the delta that drew the button), so only the fragment reruns;
- read ``ForwardMsg``s: deltas draw elements (a button's proto carries its widget id), a message sent
  before may come back as ``ref_hash`` only (the client keeps them by ``hash``), ``script_finished``
  ends a run.
Used by ``bench_classroom.py`` and by ``tests/test_st_client.py`` (which checks against a browser).
"""

from __future__ import annotations

import asyncio
import re
import time

from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.WidgetStates_pb2 import WidgetState
from websockets.asyncio.client import connect

STEP = re.compile(r"Step (\d+) of ([\d,]+)")


class Session:
    """One student: a websocket, the widgets the page drew, the last step shown."""

    def __init__(self, url: str, query: str) -> None:
        self.ws_url = url.replace("http://", "ws://").rstrip("/") + "/_stcore/stream"
        self.query = query
        self.ws = None
        self.widgets: dict[str, tuple[str, str]] = {}  # button key -> (widget id, fragment id)
        self.ids: dict[str, str] = {}  # widget key -> widget id
        self.values: dict[str, object] = {}  # widget id -> value this session set
        self.cache: dict[str, ForwardMsg] = {}
        self.step: int | None = None
        self.last: int | None = None
        self.html: list[str] = []  # HTML blocks of the last run (content checks)
        self.exceptions: list[str] = []
        self.waiting = False  # the last run showed a run being trained (progress and Stop)
        self.poll_fragment = ""  # the fragment the frontend would rerun on a timer
        self.poll_every = 0.5  # and how often (seconds), as the server asked

    async def open(self, timeout: float = 120) -> None:
        self.ws = await connect(
            self.ws_url, subprotocols=["streamlit"], max_size=None, open_timeout=30, ping_interval=None
        )
        await self.settle(timeout)

    async def settle(self, timeout: float = 120) -> None:
        """While the page shows a run being trained (its Stop button), rerun as often as the page's
        polling fragment asks (as the browser does), until the step view is drawn."""
        await self._rerun(timeout=timeout)
        deadline = time.monotonic() + timeout
        while self.waiting and time.monotonic() < deadline:
            await asyncio.sleep(self.poll_every)
            # As the frontend does: an automatic rerun of the polling fragment only; when the run is
            # ready, that fragment asks for a full rerun, which arrives on the same stream.
            await self._rerun(fragment=self.poll_fragment, auto=True, timeout=timeout)

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()

    async def _send(self, widget: str | None = None, fragment: str = "", auto: bool = False, **widget_values) -> None:
        msg = BackMsg()
        cs = msg.rerun_script
        cs.query_string = self.query
        cs.page_script_hash = ""
        if widget is not None:
            cs.widget_states.widgets.append(WidgetState(id=widget, trigger_value=True))
        cs.fragment_id = fragment
        cs.is_auto_rerun = auto
        # Like the frontend, every rerun carries every value this session set (a rerun without them would
        # give those widgets back the values the script seeds).
        self.values.update(widget_values)
        for wid, value in self.values.items():
            state = WidgetState(id=wid)
            if isinstance(value, str):
                state.string_value = value
            elif isinstance(value, float):  # st.number_input
                state.double_value = value
            else:
                state.int_value = value
            cs.widget_states.widgets.append(state)
        await self.ws.send(msg.SerializeToString())

    async def _rerun(
        self,
        widget: str | None = None,
        fragment: str = "",
        want_step: int | None = None,
        timeout: float = 60,
        auto: bool = False,
        **widget_values,
    ) -> float:
        """Send a rerun (optionally a click) and read until the run finishes; seconds until the step
        shown first equalled ``want_step`` (or until the run finished)."""
        started = time.perf_counter()
        await self._send(widget, fragment, auto, **widget_values)
        seen_at = None
        if not auto:  # a poll only redraws the progress: keep what the page showed
            self.html = []
            self.waiting = False
        while True:
            raw = await asyncio.wait_for(self.ws.recv(), timeout)
            msg = ForwardMsg()
            msg.ParseFromString(raw)
            if msg.ref_hash:
                msg = self.cache[msg.ref_hash]
            elif msg.hash:
                self.cache[msg.hash] = msg
            kind = msg.WhichOneof("type")
            if kind == "page_info_changed":
                self.query = msg.page_info_changed.query_string
            elif kind == "auto_rerun":  # an st.fragment(run_every=...): the page's poll while a run trains
                self.poll_fragment = msg.auto_rerun.fragment_id
                self.poll_every = msg.auto_rerun.interval
            elif kind == "delta":
                self._delta(msg.delta)
                if want_step is not None and seen_at is None and self.step == want_step:
                    seen_at = time.perf_counter() - started
            elif kind == "script_finished" and msg.script_finished == ForwardMsg.FINISHED_EARLY_FOR_RERUN:
                self.html, self.waiting = [], False  # a new run follows and draws the page again
            elif kind == "script_finished" and msg.script_finished in (
                ForwardMsg.FINISHED_SUCCESSFULLY,
                ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY,
            ):
                return seen_at if seen_at is not None else time.perf_counter() - started

    def _delta(self, delta) -> None:
        if delta.WhichOneof("type") != "new_element":
            return
        el = delta.new_element
        kind = el.WhichOneof("type")
        wid = getattr(getattr(el, kind), "id", "") if kind else ""
        if wid:
            self.ids[wid.rsplit("-", 1)[-1]] = wid  # input widgets (radio, text area), by their key
        if kind == "button":
            wid = el.button.id
            self.waiting = self.waiting or wid.endswith("-stop_training")
            self.widgets[wid.rsplit("-", 1)[-1]] = (wid, delta.fragment_id)
            if el.button.disabled and wid.endswith("-next"):
                self.last = self.step
        elif kind == "html":
            self.html.append(el.html.body)
            m = STEP.search(el.html.body)
            if m:
                self.step = int(m.group(1))
                self.last = int(m.group(2).replace(",", ""))
        elif kind == "exception":
            self.exceptions.append(el.exception.message)

    async def click(self, key: str, timeout: float = 120) -> float:
        """Press the button with this key (``next``, ``back``, ...); seconds to the updated step."""
        wid, fragment = self.widgets[key]
        want = None
        if self.step is not None:
            want = self.step + 1 if key == "next" else self.step - 1 if key == "back" else None
        return await self._rerun(wid, fragment, want_step=want, timeout=timeout)

    async def set_widget(self, key: str, value, timeout: float = 300) -> float:
        """Set a keyed input widget (a radio's index, a text box's text) and rerun the whole page."""
        return await self._rerun(timeout=timeout, **{self.ids[key]: value})
