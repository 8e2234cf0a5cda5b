"""One piece of untrusted work run in a process of its own, with a memory cap and a time limit, its failure a sentence.

Streamlit serves every session from one interpreter, so work that holds the interpreter lock for long
(reading an uploaded file, comparing a student's run) would stall every other session. A
:class:`CappedRunner` runs a module-level function in a process started from the ``forkserver`` (never
a copy of the server), a few at a time, with an address-space cap (``RLIMIT_AS``) and a time limit: the
server kills the process then, and the process ends itself by ``SIGALRM`` shortly after even if the
server is gone. The value comes back pickled; a ``ValueError`` in the work, running out of memory or
time, or a bug comes back as one sentence, never a traceback.

Left out: what the work is (``server/uploads.py`` reads tokenizer files, ``server/check_jobs.py`` a
student's run) and how its pickle is loaded (the caller's choice).
"""

from __future__ import annotations

import contextlib
import pickle
import resource
import signal
import threading
from collections.abc import Callable
from dataclasses import dataclass

from server.processes import forkserver, plain_main


@dataclass(frozen=True)
class Sentences:
    """What the page says when the work fails; ``{seconds}``, ``{memory}`` and ``{wait}`` are filled in."""

    busy: str  # every slot stayed taken for ``wait`` seconds
    too_slow: str
    too_big: str  # the memory cap ended it
    unexpected: str  # a bug: any exception but ValueError, MemoryError and RecursionError
    too_deep: str = ""  # a RecursionError; empty: said as unexpected
    too_large_result: str = ""  # the value pickled is over ``max_result`` bytes


def _child(conn, fn: Callable, args: tuple, memory: int, seconds: float, sentences: Sentences, max_result) -> None:
    """The worker process: cap its memory, end itself after its time, run, send back a pickle or a sentence."""
    signal.alarm(int(seconds) + 5)  # default action: the process ends, with or without the server
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    try:
        message = b"ok" + pickle.dumps(fn(*args), protocol=pickle.HIGHEST_PROTOCOL)
    except ValueError as exc:
        message = b"er" + str(exc).encode("utf-8", "replace")
    except MemoryError:
        message = b"mm"
    except RecursionError:
        message = b"er" + (sentences.too_deep or sentences.unexpected.format(kind="RecursionError")).encode()
    except Exception as exc:  # a bug, not the input: one sentence, not a traceback
        message = b"er" + sentences.unexpected.format(kind=type(exc).__name__).encode()
    del args
    if max_result is not None and len(message) > max_result + 2:
        message = b"er" + sentences.too_large_result.encode()
    try:
        conn.send_bytes(message)
    except MemoryError:
        conn.send_bytes(b"mm")
    conn.close()


class CappedRunner:
    """Runs work in capped processes, at most ``slots`` at once; a request waits ``wait`` seconds for a slot."""

    def __init__(self, slots: int, wait: float, sentences: Sentences, max_result: int | None = None) -> None:
        self.slots = threading.BoundedSemaphore(slots)
        self.wait, self.sentences, self.max_result = wait, sentences, max_result

    def run(self, fn: Callable, args: tuple, *, memory: int, seconds: float) -> memoryview:
        """``fn(*args)`` (a module-level function) in a process of its own: its value's pickle, or a
        ValueError with one sentence."""
        said = self.sentences
        if not self.slots.acquire(timeout=self.wait):
            raise ValueError(said.busy.format(wait=self.wait))
        try:
            ctx = forkserver()
            receive, send = ctx.Pipe(duplex=False)
            proc = ctx.Process(
                target=_child, args=(send, fn, args, memory, seconds, said, self.max_result), daemon=True
            )
            with plain_main():
                proc.start()
            send.close()
            try:
                if not receive.poll(seconds):
                    raise ValueError(said.too_slow.format(seconds=seconds))
                try:
                    limit = None if self.max_result is None else self.max_result + 2
                    message = receive.recv_bytes(limit) if limit else receive.recv_bytes()
                except (EOFError, OSError):  # the process died: the memory cap (or the kernel) ended it
                    message = b"mm"
            finally:
                receive.close()
                if proc.is_alive():
                    proc.kill()
                proc.join(5)
        finally:
            self.slots.release()
        if message.startswith(b"ok"):
            return memoryview(message)[2:]
        if message.startswith(b"er"):
            raise ValueError(message[2:].decode("utf-8", "replace"))
        raise ValueError(said.too_big.format(memory=f"{memory / 2**20:,.0f} MB"))
