"""Pasted and uploaded corpora, kept on the server under the hash of their content.

A corpus (a pasted or uploaded text, or a word-count table) is stored once it is accepted, under
:func:`digest`: the sha256 of a canonical form (a version tag, the kind, the UTF-8 text), as 64
lowercase hex digits. A link carries only that digest (``?corpus=<64 hex>``), so a corpus of any size
travels in a link, and a click never carries the corpus (the text leaves the widget once stored).

Two stores, one small API (``put``, ``put_chunks``, ``get``, ``read_chunks``, ``has``, ``pin``). ``put_chunks`` takes an uploaded
file's bytes a chunk at a time (``server/corpus_upload.py``; ``put`` hands it a text's, encoded a chunk at a
time), compressing and writing each as it comes (SQLite: rows of a parts table; Redis: ``APPEND`` to a key
renamed once whole), so a 100 MB corpus is never held again whole, compressed or not, while it is stored:

- :class:`SqliteStore`, the default: one SQLite file in a data directory (``BPE_DATA_DIR``, else
  ``~/.local/share/bpe-explorer``), needing no set-up, within a size budget (``BPE_CORPUS_BUDGET``
  bytes, 512 MiB by default: the least recently used corpora are evicted first, then those opened from a
  link in the last half hour, then those a presenter pinned), surviving a restart.
- :class:`RedisStore`, when the deployment sets ``BPE_REDIS_URL`` (``redis://host:6379/0``): every
  replica, on any machine, reads the same corpora. Redis evicts by its own ``maxmemory`` policy
  (``scripts/serve-replicas.sh`` starts one with ``volatile-lru``, which spares pinned corpora).

One client (``put``'s ``client``) stores only so many new corpora a minute (``server/quota.py``), so a
script pasting corpus after corpus, or opening ``?text=`` links, cannot push the class's corpus out.

A corpus is reachable only by its full digest: nothing lists, searches or completes digests, and a
key that is not 64 hex digits is never looked up. A store that is down or full raises
:class:`StoreUnavailable` (with a sentence); the page then keeps the corpus in the session.
Both also keep a small shared state for ``server/classroom.py`` (``put_field``, ``put_fields``, ``fields``, ``drop``: string
fields under a key that expires as a whole ``ttl_s`` after its last write), so a live class reaches every
replica through the same store.
What this leaves out: which corpus a session uses (``ui/corpus_box.py``) and training.
"""

from __future__ import annotations

import contextlib
import hashlib
import itertools
import os
import re
import sqlite3
import threading
import time
import uuid
import zlib
from collections import OrderedDict
from collections.abc import Iterable, Iterator
from pathlib import Path

from server.quota import Quota

KINDS = ("text", "counts")
DIGEST = re.compile(r"[0-9a-f]{64}")
DEFAULT_BUDGET = 512 << 20  # bytes of compressed corpora in the embedded store
REDIS_PREFIX = "bpe-explorer:corpus:"
REDIS_STATE_PREFIX = "bpe-explorer:state:"  # the small shared state of put_field/fields/drop
REDIS_TIMEOUT_S = 1.0  # a Redis that does not answer within this is down: the page must not wait
RECENT_S = 30 * 60  # a corpus opened from a link this recently is evicted after the others
PIN_S = 12 * 3600  # a corpus a presenter shares is kept past all others for this long
RECHECK_S = 30.0  # a store found read-only is tried for writing again after this long
TTL_S = 30 * 24 * 3600  # Redis: a corpus expires this long after it is stored (none while pinned)
PENDING_TTL_S = 3600  # Redis: a corpus being written, if its writer dies, is gone after this long
HEADER = b"bpe-explorer corpus v1\n"
CHUNK = 1 << 20  # bytes of compressed corpus written at a time by put_chunks
INFLATED = 4 << 20  # bytes of a corpus inflated at a time by read_chunks


class StoreUnavailable(Exception):
    """The store is down or full; ``str(exc)`` is a sentence for the page."""


class QuotaRefused(StoreUnavailable):
    """The client has stored as many new corpora as it may this minute (``server/quota.py``); a sentence."""


_DIGESTS: OrderedDict[tuple[str, int, int], str] = OrderedDict()  # (kind, hash(text), len(text)) -> digest
_DIGESTS_KEPT = 64
_DIGESTS_LOCK = threading.Lock()


def digest(kind: str, text: str) -> str:
    """The corpus's address: sha256 of ``bpe-explorer corpus v1``, its kind and its UTF-8 text.
    Remembered by the text's ``hash`` and length, not the text itself: the page asks for the digest of a large
    corpus on every click (``str`` caches its hash), and a cache keyed by the text would keep every text alive.

    >>> digest("text", "hug pug")[:12], digest("counts", "hug pug") == digest("text", "hug pug")
    ('d77704f037b7', False)
    """
    if kind not in KINDS:
        raise ValueError(f"A corpus is text or counts, not {kind!r}.")
    key = (kind, hash(text), len(text))
    with _DIGESTS_LOCK:
        if (found := _DIGESTS.get(key)) is not None:
            _DIGESTS.move_to_end(key)
            return found
    value = digest_of_chunks(kind, utf8_chunks(text))
    with _DIGESTS_LOCK:
        _DIGESTS[key] = value
        while len(_DIGESTS) > _DIGESTS_KEPT:
            _DIGESTS.popitem(last=False)
    return value


def utf8_chunks(text: str) -> Iterator[bytes]:
    """``text`` as UTF-8 (lone surrogates kept, as a file's bytes can give them), CHUNK characters at a
    time: the same bytes as encoding it whole, never a second copy of it whole."""
    size = CHUNK
    for at in range(0, len(text), size):
        yield text[at : at + size].encode("utf-8", "surrogatepass")


def digest_of_chunks(kind: str, chunks) -> str:
    """:func:`digest` of the text whose UTF-8 bytes are ``chunks`` (an upload's, read a chunk at a time)."""
    h = hasher(kind)
    for chunk in chunks:
        h.update(chunk)
    return h.hexdigest()


def hasher(kind: str):
    """A sha256 that has taken the canonical header of ``kind``: fed a text's UTF-8 bytes as they come (an upload
    streamed to the server), its ``hexdigest()`` is :func:`digest` of that text."""
    if kind not in KINDS:
        raise ValueError(f"A corpus is text or counts, not {kind!r}.")
    return hashlib.sha256(_header(kind))


def remember_digest(kind: str, text: str, key: str) -> None:
    """Tell :func:`digest` the digest of ``text``, found while reading it (:func:`digest_of_chunks`): a 100 MB text
    digested again would be copied twice over (encoded, and behind its header)."""
    with _DIGESTS_LOCK:
        _DIGESTS[(kind, hash(text), len(text))] = key
        while len(_DIGESTS) > _DIGESTS_KEPT:
            _DIGESTS.popitem(last=False)


def _header(kind: str) -> bytes:
    return HEADER + kind.encode() + b"\n"


def _compressed(kind: str, key: str, chunks) -> Iterator[bytes]:
    """The canonical form of ``kind`` and ``chunks`` (UTF-8 bytes of a text: the header, then the bytes)
    compressed (zlib, level 1), in pieces of about CHUNK bytes; ValueError at the end if the bytes are not
    what ``key`` names."""
    squeeze, check, out, held = zlib.compressobj(1), hashlib.sha256(), [], 0
    for chunk in itertools.chain((_header(kind),), chunks):
        check.update(chunk)
        if piece := squeeze.compress(chunk):
            out.append(piece)
            held += len(piece)
        if held >= CHUNK:
            yield b"".join(out)
            out, held = [], 0
    out.append(squeeze.flush())
    if check.hexdigest() != key:
        raise ValueError("The corpus changed while it was stored.")
    yield b"".join(out)


def _unpack(blob, key: str) -> tuple[str, str] | None:
    """(kind, text) from a stored blob (or its pieces, in order), or None if it is not what ``key`` names
    (damaged, or not ours)."""
    try:
        if isinstance(blob, bytes):
            raw = zlib.decompress(blob)
        else:
            inflate, raw = zlib.decompressobj(), bytearray()
            for piece in blob:
                raw += inflate.decompress(piece)
            raw += inflate.flush()
    except zlib.error:
        return None
    if hashlib.sha256(raw).hexdigest() != key:
        return None
    start = raw.index(b"\n", len(HEADER)) + 1
    kind = bytes(raw[len(HEADER) : start - 1]).decode()
    return kind, str(memoryview(raw)[start:], "utf-8", "surrogatepass")


def _inflated(blob) -> Iterator[bytes]:
    """A stored blob (or its pieces, in order) inflated, at most INFLATED bytes a piece: the corpus's canonical
    bytes (the header, then the text's), never whole; zlib.error if it is damaged."""
    inflate = zlib.decompressobj()
    for piece in (blob,) if isinstance(blob, bytes) else blob:
        out = inflate.decompress(piece, INFLATED)
        while True:
            yield out
            if not inflate.unconsumed_tail:
                break
            out = inflate.decompress(inflate.unconsumed_tail, INFLATED)
    yield inflate.flush()


def _checked(key: str) -> bool:
    return isinstance(key, str) and DIGEST.fullmatch(key) is not None


class SqliteStore:
    """Corpora in one SQLite file, evicted past ``budget`` bytes (compressed): the least recently used
    first, those opened in the last RECENT_S after them, those a presenter pinned last.

    Never fatal: the journal is a plain rollback file and nothing is memory-mapped (WAL's memory-mapped
    ``-shm`` file, truncated or on a directory that turned immutable, killed the server with SIGBUS); a
    store that cannot be written is still read (the last-used time is left alone, and tried again after
    RECHECK_S); a file that is not a database is moved aside and a new one made; every other error is a
    :class:`StoreUnavailable` sentence, and the next call opens the file afresh (so a store that is
    writable again, or a folder that can be made again, works without a restart)."""

    def __init__(
        self, path: str | Path, budget: int = DEFAULT_BUDGET, quota: Quota | None = None, recheck_s: float = RECHECK_S
    ) -> None:
        self.path, self.budget, self.recheck_s = Path(path), budget, recheck_s
        self.quota = quota or Quota.from_environment({})
        self.lock = threading.Lock()
        self._db: sqlite3.Connection | None = None
        self._readonly_until = 0.0  # no last-used writes before this (time.monotonic()): the file is read-only
        self._pinned: dict[str, float] = {}  # digest -> when this server last pinned it (no write per rerun)

    def _conn(self) -> sqlite3.Connection:
        if self._db is None:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise StoreUnavailable(
                    f"The corpus store's folder {self.path.parent} cannot be made ({exc.strerror or exc})."
                ) from None
            db = sqlite3.connect(self.path, check_same_thread=False, timeout=5)
            try:
                db.execute("PRAGMA mmap_size=0")
                db.execute("PRAGMA journal_mode=DELETE")  # also turns an older store's WAL file back
                _schema(db)
            except sqlite3.Error as exc:
                if not (_readonly(exc) and _has_table(db)):
                    db.close()
                    raise
            self._db = db
        return self._db

    def _drop(self) -> None:
        if self._db is not None:
            with contextlib.suppress(sqlite3.Error):
                self._db.close()
            self._db = None

    def _set_aside(self) -> bool:
        """Move a damaged file (and its journal) aside, so the next open makes a new one; False if it cannot."""
        stamp = time.strftime("%Y%m%d-%H%M%S")
        try:
            for suffix in ("", "-journal", "-wal", "-shm"):
                old = self.path.with_name(self.path.name + suffix)
                if old.exists():
                    old.rename(old.with_name(f"{old.name}.damaged-{stamp}"))
        except OSError:
            return False
        print(f"bpe-store: {self.path} was not a readable database; moved aside, starting a new one", flush=True)
        return True

    def _with_db(self, action, doing: str):
        """``action(db)`` under the lock; a damaged file is moved aside and the action tried once more."""
        with self.lock:
            for attempt in (1, 2):
                try:
                    return action(self._conn())
                except sqlite3.Error as exc:
                    self._drop()
                    if attempt == 1 and _damaged(exc) and self._set_aside():
                        continue
                    raise StoreUnavailable(f"The corpus store cannot be {doing} ({_reason(exc)}).") from None

    def put(self, kind: str, text: str, client: str = "") -> str:
        """Store ``text`` under its digest (a corpus stored already is only marked used: no quota, no eviction)."""
        return self.put_chunks(kind, digest(kind, text), utf8_chunks(text), len(text), client)

    def put_chunks(self, kind: str, key: str, chunks: Iterable, size: int, client: str = "") -> str:
        """Store the text whose UTF-8 bytes are ``chunks`` (``size`` of them, digest ``key``), compressing and
        writing about CHUNK bytes at a time: each piece is a row of ``corpus_parts``, written in a transaction
        of its own (others' reads wait for one piece, not the whole corpus), and the corpus's row comes last,
        so a corpus is found only once it is whole. Parts left by a writer that died are removed when the
        file is next opened."""
        if self._with_db(lambda db: self._touch(db, key), "written"):
            return key
        if why := self.quota.refuse(client, size):
            raise QuotaRefused(why)
        written, seq = 0, 0
        try:
            for piece in _compressed(kind, key, chunks):
                written += len(piece)
                if written > self.budget:
                    raise StoreUnavailable("The corpus store is full (this corpus is larger than its whole budget).")

                def part(db: sqlite3.Connection, piece=piece, seq=seq) -> None:
                    with db:
                        db.execute("INSERT OR REPLACE INTO corpus_parts VALUES (?, ?, ?)", (key, seq, piece))

                self._with_db(part, "written")
                seq += 1

            def finish(db: sqlite3.Connection) -> None:
                with db:
                    if db.execute("SELECT COUNT(*) FROM corpus_parts WHERE digest = ?", (key,)).fetchone()[0] != seq:
                        raise sqlite3.OperationalError("its parts were removed while it was written")
                    db.execute(
                        "INSERT INTO corpora (digest, data, size, used) VALUES (?, ?, ?, ?) "
                        "ON CONFLICT(digest) DO UPDATE SET used = excluded.used",
                        (key, b"", written, time.time()),
                    )
                    self._evict(db, key)

            self._with_db(finish, "written")
        except BaseException:
            with contextlib.suppress(StoreUnavailable):
                self._with_db(lambda db: self._drop_parts(db, key), "written")
            raise
        return key

    @staticmethod
    def _touch(db: sqlite3.Connection, key: str) -> bool:
        with db:
            return db.execute("UPDATE corpora SET used = ? WHERE digest = ?", (time.time(), key)).rowcount > 0

    @staticmethod
    def _drop_parts(db: sqlite3.Connection, key: str) -> None:
        """Remove the parts of ``key`` unless its corpus is whole (another session stored it meanwhile)."""
        with db:
            db.execute(
                "DELETE FROM corpus_parts WHERE digest = ? AND NOT EXISTS (SELECT 1 FROM corpora WHERE digest = ?)",
                (key, key),
            )

    def _evict(self, db: sqlite3.Connection, keep: str) -> None:
        total = db.execute("SELECT COALESCE(SUM(size), 0) FROM corpora").fetchone()[0]
        now = time.time()
        while total > self.budget:  # never the one just stored
            row = db.execute(
                "SELECT digest, size FROM corpora WHERE digest != ? ORDER BY pinned > ?, opened > ?, used LIMIT 1",
                (keep, now, now - RECENT_S),
            ).fetchone()
            if row is None:
                break
            db.execute("DELETE FROM corpora WHERE digest = ?", (row[0],))
            db.execute("DELETE FROM corpus_parts WHERE digest = ?", (row[0],))
            total -= row[1]

    def get(self, key: str) -> tuple[str, str] | None:
        blob = self._blob(key)
        return None if blob is None else _unpack(blob, key)

    def read_chunks(self, key: str) -> Iterator[bytes] | None:
        """The corpus's canonical bytes (its header, then its text's), inflated a piece at a time and not checked
        against ``key`` (the caller digests them as they come); None if it is not stored. zlib.error if damaged."""
        blob = self._blob(key)
        return None if blob is None else _inflated(blob)

    def _blob(self, key: str):
        """The stored blob of ``key`` (or an iterator of its parts, for one written by put_chunks), noted as used
        and opened; None if it is not stored."""
        if not _checked(key):
            return None

        def read(db: sqlite3.Connection):
            row = db.execute("SELECT data FROM corpora WHERE digest = ?", (key,)).fetchone()
            if row is None or row[0]:
                return row
            # written by put_chunks: its parts, in order, read one at a time as they are inflated
            count = db.execute("SELECT COUNT(*) FROM corpus_parts WHERE digest = ?", (key,)).fetchone()[0]
            return (self._parts(key, count),)

        row = self._with_db(read, "read")
        if row is None:
            return None
        self._write_quietly("UPDATE corpora SET used = ?, opened = ? WHERE digest = ?", (time.time(), time.time(), key))
        return row[0]

    def _parts(self, key: str, count: int) -> Iterator[bytes]:
        """The ``count`` parts of a corpus written by put_chunks, each read under the lock on its own (a 100 MB
        corpus's compressed parts are never all held at once, and others' reads wait for one part at most). A part
        evicted meanwhile ends them early: the digest then does not match, and the corpus is gone."""
        for seq in range(count):
            row = self._with_db(
                lambda db, seq=seq: db.execute(
                    "SELECT data FROM corpus_parts WHERE digest = ? AND seq = ?", (key, seq)
                ).fetchone(),
                "read",
            )
            if row is None:
                return
            yield row[0]

    def has(self, key: str) -> bool:
        if not _checked(key):
            return False
        row = self._with_db(lambda db: db.execute("SELECT 1 FROM corpora WHERE digest = ?", (key,)).fetchone(), "read")
        return row is not None

    def pin(self, key: str) -> None:
        """Keep this corpus past the others for PIN_S (a presenter shares it with the class)."""
        now = time.monotonic()
        if not _checked(key) or now - self._pinned.get(key, -PIN_S) < PIN_S / 10:
            return
        if len(self._pinned) > 1_000:
            self._pinned.clear()
        if self._write_quietly("UPDATE corpora SET pinned = ? WHERE digest = ?", (time.time() + PIN_S, key)):
            self._pinned[key] = now

    def _write_quietly(self, sql: str, args: tuple) -> bool:
        """A write that a read-only store skips (tried again after ``recheck_s``, on a connection opened
        afresh: one opened on a read-only file stays read-only)."""
        if time.monotonic() < self._readonly_until:
            return False
        with self.lock:
            try:
                with self._conn() as db:
                    db.execute(sql, args)
                return True
            except (sqlite3.Error, StoreUnavailable):
                self._drop()
                self._readonly_until = time.monotonic() + self.recheck_s
                return False

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

    def put_fields(self, key: str, values: dict[str, str], ttl_s: float) -> None:
        """Set several fields of ``key`` in one write (one transaction) and renew the key's lifetime."""
        now = time.time()
        try:
            with self.lock, self._conn() as db:
                self._state_table(db)
                db.executemany(
                    "INSERT OR REPLACE INTO shared_state VALUES (?, ?, ?, ?)",
                    [(key, field, value, now + ttl_s) for field, value in values.items()],
                )
                db.execute("UPDATE shared_state SET expires = ? WHERE key = ?", (now + ttl_s, key))
        except sqlite3.Error as exc:
            raise StoreUnavailable(f"The shared state cannot be written ({exc}).") from None

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


def _schema(db: sqlite3.Connection) -> None:
    db.execute(
        "CREATE TABLE IF NOT EXISTS corpora (digest TEXT PRIMARY KEY, data BLOB NOT NULL, "
        "size INTEGER NOT NULL, used REAL NOT NULL)"
    )
    columns = {row[1] for row in db.execute("PRAGMA table_info(corpora)")}
    for column in ("opened", "pinned"):  # a store made before they were added gains them
        if column not in columns:
            db.execute(f"ALTER TABLE corpora ADD COLUMN {column} REAL NOT NULL DEFAULT 0")
    db.execute("CREATE INDEX IF NOT EXISTS corpora_used ON corpora (used)")
    # the pieces of a corpus stored by put_chunks (its corpora row's data is empty); a writer that died left
    # parts without a corpora row
    db.execute(
        "CREATE TABLE IF NOT EXISTS corpus_parts (digest TEXT NOT NULL, seq INTEGER NOT NULL, data BLOB NOT NULL, "
        "PRIMARY KEY (digest, seq))"
    )
    with db:
        db.execute("DELETE FROM corpus_parts WHERE digest NOT IN (SELECT digest FROM corpora)")


def _has_table(db: sqlite3.Connection) -> bool:
    with contextlib.suppress(sqlite3.Error):
        return db.execute("SELECT 1 FROM sqlite_master WHERE name = 'corpora'").fetchone() is not None
    return False


def _readonly(exc: sqlite3.Error) -> bool:
    return getattr(exc, "sqlite_errorname", "").startswith("SQLITE_READONLY")


def _damaged(exc: sqlite3.Error) -> bool:
    return getattr(exc, "sqlite_errorname", "").startswith(("SQLITE_NOTADB", "SQLITE_CORRUPT"))


class RedisStore:
    """Corpora in Redis (shared by replicas), under ``bpe-explorer:corpus:<digest>``, each for TTL_S.
    With ``maxmemory-policy volatile-lru`` (``scripts/serve-replicas.sh``) Redis evicts only corpora that
    have a time to live: a pinned corpus has none for PIN_S (listed in ``bpe-explorer:pinned``, by when
    it gets one back), so it outlasts the others."""

    def __init__(self, url: str, quota: Quota | None = None) -> None:
        import redis  # only deployments that set BPE_REDIS_URL need it loaded

        self.url = url
        self.errors = (redis.RedisError, OSError)
        self.quota = quota or Quota.from_environment({})
        self.client = redis.Redis.from_url(
            url, socket_timeout=REDIS_TIMEOUT_S, socket_connect_timeout=REDIS_TIMEOUT_S, retry_on_timeout=False
        )
        self._pinned: dict[str, float] = {}

    def _call(self, fn, *args):
        try:
            return fn(*args)
        except self.errors as exc:
            raise StoreUnavailable(f"The corpus store (Redis) is not available ({_reason(exc)}).") from None

    def put(self, kind: str, text: str, client: str = "") -> str:
        """Store ``text`` under its digest (a corpus stored already is only marked used: no quota)."""
        return self.put_chunks(kind, digest(kind, text), utf8_chunks(text), len(text), client)

    def put_chunks(self, kind: str, key: str, chunks: Iterable, size: int, client: str = "") -> str:
        """Store the text whose UTF-8 bytes are ``chunks`` (``size`` of them, digest ``key``), compressing and
        appending about CHUNK bytes at a time to a key of its own (expiring after PENDING_TTL_S, should this
        writer die), renamed to the corpus's once whole: a corpus is found only once it is whole."""
        name = REDIS_PREFIX + key
        if self._call(self.client.touch, name):
            return key
        if why := self.quota.refuse(client, size):
            raise QuotaRefused(why)
        pending = f"{REDIS_PREFIX}pending:{uuid.uuid4().hex}"
        try:
            for piece in _compressed(kind, key, chunks):
                self._call(self.client.append, pending, piece)
                self._call(self.client.expire, pending, PENDING_TTL_S)
            with self.client.pipeline() as pipe:
                pipe.rename(pending, name)
                pipe.expire(name, TTL_S)
                self._call(pipe.execute)
        except BaseException:
            with contextlib.suppress(StoreUnavailable):
                self._call(self.client.delete, pending)
            raise
        return key

    def get(self, key: str) -> tuple[str, str] | None:
        if not _checked(key):
            return None
        blob = self._call(self.client.get, REDIS_PREFIX + key)
        return None if blob is None else _unpack(blob, key)

    def read_chunks(self, key: str) -> Iterator[bytes] | None:
        """As :meth:`SqliteStore.read_chunks` (the compressed corpus is fetched whole: Redis gives a value whole)."""
        if not _checked(key):
            return None
        blob = self._call(self.client.get, REDIS_PREFIX + key)
        return None if blob is None else _inflated(blob)

    def has(self, key: str) -> bool:
        if not _checked(key):
            return False
        return bool(self._call(self.client.exists, REDIS_PREFIX + key))

    def pin(self, key: str) -> None:
        now = time.monotonic()
        if not _checked(key) or now - self._pinned.get(key, -PIN_S) < PIN_S / 10:
            return
        pinned, wall, name = REDIS_PREFIX + "pinned", time.time(), REDIS_PREFIX + key
        with contextlib.suppress(StoreUnavailable):
            for old in self._call(self.client.zrangebyscore, pinned, 0, wall):  # pinned long enough: evictable again
                self._call(self.client.expire, old, TTL_S)
                self._call(self.client.zrem, pinned, old)
            if self._call(self.client.exists, name):
                self._call(self.client.persist, name)
                self._call(self.client.zadd, pinned, {name: wall + PIN_S})
                self._pinned = {k: t for k, t in self._pinned.items() if now - t < PIN_S} | {key: now}

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

    def put_fields(self, key: str, values: dict[str, str], ttl_s: float) -> None:
        """Set several fields of ``key`` in one round trip and renew the key's lifetime."""
        name = REDIS_STATE_PREFIX + key
        try:
            with self.client.pipeline() as pipe:
                pipe.hset(name, mapping=values)
                pipe.pexpire(name, int(ttl_s * 1000))
                pipe.execute()
        except self.errors as exc:
            raise StoreUnavailable(f"The shared state (Redis) is not available ({_reason(exc)}).") from None

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


_READERS: dict[str, SqliteStore | RedisStore] = {}


def address(store_: SqliteStore | RedisStore) -> str:
    """Where a store is, for another process to read it (:func:`reader`): its SQLite file or its Redis URL."""
    return store_.url if isinstance(store_, RedisStore) else f"sqlite:{store_.path}"


def reader(where: str) -> SqliteStore | RedisStore:
    """The store at :func:`address` ``where``, opened once per process (a training worker reading a corpus)."""
    if where not in _READERS:
        _READERS[where] = SqliteStore(where[len("sqlite:") :]) if where.startswith("sqlite:") else RedisStore(where)
    return _READERS[where]


def from_environment(env) -> SqliteStore | RedisStore:
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
