"""A real ``redis-server`` (Debian's redis-server package, installed by scripts/test.sh) on a free port in a
temporary directory, for the corpus store's tests; stopped (and restartable) by the test."""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
from pathlib import Path

import pytest
from browser_support import free_port, wait_until


def redis_server_path() -> str | None:
    return shutil.which("redis-server") or ("/usr/bin/redis-server" if Path("/usr/bin/redis-server").exists() else None)


class RedisServer:
    """``redis-server`` without persistence, answering on 127.0.0.1:port; ``stop()`` and ``start()`` again."""

    def __init__(self, workdir: Path, maxmemory: str | None = None, policy: str = "noeviction") -> None:
        path = redis_server_path()
        if path is None:
            msg = "redis-server not installed (scripts/test.sh installs Debian's redis-server)"
            if os.environ.get("CI") == "true":
                pytest.fail(msg + " -- Redis tests must not skip in CI", pytrace=False)
            pytest.skip(msg)
        self.path, self.workdir, self.maxmemory, self.policy = path, workdir, maxmemory, policy
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.proc: subprocess.Popen | None = None

    def start(self) -> RedisServer:
        args = [self.path, "--port", str(self.port), "--bind", "127.0.0.1", "--dir", str(self.workdir)]
        args += ["--save", "", "--appendonly", "no"]
        if self.maxmemory:
            args += ["--maxmemory", self.maxmemory, "--maxmemory-policy", self.policy]
        self.proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_until(self.answers, 20, f"redis-server on port {self.port}")
        return self

    def answers(self) -> bool:
        assert self.proc is not None and self.proc.poll() is None, "redis-server exited"
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=1) as s:
                s.sendall(b"PING\r\n")
                return s.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def stop(self) -> None:
        proc, self.proc = self.proc, None
        if proc is not None and proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


@contextlib.contextmanager
def corpus_store_of(kind: str, tmp_path: Path):
    """A corpus store of ``kind``: the embedded SQLite one in ``tmp_path``, or a real Redis started for it."""
    from server.redis_store import RedisStore
    from server.sqlite_store import SqliteStore

    if kind == "sqlite":
        yield SqliteStore(tmp_path / "corpora.sqlite3")
        return
    server = RedisServer(tmp_path).start()
    try:
        yield RedisStore(server.url)
    finally:
        server.stop()
