"""How much one client may add to the corpus store in a minute: so that no client alone can fill it.

A client is whoever the page names (the browser's address when the server can see one, else its
session). Each new corpus counts once, by its characters; a corpus already stored counts nothing (a
class opening the teacher's link stores nothing new). Kept in the serving process's memory: replicas
each count their own clients, and a client's count is forgotten a minute after its last corpus.
What this leaves out: the store itself (``server/corpus_store.py``) and eviction.
"""

from __future__ import annotations

import os
import threading
import time
from collections import deque

COUNT = 10  # new corpora per client per window
CHARS = 25_000_000  # characters of new corpora per client per window (five of the largest)
WINDOW_S = 60.0


class Quota:
    """Counts each client's new corpora over the last ``window`` seconds.

    >>> q = Quota(count=1, chars=100)
    >>> q.refuse("a", 10) is None, q.refuse("b", 10) is None, q.refuse("a", 10)[:40]
    (True, True, 'This browser has stored 1 new corpus in ')
    """

    def __init__(self, count: int = COUNT, chars: int = CHARS, window: float = WINDOW_S) -> None:
        self.count, self.chars, self.window = count, chars, window
        self.lock = threading.Lock()
        self.log: dict[str, deque[tuple[float, int]]] = {}  # client -> (when, characters) of its new corpora

    @classmethod
    def from_environment(cls, env=os.environ) -> Quota:
        """``BPE_STORE_QUOTA_COUNT`` and ``BPE_STORE_QUOTA_CHARS`` per minute, else the defaults."""
        return cls(int(env.get("BPE_STORE_QUOTA_COUNT") or COUNT), int(env.get("BPE_STORE_QUOTA_CHARS") or CHARS))

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
            if count + 1 > self.count or total + chars > self.chars:
                if not entries:
                    del self.log[client]
                return (
                    f"This browser has stored {count:,} new corp{'us' if count == 1 else 'ora'} in the last "
                    f"{self.window:.0f} seconds ({total:,} characters), and may store at most {self.count:,} "
                    f"({self.chars:,} characters) a minute on the server: wait a minute for the next one."
                )
            entries.append((now, chars))
            return None
