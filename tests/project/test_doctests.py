"""The `>>>` examples in the engine's docstrings must stay true: every bpe/ module's examples run."""

import doctest
import importlib
import pkgutil

import pytest

import bpe

MODULES = ["bpe"] + sorted(m.name for m in pkgutil.walk_packages(bpe.__path__, "bpe."))


def _examples(module) -> int:
    """How many `>>>` examples the module's own docstrings hold (what doctest should attempt)."""
    finder = doctest.DocTestFinder()
    return sum(len(test.examples) for test in finder.find(module) if test.examples)


def test_every_engine_module_is_collected():
    assert {"bpe.state", "bpe.formats.tokenizer_json", "bpe.pipeline.onig", "bpe.display.text"} <= set(MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module)
    assert result.failed == 0
    assert result.attempted == _examples(module)


def test_the_engine_has_examples_to_run():
    with_examples = [name for name in MODULES if _examples(importlib.import_module(name))]
    assert {"bpe", "bpe.config", "bpe.state", "bpe.trainer", "bpe.tokenizer", "bpe.replay"} <= set(with_examples)
