"""The shared corpus store: corpora in Redis, so that every replica, on any machine, reads the same corpora.

:class:`RedisStore` is the store when the deployment sets ``BPE_REDIS_URL`` (``redis://host:6379/0``,
``server/corpus_store.py``). Redis evicts by its own ``maxmemory`` policy (``scripts/serve-replicas.sh`` starts
one with ``volatile-lru``, which spares pinned corpora). ``put_chunks`` appends a corpus's compressed pieces
(``server/corpus_form.py``) to a key renamed once whole. It also keeps the small shared state of
``server/classroom.py`` (``put_field``, ``put_fields``, ``fields``, ``drop``): a Redis hash per key.
What this leaves out: the corpus's form and digest (``server/corpus_form.py``) and which store the server uses
(``server/corpus_store.py``).
"""

from __future__ import annotations

import contextlib
import time
import uuid
from collections.abc import Iterable, Iterator

from server import corpus_form
from server.corpus_store import PIN_S, QuotaRefused, StoreUnavailable, reason
from server.quota import Quota

REDIS_PREFIX = "bpe-explorer:corpus:"
REDIS_STATE_PREFIX = "bpe-explorer:state:"  # the small shared state of put_field/fields/drop
REDIS_TIMEOUT_S = 1.0  # a Redis that does not answer within this is down: the page must not wait
TTL_S = 30 * 24 * 3600  # Redis: a corpus expires this long after it is stored (none while pinned)
PENDING_TTL_S = 3600  # Redis: a corpus being written, if its writer dies, is gone after this long


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
            raise StoreUnavailable(f"The corpus store (Redis) is not available ({reason(exc)}).") from None

    def put(self, kind: str, text: str, client: str = "") -> str:
        """Store ``text`` under its digest (a corpus stored already is only marked used: no quota)."""
        return self.put_chunks(kind, corpus_form.digest(kind, text), corpus_form.utf8_chunks(text), len(text), client)

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
            for piece in corpus_form.compressed(kind, key, chunks):
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
        if not corpus_form.is_digest(key):
            return None
        blob = self._call(self.client.get, REDIS_PREFIX + key)
        return None if blob is None else corpus_form.unpack(blob, key)

    def read_chunks(self, key: str) -> Iterator[bytes] | None:
        """As :meth:`SqliteStore.read_chunks` (the compressed corpus is fetched whole: Redis gives a value whole)."""
        if not corpus_form.is_digest(key):
            return None
        blob = self._call(self.client.get, REDIS_PREFIX + key)
        return None if blob is None else corpus_form.inflated(blob)

    def has(self, key: str) -> bool:
        if not corpus_form.is_digest(key):
            return False
        return bool(self._call(self.client.exists, REDIS_PREFIX + key))

    def pin(self, key: str) -> None:
        now = time.monotonic()
        if not corpus_form.is_digest(key) or now - self._pinned.get(key, -PIN_S) < PIN_S / 10:
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
            raise StoreUnavailable(f"The shared state (Redis) is not available ({reason(exc)}).") from None
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
            raise StoreUnavailable(f"The shared state (Redis) is not available ({reason(exc)}).") from None

    def fields(self, key: str) -> dict[str, str]:
        """Every field of ``key`` (empty once it has expired or was dropped)."""
        try:
            found = self.client.hgetall(REDIS_STATE_PREFIX + key)
        except self.errors as exc:
            raise StoreUnavailable(f"The shared state (Redis) is not available ({reason(exc)}).") from None
        return {k.decode(): v.decode() for k, v in found.items()}

    def drop(self, *keys: str) -> None:
        """Forget these keys and their fields."""
        try:
            self.client.delete(*(REDIS_STATE_PREFIX + k for k in keys))
        except self.errors as exc:
            raise StoreUnavailable(f"The shared state (Redis) is not available ({reason(exc)}).") from None
