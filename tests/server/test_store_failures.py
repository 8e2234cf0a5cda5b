"""The embedded corpus store never kills the server and recovers without a restart.

Each failure a store meets: a truncated ``-shm`` file or a data folder made immutable while the server ran (SIGBUS from
WAL's memory-mapped file: the test runs that store in a child process, so a crash is the child's return
code, not the test machine's); a store read-only at start-up (reading wrote the last-used time); a damaged
file (never rebuilt); a data folder that cannot be made (a PermissionError traceback on the page).
A folder is made read-only with ``chattr +i`` when the tests run as root (root ignores permissions),
else with ``chmod``.
"""

from __future__ import annotations

import contextlib
import os
import resource
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from apptest_support import alerts, ok, settle, start

from server import corpus_store
from server.corpus_form import digest
from server.corpus_store import StoreUnavailable
from server.sqlite_store import SqliteStore

pytestmark = pytest.mark.timeout(120)
REPO = Path(__file__).resolve().parents[2]
TEXT = "hug pug pun bun hugs " * 400


@contextlib.contextmanager
def read_only(*paths: Path):
    """The paths cannot be written (nor a folder's files added, renamed or removed) inside the block."""
    as_root = os.geteuid() == 0
    modes = {p: p.stat().st_mode for p in paths}
    for p in paths:
        if as_root:
            subprocess.run(["chattr", "+i", str(p)], check=True)
        else:
            p.chmod(0o555 if p.is_dir() else 0o444)
    try:
        yield
    finally:
        for p in paths:
            if as_root:
                subprocess.run(["chattr", "-i", str(p)], check=True)
            else:
                p.chmod(modes[p])


def _limits() -> None:  # the child may not take the test machine down with it
    resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))


CHILD = textwrap.dedent(
    """
    import sys
    from server.corpus_store import StoreUnavailable
    from server.sqlite_store import SqliteStore
    store = SqliteStore(sys.argv[1])
    key = store.put("text", "hug pug pun bun " * 1000)
    print("stored", flush=True)
    sys.stdin.readline()  # the test breaks the folder meanwhile
    print("read back:", store.get(key) is not None, flush=True)
    try:
        store.put("text", "another corpus " * 1000)
    except StoreUnavailable as exc:
        print("refused:", exc, flush=True)
    """
)


def test_a_truncated_shm_file_and_an_immutable_folder_do_not_kill_the_server(tmp_path):
    folder = tmp_path / "data"
    folder.mkdir()
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(folder / "corpora.sqlite3")],
        cwd=REPO,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        preexec_fn=_limits,
    )
    try:
        assert child.stdout.readline().strip() == "stored"
        for shm in folder.glob("*-shm"):  # the old store's memory-mapped WAL index
            shm.write_bytes(b"")
        with read_only(folder):
            out, _ = child.communicate("go\n", timeout=60)
    finally:
        if child.poll() is None:
            child.kill()
    assert child.returncode == 0, f"the store's process died (return code {child.returncode}): {out}"
    assert "read back: True" in out
    assert "refused: The corpus store cannot be written" in out


def test_a_store_read_only_at_start_reads_and_writes_again_once_writable(tmp_path):
    path = tmp_path / "data" / "corpora.sqlite3"
    key = SqliteStore(path).put("text", TEXT)
    with read_only(path.parent, path):
        store = SqliteStore(path)
        assert store.get(key) == ("text", TEXT)  # reading no longer needs a write
        assert store.has(key)
        with pytest.raises(StoreUnavailable, match="cannot be written"):
            store.put("text", "a new corpus " * 100)
    # Writable again: the same store (no restart) takes a new corpus and notes that the old one was opened.
    new = store.put("text", "a new corpus " * 100)
    assert store.get(new) == ("text", "a new corpus " * 100)
    assert SqliteStore(path).get(key) == ("text", TEXT)  # a reader that found it writable notes the opening
    with contextlib.closing(sqlite3.connect(path)) as db:
        assert db.execute("SELECT opened FROM corpora WHERE digest = ?", (key,)).fetchone()[0] > 0


def test_a_damaged_file_is_moved_aside_and_a_new_one_made(tmp_path):
    path = tmp_path / "corpora.sqlite3"
    path.write_bytes(b"this is not a database, whatever its name says\n" * 200)
    store = SqliteStore(path)
    assert store.get(digest("text", TEXT)) is None  # not a traceback, not "file is not a database"
    key = store.put("text", TEXT)
    assert store.get(key) == ("text", TEXT)
    aside = list(tmp_path.glob("corpora.sqlite3.damaged-*"))
    assert len(aside) == 1 and aside[0].read_bytes().startswith(b"this is not a database")
    # Damaged while open: the next access moves it aside too.
    with open(path, "r+b") as f:
        f.write(b"\x00" * 4096)
    assert store.get(key) is None
    assert store.get(store.put("text", TEXT)) == ("text", TEXT)


def test_a_data_folder_that_cannot_be_made_is_a_sentence_and_recovers(tmp_path):
    blocker = tmp_path / "blocker"
    blocker.write_text("a file where the data folder should go")
    store = corpus_store.from_environment({"BPE_DATA_DIR": str(blocker / "data")})
    with pytest.raises(StoreUnavailable, match=r"The corpus store's folder .* cannot be made"):
        store.put("text", TEXT)
    blocker.unlink()
    assert store.get(store.put("text", TEXT)) == ("text", TEXT)  # the same store, once the folder can be made


def test_the_page_keeps_the_corpus_in_the_session_when_the_data_folder_cannot_be_made(tmp_path):
    blocker = tmp_path / "blocker"
    blocker.write_text("a file where the data folder should go")
    corpus_store.use(SqliteStore(blocker / "data" / "corpora.sqlite3"))
    try:
        at = start()
        at.radio(key="source").set_value("text").run()
        at.text_area(key="corpus_text").set_value(TEXT).run()
        ok(settle(at))
        warning = " ".join(alerts(at, "warning"))
        assert "cannot be made" in warning and "kept in this session only" in warning
    finally:
        corpus_store.use(None)
