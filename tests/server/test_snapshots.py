"""The copy of a run's merges so far (server/snapshots.py) under what a classroom server meets: a newer copy
written while an older one is read, copies left in the temporary directory by a server that died, and a
copy that cannot be made. Each test writes only under tmp_path (the temporary directory is pointed there)."""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
import tempfile

import pytest

from server import jobs, slots, snapshots


@pytest.fixture
def tmpdir_here(tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    return tmp_path


def _dump(value, to: str) -> None:
    with open(to, "wb") as f:
        pickle.dump(value, f)


def test_a_newer_copy_written_while_the_older_is_read_is_not_deleted(tmpdir_here, monkeypatch):
    """Session B stops (copy 1 is written), then session C stops while the server still reads copy 1: the
    worker writes copy 2 to the same path (written aside and renamed over it). Reading copy 1 then removed
    the path, and with it copy 2, unread: C was told Stop kept nothing."""
    at = snapshots.path(12345, 7)
    _dump(("copy 1", 1), at)
    real_load = pickle.load

    def load_while_the_worker_writes_again(f):
        value = real_load(f)
        _dump(("copy 2", 2), at + ".part")
        os.replace(at + ".part", at)  # as snapshots.write renames its finished file
        return value

    monkeypatch.setattr(pickle, "load", load_while_the_worker_writes_again)
    assert snapshots.read(at) == ("copy 1", 1)
    monkeypatch.setattr(pickle, "load", real_load)
    assert snapshots.read(at) == ("copy 2", 2)  # still there for the next reader
    assert snapshots.read(at) is None
    assert list(tmpdir_here.iterdir()) == []  # nothing left behind


def test_a_copy_that_cannot_be_read_is_not_left_behind(tmpdir_here):
    at = snapshots.path(12345, 3)
    with open(at, "wb") as f:
        f.write(b"not a pickle")
    with pytest.raises(pickle.UnpicklingError):
        snapshots.read(at)
    assert list(tmpdir_here.iterdir()) == []


def _dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_a_new_pool_removes_the_copies_a_dead_server_left(tmpdir_here):
    """A server killed (or restarted) while a copy waited to be read, or while a worker was writing one (workers
    die with their server, mid-write), left the file in the temporary directory for good: nothing else ever
    removed a file named after another server's pid. A new pool removes those, and a copy left under its own
    pid (after a restart in a container the new server often gets the old one's pid); a live server's are kept."""
    dead = _dead_pid()
    live = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        stale = [
            snapshots.path(dead, 4),
            snapshots.path(dead, 5) + ".999.part",
            snapshots.path(os.getpid(), 0),
        ]
        kept = [snapshots.path(live.pid, 4), str(tmpdir_here / "someone-else.pickle")]
        for name in stale + kept:
            _dump(("x", 1), name)
        pool = jobs._Pool()
        try:
            assert sorted(str(p) for p in tmpdir_here.iterdir()) == sorted(kept)
        finally:
            for executor in pool.lanes.values():
                executor.shutdown(wait=True, cancel_futures=True)
    finally:
        live.kill()
        live.wait()


def test_a_copy_that_cannot_be_made_does_not_end_the_run_the_others_wait_for(monkeypatch):
    """Making the copy can fail otherwise than on a full disk (no memory for a second copy of a large run):
    only OSError was caught, and the run ended for every session with "Training failed on the server"."""
    calls = []

    def no_memory(history, step, to):
        calls.append(step)
        raise MemoryError

    slot, progress = 1, [0] * (slots.FIELDS * 2)
    slots.Slot(progress, slot).copy_asked = True  # a session stopped while another waits: a copy asked for
    monkeypatch.setattr(jobs, "_progress", progress)
    monkeypatch.setattr(snapshots, "write", no_memory)
    text = " ".join(f"w{i % 97}x{i % 13}y{i % 7}z" for i in range(3000))
    spec = dict(source="text", preset="", text=text, counts="")
    history, nbytes = jobs.train_job(slot, spec, {"pre_tokenizer": "whitespace", "num_merges": 120})
    assert calls == [jobs.PROGRESS_EVERY]  # asked once, failed once
    assert progress[slots.FIELDS * slot + 2] == 0  # the flag cleared: the server sees there is no copy
    assert history.num_merges == 120 and history.stop_reason != "stopped" and nbytes > 0
