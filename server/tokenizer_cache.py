"""A run's tokenizer at one step, made once and shared by every session, kept in the run's own cache.

The downloads and the Encode page ask for the tokenizer of a run's step on every rerun; making one walks the
whole vocabulary. It is kept in the run's :class:`~bpe.run_cache.RunCache`, so it goes when the run is
evicted and is counted with it: a cache of its own would keep tokenizers of runs long gone, outside the
run budget.

Left out: which run (``ui/runs.py`` trains or finds it) and the store's budget (``server/run_store.py``).
"""

from __future__ import annotations

import bpe
from server import heap

# A tokenizer's memory per vocabulary entry, about (as tracemalloc sees it)
TOKENIZER_BYTES_PER_TOKEN = 400


def tokenizer_at(history: bpe.History, step: int) -> bpe.Tokenizer:
    """The run's tokenizer as at ``step``."""
    made = []

    def make() -> bpe.Tokenizer:
        made.append(True)
        return bpe.Tokenizer.from_state(history.state(step))

    tok = history.cache.get_or_make(("tokenizer", step), make, lambda t: TOKENIZER_BYTES_PER_TOKEN * len(t.vocab))
    if made:
        heap.refreeze(False)  # its objects join the run's frozen ones, which full collections skip
    return tok
