"""The `>>>` examples in the engine's docstrings must stay true."""

import doctest
import importlib

import pytest

MODULES = ["bpe", "bpe.pre_tokenizers", "bpe.trainer", "bpe.tokenizer", "bpe.formats.tokenizer_json"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0 and result.failed == 0
