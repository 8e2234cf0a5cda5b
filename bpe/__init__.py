"""BPE Explorer's engine: pre-tokenizers, a step-by-step BPE/WordPiece trainer, a
tokenizer, and Hugging Face file formats. Pure Python; it never imports Streamlit
and never prints. The public API is re-exported here.

Left out: the user interface (``pages/``), sessions, and keeping runs for many users (the pages'
run store does that).

>>> import bpe
>>> counts = bpe.parse_word_counts("hug 10\\npug 5\\npun 12\\nbun 4\\nhugs 5")
>>> [s.new_token for s in bpe.train_steps(counts, num_merges=3)][1:]
['ug', 'un', 'hug']
"""

from __future__ import annotations

from . import counting, formats, hub, models, pipeline, replay
from .config import (
    ALGORITHMS,
    STOP_SENTENCES,
    TIE_RULE_SENTENCES,
    TIE_RULES,
    Pair,
    Span,
    TrainConfig,
)
from .formats import (
    export_problems,
    from_tiktoken,
    from_tokenizer_json,
    from_vocab_merges,
    load,
    save,
    to_tokenizer_json,
    to_vocab_merges,
    training_log_csv,
)
from .history import History
from .pre_tokenizers import (
    BYTE_LEVEL,
    END_OF_WORD,
    MAX_WORD_COUNT,
    PRE_TOKENIZERS,
    bytes_to_unicode,
    count_words,
    is_byte_level,
    parse_word_counts,
    pre_tokenize,
    pre_tokenize_with_offsets,
    text_from_bytes,
    unicode_to_bytes,
)
from .replay import TraceStep, WordTrace
from .state import Contribution, StepChanges, TrainState
from .tokenizer import Encoding, Tokenizer
from .trainer import first_difference, run_training, train_steps
from .word_count_tables import looks_like_word_counts, table_to_lines


def train(corpus, *, unk_token: str | None = "[UNK]", **options) -> Tokenizer:
    """Train to the end and return the :class:`Tokenizer` (same options as :func:`train_steps`)."""
    return Tokenizer.from_state(run_training(corpus, **options).final, unk_token=unk_token)


__all__ = [
    "ALGORITHMS",
    "BYTE_LEVEL",
    "END_OF_WORD",
    "MAX_WORD_COUNT",
    "PRE_TOKENIZERS",
    "STOP_SENTENCES",
    "TIE_RULES",
    "TIE_RULE_SENTENCES",
    "Contribution",
    "Encoding",
    "History",
    "Pair",
    "Span",
    "StepChanges",
    "TrainConfig",
    "TrainState",
    "Tokenizer",
    "first_difference",
    "TraceStep",
    "WordTrace",
    "bytes_to_unicode",
    "count_words",
    "is_byte_level",
    "looks_like_word_counts",
    "table_to_lines",
    "parse_word_counts",
    "pre_tokenize",
    "pre_tokenize_with_offsets",
    "run_training",
    "text_from_bytes",
    "train",
    "train_steps",
    "unicode_to_bytes",
    "export_problems",
    "from_tokenizer_json",
    "from_vocab_merges",
    "load",
    "save",
    "to_tokenizer_json",
    "to_vocab_merges",
    "training_log_csv",
    "from_tiktoken",
    "models",
    "counting",
    "formats",
    "hub",
    "pipeline",
    "replay",
]
