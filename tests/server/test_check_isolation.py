"""A student's hostile run on the Check page: read within bounds (shared references read once, tokens and
nesting bounded, no repr() of a whole value), off the serving process, with a time and a memory limit,
and every failure a sentence. The readers are tried in a subprocess under a memory cap, so a regression
fails the test instead of taking the machine down."""

from __future__ import annotations

import json
import operator
import os
import pickle
import resource
import subprocess
import sys
import time
from collections import OrderedDict

import pytest
from apptest_support import APP, alerts, ok
from streamlit.testing.v1 import AppTest

import bpe.check
from bpe.formats import student_runs
from server import check_jobs

CAP = 1 << 30  # the reader subprocess's address space
READ_LIMIT_S = 60  # the reader subprocess's time (it takes well under a second)


def doubled_levels(levels: int = 60) -> bytes:
    """A pickle of under 1 KB: ``levels`` levels of lists, each holding two references to the next
    (its repr() would be 2**60 lists)."""
    value: list = []
    for _ in range(levels):
        value = [value, value]
    return pickle.dumps(value, protocol=4)


def one_big_bytes_shared() -> bytes:
    """1.6 MB: 200,000 references to one 1 MB bytes object, as 100,000 merges."""
    big = b"x" * 2**20
    return pickle.dumps([(big, big) for _ in range(100_000)], protocol=4)


def one_int_list_shared() -> bytes:
    """218 KB: 3,000 merges sharing one list of 100,000 byte values."""
    shared = [i % 256 for i in range(100_000)]
    return pickle.dumps([(shared, shared) for _ in range(3_000)], protocol=4)


def big_literal() -> str:
    """A pasted Python literal of tuples just under the 2,000,000-character limit."""
    pair = "(b'a', b'b'), "
    return "[" + pair * ((student_runs.MAX_PASTE_CHARS - 2) // len(pair)) + "]"


HOSTILE_PICKLES = {"levels": doubled_levels, "shared-bytes": one_big_bytes_shared, "shared-list": one_int_list_shared}

_READER = """
import json, sys
from bpe.formats.student_runs import read_student_file
try:
    run = read_student_file(open(sys.argv[1], "rb").read(), "The file")
    print(json.dumps({"merges": len(run.merges)}))
except ValueError as exc:
    print(json.dumps({"error": str(exc)}))
"""


def read_capped(path) -> dict:
    """``read_student_file`` on the file at ``path`` in a subprocess capped at CAP bytes and READ_LIMIT_S."""

    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (CAP, CAP))

    try:
        done = subprocess.run(
            [sys.executable, "-c", _READER, str(path)],
            capture_output=True,
            text=True,
            timeout=READ_LIMIT_S,
            preexec_fn=cap,
            cwd=os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"reading the file took over {READ_LIMIT_S} s")
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)


@pytest.mark.timeout(300)
@pytest.mark.parametrize("name", HOSTILE_PICKLES)
def test_a_hostile_pickle_is_refused_with_a_short_sentence_within_a_memory_cap(tmp_path, name):
    path = tmp_path / "run.pkl"
    path.write_bytes(HOSTILE_PICKLES[name]())
    outcome = read_capped(path)
    assert "error" in outcome, outcome
    assert len(outcome["error"]) < 600 and "Traceback" not in outcome["error"]


def test_floats_none_and_booleans_in_a_pickle_are_read_and_classes_still_refused():
    data = pickle.dumps({"vocab": None, "merges": [(b"s", b"t")], "loss": 1.5, "done": True})
    assert student_runs.read_student_file(data).merges == ((b"s", b"t"),)
    with pytest.raises(ValueError, match="names 'collections.OrderedDict'"):
        student_runs.read_student_file(pickle.dumps(OrderedDict(merges=[(b"s", b"t")])))


def test_a_token_list_shared_by_many_merges_is_read_once():
    shared = [115, 116]
    run = student_runs.read_student_file(pickle.dumps([(shared, shared)] * 3 + [(shared, [101])]))
    assert run.merges == ((b"st", b"st"),) * 3 + ((b"st", b"e"),)
    assert run.merges[0][0] is run.merges[2][1]  # one bytes object for the one list


@pytest.fixture
def nothing_in_process(monkeypatch):
    """Make reading or comparing in this (the serving) process fail the test."""
    called = []

    def refuse(name):
        def fail(*args, **kwargs):
            called.append(name)
            raise AssertionError(f"{name} ran in the serving process")

        return fail

    for module, name in [
        (check_jobs, "read_student_file"),
        (check_jobs, "read_student_text"),
        (check_jobs, "combine"),
        (student_runs, "read_student_file"),
        (student_runs, "read_student_text"),
        (bpe.check, "compare"),
        (bpe.check, "best_settings"),
    ]:
        monkeypatch.setattr(module, name, refuse(f"{module.__name__}.{name}"))
    return called


@pytest.mark.timeout(300)
@pytest.mark.parametrize("name", HOSTILE_PICKLES)
def test_the_check_reads_a_hostile_pickle_in_another_process_and_says_why_in_a_sentence(nothing_in_process, name):
    with pytest.raises(ValueError) as caught:
        check_jobs.read_run([("run.pkl", HOSTILE_PICKLES[name]())], "", 2_000)
    message = str(caught.value)
    assert message.startswith("The file") and len(message) < 600
    assert "Traceback" not in message and ".py" not in message
    assert nothing_in_process == []


def test_running_out_of_memory_or_time_is_a_sentence():
    with pytest.raises(ValueError, match=r"needed more than the 256 MB of memory one check may use"):
        check_jobs.run_isolated(bytearray, 1 << 30, memory=256 << 20)
    with pytest.raises(ValueError, match=r"took longer than its 1 s limit"):
        check_jobs.run_isolated(time.sleep, 60, seconds=1)
    with pytest.raises(ValueError, match=r"failed unexpectedly \(ZeroDivisionError\); please report it"):
        check_jobs.run_isolated(operator.truediv, 1, 0)
    assert check_jobs.run_isolated(os.getpid) != os.getpid()


@pytest.mark.timeout(300)
def test_a_2_mb_pasted_literal_is_read_and_compared_off_the_serving_process(nothing_in_process):
    at = AppTest.from_file(APP, default_timeout=240)
    at.run()
    at.switch_page("pages/check.py").run()
    at.text_area(key="chk_paste").set_value(big_literal()).run()
    ok(at)
    errors = alerts(at, "error")
    assert any("the check reads the first 2,000" in e for e in errors), errors  # read: 166,000 merges
    assert any("the runs part at step 1" in h.value.lower() for h in at.header)  # compared: our first merge differs
    assert nothing_in_process == []


@pytest.mark.timeout(300)
def test_a_hostile_upload_on_the_page_gives_a_sentence_and_no_traceback(nothing_in_process):
    at = AppTest.from_file(APP, default_timeout=240)
    at.run()
    at.switch_page("pages/check.py").run()
    at.file_uploader(key="chk_files").set_value([("run.pkl", doubled_levels(), "application/octet-stream")]).run()
    ok(at)
    errors = alerts(at, "error")
    assert len(errors) == 1 and "The file 'run.pkl'" in errors[0], errors
    assert "Traceback" not in errors[0] and ".py" not in errors[0]
    assert nothing_in_process == []


def test_a_long_file_name_is_cut_in_the_sentence():
    with pytest.raises(ValueError) as caught:
        check_jobs.read_run([("x" * 100_000 + ".txt", b"not merges at all")], "", 2_000)
    assert "characters)" in str(caught.value) and len(str(caught.value)) < 1_000
