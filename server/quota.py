"""How much one client may add to the server in a minute: so that no client alone can fill the store or hold the server.

Two budgets of the same shape (a count and characters per minute): the corpora a client adds to the store
(:class:`Quota`, used by ``server/corpus_store.py``; a corpus already stored counts nothing, so a class
opening the teacher's link stores nothing new), and the corpora it sends to be read at all, pasted or
uploaded, word counts included, or carried in a long link (:func:`pastes`, asked by ``ui/corpus_box.py``,
``ui/counts_input.py`` and ``ui/link_budget.py`` before the page does any work on a text, so a paste past it costs
the server a comparison and a sentence). A client is whoever the page names (the
browser's address when the server can see one, else its session). Kept in the serving process's memory:
replicas each count their own clients, and a client's count is forgotten a minute after its last corpus.
What this leaves out: the store itself and eviction, and what a client's browser sends (Streamlit reads
and parses every message before any page code sees it; ``server.maxWidgetStateSize`` bounds one).
"""

from __future__ import annotations

import os
import threading
import time
from collections import deque

COUNT = 10  # new corpora per client per window
CHARS = 25_000_000  # characters of new corpora per client per window (a client's first passes whatever its size)
WINDOW_S = 60.0
PASTE_COUNT = 30  # texts pasted or uploaded per client per window (a class behind one address pastes small ones)
PASTE_CHARS = 10_000_000  # their characters per client per window (two 5 MB corpora; a larger one alone)


class Quota:
    """Counts each client's new corpora over the last ``window`` seconds.

    >>> q = Quota(count=1, chars=100)
    >>> q.refuse("a", 10) is None, q.refuse("b", 10) is None, q.refuse("a", 10)[:40]
    (True, True, 'This browser has stored 1 new corpus in ')
    """

    def __init__(
        self,
        count: int = COUNT,
        chars: int = CHARS,
        window: float = WINDOW_S,
        verbs: tuple[str, str, str] = ("stored", "store", "new corp"),
        one_any_size: bool = False,
    ) -> None:
        self.count, self.chars, self.window = count, chars, window
        self.one_any_size = one_any_size  # a client's first text in a window passes whatever its size
        self.verbs = verbs  # the sentence's "has stored … may store … new corpora"
        self.lock = threading.Lock()
        self.log: dict[str, deque[tuple[float, int]]] = {}  # client -> (when, characters) of its new corpora

    @classmethod
    def from_environment(cls, env=os.environ) -> Quota:
        """``BPE_STORE_QUOTA_COUNT`` and ``BPE_STORE_QUOTA_CHARS`` per minute, else the defaults."""
        return cls(
            int(env.get("BPE_STORE_QUOTA_COUNT") or COUNT),
            int(env.get("BPE_STORE_QUOTA_CHARS") or CHARS),
            one_any_size=True,  # a corpus of the size limit (100 MB) is stored: once a minute
        )

    @classmethod
    def pastes_from_environment(cls, env=os.environ) -> Quota:
        """The budget of texts sent (pasted or uploaded): ``BPE_PASTE_QUOTA_COUNT`` and ``BPE_PASTE_QUOTA_CHARS``
        per minute, else the defaults."""
        return cls(
            int(env.get("BPE_PASTE_QUOTA_COUNT") or PASTE_COUNT),
            int(env.get("BPE_PASTE_QUOTA_CHARS") or PASTE_CHARS),
            verbs=("sent", "send", "corp"),
            one_any_size=True,  # a text of the size limit (100 MB) is allowed: once a minute
        )

    def refuse(self, client: str, chars: int) -> str | None:
        """Count a new corpus of ``chars`` characters for ``client``; or, if that is over its quota, the
        sentence saying so (and nothing is counted)."""
        now = time.monotonic()
        with self.lock:
            for who in list(self.log):  # forget what left the window (so the table holds this minute's clients)
                entries = self.log[who]
                while entries and now - entries[0][0] >= self.window:
                    entries.popleft()
                if not entries:
                    del self.log[who]
            entries = self.log.setdefault(client, deque())
            count, total = len(entries), sum(n for _, n in entries)
            if count + 1 > self.count or (total + chars > self.chars and (count or not self.one_any_size)):
                if not entries:
                    del self.log[client]
                did, may, noun = self.verbs
                return (
                    f"This browser has {did} {count:,} {noun}{'us' if count == 1 else 'ora'} in the last "
                    f"{self.window:.0f} seconds ({total:,} characters), and may {may} at most {self.count:,} "
                    f"({self.chars:,} characters) a minute on the server: wait a minute for the next one."
                )
            entries.append((now, chars))
            return None


LOCAL = frozenset({"127.0.0.1", "::1"})  # a browser on the server's own machine: no address to tell it by


def client_name(address: str | None, forwarded_for: str | None, fallback: str) -> str:
    """Who a quota counts: the connection's address (unless it is this machine), else the last hop of
    ``X-Forwarded-For`` (the one the proxy in front of us added), else ``fallback`` (the page's session).

    >>> client_name("10.0.0.7", None, "s"), client_name("127.0.0.1", "1.2.3.4, 10.0.0.9", "s"), client_name(None, "", "s")
    ('10.0.0.7', '10.0.0.9', 's')
    """
    if address in LOCAL:
        address = None
    if address is None and forwarded_for:
        address = forwarded_for.split(",")[-1].strip()
    return address or fallback


_pastes: Quota | None = None
_pastes_lock = threading.Lock()


def pastes() -> Quota:
    """The serving process's budget of texts sent (pasted or uploaded), made from the environment at first use."""
    global _pastes
    with _pastes_lock:
        if _pastes is None:
            _pastes = Quota.pastes_from_environment()
        return _pastes


def use_pastes(budget: Quota | None) -> None:
    """Replace the budget of texts sent (None: made from the environment again at its next use)."""
    global _pastes
    with _pastes_lock:
        _pastes = budget
