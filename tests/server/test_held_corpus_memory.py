"""On a real server, opening a long stored corpus by its link costs the server little beyond the run: the text is
counted a piece at a time and held by its digest (server/stored_text.py), and the worker reads it from the store,
so the server's RSS does not grow by the text's size (decoding it for the session would hold the stored bytes and
the text, twice its size, for a moment)."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from browser_support import AppServer, in_own_loop
from st_client import Session

from server import sqlite_store
from server.quota import Quota

pytestmark = pytest.mark.slow

SIZE = 40_000_000  # bytes of text: big enough that a copy of it stands out of the server's RSS noise


def rss(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0


def words(size: int) -> str:
    syllables = ("ka", "to", "ri", "men", "sa", "lo", "bu", "ne", "the", "ing", "er", "an")
    vocab = [a + b + c for a in syllables for b in syllables for c in syllables[:6]]
    line = " ".join(vocab) + "\n"
    return (line * (size // len(line) + 1))[:size]


async def open_to_step_0(url: str, key: str) -> Session:
    s = Session(url, f"corpus={key}&limit=num_merges&limit_value=20")
    await s.open(timeout=600)
    while s.waiting:  # as the browser polls while the run trains
        await s._rerun(fragment=s.poll_fragment, auto=True, timeout=600)
    return s


@pytest.mark.timeout(900)
def test_opening_a_40_mb_stored_corpus_by_its_link_does_not_hold_its_text(tmp_path):

    text = words(SIZE)
    key = sqlite_store.SqliteStore(tmp_path / "corpora.sqlite3", quota=Quota(count=10, chars=10**12)).put("text", text)
    del text
    server = AppServer(env={"BPE_DATA_DIR": str(tmp_path), "BPE_TRAIN_WORKERS": "1"})
    server.start()
    try:

        async def work():
            warm = Session(server.url, "preset=hug")  # the page's own first run (its imports) is not the corpus's
            await warm.open(timeout=600)
            await warm.close()
            before, peak, done = rss(server.proc.pid), [0], threading.Event()

            def sample() -> None:
                while not done.wait(0.02):
                    peak[0] = max(peak[0], rss(server.proc.pid))

            sampler = threading.Thread(target=sample)
            sampler.start()
            try:
                s = await open_to_step_0(server.url, key)
            finally:
                done.set()
                sampler.join()
            assert s.step == 0 and s.last == 20 and not s.exceptions, (s.step, s.last, s.exceptions)
            await s.close()
            return peak[0] - before

        grew = in_own_loop(work())
    finally:
        server.stop()
    assert grew < SIZE, f"the server's RSS grew by {grew / 2**20:.0f} MiB opening a {SIZE / 1e6:.0f} MB corpus"
