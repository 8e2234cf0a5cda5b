"""Which corpus store the server uses (SQLite, or Redis shared by replicas), and what every store raises.

Pasted and uploaded corpora are kept on the server under the digest of their content (``server/corpus_form.py``).
Two stores, one small API (``put``, ``put_chunks``, ``get``, ``read_chunks``, ``has``, ``pin``). ``put_chunks`` takes an uploaded
file's bytes a chunk at a time (``server/corpus_upload.py``; ``put`` hands it a text's, encoded a chunk at a
time), compressing and writing each as it comes, so a 100 MB corpus is never held again whole, compressed or
not, while it is stored:

- ``SqliteStore`` (``server/sqlite_store.py``), the default: one SQLite file in a data directory, within a size
  budget, surviving a restart.
- ``RedisStore`` (``server/redis_store.py``), when the deployment sets ``BPE_REDIS_URL``: every replica, on any
  machine, reads the same corpora.

One client (``put``'s ``client``) stores only so many new corpora a minute (``server/quota.py``), so a
script pasting corpus after corpus, or opening ``?text=`` links, cannot push the class's corpus out.

A store that is down or full raises :class:`StoreUnavailable` (with a sentence); the page then keeps the corpus
in the session. Both also keep a small shared state for ``server/classroom.py`` (``put_field``, ``put_fields``,
``fields``, ``drop``: string fields under a key that expires as a whole ``ttl_s`` after its last write), so a
live class reaches every replica through the same store.
The stores' modules import this one (its errors), so this one imports them where a store is made.
What this leaves out: which corpus a session uses (``ui/corpus_box.py``) and training.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import TYPE_CHECKING

from server.quota import Quota

if TYPE_CHECKING:
    from server.redis_store import RedisStore
    from server.sqlite_store import SqliteStore

PIN_S = 12 * 3600  # a corpus a presenter shares is kept past all others for this long


class StoreUnavailable(Exception):
    """The store is down or full; ``str(exc)`` is a sentence for the page."""


class QuotaRefused(StoreUnavailable):
    """The client has stored as many new corpora as it may this minute (``server/quota.py``); a sentence."""


def reason(exc: Exception) -> str:
    text = str(exc).split("\n")[0].strip() or type(exc).__name__
    return text[:120]


_STORE: SqliteStore | RedisStore | None = None
_STORE_LOCK = threading.Lock()


def store() -> SqliteStore | RedisStore:
    """The server's store, made on first use from the environment (see the module docstring)."""
    global _STORE
    with _STORE_LOCK:
        if _STORE is None:
            _STORE = from_environment(os.environ)
        return _STORE


_READERS: dict[str, SqliteStore | RedisStore] = {}


def address(store_: SqliteStore | RedisStore) -> str:
    """Where a store is, for another process to read it (:func:`reader`): its SQLite file or its Redis URL."""
    from server.redis_store import RedisStore  # here, not at the top: see the module docstring

    return store_.url if isinstance(store_, RedisStore) else f"sqlite:{store_.path}"


def reader(where: str) -> SqliteStore | RedisStore:
    """The store at :func:`address` ``where``, opened once per process (a training worker reading a corpus)."""
    from server.redis_store import RedisStore
    from server.sqlite_store import SqliteStore

    if where not in _READERS:
        _READERS[where] = SqliteStore(where[len("sqlite:") :]) if where.startswith("sqlite:") else RedisStore(where)
    return _READERS[where]


def from_environment(env) -> SqliteStore | RedisStore:
    from server.redis_store import RedisStore
    from server.sqlite_store import DEFAULT_BUDGET, SqliteStore

    if env.get("BPE_REDIS_URL"):
        return RedisStore(env["BPE_REDIS_URL"], Quota.from_environment(env))
    data = Path(env.get("BPE_DATA_DIR") or Path.home() / ".local" / "share" / "bpe-explorer")
    budget = int(env.get("BPE_CORPUS_BUDGET") or DEFAULT_BUDGET)
    return SqliteStore(data / "corpora.sqlite3", budget, Quota.from_environment(env))


def use(new: SqliteStore | RedisStore | None) -> None:
    """Replace the server's store (tests); None makes the next :func:`store` read the environment again."""
    global _STORE
    with _STORE_LOCK:
        _STORE = new
