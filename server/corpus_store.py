"""Pasted and uploaded corpora, kept on the server under the hash of their content.

A corpus (a pasted or uploaded text, or a word-count table) is stored once it is accepted, under
:func:`digest`: the sha256 of a canonical form (a version tag, the kind, the UTF-8 text), as 64
lowercase hex digits. A link carries only that digest (``?corpus=<64 hex>``), so a corpus of any size
travels in a link, and a click never carries the corpus (the text leaves the widget once stored).

Two stores, one small API (``put``, ``get``):

- :class:`SqliteStore`, the default: one SQLite file in a data directory (``BPE_DATA_DIR``, else
  ``~/.local/share/bpe-explorer``), needing no set-up, within a size budget (``BPE_CORPUS_BUDGET``
  bytes, 512 MiB by default: the least recently used corpora are evicted first), surviving a restart.
- :class:`RedisStore`, when the deployment sets ``BPE_REDIS_URL`` (``redis://host:6379/0``): every
  replica, on any machine, reads the same corpora. Redis evicts by its own ``maxmemory`` policy
  (``scripts/serve-replicas.sh`` starts one with ``allkeys-lru``).

A corpus is reachable only by its full digest: nothing lists, searches or completes digests, and a
key that is not 64 hex digits is never looked up. A store that is down or full raises
:class:`StoreUnavailable` (with a sentence); the page then keeps the corpus in the session.
Both also keep a small shared state for ``server/classroom.py`` (``put_field``, ``fields``, ``drop``: string
fields under a key that expires as a whole ``ttl_s`` after its last write), so a live class reaches every
replica through the same store.
What this leaves out: which corpus a session uses (``pages/corpus_box.py``) and training.
"""

from __future__ import annotations

import functools
import hashlib
import os
import re
import sqlite3
import threading
import time
import zlib
from pathlib import Path

KINDS = ("text", "counts")
DIGEST = re.compile(r"[0-9a-f]{64}")
DEFAULT_BUDGET = 512 << 20  # bytes of compressed corpora in the embedded store
REDIS_PREFIX = "bpe-explorer:corpus:"
REDIS_STATE_PREFIX = "bpe-explorer:state:"  # the small shared state of put_field/fields/drop
REDIS_TIMEOUT_S = 1.0  # a Redis that does not answer within this is down: the page must not wait


class StoreUnavailable(Exception):
    """The store is down or full; ``str(exc)`` is a sentence for the page."""


@functools.lru_cache(maxsize=64)
def digest(kind: str, text: str) -> str:
    """The corpus's address: sha256 of ``bpe-explorer corpus v1``, its kind and its UTF-8 text.
    Memoized: the page asks for the digest of a 5 MB corpus on every click (``str`` caches its hash).

    >>> digest("text", "hug pug")[:12], digest("counts", "hug pug") == digest("text", "hug pug")
    ('d77704f037b7', False)
    """
    if kind not in KINDS:
        raise ValueError(f"A corpus is text or counts, not {kind!r}.")
    return hashlib.sha256(_canonical(kind, text)).hexdigest()


def _canonical(kind: str, text: str) -> bytes:
    return b"bpe-explorer corpus v1\n" + kind.encode() + b"\n" + text.encode("utf-8", "surrogatepass")


def _pack(kind: str, text: str) -> bytes:
    return zlib.compress(_canonical(kind, text), 1)


def _unpack(blob: bytes, key: str) -> tuple[str, str] | None:
    """(kind, text) from a stored blob, or None if it is not what ``key`` names (damaged, or not ours)."""
    try:
        raw = zlib.decompress(blob)
    except zlib.error:
        return None
    if hashlib.sha256(raw).hexdigest() != key:
        return None
    _, kind, text = raw.split(b"\n", 2)
    return kind.decode(), text.decode("utf-8", "surrogatepass")


def _checked(key: str) -> bool:
    return isinstance(key, str) and DIGEST.fullmatch(key) is not None


class SqliteStore:
    """Corpora in one SQLite file, the least recently used evicted past ``budget`` bytes (compressed)."""

    def __init__(self, path: str | Path, budget: int = DEFAULT_BUDGET) -> None:
        self.path, self.budget = Path(path), budget
        self.lock = threading.Lock()
        self._db: sqlite3.Connection | None = None

    def _conn(self) -> sqlite3.Connection:
        if self._db is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            db = sqlite3.connect(self.path, check_same_thread=False, timeout=5)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute(
                "CREATE TABLE IF NOT EXISTS corpora (digest TEXT PRIMARY KEY, data BLOB NOT NULL, "
                "size INTEGER NOT NULL, used REAL NOT NULL)"
            )
            db.execute("CREATE INDEX IF NOT EXISTS corpora_used ON corpora (used)")
            self._db = db
        return self._db

    def put(self, kind: str, text: str) -> str:
        key = digest(kind, text)
        blob = _pack(kind, text)
        if len(blob) > self.budget:
            raise StoreUnavailable("The corpus store is full (this corpus is larger than its whole budget).")
        try:
            with self.lock, self._conn() as db:
                db.execute(
                    "INSERT INTO corpora VALUES (?, ?, ?, ?) ON CONFLICT(digest) DO UPDATE SET used = excluded.used",
                    (key, blob, len(blob), time.time()),
                )
                total = db.execute("SELECT COALESCE(SUM(size), 0) FROM corpora").fetchone()[0]
                while total > self.budget:  # oldest first, never the one just stored
                    row = db.execute(
                        "SELECT digest, size FROM corpora WHERE digest != ? ORDER BY used LIMIT 1", (key,)
                    ).fetchone()
                    if row is None:
                        break
                    db.execute("DELETE FROM corpora WHERE digest = ?", (row[0],))
                    total -= row[1]
        except sqlite3.Error as exc:
            raise StoreUnavailable(f"The corpus store cannot be written ({exc}).") from None
        return key

    def get(self, key: str) -> tuple[str, str] | None:
        if not _checked(key):
            return None
        try:
            with self.lock, self._conn() as db:
                row = db.execute("SELECT data FROM corpora WHERE digest = ?", (key,)).fetchone()
                if row is not None:
                    db.execute("UPDATE corpora SET used = ? WHERE digest = ?", (time.time(), key))
        except sqlite3.Error as exc:
            raise StoreUnavailable(f"The corpus store cannot be read ({exc}).") from None
        return None if row is None else _unpack(row[0], key)

    # -- small shared state (server/classroom.py): fields under a key, the whole key gone after ttl_s ----------
    def put_field(self, key: str, field: str, value: str, ttl_s: float, only_new: bool = False) -> bool:
        """Set ``field`` of ``key`` (unless ``only_new`` and it is set: then False) and renew the key's lifetime."""
        now = time.time()
        try:
            with self.lock, self._conn() as db:
                self._state_table(db)
                db.execute("DELETE FROM shared_state WHERE expires < ?", (now,))
                verb = "INSERT OR IGNORE" if only_new else "INSERT OR REPLACE"
                done = db.execute(f"{verb} INTO shared_state VALUES (?, ?, ?, ?)", (key, field, value, now + ttl_s))
                db.execute("UPDATE shared_state SET expires = ? WHERE key = ?", (now + ttl_s, key))
        except sqlite3.Error as exc:
            raise StoreUnavailable(f"The shared state cannot be written ({exc}).") from None
        return done.rowcount > 0

    def fields(self, key: str) -> dict[str, str]:
        """Every field of ``key`` (empty once it has expired or was dropped)."""
        try:
            with self.lock, self._conn() as db:
                self._state_table(db)
                rows = db.execute(
                    "SELECT field, value FROM shared_state WHERE key = ? AND expires >= ?", (key, time.time())
                ).fetchall()
        except sqlite3.Error as exc:
            raise StoreUnavailable(f"The shared state cannot be read ({exc}).") from None
        return dict(rows)

    def drop(self, *keys: str) -> None:
        """Forget these keys and their fields."""
        try:
            with self.lock, self._conn() as db:
                self._state_table(db)
                db.executemany("DELETE FROM shared_state WHERE key = ?", [(k,) for k in keys])
        except sqlite3.Error as exc:
            raise StoreUnavailable(f"The shared state cannot be written ({exc}).") from None

    @staticmethod
    def _state_table(db: sqlite3.Connection) -> None:
        db.execute(
            "CREATE TABLE IF NOT EXISTS shared_state (key TEXT NOT NULL, field TEXT NOT NULL, "
            "value TEXT NOT NULL, expires REAL NOT NULL, PRIMARY KEY (key, field))"
        )


class RedisStore:
    """Corpora in Redis (shared by replicas), under ``bpe-explorer:corpus:<digest>``."""

    def __init__(self, url: str) -> None:
        import redis  # only deployments that set BPE_REDIS_URL need it loaded

        self.errors = (redis.RedisError, OSError)
        self.client = redis.Redis.from_url(
            url, socket_timeout=REDIS_TIMEOUT_S, socket_connect_timeout=REDIS_TIMEOUT_S, retry_on_timeout=False
        )

    def put(self, kind: str, text: str) -> str:
        key = digest(kind, text)
        try:
            self.client.set(REDIS_PREFIX + key, _pack(kind, text))
        except self.errors as exc:
            raise StoreUnavailable(f"The corpus store (Redis) is not available ({_reason(exc)}).") from None
        return key

    def get(self, key: str) -> tuple[str, str] | None:
        if not _checked(key):
            return None
        try:
            blob = self.client.get(REDIS_PREFIX + key)
        except self.errors as exc:
            raise StoreUnavailable(f"The corpus store (Redis) is not available ({_reason(exc)}).") from None
        return None if blob is None else _unpack(blob, key)

    # -- small shared state (server/classroom.py): a Redis hash per key, expiring as a whole --------------------
    def put_field(self, key: str, field: str, value: str, ttl_s: float, only_new: bool = False) -> bool:
        """Set ``field`` of ``key`` (unless ``only_new`` and it is set: then False) and renew the key's lifetime."""
        name = REDIS_STATE_PREFIX + key
        try:
            with self.client.pipeline() as pipe:
                (pipe.hsetnx if only_new else pipe.hset)(name, field, value)
                pipe.pexpire(name, int(ttl_s * 1000))
                done = pipe.execute()[0]
        except self.errors as exc:
            raise StoreUnavailable(f"The shared state (Redis) is not available ({_reason(exc)}).") from None
        return bool(done) or not only_new

    def fields(self, key: str) -> dict[str, str]:
        """Every field of ``key`` (empty once it has expired or was dropped)."""
        try:
            found = self.client.hgetall(REDIS_STATE_PREFIX + key)
        except self.errors as exc:
            raise StoreUnavailable(f"The shared state (Redis) is not available ({_reason(exc)}).") from None
        return {k.decode(): v.decode() for k, v in found.items()}

    def drop(self, *keys: str) -> None:
        """Forget these keys and their fields."""
        try:
            self.client.delete(*(REDIS_STATE_PREFIX + k for k in keys))
        except self.errors as exc:
            raise StoreUnavailable(f"The shared state (Redis) is not available ({_reason(exc)}).") from None


def _reason(exc: Exception) -> str:
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


def from_environment(env) -> SqliteStore | RedisStore:
    if env.get("BPE_REDIS_URL"):
        return RedisStore(env["BPE_REDIS_URL"])
    data = Path(env.get("BPE_DATA_DIR") or Path.home() / ".local" / "share" / "bpe-explorer")
    return SqliteStore(data / "corpora.sqlite3", int(env.get("BPE_CORPUS_BUDGET") or DEFAULT_BUDGET))


def use(new: SqliteStore | RedisStore | None) -> None:
    """Replace the server's store (tests); None makes the next :func:`store` read the environment again."""
    global _STORE
    with _STORE_LOCK:
        _STORE = new
