"""A run's identity: a digest of the settings it was trained with, so no table holds its corpus twice.

The job table and the run store look runs up by this key, never by the settings themselves: a pasted
corpus is megabytes, and a key is 64 characters. A session keeps its last few keys in a small memo
(settings -> key, an ``OrderedDict`` the page keeps in its session state), so a 5 MB paste is digested once, not on every
click; the memo goes with the session.

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Options:
...     text: str
>>> settings_digest(Options("ab")) == settings_digest(Options("ab")) != settings_digest(Options("abc"))
True

Left out: the settings themselves (``ui/settings.py``) and the runs kept by key (``server/run_store.py``).
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from collections.abc import Hashable
from dataclasses import fields
from typing import Any

from server.corpus_form import utf8_chunks

RUN_KEYS_KEPT = 2  # per session: its settings and the sidebar's preview of them (without forced merges)


def settings_digest(settings: Any) -> str:
    """The SHA-256 of every field of a settings dataclass, each with its name and length: the text is hashed
    as it is, not its ``repr`` (escaping a 5 MB text took 50 ms)."""
    h = hashlib.sha256()
    for f in fields(settings):
        value = getattr(settings, f.name)
        value = value if isinstance(value, str) else repr(value)
        # encoded a chunk at a time: a 100 MB corpus encoded whole was another 100 MB held (twice, with its prefix)
        nbytes = len(value) if value.isascii() else sum(map(len, utf8_chunks(value)))
        h.update(f"{f.name}:{nbytes}:".encode())
        for chunk in utf8_chunks(value):
            h.update(chunk)
    return h.hexdigest()


def run_key(settings: Hashable, memo: OrderedDict | None = None) -> str:
    """The key of the run trained with ``settings``; ``memo`` (a session's, settings -> key) keeps the last
    RUN_KEYS_KEPT of them, least recently used first."""
    if memo is not None and (key := memo.get(settings)) is not None:
        memo.move_to_end(settings)
        return key
    key = settings_digest(settings)
    if memo is not None:
        memo[settings] = key
        while len(memo) > RUN_KEYS_KEPT:
            memo.popitem(last=False)
    return key


def stopped_key(key: str) -> str:
    """Where the merges made before Stop are kept: apart from the full run, so "Train again" trains
    that one, and a session that did not press Stop never gets the shorter run for its settings."""
    return key + "/stopped"
