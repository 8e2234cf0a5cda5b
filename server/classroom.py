"""A live class: the teacher's view, who follows it, and the class vote, kept in the corpus store.

The state lives where the corpora do (``server/corpus_store.py``'s small shared state: the embedded SQLite
file on one server, Redis when ``BPE_REDIS_URL`` is set), so a student on another replica follows too.

1. :func:`start` makes a class: a short code (``CODE_LEN`` letters and digits that cannot be misread:
   no 0/O, 1/I/L) for the students' link, and a secret token for the teacher's browser session. Only the
   token's sha256 is stored; the token is never in a link.
2. The teacher's moves (:func:`move`: the view as the Train page's link parameters; :func:`open_vote`,
   :func:`reveal`) check the token and bump the view's ``serial``; a student's page polls :func:`view`
   and applies a serial it has not applied yet.
3. :func:`seen` is a student's heartbeat (following, or exploring on their own); :func:`attendance`
   counts the heartbeats of the last ``SEEN_WINDOW_S`` seconds.
4. Every following page polls the class each second, so a replica serves its pages' polls from one shared
   read (:func:`shared_view`: one store read per class per ``SHARED_READ_S``, not one per page) and writes
   their heartbeats together (:func:`beat`: one write per class per ``BEAT_FLUSH_S``, not one per page).
5. A vote: :func:`cast` keeps one answer per voter (an anonymous id per browser session; the first
   answer stays), :func:`tally` counts them. No names are kept.
6. :func:`end` drops every key of the class; a class the teacher has not moved for ``IDLE_S`` expires by
   itself (its votes with it, at most ``IDLE_S`` after the last one).

Keys: ``class:<code>`` (token hash, view), ``class:<code>:seen`` (follower id -> "time mode"),
``class:<code>:votes:<n>`` (voter id -> pair as JSON).
What this leaves out: Streamlit (``ui/classroom.py`` draws the class) and training (the view is a link).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import threading
import time
from collections import Counter
from dataclasses import dataclass, field

CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I/L: read aloud or typed from a projector
CODE_LEN = 6
IDLE_S = 90 * 60  # a class the teacher has not moved for this long ends by itself
SEEN_WINDOW_S = 12.0  # a student is counted while their page has said so within this many seconds
SEEN_TTL_S = 120.0  # heartbeats of a class nobody polls any more are forgotten after this
SHARED_READ_S = 0.25  # a replica's pages share one read of a class's view this long (a step shows this much later)
# The class route's watcher reads this often while phones wait: every phone on the replica presses at once after
# it, so its wait is added to every phone's, while its read is one small store read per class per replica.
WATCH_S = 0.05
BEAT_FLUSH_S = 2.0  # a replica writes its pages' heartbeats at most this often (well inside SEEN_WINDOW_S)


class ClassError(ValueError):
    """A class that does not exist, or a move without the class's token; ``str(exc)`` is a sentence."""


@dataclass(frozen=True)
class Vote:
    """An open or revealed question, "Which pair merges next?", asked at ``step`` (vote number ``number``)."""

    number: int
    step: int
    revealed: bool = False


@dataclass(frozen=True)
class View:
    """What the teacher shows: the Train page's link parameters (corpus, settings, step), a serial that
    every move bumps, the class vote if one is open, and how many votes were asked so far."""

    serial: int
    params: dict[str, str] = field(default_factory=dict)
    vote: Vote | None = None
    asked: int = 0

    @property
    def step(self) -> int:
        return int(self.params.get("step", 0))


def _key(code: str, part: str = "") -> str:
    return f"class:{code}{':' + part if part else ''}"


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def valid_code(code: str) -> bool:
    """Whether ``code`` could name a class (checked before any look-up: a link is anyone's text).

    >>> valid_code("K7P3QX"), valid_code("k7p3qx"), valid_code("K7P3Q0")
    (True, False, False)
    """
    return isinstance(code, str) and len(code) == CODE_LEN and all(c in CODE_ALPHABET for c in code)


def start(store, params: dict[str, str]) -> tuple[str, str]:
    """A new class showing ``params``: its code and the teacher's token (kept by the teacher's session only)."""
    token = secrets.token_urlsafe(24)
    for _ in range(20):
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LEN))
        if store.put_field(_key(code), "token", _hash(token), IDLE_S, only_new=True):
            _write(store, code, View(1, dict(params)))
            return code, token
    raise ClassError("No free class code was found: try again.")  # 887 million codes: never in practice


def view(store, code: str) -> View | None:
    """The class's current view, or None if there is no such class (ended, expired, or never started)."""
    if not valid_code(code):
        return None
    raw = store.fields(_key(code)).get("view")
    if raw is None:
        return None
    return _parse(raw)


class _Shared:
    """This process's shared reads of each class's view and its pages' heartbeats not written yet, per store."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.views: dict[tuple[int, str], tuple[object, float, View | Exception | None]] = {}  # (store, code) -> read
        self.beats: dict[tuple[int, str], tuple[object, dict[str, str]]] = {}  # (store, code) -> voter -> value
        self.flushed = 0.0


_SHARED = _Shared()


def shared_view(store, code: str, max_age: float | None = None) -> View | None:
    """:func:`view` as read by this process at most ``max_age`` (``SHARED_READ_S``) ago: every page of the class on this replica
    shares one store read (a move made here is seen at once: :func:`_write` puts it here too). A store that is
    away is shared too: the pages waiting behind a read that failed get its error, not one wait each."""
    if not valid_code(code):
        return None
    key, now = (id(store), code), time.monotonic()
    with _SHARED.lock:  # one read at a time: the pages waiting for it take its answer
        held = _SHARED.views.get(key)
        age = SHARED_READ_S if max_age is None else max_age
        if held is None or held[0] is not store or now - held[1] >= age:
            if len(_SHARED.views) > 1000:  # classes that ended long ago
                _SHARED.views = {k: v for k, v in _SHARED.views.items() if now - v[1] < 60}
            try:
                read: View | None | Exception = view(store, code)
            except Exception as exc:  # the store's StoreUnavailable: every page says so, none waits again
                read = exc
            held = _SHARED.views[key] = (store, time.monotonic(), read)
    if isinstance(held[2], Exception):
        raise held[2]
    return held[2]


def _shared_put(store, code: str, shown: View | None) -> None:
    with _SHARED.lock:
        _SHARED.views[(id(store), code)] = (store, time.monotonic(), shown)


def _parse(raw: str) -> View:
    data = json.loads(raw)
    vote = Vote(**data["vote"]) if data.get("vote") else None
    return View(data["serial"], data["params"], vote, data.get("asked", 0))


def _write(store, code: str, new: View) -> View:
    vote = (
        None if new.vote is None else {"number": new.vote.number, "step": new.vote.step, "revealed": new.vote.revealed}
    )
    store.put_field(
        _key(code),
        "view",
        json.dumps({"serial": new.serial, "params": new.params, "vote": vote, "asked": new.asked}),
        IDLE_S,
    )
    _shared_put(store, code, new)
    return new


def _checked(store, code: str, token: str) -> View:
    """The view of a class the token may move; ClassError otherwise."""
    fields = store.fields(_key(code)) if valid_code(code) else {}
    if "view" not in fields:
        raise ClassError(f"There is no class {code!r} now: it has ended, or it went idle for {IDLE_S // 60} minutes.")
    if not (isinstance(token, str) and hmac.compare_digest(fields.get("token", ""), _hash(token))):
        raise ClassError("Only the teacher's browser, which started the class, can move it.")
    return _parse(fields["view"])


def is_teacher(store, code: str, token: str) -> bool:
    """Whether ``token`` moves the running class ``code`` (a reloaded teacher's page asks with its cookie)."""
    try:
        _checked(store, code, token)
    except ClassError:
        return False
    return True


def move(store, code: str, token: str, params: dict[str, str]) -> View:
    """Show ``params`` to the class; unchanged params change nothing. A new step closes the vote."""
    current = _checked(store, code, token)
    if current.params == params:
        return current
    vote = current.vote if current.vote is not None and params.get("step") == current.params.get("step") else None
    return _write(store, code, View(current.serial + 1, dict(params), vote, current.asked))


def open_vote(store, code: str, token: str) -> View:
    """Ask "Which pair merges next?" at the view's step (a new vote number: earlier answers do not count)."""
    current = _checked(store, code, token)
    number = current.asked + 1
    return _write(store, code, View(current.serial + 1, current.params, Vote(number, current.step), number))


def reveal(store, code: str, token: str) -> View:
    """Show the class's answers (the page draws the tally beside the true counts, then the merge)."""
    current = _checked(store, code, token)
    if current.vote is None:
        raise ClassError("There is no vote to reveal: ask the question first.")
    vote = Vote(current.vote.number, current.vote.step, revealed=True)
    return _write(store, code, View(current.serial + 1, current.params, vote, current.asked))


def end(store, code: str, token: str) -> None:
    """End the class: its view, heartbeats and every vote are dropped."""
    current = _checked(store, code, token)
    votes = (_key(code, f"votes:{n}") for n in range(1, current.asked + 1))
    store.drop(_key(code), _key(code, "seen"), *votes)
    _shared_put(store, code, None)


def cast(store, code: str, voter: str, pair: tuple[str, str]) -> bool:
    """``voter``'s answer to the open vote; False if they had answered (the first answer stays) or no vote is open."""
    current = view(store, code)
    if current is None or current.vote is None or current.vote.revealed:
        return False
    answer = json.dumps(list(pair), ensure_ascii=False)
    return store.put_field(_key(code, f"votes:{current.vote.number}"), _hash(voter), answer, IDLE_S, only_new=True)


def voted(store, code: str, number: int, voter: str) -> tuple[str, str] | None:
    """What ``voter`` answered to vote ``number``, if anything."""
    raw = store.fields(_key(code, f"votes:{number}")).get(_hash(voter))
    return None if raw is None else tuple(json.loads(raw))


def tally(store, code: str, number: int) -> Counter:
    """How many voters chose each pair in vote ``number``."""
    return Counter(tuple(json.loads(v)) for v in store.fields(_key(code, f"votes:{number}")).values())


def seen(store, code: str, student: str, following: bool) -> None:
    """A student's page is open on the class (following the teacher, or exploring on their own)."""
    mode = "follow" if following else "own"
    store.put_field(_key(code, "seen"), _hash(student), f"{time.time():.3f} {mode}", SEEN_TTL_S)


def beat(store, code: str, student: str, following: bool) -> None:
    """:func:`seen`, written with the other heartbeats of this process's pages: at most one store write per class
    every ``BEAT_FLUSH_S`` (a page's heartbeat reaches the count that much later)."""
    mode = "follow" if following else "own"
    now = time.monotonic()
    with _SHARED.lock:
        key = (id(store), code)
        held = _SHARED.beats.get(key)
        if held is None or held[0] is not store:
            held = _SHARED.beats[key] = (store, {})
        held[1][_hash(student)] = f"{time.time():.3f} {mode}"
        if now - _SHARED.flushed < BEAT_FLUSH_S:
            return
        due, _SHARED.beats, _SHARED.flushed = _SHARED.beats, {}, now
    for (_, code_), (store_, values) in due.items():
        store_.put_fields(_key(code_, "seen"), values, SEEN_TTL_S)


def attendance(store, code: str) -> Counter:
    """How many students' pages said they were open within ``SEEN_WINDOW_S``: ``{"follow": n, "own": m}``."""
    since = time.time() - SEEN_WINDOW_S
    count: Counter = Counter(follow=0, own=0)
    for value in store.fields(_key(code, "seen")).values():
        when, mode = value.split(" ", 1)
        if float(when) >= since:
            count[mode] += 1
    return count
