"""One budget per request: how long a file's components may run and how much text they may make.

A request (one encode, one decode, one load) opens a budget with :func:`request`; every regex a file
supplies then runs with :func:`regex_timeout` (what is left of the request's :data:`SECONDS`, not a
fresh limit per word), and every normaliser or decoder that can lengthen text asks :func:`grow` first,
with the length it *would* make, before it builds the string and its offsets. A stretch of text may
grow to at most :data:`GROWTH` times its length plus :data:`SLACK` characters over the whole request:
Unicode's longest decomposition (U+FDFA, 18 characters under NFKD) is a single character among
ordinary ones, BertNormalizer spaces every CJK character to three, Hangul decomposes to three jamo;
a ``Replace`` of the empty pattern by 1,000 characters (6,000 characters -> 6,003,000) is stopped.
Each limit, when reached, raises a ValueError whose one sentence names it.

Budgets are per thread of execution (a :class:`contextvars.ContextVar`): sessions served in threads
each have their own. Outside any request (a component called directly) the limits apply to that one
call.

Left out: our own training schemes' fixed patterns (:mod:`bpe.pre_tokenizers`), which no file supplies,
and the model's merges (bounded by the text the budget already bounds).

>>> with request(10):
...     grow(4166, "normalizer")  # 10 + 4,166 = 8 x 10 + 4,096 characters
>>> with request(10):
...     grow(4167, "normalizer")
Traceback (most recent call last):
...
ValueError: This tokenizer's normalizer would turn 10 characters into 4,177 (more than 8 times the text): BPE Explorer stops there.
"""

from __future__ import annotations

import contextlib
import contextvars
import time

SECONDS = 5.0  # the time one request (an encode, a decode, a load) may spend in a file's regexes
TOTAL_SECONDS = 20.0  # the time one request may take in all (checked word by word)
GROWTH = 8  # a request's text may grow to GROWTH x its length + SLACK characters, no more
SLACK = 4096
_TINY = 0.001  # the least timeout a regex call gets (the deadline is checked before each call)


class Budget:
    """The deadline and the character allowance of one request."""

    __slots__ = ("deadline", "end", "chars", "allowed", "made")

    def __init__(self, chars: int) -> None:
        now = time.monotonic()
        self.deadline = now + SECONDS
        self.end = now + TOTAL_SECONDS
        self.chars = chars
        self.allowed = GROWTH * chars + SLACK
        self.made = 0  # characters added so far


_current: contextvars.ContextVar[Budget | None] = contextvars.ContextVar("bpe_budget", default=None)


@contextlib.contextmanager
def request(chars: int):
    """A fresh budget for a request on ``chars`` characters of text, for the ``with`` block."""
    token = _current.set(Budget(chars))
    try:
        yield
    except TimeoutError:  # the regex package's, when a call outlives regex_timeout()
        raise_timeout()
    finally:
        _current.reset(token)


def _budget(chars: int) -> Budget:
    return _current.get() or Budget(chars)


def regex_timeout() -> float:
    """Seconds the next regex call may run: what is left of the request's :data:`SECONDS`."""
    b = _current.get()
    if b is None:
        return SECONDS
    left = b.deadline - time.monotonic()
    if left <= 0:
        raise_timeout()
    return max(left, _TINY)


def check_time(doing: str = "on this text", fix: str = "try a shorter text") -> None:
    """Raise a ValueError once the request has run longer than :data:`TOTAL_SECONDS`."""
    b = _current.get()
    if b is not None and time.monotonic() > b.end:
        raise ValueError(
            f"This tokenizer took longer than {TOTAL_SECONDS:g} seconds {doing} (the limit for one "
            f"request) and was stopped: {fix}."
        )


def raise_timeout() -> None:
    """The sentence for a request whose regexes ran out of time."""
    raise ValueError(
        f"This tokenizer's patterns ran longer than {SECONDS:g} seconds on this text (the limit for one "
        "request) and were stopped: try a shorter text or another file."
    )


def grow(new_length: int, what: str, old_length: int = 0) -> None:
    """Allow a component to turn ``old_length`` characters into ``new_length``, or raise a ValueError:
    the request's text may grow by at most :data:`GROWTH` times plus :data:`SLACK` characters."""
    b = _budget(old_length)
    added = new_length - old_length
    if added <= 0:
        return
    if b.chars + b.made + added > b.allowed:
        start = b.chars if _current.get() is not None else old_length
        raise ValueError(
            f"This tokenizer's {what} would turn {start:,} characters into {start + b.made + added:,} "
            f"(more than {GROWTH} times the text): BPE Explorer stops there."
        )
    b.made += added
