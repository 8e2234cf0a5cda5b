"""The app with parts of the training page left out, for benchmarks/bench_parts.py.

    BPE_WITHOUT=chart,lower .venv/bin/streamlit run benchmarks/app_without.py

Runs the real ``app.py`` after patching out the parts named in ``BPE_WITHOUT``
(comma-separated), so the benchmark can measure what each part costs per click:

  chart    the Altair pair chart (``vega_lite_chart`` draws nothing)
  table    the pair table beside the chart (an empty block instead)
  lower    the history, sparklines, splits and vocabulary (empty blocks instead)
  slider   the step slider (the step still moves with the buttons)
  sidebar  the corpus and settings sidebar (settings come from the URL, as on a shared link)
  url      writing the view into the URL (``st.query_params``) on every step

With ``BPE_MESSAGE_LOG=<file>`` it also appends one line per message to that file: the
server's clock (ms) when a rerun request arrives from the browser and when each message
to the browser is queued (benchmarks/bench_phases.py reads it). ``BPE_SCRIPT`` runs another
script of the repository instead of ``app.py`` (the bare page, for the same log).

Nothing here is imported by the app itself; it only exists for the measurement.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

REPO_ROOT = Path(__file__).resolve().parent.parent
PARTS = ("chart", "table", "lower", "slider", "sidebar", "url")


def patches(parts) -> list[tuple[object, str, object]]:
    """(owner, attribute, stand-in) for each part named. A test checks every attribute exists and
    every stand-in takes the real one's arguments, so a rename in the app cannot silently turn a
    patch into a no-op (and the benchmark into a lie)."""
    from app_pages import common, panels

    real_slider = DeltaGenerator.slider

    def slider(self, *args, **kwargs):
        if kwargs.get("key") == "step":
            return st.session_state.get("step", 0)
        return real_slider(self, *args, **kwargs)

    table = {
        "chart": [(DeltaGenerator, "vega_lite_chart", lambda self, *args, **kwargs: None)],
        "table": [(panels, "_pair_table_html", lambda history, step: "<div></div>")],
        "lower": [(panels, "_history_html", lambda history, step: ""),
                  (panels, "_splits_html", lambda s, history, query: ""),
                  (panels, "_vocabulary_html", lambda s, settings: "")],
        "slider": [(DeltaGenerator, "slider", slider)],
        "sidebar": [(panels, "corpus_and_settings", lambda state: common.settings_from_url())],
        "url": [(common, "sync_url", lambda settings, step: None)],
    }
    return [patch for part in parts for patch in table[part]]


def message_log_patches(log) -> list[tuple[object, str, object]]:
    """(owner, attribute, stand-in) that write each rerun request and each outgoing message to
    ``log`` (an open text file): ``<ms> recv rerun_script`` / ``<ms> send delta:html``."""
    from streamlit.runtime.runtime import Runtime
    from streamlit.web.server.starlette.starlette_websocket import StarletteSessionClient

    real_send, real_recv = StarletteSessionClient.write_forward_msg, Runtime.handle_backmsg

    def write_forward_msg(self, msg):
        kind = msg.WhichOneof("type")
        if kind == "delta":
            delta = msg.delta
            what = delta.WhichOneof("type")
            kind += ":" + (delta.new_element.WhichOneof("type") if what == "new_element" else what)
        log.write(f"{time.time() * 1000:.2f} send {kind}\n")
        return real_send(self, msg)

    def handle_backmsg(self, session_id, msg, *args, **kwargs):
        log.write(f"{time.time() * 1000:.2f} recv {msg.WhichOneof('type')}\n")
        return real_recv(self, session_id, msg, *args, **kwargs)

    return [(StarletteSessionClient, "write_forward_msg", write_forward_msg),
            (Runtime, "handle_backmsg", handle_backmsg)]


def _replace(owner, name: str, value) -> None:
    if not hasattr(owner, name):
        raise AttributeError(f"{owner!r} has no {name!r} to patch out: update benchmarks/app_without.py")
    setattr(owner, name, value)


def main() -> None:
    if not getattr(st, "_bpe_without_patched", False):  # once per server: modules stay loaded between runs
        wanted = {p.strip() for p in os.environ.get("BPE_WITHOUT", "").split(",") if p.strip()}
        unknown = wanted - set(PARTS)
        if unknown:
            raise ValueError(f"BPE_WITHOUT names unknown parts {sorted(unknown)}; known: {', '.join(PARTS)}")
        sys.path.insert(0, str(REPO_ROOT))
        for owner, name, value in patches(wanted):
            _replace(owner, name, value)
        if os.environ.get("BPE_MESSAGE_LOG"):
            log = open(os.environ["BPE_MESSAGE_LOG"], "a", buffering=1, encoding="utf-8")  # noqa: SIM115
            for owner, name, value in message_log_patches(log):
                _replace(owner, name, value)
        real_page = st.Page
        # app.py names its pages relative to itself; this script lives one folder down.
        st.Page = lambda page, **kwargs: real_page(str(REPO_ROOT / page) if isinstance(page, str) else page, **kwargs)
        st._bpe_without_patched = True
    app = REPO_ROOT / os.environ.get("BPE_SCRIPT", "app.py")
    exec(compile(app.read_text(encoding="utf-8"), str(app), "exec"), {"__name__": "__main__", "__file__": str(app)})


if __name__ == "__main__":  # streamlit run; bench_parts.py only imports PARTS
    main()
