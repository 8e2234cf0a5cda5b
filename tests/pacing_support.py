"""Time that stands still for the pacing middlewares' tests (``server/ws_pacing.py``, ``server/upload_pacing.py``):
a clock and a sleep the test moves, and a wait for a condition that lets the other tasks run."""

from __future__ import annotations

import asyncio


async def until(condition) -> None:
    """Let the other tasks run until ``condition()`` holds."""
    while not condition():
        await asyncio.sleep(0)


class StandingTime:
    """A clock that stands still until the test lets time pass; from then on each sleep passes its time."""

    def __init__(self) -> None:
        self.now = 0.0
        self.waits: list[float] = []
        self.note = lambda: None  # what the test notes at each wait
        self.noted: list = []
        self.asked = asyncio.Event()
        self.moved = asyncio.Event()

    def clock(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.waits.append(seconds)
        self.noted.append(self.note())
        self.asked.set()
        await self.moved.wait()
        self.now += seconds

    def let_time_pass(self) -> None:
        self.moved.set()
