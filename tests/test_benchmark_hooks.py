"""benchmarks/app_without.py patches parts of the app (and Streamlit's message sending) by name; check the names still exist.

If a panel function were renamed, the benchmark's patch would fail at run time (``_replace``
raises), but only when someone runs the benchmark; this test says so on every test run.
"""

from __future__ import annotations

import inspect
import io
import sys
from pathlib import Path
from unittest import mock

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import app_without  # noqa: E402


def patch_lists():
    yield from ((part, app_without.patches([part])) for part in app_without.PARTS)
    yield "message log", app_without.message_log_patches(io.StringIO())


@pytest.mark.parametrize(("part", "found"), list(patch_lists()), ids=lambda x: x if isinstance(x, str) else "")
def test_patches_replace_what_exists_with_the_same_arguments(part, found):
    assert found, part
    for owner, name, stand_in in found:
        assert hasattr(owner, name), f"{part}: {owner!r} has no {name}"
        params = inspect.signature(stand_in).parameters.values()
        if any(p.kind is p.VAR_POSITIONAL for p in params):
            continue  # takes anything (Streamlit's own methods)
        real = inspect.unwrap(getattr(owner, name))
        assert len(inspect.signature(real).parameters) == len(params), f"{part}: {name}"


def test_message_log_names_each_message():
    """The log's stand-ins write one line per message and still call Streamlit's own method."""
    from streamlit.proto.BackMsg_pb2 import BackMsg
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
    from streamlit.runtime.runtime import Runtime
    from streamlit.web.server.starlette.starlette_websocket import StarletteSessionClient

    msg, back = ForwardMsg(), BackMsg()
    msg.delta.new_element.html.body = "<p>x</p>"
    back.rerun_script.query_string = "step=1"
    log, sent, received = io.StringIO(), [], []
    with mock.patch.object(StarletteSessionClient, "write_forward_msg", lambda self, m: sent.append(m)), \
            mock.patch.object(Runtime, "handle_backmsg", lambda self, sid, m, **kw: received.append(m)):
        (_, _, send), (_, _, recv) = app_without.message_log_patches(log)
        send(object(), msg)
        recv(object(), "session", back)
    lines = log.getvalue().splitlines()
    assert [line.split(" ", 1)[1] for line in lines] == ["send delta:html", "recv rerun_script"]
    assert float(lines[0].split()[0]) > 0 and sent == [msg] and received == [back]


def test_replace_refuses_a_missing_name():
    with pytest.raises(AttributeError, match="no 'gone'"):
        app_without._replace(object(), "gone", None)


def test_phases_split_a_click_by_the_server_log():
    import bench_phases

    log = [(990.0, "recv", "rerun_script"),  # an earlier click's rerun: ignored
           (1003.0, "recv", "rerun_script"), (1010.0, "send", "new_session"),
           (1011.0, "send", "delta:button"), (1012.0, "send", "delta:html"), (1030.0, "send", "script_finished")]
    phases = bench_phases.phases_of(log, clicked_at=1000.0, done=80.0)
    assert phases == {"request": 3.0, "start": 7.0, "run": 20.0, "browser": 50.0, "done": 80.0, "deltas": 2}


def test_render_counts_are_summed_per_click_by_region_and_element():
    import bench_renders

    commits = [{"sidebar|stSelectbox": 30, "main|next stButton": 10}, {"main|next stButton": 10, "main|(layout)": 6}]
    got = bench_renders.summarize(commits, clicks=2)
    assert got["commits"] == 1 and got["renders"] == 28 and got["per_commit"] == 28
    assert got["regions"] == {"sidebar": 15, "main": 13}
    assert got["elements"] == [("sidebar: stSelectbox", 15), ("main: next stButton", 10), ("main: (layout)", 3)]
    with pytest.raises(ValueError):
        bench_renders.summarize(commits, clicks=0)

