"""benchmarks/app_without.py patches parts of the app out by name; check the names still exist.

If a panel function were renamed, the benchmark's patch would fail at run time (``_replace``
raises), but only when someone runs the benchmark; this test says so on every test run.
"""

from __future__ import annotations

import importlib
import inspect
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import app_without  # noqa: E402


def _owner(path: str):
    module, _, cls = path.partition(":")
    owner = importlib.import_module(module)
    return getattr(owner, cls) if cls else owner


@pytest.mark.parametrize("part", app_without.PARTS)
def test_patch_targets_exist(part):
    for owner_path, name in app_without.TARGETS[part]:
        assert hasattr(_owner(owner_path), name), f"{part}: {owner_path} has no {name}"


def test_replacements_take_the_same_arguments():
    """The stand-ins for the app's own functions accept the arguments the app passes."""
    from app_pages import panels

    expected = {"_pair_table_html": 2, "_history_html": 2, "_splits_html": 3, "_vocabulary_html": 2,
                "corpus_and_settings": 1}
    for name, count in expected.items():
        real = inspect.unwrap(getattr(panels, name))
        assert len(inspect.signature(real).parameters) == count, name


def test_replace_refuses_a_missing_name():
    with pytest.raises(AttributeError, match="no 'gone'"):
        app_without._replace(object(), "gone", None)
