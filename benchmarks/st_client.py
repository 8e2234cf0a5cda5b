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
  ends a run;
- a page other than the default one is asked for by its URL path (``ClientState.page_name``, e.g.
  ``encode``), as the frontend does on a first load of ``/encode``;
- upload files to an ``st.file_uploader`` (``Session.upload``): ``BackMsg.file_urls_request`` (the file
  names and the session id from ``new_session``) -> ``ForwardMsg.file_urls_response`` (an upload URL per
  file, ``/_stcore/upload_file/<session id>/<file id>``), an HTTP PUT of each file as multipart form data
  with the XSRF cookie that ``/_stcore/health`` hands out echoed in the ``X-Xsrftoken`` header (the
  double-submit check), then a rerun whose widget state is a ``FileUploaderState`` listing the files.
Used by ``bench_classroom.py`` and by ``tests/server/test_st_client.py`` (which checks against a browser).
"""

from __future__ import annotations

import asyncio
import re
import time
import urllib.request
import uuid
from collections import Counter

from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.Common_pb2 import FileUploaderState, FileURLs, UploadedFileInfo
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.WidgetStates_pb2 import WidgetState
from websockets.asyncio.client import connect

STEP = re.compile(r"Step ([\d,]+) of ([\d,]+)")  # thousands separated: "Step 1,234 of 5,000"


class Session:
    """One student: a websocket, the widgets the page drew, the last step shown."""

    def __init__(self, url: str, query: str, page: str = "", source: str | None = None) -> None:
        self.source = source  # the local address to connect from (127.0.0.x: another client to the server)
        self.http_url = url.rstrip("/")
        self.ws_url = url.replace("http://", "ws://").rstrip("/") + "/_stcore/stream"
        self.query = query
        self.page = page  # the URL path of the page ("" the default page, "encode" for /encode)
        self.session_id = ""  # the server's id of this session (new_session), which upload URLs carry
        self.cookies: dict[str, str] = {}
        self.ws = None
        self.widgets: dict[str, tuple[str, str]] = {}  # button key -> (widget id, fragment id)
        self.ids: dict[str, str] = {}  # widget key -> widget id
        self.values: dict[str, object] = {}  # widget id -> value this session set
        self.cache: dict[str, ForwardMsg] = {}
        self.step: int | None = None
        self.last: int | None = None
        self.html: list[str] = []  # HTML blocks of the last run (content checks)
        self.texts: list[str] = []  # Markdown, captions, st.error/st.info bodies, "label: value" of metrics
        self.exceptions: list[str] = []
        self.waiting = False  # the last run showed a run being trained (progress and Stop)
        self.poll_fragment = ""  # the fragment the frontend would rerun on a timer
        self.poll_every = 0.5  # and how often (seconds), as the server asked
        self.bytes_sent = 0  # websocket payload bytes this session sent (BackMsgs), uploads' HTTP bodies not counted
        self.bytes_received = 0  # websocket payload bytes the server sent this session (ForwardMsgs)
        self.received: Counter[str] = Counter()  # the ForwardMsgs received, by kind ("delta", "new_session", ...)
        self.follow_set_value = True  # False: keep sending the text typed, as a page that never empties its box

    async def open(self, timeout: float = 120) -> None:
        self.ws = await connect(
            self.ws_url,
            subprotocols=["streamlit"],
            max_size=None,
            open_timeout=30,
            ping_interval=None,
            **({"local_addr": (self.source, 0)} if self.source else {}),
        )
        # Cookies set on the handshake (HAProxy's stickiness cookie): an upload must reach this replica.
        for header in self.ws.response.headers.get_all("Set-Cookie"):
            name, _, value = header.split(";", 1)[0].partition("=")
            self.cookies[name.strip()] = value
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
        cs.page_name = self.page
        if widget is not None:
            cs.widget_states.widgets.append(WidgetState(id=widget, trigger_value=True))
        cs.fragment_id = fragment
        cs.is_auto_rerun = auto
        # Like the frontend, every rerun carries every value this session set (a rerun without them would
        # give those widgets back the values the script seeds).
        self.values.update(widget_values)
        for wid, value in self.values.items():
            state = WidgetState(id=wid)
            if isinstance(value, FileUploaderState):
                state.file_uploader_state_value.CopyFrom(value)
            elif isinstance(value, str):
                state.string_value = value
            elif isinstance(value, float):  # st.number_input
                state.double_value = value
            else:
                state.int_value = value
            cs.widget_states.widgets.append(state)
        data = msg.SerializeToString()
        self.bytes_sent += len(data)
        await self.ws.send(data)

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
            self.html, self.texts = [], []
            self.waiting = False
        while True:
            msg = await self._read(timeout)
            kind = msg.WhichOneof("type")
            if kind == "new_session":
                self.session_id = msg.new_session.initialize.session_id or self.session_id
            elif kind == "page_info_changed":
                self.query = msg.page_info_changed.query_string
            elif kind == "auto_rerun":  # an st.fragment(run_every=...): the page's poll while a run trains
                self.poll_fragment = msg.auto_rerun.fragment_id
                self.poll_every = msg.auto_rerun.interval
            elif kind == "delta":
                self._delta(msg.delta)
                if want_step is not None and seen_at is None and self.step == want_step:
                    seen_at = time.perf_counter() - started
            elif kind == "script_finished" and msg.script_finished == ForwardMsg.FINISHED_EARLY_FOR_RERUN:
                self.html, self.texts, self.waiting = [], [], False  # a new run follows and draws the page again
            elif kind == "script_finished" and msg.script_finished in (
                ForwardMsg.FINISHED_SUCCESSFULLY,
                ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY,
            ):
                return seen_at if seen_at is not None else time.perf_counter() - started

    async def _read(self, timeout: float) -> ForwardMsg:
        """The next ForwardMsg; one sent before by reference (``ref_hash``) is taken from the cache."""
        msg = ForwardMsg()
        data = await asyncio.wait_for(self.ws.recv(), timeout)
        self.bytes_received += len(data)
        msg.ParseFromString(data)
        if msg.ref_hash:
            msg = self.cache[msg.ref_hash]
        elif msg.hash:
            self.cache[msg.hash] = msg
        self.received[msg.WhichOneof("type") or ""] += 1
        return msg

    def _delta(self, delta) -> None:
        if delta.WhichOneof("type") != "new_element":
            return
        el = delta.new_element
        kind = el.WhichOneof("type")
        wid = getattr(getattr(el, kind), "id", "") if kind else ""
        if wid:
            self.ids[wid.rsplit("-", 1)[-1]] = wid  # input widgets (radio, text area), by their key
            widget = getattr(el, kind)
            if (
                kind in ("text_area", "text_input")
                and widget.set_value
                and wid in self.values
                and self.follow_set_value
            ):
                # the script set this box (ui/corpus_box.py empties the corpus box once it has stored
                # the text): the frontend takes the new value and sends it from then on, as here
                self.values[wid] = widget.value
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
                self.step = int(m.group(1).replace(",", ""))
                self.last = int(m.group(2).replace(",", ""))
        elif kind in ("markdown", "alert"):  # st.caption and st.markdown; st.error, st.info
            self.texts.append(getattr(el, kind).body)
        elif kind == "metric":
            self.texts.append(f"{el.metric.label}: {el.metric.body}")
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

    async def upload(self, key: str, files: list[tuple[str, bytes]], timeout: float = 300) -> float:
        """Put ``files`` (name, bytes) in the file uploader with this key, as the browser does (file URLs,
        one HTTP PUT per file, then a rerun listing them: the uploader's list is replaced by ``files``);
        seconds from the request for URLs to the end of the page's run."""
        started = time.perf_counter()
        request_id = str(uuid.uuid4())
        msg = BackMsg()
        msg.file_urls_request.request_id = request_id
        msg.file_urls_request.session_id = self.session_id
        msg.file_urls_request.file_names.extend(name for name, _ in files)
        await self.ws.send(msg.SerializeToString())
        while True:  # nothing else runs meanwhile: the page is idle between this client's reruns
            reply = await self._read(timeout)
            if reply.WhichOneof("type") == "file_urls_response" and reply.file_urls_response.response_id == request_id:
                break
        response = reply.file_urls_response
        if response.error_msg:
            raise RuntimeError(f"file URLs refused: {response.error_msg}")
        xsrf = await asyncio.to_thread(self._xsrf_cookie)
        state = FileUploaderState()
        for (name, data), urls in zip(files, response.file_urls):
            # The PUT runs in a thread: the other sessions this client drives keep their event loop.
            await asyncio.to_thread(self._put, urls.upload_url, name, data, xsrf, timeout)
            state.uploaded_file_info.append(
                UploadedFileInfo(
                    name=name,
                    size=len(data),
                    file_id=urls.file_id,
                    file_urls=FileURLs(file_id=urls.file_id, upload_url=urls.upload_url, delete_url=urls.delete_url),
                )
            )
        await self._rerun(timeout=timeout, **{self.ids[key]: state})
        return time.perf_counter() - started

    def _xsrf_cookie(self) -> str:
        """The XSRF cookie the server sets on its health answer (the frontend reads it from there too);
        "" when the server has XSRF protection off."""
        request = urllib.request.Request(self.http_url + "/_stcore/health")
        if self.cookies:
            request.add_header("Cookie", "; ".join(f"{k}={v}" for k, v in self.cookies.items()))
        with urllib.request.urlopen(request, timeout=30) as r:
            headers = r.headers.get_all("Set-Cookie") or ()
        found = (re.match(r"_streamlit_xsrf=([^;]+)", h) for h in headers)
        return next((m.group(1) for m in found if m), "")

    def _put(self, upload_url: str, name: str, data: bytes, xsrf: str, timeout: float) -> None:
        boundary = uuid.uuid4().hex
        body = b"".join(
            (
                f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="{name}"\r\n'.encode(),
                b"Content-Type: application/octet-stream\r\n\r\n",
                data,
                f"\r\n--{boundary}--\r\n".encode(),
            )
        )
        headers = {"Content-Type": f"multipart/form-data; boundary={boundary}"}
        cookies = dict(self.cookies)
        if xsrf:
            headers["X-Xsrftoken"] = cookies["_streamlit_xsrf"] = xsrf
        if cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in cookies.items())
        url = upload_url if upload_url.startswith("http") else self.http_url + upload_url
        request = urllib.request.Request(url, data=body, method="PUT", headers=headers)
        with urllib.request.urlopen(request, timeout=timeout) as r:
            if r.status not in (200, 204):
                raise RuntimeError(f"upload of {name}: HTTP {r.status}")
