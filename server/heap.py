"""Long-lived objects kept out of the garbage collector's full scans (``gc.freeze``).

Streamlit, pandas and Altair are hundreds of thousands of long-lived objects, and so is a trained
run; Python's full collections would re-scan them all (measured in benchmarks/bench_pages.py).
Streamlit's own full collection after every script run is off (``runner.postScriptGC`` in
.streamlit/config.toml); Python's collector still runs one now and then. So the heap is frozen once
at start-up (:func:`freeze_heap`) and again each time a run is stored; when a run is evicted,
everything is unfrozen, collected once and frozen again (:func:`refreeze`), since frozen objects are
never collected. After either, the C allocator is asked to give its free pages back to the system
(:func:`trim`). What this leaves out: deciding what to keep (the run store in ``pages/runs.py``).
"""

from __future__ import annotations

import ctypes
import gc


def freeze_heap() -> None:
    """Move every object alive now out of the garbage collector's reach. Garbage is collected
    first, so only live objects are frozen. Called once, at start-up (``server.startup``)."""
    gc.collect()
    gc.freeze()


def refreeze(collect: bool) -> None:
    """Freeze what arrived since the last freeze (a newly stored run). With ``collect`` (a run was
    just evicted) unfreeze, collect and freeze again: without that, an evicted run's frozen objects
    were never freed (about 25 MB per training, issue 15 #4)."""
    if collect:
        gc.unfreeze()
        gc.collect()
    gc.freeze()
    trim()


def trim() -> bool:
    """Return the C heap's free pages to the system (glibc's ``malloc_trim``). A run arrives as a
    pickle of tens of MB and unpickles through a peak twice its size; an evicted run frees hundreds
    of thousands of small blocks. glibc keeps such freed memory in its heap (the resident size counted
    it as used: 182 MiB of runs kept in 325 MiB over the start, 231 after a trim), so the server's
    memory at rest was about twice its runs. A few milliseconds; False where there is no glibc."""
    try:
        return bool(ctypes.CDLL("libc.so.6").malloc_trim(0))
    except (OSError, AttributeError):
        return False
