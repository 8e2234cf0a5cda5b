"""benchmarks/app_without.py patches parts of the app out by name; check the names still exist.

If a panel function were renamed, the benchmark's patch would fail at run time (``_replace``
raises), but only when someone runs the benchmark; this test says so on every test run.
"""

from __future__ import annotations

import inspect
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import app_without  # noqa: E402


@pytest.mark.parametrize("part", app_without.PARTS)
def test_patches_replace_what_exists_with_the_same_arguments(part):
    found = app_without.patches([part])
    assert found, part
    for owner, name, stand_in in found:
        assert hasattr(owner, name), f"{part}: {owner!r} has no {name}"
        params = inspect.signature(stand_in).parameters.values()
        if any(p.kind is p.VAR_POSITIONAL for p in params):
            continue  # takes anything (Streamlit's own methods)
        real = inspect.unwrap(getattr(owner, name))
        assert len(inspect.signature(real).parameters) == len(params), f"{part}: {name}"


def test_replace_refuses_a_missing_name():
    with pytest.raises(AttributeError, match="no 'gone'"):
        app_without._replace(object(), "gone", None)
