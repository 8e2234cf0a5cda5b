"""The text side of a real ``tokenizer.json`` (and of a ``.tiktoken`` file), one component a module,
as the ``tokenizers`` library lays them out.

- :mod:`~bpe.pipeline.piece`: :class:`Piece`, text with the original offsets of each character;
- :mod:`~bpe.pipeline.onig`: regexes read with Oniguruma's meaning, within the request's budget
  (:mod:`bpe.budget`: one time and text-growth budget per encode, decode or load);
- :mod:`~bpe.pipeline.normalizers`, :mod:`~bpe.pipeline.pre_tokenizers`, :mod:`~bpe.pipeline.decoders`,
  :mod:`~bpe.pipeline.post_processors` (offset trimming), :mod:`~bpe.pipeline.added_tokens`;
- :mod:`~bpe.pipeline.pipeline`: :class:`Pipeline`, the components run in order;
- :mod:`~bpe.pipeline.encoder`: :class:`PipelineText`, the pipeline running a model (:mod:`bpe.models`);
- :mod:`~bpe.pipeline.rank_encoder`: a rank file's text to ids, as tiktoken's ``encode_ordinary``.

Everything here follows the ``tokenizers`` library's Rust source so that a file's tokenizer cuts
text, reports offsets and decodes exactly as ``tokenizers`` 0.23 does. Left out: reading the file
(:mod:`bpe.formats`), and the training pre-tokenizers (:mod:`bpe.pre_tokenizers`, a different table).
"""

from __future__ import annotations

from .decoders import DECODERS, build_decoder
from .encoder import PipelineText
from .normalizers import NORMALIZERS, build_normalizer
from .onig import compile_pattern, find_matches, onig_pattern, possessive_to_onig
from .piece import Piece
from .pipeline import Pipeline
from .post_processors import POST_PROCESSORS, offset_trimming, trim_offsets
from .pre_tokenizers import FILE_PRE_TOKENIZERS, build_pre_tokenizer

__all__ = [
    "DECODERS",
    "FILE_PRE_TOKENIZERS",
    "NORMALIZERS",
    "POST_PROCESSORS",
    "Piece",
    "Pipeline",
    "PipelineText",
    "build_decoder",
    "build_normalizer",
    "build_pre_tokenizer",
    "compile_pattern",
    "find_matches",
    "offset_trimming",
    "onig_pattern",
    "possessive_to_onig",
    "trim_offsets",
]
