"""The run store's memory (issue 22 #9): what it counts for a run is what the run costs in the serving
process, and the C heap gives freed memory back."""

from __future__ import annotations

import pickle
import tracemalloc
from dataclasses import replace

import pytest
from test_jobs import fresh

from pages import runs
from pages.settings import preset_settings
from server import heap

pytestmark = pytest.mark.timeout(240)


def test_the_store_counts_what_a_run_costs_in_the_server():
    """Each run's accounted size against its cost measured here: the bytes tracemalloc sees allocated
    by unpickling it (what the server does with the pool's answer), the step-view allowance aside."""
    for settings in (fresh(limit_value=30), fresh(limit_value=300), replace(preset_settings("hug"))):
        history = runs.train(settings, block=True)
        counted = runs.RUNS.runs[runs.run_key(settings)][1] - runs.VIEWS_ALLOWANCE
        data = pickle.dumps(history)
        tracemalloc.start()
        try:
            copy = pickle.loads(data)
            cost = tracemalloc.get_traced_memory()[0]
        finally:
            tracemalloc.stop()
        assert copy.num_merges == history.num_merges
        assert 0.5 * cost <= counted <= 2 * cost, (counted, cost)


def test_trim_gives_free_memory_back():
    assert heap.trim() in (True, False)  # callable everywhere; True where glibc had pages to return
