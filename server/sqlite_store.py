"""The embedded corpus store: corpora in one SQLite file, within a size budget, the least recently used evicted first.

:class:`SqliteStore` is the default store (``server/corpus_store.py``): one SQLite file in a data directory
(``BPE_DATA_DIR``, else ``~/.local/share/bpe-explorer``), needing no set-up, within a size budget
(``BPE_CORPUS_BUDGET`` bytes, 512 MiB by default: the least recently used corpora are evicted first, then those
opened from a link in the last half hour, then those a presenter pinned), surviving a restart. ``put_chunks``
writes a corpus's compressed pieces (``server/corpus_form.py``) as rows of a parts table as they come.
It also keeps the small shared state of ``server/classroom.py`` (``put_field``, ``put_fields``, ``fields``,
``drop``) in a table of its own.
What this leaves out: the corpus's form and digest (``server/corpus_form.py``) and which store the server uses
(``server/corpus_store.py``).
"""

from __future__ import annotations

import contextlib
import sqlite3
import threading
import time
from collections.abc import Iterable, Iterator
from pathlib import Path

from server import corpus_form
from server.corpus_store import PIN_S, QuotaRefused, StoreUnavailable, reason
from server.quota import Quota

DEFAULT_BUDGET = 512 << 20  # bytes of compressed corpora in the embedded store
RECENT_S = 30 * 60  # a corpus opened from a link this recently is evicted after the others
RECHECK_S = 30.0  # a store found read-only is tried for writing again after this long


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
                    raise StoreUnavailable(f"The corpus store cannot be {doing} ({reason(exc)}).") from None

    def put(self, kind: str, text: str, client: str = "") -> str:
        """Store ``text`` under its digest (a corpus stored already is only marked used: no quota, no eviction)."""
        return self.put_chunks(kind, corpus_form.digest(kind, text), corpus_form.utf8_chunks(text), len(text), client)

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
            for piece in corpus_form.compressed(kind, key, chunks):
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
        return None if blob is None else corpus_form.unpack(blob, key)

    def read_chunks(self, key: str) -> Iterator[bytes] | None:
        """The corpus's canonical bytes (its header, then its text's), inflated a piece at a time and not checked
        against ``key`` (the caller digests them as they come); None if it is not stored. zlib.error if damaged."""
        blob = self._blob(key)
        return None if blob is None else corpus_form.inflated(blob)

    def _blob(self, key: str):
        """The stored blob of ``key`` (or an iterator of its parts, for one written by put_chunks), noted as used
        and opened; None if it is not stored."""
        if not corpus_form.is_digest(key):
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
        if not corpus_form.is_digest(key):
            return False
        row = self._with_db(lambda db: db.execute("SELECT 1 FROM corpora WHERE digest = ?", (key,)).fetchone(), "read")
        return row is not None

    def pin(self, key: str) -> None:
        """Keep this corpus past the others for PIN_S (a presenter shares it with the class)."""
        now = time.monotonic()
        if not corpus_form.is_digest(key) or now - self._pinned.get(key, -PIN_S) < PIN_S / 10:
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
