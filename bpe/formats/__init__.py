"""The file formats, one module each; no other engine module knows how a file looks.

- :mod:`~bpe.formats.tokenizer_json`: Hugging Face ``tokenizer.json``, ours and real ones
  (:mod:`~bpe.formats.schemes` maps our training schemes to its components);
- :mod:`~bpe.formats.vocab_merges`: GPT-2's ``vocab.json`` + ``merges.txt``;
- :mod:`~bpe.formats.rank_files`: tiktoken's ``.tiktoken`` rank files;
- :mod:`~bpe.formats.training_log`: the CSV log of a training run;
- :mod:`~bpe.formats.cs336`: Stanford CS336's vocab and merges (byte strings), as JSON or a plain pickle;
- :mod:`~bpe.formats.student_runs`: a student's own run in any of the formats students write, told by structure;
- :mod:`~bpe.formats.run_file`: BPE Explorer's own run file (``.bpe``), a whole run with every step (import it
  as ``bpe.formats.run_file``: it reads the history, which this package's other formats never need);
- :mod:`~bpe.formats.fields`: the field readers they share (text, JSON, vocabulary, merges).

The formats work on tokenizers and plain values; a :class:`~bpe.Tokenizer` has no ``save`` or ``load``
of its own (as tiktoken's ``Encoding`` has none): call :func:`save` and :func:`load` here.
Left out: every other format (SentencePiece ``.model`` files, Unigram and WordLevel models).
"""

from __future__ import annotations

from .fields import without_gc
from .rank_files import PATTERNS, from_tiktoken, merges_from_ranks, reachable_merges, read_ranks
from .schemes import SPACE_SUFFIX_PATTERN
from .tokenizer_json import from_tokenizer_json, load, save, to_tokenizer_json
from .training_log import merge_rows, training_log_csv
from .vocab_merges import (
    MERGES_HEADER,
    export_problems,
    from_vocab_merges,
    to_vocab_merges,
    vocab_byte_level_hint,
)

__all__ = [
    "MERGES_HEADER",
    "PATTERNS",
    "SPACE_SUFFIX_PATTERN",
    "export_problems",
    "from_tiktoken",
    "from_tokenizer_json",
    "from_vocab_merges",
    "load",
    "merges_from_ranks",
    "reachable_merges",
    "read_ranks",
    "save",
    "to_tokenizer_json",
    "to_vocab_merges",
    "merge_rows",
    "training_log_csv",
    "vocab_byte_level_hint",
    "without_gc",
]
