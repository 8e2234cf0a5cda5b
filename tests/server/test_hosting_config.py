"""The hosting defaults in .streamlit/config.toml: upload limits, no usage
statistics, a viewer's toolbar (no Deploy button), no traceback in the browser, no reload on save, no full garbage collection
after every click."""

from __future__ import annotations

import tomllib

import pytest
from browser_support import REPO_ROOT, on_new_server, wait_for_app
from st_client import Session

from bpe import hub
from server import heap, limits

CONFIG = tomllib.loads((REPO_ROOT / ".streamlit" / "config.toml").read_text())


def test_config_matches_the_stated_limits():
    # The server's upload limit lets every uploader's own limit through; the corpus uploader lets files past
    # the corpus limit reach the page, which refuses them with a sentence (Streamlit's refusal is a tooltip).
    assert CONFIG["server"]["maxUploadSize"] >= limits.UPLOAD_WIDGET_MB > limits.MAX_CORPUS_BYTES // 1_000_000
    assert CONFIG["server"]["maxUploadSize"] * 1_000_000 >= hub.MAX_BYTES
    assert CONFIG["server"]["maxWidgetStateSize"] * 1_000_000 > limits.MAX_CORPUS_BYTES  # a paste of the limit
    assert _uploader_limits() == {
        "corpus_file": limits.UPLOAD_WIDGET_MB,
        "encode_files": hub.MAX_BYTES // 1_000_000,
    }
    assert CONFIG["server"]["runOnSave"] is False
    # closed tabs' sessions end, and what they held is given back (server/heap.py sweeps every REAP_S), within the
    # two minutes the greedy neighbour's memory goal allows, with time to spare for the collection after
    assert CONFIG["server"]["disconnectedSessionTTL"] + heap.REAP_S <= 90
    assert CONFIG["browser"]["gatherUsageStats"] is False
    assert CONFIG["client"]["toolbarMode"] == "viewer"
    # an error no page caught shows its type, never a traceback naming the server's files
    assert CONFIG["client"]["showErrorDetails"] == "type"


@pytest.mark.browser
def test_no_deploy_button_in_the_browser(app_server, page):
    page.goto(app_server)
    wait_for_app(page)
    page.locator('[data-testid="stToolbar"]').wait_for(state="attached", timeout=30_000)
    assert page.locator('[data-testid="stAppDeployButton"]').count() == 0
    assert page.get_by_text("Deploy", exact=True).count() == 0


def _uploader_limits() -> dict[str, int]:
    """Each file uploader's size limit in MB, as the pages send it to the browser."""
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(REPO_ROOT / "app.py"), default_timeout=60).run()
    at.radio(key="source").set_value("text").run()
    limits = {}
    for key, switch in (("corpus_file", None), ("encode_files", "Uploaded file")):
        if switch:
            at.switch_page("pages/encode.py").run()
            at.radio(key="encode_source").set_value(switch).run()
        (uploader,) = [e for e in at.get("file_uploader") if key in e.proto.id]
        limits[key] = uploader.proto.max_upload_size_mb
    return limits


GC_COUNTING_APP = """
import gc
import streamlit as st

if "full" not in st.session_state:
    st.session_state.full = full = [0]
    gc.callbacks.append(lambda phase, info: full.__setitem__(0, full[0] + (phase == "stop" and info["generation"] == 2)))


@st.fragment
def step():
    st.button("Next", key="next")
    st.html(f"<p>Step 1 of 2; full collections: {st.session_state.full[0]}</p>")


step()
"""


def test_a_click_does_not_run_a_full_garbage_collection(tmp_path):
    """With thirty sessions stepping, Streamlit's collection after every run (a click's fragment run
    included) took a third of the server's CPU: the repository's config turns it off. Served from the
    repository (so its .streamlit/config.toml applies), five clicks run no full collection."""
    script = tmp_path / "gc_app.py"
    script.write_text(GC_COUNTING_APP)

    async def clicks(url: str) -> str:
        session = Session(url, "")
        try:
            await session.open()
            for _ in range(5):
                await session.click("next")
            return session.html[-1]
        finally:
            await session.close()

    shown, _ = on_new_server(clicks, script=str(script))
    assert "full collections: 0<" in shown


STARTS_COUNTING_APP = """
import streamlit as st

starts = st.session_state.setdefault("starts", [0])
starts[0] += 1  # every run that begins, however soon a newer rerun cuts it short
st.button("Go", key="go")
st.html(f"<p>script starts: {starts[0]}</p>")
"""


def test_a_rerun_storm_from_one_session_is_coalesced_into_a_few_runs(tmp_path):
    """One session sent 5,000 reruns at once: with Streamlit's fast reruns each started a script thread of
    its own (another session's click waited 12-16 s behind them). Served from the repository (its
    .streamlit/config.toml applies), 1,000 reruns sent at once start far fewer runs."""
    script = tmp_path / "starts_app.py"
    script.write_text(STARTS_COUNTING_APP)
    storm = 1_000

    def starts(session: Session) -> int:
        return int(next(h for h in session.html if "script starts: " in h).split(": ")[1].split("<")[0])

    async def reruns(url: str) -> int:
        session = Session(url, "")
        try:
            await session.open()
            for _ in range(storm):
                await session._send()
            await session._rerun()  # reads on to the first run that finishes
            seen = [starts(session)]
            while len(seen) < 2 or seen[-1] != seen[-2] + 1:  # until one rerun is one start: the storm is over
                await session._rerun()
                seen.append(starts(session))
            return seen[-1] - len(seen) + 1
        finally:
            await session.close()

    started, _ = on_new_server(reruns, script=str(script))
    assert started < storm // 10, f"{started} script runs started for {storm} reruns"
