"""The replicas' Redis after a crash (scripts/serve-replicas.sh): started again, evicting by
``volatile-lru``, and a corpus it lost is stored again by the teacher's page (``ui/corpus_box.py``; the page's
part is tested in ``test_store_quota.py``)."""

from __future__ import annotations

import os
import signal
import socket

from browser_support import wait_until


def redis_says(port: int, command: bytes) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=2) as s:
        s.sendall(command + b"\r\n")
        return s.recv(4096)


def test_a_crashed_redis_is_started_again_with_the_eviction_that_spares_pinned_corpora(replicas):
    _url, run_dir = replicas
    port = int((run_dir / "redis.port").read_text())
    first = int((run_dir / "redis.pid").read_text())
    assert b"volatile-lru" in redis_says(port, b"CONFIG GET maxmemory-policy")
    os.kill(first, signal.SIGKILL)  # a crash

    def answers_again() -> bool:
        try:
            return int((run_dir / "redis.pid").read_text()) != first and redis_says(port, b"PING").startswith(b"+PONG")
        except (OSError, ValueError):
            return False

    wait_until(answers_again, 30, "Redis to be started again")
    assert b"volatile-lru" in redis_says(port, b"CONFIG GET maxmemory-policy")
