"""A minbpe ``.model``'s own settings: its split pattern as our pre-tokenizer, the first-seen tie, bytes, no special
tokens split out, and a vocabulary of 256 bytes plus its merges.

minbpe's ``train`` (Karpathy's exercise) counts pairs over the text's bytes, cut by the tokenizer's split pattern (a
``BasicTokenizer`` has none: the whole text one sequence), takes ``max(stats, key=stats.get)`` (the pair seen first
wins a tie), and never splits out a special token: those are registered after training, for encoding only. The
``.model`` keeps the pattern on its second line, so an upload says which of our pre-tokenizers it was trained with.

Left out: where the page applies these settings (``pages/check.py``) and comparing (:mod:`bpe.check`).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from .check_setup import Setup
from .formats.student_runs import StudentRun
from .pre_tokenizers import GPT2_PATTERN, GPT4_PATTERN

# minbpe's own patterns (minbpe/regex.py) and tiktoken's as we keep them: each names one of our pre-tokenizers
PATTERNS = {
    "": "none",
    r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+""": "gpt2",
    r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]++[\r\n]*|\s*[\r\n]|\s+(?!\S)|\s+""": (
        "gpt4"
    ),
    GPT2_PATTERN: "gpt2",
    GPT4_PATTERN: "gpt4",
}
NAMES = {"none": "none (a BasicTokenizer)", "gpt2": "GPT-2's", "gpt4": "GPT-4's"}


@dataclass(frozen=True)
class MinbpeSettings:
    """The settings a minbpe run was trained with. ``setup`` is None where its split pattern is none of ours;
    ``pattern`` says which it is, in words."""

    setup: Setup | None
    vocab_size: int
    pattern: str


def pattern_text(line: str) -> str:
    """The pattern on a ``.model``'s second line; a compiled pattern's repr (``regex.Regex('...', flags=...)``, as a
    ``save()`` writing ``str(self.pattern)`` leaves it) read as its string, never evaluated."""
    try:
        call = ast.parse(line, mode="eval").body
    except (SyntaxError, ValueError):
        return line
    if isinstance(call, ast.Call) and call.args and isinstance(call.args[0], ast.Constant):
        return call.args[0].value if isinstance(call.args[0].value, str) else line
    return line


def minbpe_settings(run: StudentRun) -> MinbpeSettings | None:
    """The settings of a run read from a minbpe ``.model`` (None for any other run)."""
    if run.format != "minbpe .model" or run.split_pattern is None:
        return None
    cut = PATTERNS.get(pattern_text(run.split_pattern))
    setup = Setup("first", cut, True) if cut is not None else None
    said = NAMES[cut] if cut is not None else "one of its own, none of ours"
    return MinbpeSettings(setup, 256 + len(run.merges), said)
