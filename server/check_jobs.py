"""The Check page's work off the serving process: a student's files read, and compared with our run, each in a process of its own with a time and a memory limit.

A student's files are whatever a student uploads: a tiny pickle of nested lists that share their items,
or a pasted Python literal of megabytes, read in the serving process would freeze every session (Python's
parsers and ``repr()`` hold the interpreter lock), and a comparison inside the stated limits costs seconds
of CPU (figures in ``docs/benchmarks.md``).
Here each request (:func:`read_run`, :func:`compare`) runs in a process started from the ``forkserver``
(never a copy of the server), one at a time (:data:`CHECKERS`), with a memory cap (``RLIMIT_AS``,
:data:`CHECK_MEMORY`) and a time limit (:data:`READ_SECONDS`, :data:`COMPARE_SECONDS`: the server kills
it then, and the process ends itself by ``SIGALRM`` shortly after even if the server is gone). What
comes back is small and bounded (:data:`MAX_RESULT_BYTES`: the first merges, our settings ranked), and
every failure, running out of memory included, comes back as one sentence, never a traceback.

These functions are the page's one way into :mod:`bpe.check`, :mod:`bpe.check_saved` (a saved run, read
here from its file's bytes) and :mod:`bpe.formats.student_runs`:
what they take may grow (keyword arguments) without the page changing.

A text held by its digest (``server/stored_text.py``: a long uploaded corpus) goes to the check's process as
its digest and the store's address, and is read there from the store, as a training worker reads it
(``server/jobs.py``): the serving process never holds it, nor a pickled copy of it.

This module imports only ``bpe`` and ``server.jobs`` (never Streamlit; the corpus store only when a text is
held by its digest), so its processes stay small.
Left out: drawing the result (``pages/check.py``) and caching it (the page's ``st.cache_data``).
"""

from __future__ import annotations

import pickle
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from bpe import check, check_saved
from bpe.cli import describe
from bpe.config import shown
from bpe.formats import run_file
from bpe.formats.student_runs import StudentRun, combine, read_student_file, read_student_text
from server import jobs
from server.capped import CappedRunner, Sentences

# -- limits (stated in the UI and README) ---------------------------------------------------------
CHECK_MEMORY = 1 << 30  # address space of one check's process
READ_SECONDS = 20.0  # reading a student's files (5 MB at most each)
COMPARE_SECONDS = 60.0  # the comparison and the settings search (their searches: bpe.check_work's safety net, 40 s)
WAIT_SECONDS = 120.0  # how long a check waits for its turn while other sessions' checks run
CHECKERS = 1  # checks at once (the machine's other core is the server's)
MAX_RESULT_BYTES = 8 << 20  # what a check may send back (2,000 merges of long tokens fit)
MAX_RUN_BYTES = 4 << 20  # the bytes of the kept merges' tokens a run may hold
STORED_GONE = "The corpus is no longer in the server's store (old corpora are removed to make room): upload it again."


# -- what a check's process runs (pure: no Streamlit) ---------------------------------------------
def _read(files: Sequence[tuple[str, bytes]], pasted: str, max_merges: int) -> tuple[StudentRun, int] | None:
    """The student's run from the files, or else the pasted text: (the run cut to its first ``max_merges``
    merges, how many merges it has), or None when there is neither."""
    if files:
        run = combine([read_student_file(data, f"The file {shown(name)}") for name, data in files])
    elif pasted.strip():
        run = read_student_text(pasted, "The pasted text")
    else:
        return None
    total = len(run.merges)
    run = replace(run, merges=run.merges[:max_merges], special_tokens=tuple(dict.fromkeys(run.special_tokens)))
    held = sum(len(a) + len(b) for a, b in run.merges) + sum(len(t) for t in run.special_tokens)
    if held > MAX_RUN_BYTES:
        raise ValueError(
            f"The run's first {len(run.merges):,} merges and its special tokens hold {held:,} bytes of tokens; the "
            f"check reads runs of up to {MAX_RUN_BYTES:,} (a real run's tokens are a few bytes each)."
        )
    return run, total


def _compare(source: str, preset: str, text, counts: str, student: StudentRun, setup, specials: tuple, target):
    """The comparison (without our run's history, which the page does not need) and the settings ranking.
    ``text``: the text, or ``(store address, digest)`` of a text held by its digest, read here from the store.
    ``target``: the student's target size, as ``(("vocab_size" or "num_merges"), size)`` pairs."""
    if isinstance(text, tuple):
        text = _stored_text(*text)
    corpus = jobs.corpus_of(source, preset, text, counts)
    result, ranked = check.diagnose(corpus, student, setup, specials, **dict(target))
    return replace(result, history=None), ranked


def _stored_text(where: str, key: str) -> str:
    """The text stored under ``key`` in the store at ``where``, or ValueError saying it is gone."""
    from server import corpus_store  # only a check given a digest needs the store (SQLite or Redis)

    try:
        found = corpus_store.reader(where).get(key)
    except corpus_store.StoreUnavailable as exc:
        raise ValueError(str(exc)) from None
    if found is None or found[0] != "text":
        raise ValueError(STORED_GONE)
    return found[1]


def _compare_saved(data: bytes, student: StudentRun, target):
    """The comparison with a saved run (a run file's bytes), the settings ranking, and what the run holds."""
    saved = run_file.loads(data)
    result, ranked = check_saved.compare_saved(saved, student, **dict(target))
    return replace(result, history=None), ranked, describe(saved)


_RUNNER = CappedRunner(
    CHECKERS,
    WAIT_SECONDS,
    Sentences(
        busy="The server has been checking other sessions' runs for over {wait:.0f} s: try again in a minute.",
        too_slow="The check took longer than its {seconds:.0f} s limit, so it was stopped: try a smaller corpus or "
        "fewer merges.",
        too_big="The check needed more than the {memory} of memory one check may use, so it was stopped: upload a "
        "smaller run or pick a smaller corpus.",
        unexpected="The check failed unexpectedly ({kind}); please report it.",
        too_deep="The run nests too deeply to read: save plain lists of pairs.",
        too_large_result="The check's result is too large to send back: upload a run with shorter tokens.",
    ),
    max_result=MAX_RESULT_BYTES,
)


def run_isolated(fn: Callable, *args, memory: int = CHECK_MEMORY, seconds: float = COMPARE_SECONDS) -> Any:
    """``fn(*args)`` (a module-level function, pure) run in a process of its own: its value, or a ValueError
    with one sentence when it fails, needs more than ``memory`` bytes or ``seconds``, or waits too long."""
    pickled = _RUNNER.run(fn, args, memory=memory, seconds=seconds)
    return pickle.loads(pickled)  # our own process's pickle of plain dataclasses


def read_run(files: Sequence[tuple[str, bytes]], pasted: str, max_merges: int) -> tuple[StudentRun, int] | None:
    """A student's run from ``files`` (name, contents), or else from ``pasted`` text, read off the server:
    (the run cut to its first ``max_merges`` merges, how many it has), or None when both are empty.
    ValueError with what to fix."""
    if not files and not pasted.strip():
        return None
    return run_isolated(_read, list(files), pasted, max_merges, seconds=READ_SECONDS)


def compare(source: str, preset: str, text, counts: str, student: StudentRun, setup, specials: tuple, target=()):
    """(:func:`bpe.check.diagnose`'s comparison without our run's history, and its ranking of our settings)
    for the corpus these widgets describe, computed off the server. ``text``: the text, or a
    ``server.stored_text.StoredText`` (a text held by its digest: the check's process reads it from the store)."""
    from server import corpus_store  # here, not at the top: the check's processes need neither
    from server.stored_text import StoredText

    if isinstance(text, StoredText):
        text = (corpus_store.address(corpus_store.store()), text.digest)
    return run_isolated(_compare, source, preset, text, counts, student, setup, tuple(specials), tuple(target))


def compare_saved(data: bytes, student: StudentRun, target=()):
    """(:func:`bpe.check_saved.compare_saved`'s comparison without the run's history, its ranking of our
    settings, the saved run described in a few lines) for a run file's bytes, computed off the server."""
    return run_isolated(_compare_saved, data, student, tuple(target))
