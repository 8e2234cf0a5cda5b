"""Child processes started from a Streamlit server (the training pool in ``server.jobs``, the file readers in
``server.uploads``).

Left out: the pools themselves, which live with what they run.
"""

from __future__ import annotations

import contextlib
import sys
import types


@contextlib.contextmanager
def plain_main():
    """Start workers without the server's ``__main__``. A spawned or forkserver child first re-runs the
    parent's main module from its path, and under ``streamlit run`` that is the app script (Streamlit
    puts the running script in ``sys.modules["__main__"]``): each worker would import Streamlit,
    pandas and Altair and run the page (and a worker starting workers fails outright). An empty
    ``__main__`` while a worker starts gives the child nothing to re-run; it imports only what it
    unpickles (``server.jobs`` and ``bpe``; the ``server`` package imports nothing itself)."""
    main = sys.modules.get("__main__")
    stub = types.ModuleType("__main__")
    sys.modules["__main__"] = stub
    try:
        yield
    finally:
        if sys.modules.get("__main__") is stub:  # a script run may have put its own module there since
            sys.modules["__main__"] = main
