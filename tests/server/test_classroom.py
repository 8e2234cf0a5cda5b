"""A live class's shared state (server/classroom.py) on both stores, the embedded SQLite and a real Redis: only
the token moves a class, students follow by serial, one vote per student, and nothing is left after the end."""

from __future__ import annotations

from collections import Counter

import pytest
from redis_support import corpus_store_of

from server import classroom, corpus_store
from server.classroom import ClassError
from server.sqlite_store import SqliteStore

HUG = {"preset": "hug", "step": "3"}


@pytest.fixture(params=["sqlite", "redis"])
def store(request, tmp_path):
    with corpus_store_of(request.param, tmp_path) as store:
        yield store


def test_a_class_starts_with_a_short_code_and_the_teachers_view(store):
    code, token = classroom.start(store, HUG)
    assert classroom.valid_code(code) and token not in code
    shown = classroom.view(store, code)
    assert shown.params == HUG and shown.step == 3 and shown.vote is None


def test_only_the_token_moves_the_class(store):
    code, token = classroom.start(store, HUG)
    for wrong in ("", "student", token[:-1]):
        with pytest.raises(ClassError, match="Only the teacher's browser"):
            classroom.move(store, code, wrong, {"preset": "hug", "step": "9"})
        with pytest.raises(ClassError, match="Only the teacher's browser"):
            classroom.open_vote(store, code, wrong)
    assert classroom.view(store, code).step == 3
    other, _ = classroom.start(store, HUG)
    with pytest.raises(ClassError):  # one class's token does not move another
        classroom.move(store, other, token, {"preset": "hug", "step": "9"})


def test_each_move_bumps_the_serial_students_follow_and_a_repeat_changes_nothing(store):
    code, token = classroom.start(store, HUG)
    first = classroom.view(store, code).serial
    moved = classroom.move(store, code, token, {"preset": "course", "step": "4"})
    assert moved.serial == first + 1 and classroom.view(store, code) == moved
    assert classroom.move(store, code, token, {"preset": "course", "step": "4"}).serial == moved.serial


def test_one_vote_per_student_the_first_answer_stays_and_a_new_step_closes_the_vote(store):
    code, token = classroom.start(store, HUG)
    assert not classroom.cast(store, code, "s1", ("h", "u"))  # no question asked yet
    asked = classroom.open_vote(store, code, token)
    assert asked.vote.number == 1 and asked.vote.step == 3
    assert classroom.cast(store, code, "s1", ("u", "g"))
    assert not classroom.cast(store, code, "s1", ("h", "u"))  # a second tap does not count
    assert classroom.cast(store, code, "s2", ("h", "u"))
    assert classroom.cast(store, code, "s3", ("u", "g"))
    assert classroom.voted(store, code, 1, "s1") == ("u", "g")
    assert classroom.tally(store, code, 1) == {("u", "g"): 2, ("h", "u"): 1}
    assert classroom.reveal(store, code, token).vote.revealed
    assert not classroom.cast(store, code, "s4", ("u", "g"))  # revealed: answers are closed
    assert classroom.move(store, code, token, {"preset": "hug", "step": "4"}).vote is None
    again = classroom.open_vote(store, code, token)
    assert again.vote.number == 2 and classroom.tally(store, code, 2) == {}


def test_attendance_counts_following_and_exploring_students(store):
    code, token = classroom.start(store, HUG)
    for student in ("a", "b", "c"):
        classroom.seen(store, code, student, following=True)
    classroom.seen(store, code, "c", following=False)  # c chose "explore on my own"
    assert classroom.attendance(store, code) == {"follow": 2, "own": 1}


def test_ending_the_class_leaves_nothing_behind(store):
    code, token = classroom.start(store, HUG)
    classroom.seen(store, code, "a", following=True)
    classroom.open_vote(store, code, token)
    classroom.cast(store, code, "a", ("h", "u"))
    classroom.end(store, code, token)
    assert classroom.view(store, code) is None
    assert classroom.tally(store, code, 1) == {} and classroom.attendance(store, code) == {"follow": 0, "own": 0}
    with pytest.raises(ClassError, match="There is no class"):
        classroom.move(store, code, token, HUG)


def test_a_link_that_is_not_a_class_code_is_never_looked_up(store):
    assert classroom.view(store, "hug'; --") is None and classroom.view(store, "ABCDE0") is None


def test_an_idle_class_expires_with_the_store(tmp_path, monkeypatch):
    """The store forgets a key its lifetime after the last write; the class is then gone for everyone."""
    store = SqliteStore(tmp_path / "corpora.sqlite3")
    code, _ = classroom.start(store, HUG)
    later = classroom.time.time() + classroom.IDLE_S + 1
    monkeypatch.setattr("server.sqlite_store.time.time", lambda: later)
    assert classroom.view(store, code) is None


def test_a_reloaded_teachers_page_is_the_teacher_only_with_the_token_and_while_the_class_runs(store):
    code, token = classroom.start(store, HUG)
    assert classroom.is_teacher(store, code, token)
    assert not classroom.is_teacher(store, code, token[:-1]) and not classroom.is_teacher(store, code, "")
    assert not classroom.is_teacher(store, "K7P3Q0", token)  # not a code at all
    classroom.end(store, code, token)
    assert not classroom.is_teacher(store, code, token)


class Counted:
    """A store whose reads and writes of the shared state are counted (what a replica's polls cost the store)."""

    def __init__(self, store) -> None:
        self.store, self.calls = store, Counter()

    def __getattr__(self, name):
        method = getattr(self.store, name)

        def counted(*args, **kwargs):
            self.calls[name] += 1
            return method(*args, **kwargs)

        return counted


def test_a_replicas_pages_share_one_read_of_the_view_and_see_its_own_moves_at_once(store, monkeypatch):
    monkeypatch.setattr(classroom, "_SHARED", classroom._Shared())
    here = Counted(store)
    code, token = classroom.start(here, HUG)
    views = [classroom.shared_view(here, code) for _ in range(100)]  # a class of 100 polls
    assert here.calls["fields"] <= 1 and all(v.step == 3 for v in views)
    moved = classroom.move(here, code, token, {"preset": "hug", "step": "4"})  # the teacher on this replica
    assert classroom.shared_view(here, code) == moved
    # The teacher on another replica (another store object on the same file or Redis): seen at the next read.
    there = corpus_store.reader(corpus_store.address(store))
    classroom.move(there, code, token, {"preset": "hug", "step": "5"})
    monkeypatch.setattr(classroom, "SHARED_READ_S", 0.0)
    assert classroom.shared_view(here, code).step == 5
    classroom.end(here, code, token)
    assert classroom.shared_view(here, code) is None


def test_a_replicas_heartbeats_are_written_together_and_all_counted(store, monkeypatch):
    shared = classroom._Shared()
    shared.flushed = classroom.time.monotonic()  # just written: the next ones wait
    monkeypatch.setattr(classroom, "_SHARED", shared)
    here = Counted(store)
    code, _ = classroom.start(here, HUG)
    for i in range(30):
        classroom.beat(here, code, f"s{i}", following=i != 0)
    assert here.calls["put_fields"] == 0 and here.calls["put_field"] == 2  # only the class's start
    monkeypatch.setattr(classroom, "BEAT_FLUSH_S", 0.0)
    classroom.beat(here, code, "s30", following=True)
    assert here.calls["put_fields"] == 1 and here.calls["put_field"] == 2  # 31 heartbeats, one write
    assert classroom.attendance(store, code) == {"follow": 30, "own": 1}


def test_a_store_that_is_away_is_asked_once_for_all_the_pages_waiting_on_it(monkeypatch):
    monkeypatch.setattr(classroom, "_SHARED", classroom._Shared())

    class Away:
        def fields(self, key):
            raise corpus_store.StoreUnavailable("The shared state (Redis) is not available (timeout).")

    away = Counted(Away())
    for _ in range(50):  # a class's polls while Redis does not answer: each would wait its own timeout
        with pytest.raises(corpus_store.StoreUnavailable, match="not available"):
            classroom.shared_view(away, "K7P3QX")
    assert away.calls["fields"] == 1
