"""Runs the tests submit to the real training pool: a small run no other test trains, a big one that merges
for minutes until a test stops it, and a job that leaves its worker bigger."""

from __future__ import annotations

import os
import random
import string
import time
from dataclasses import replace

from server import jobs
from ui.settings import Settings


def fresh(**changes) -> Settings:
    """Settings no other test trains (a unique corpus), so each test sees its own job."""
    text = f"hug pug pun bun hugs {time.time_ns()} {os.getpid()} " * 50
    return replace(Settings(source="text", text=text, limit_value=5), **changes)


_HELD: list[bytes] = []


def hold(mib: int) -> int:
    """Runs in a worker: keep ``mib`` MiB there for the worker's life (a heap grown by many small runs)."""
    _HELD.append(b"x" * (mib << 20))
    return os.getpid()


def hold_sized(mib: int) -> tuple[int, float | None]:
    """:func:`hold`, and the worker's size read in the worker: once the job is done, an idle lane may already have
    replaced the grown worker, so its size can no longer be read from outside."""
    from server import processes

    pid = hold(mib)
    return pid, processes.rss_mib(pid)


def big_text(words: int = 30_000) -> str:
    """Random letters (about 300 KB at the default): every pair is rare, so the run makes merge after slow merge
    for minutes (10,000 merges of 30,000 words took 28 CPU-seconds); the tests stop it. More words only make
    the worker count longer before its first merge."""
    rng = random.Random(time.time_ns())
    return " ".join(
        "".join(rng.choice(string.ascii_lowercase) for _ in range(rng.randint(6, 14))) for _ in range(words)
    )


def submit_big(waiter: str, live: set, text: str | None = None) -> jobs.Job:
    text = text or big_text()
    return jobs.submit(
        f"big-{time.time_ns()}",
        dict(source="text", preset="", text=text, counts=""),
        dict(pre_tokenizer="whitespace", num_merges=jobs.MAX_MERGES),
        waiter,
        lambda job: None,
        alive=lambda w: w in live,
    )


def merging(job: jobs.Job) -> bool:
    """The worker has read the corpus and is merging."""
    return job.progress() > 0 and not job.future.done()
