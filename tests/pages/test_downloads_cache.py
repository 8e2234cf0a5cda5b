"""The Downloads section's checks (which formats can hold the run) are made once per run for every session, not on
every full run of every session: building CS336's vocab and merges was a quarter of a page's run (AppTest)."""

from __future__ import annotations

from apptest_support import start

from bpe.formats import cs336
from ui import downloads


def test_a_second_session_on_the_same_run_does_not_build_the_cs336_vocab_again(monkeypatch):
    downloads._problems.clear()
    built: list[int] = []
    real = cs336.cs336_vocab_merges
    monkeypatch.setattr(cs336, "cs336_vocab_merges", lambda merges, *a: built.append(len(merges)) or real(merges, *a))
    first = start(preset="course")
    assert len(built) == 1  # the page built it once (its downloads are built on click)
    first.run()
    start(preset="course")
    assert len(built) == 1
    assert any("CS336 vocab + merges (JSON)" in str(b.proto) for b in first.get("download_button"))
