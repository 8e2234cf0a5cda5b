"""The students' benchmark runs a student's checkout as the student ran it: siblings imported by bare name, loggers stubbed."""

from __future__ import annotations

import pickle
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))

import check_students  # noqa: E402

ADAPTER = """
from cs336_basics.trainer import train


def run_train_bpe(input_path, vocab_size, special_tokens, **kwargs):
    return train(input_path, vocab_size, special_tokens)
"""
TRAINER = """
import helper  # a sibling in cs336_basics, imported as the student's own scripts run it from that folder


def train(input_path, vocab_size, special_tokens):
    return helper.vocab(), [(b"a", b"b")]
"""
HELPER = """
def vocab():
    return {i: bytes([i]) for i in range(256)} | {256: b"ab"}
"""


LOGGING_HELPER = """
from loguru import logger
from icecream import ic
from sympy import Integer  # imported by an editor's auto-import, never used in training


def vocab():
    logger.info("training")
    ic("vocab")
    return {i: bytes([i]) for i in range(256)} | {256: b"ab"}
"""


STORAGE_HELPER = """
import zarr  # the student's encoder writes token arrays with it; training never does
from mpmath.libmp.libmpi import MAX  # an editor's auto-import, never used


def vocab():
    return {i: bytes([i]) for i in range(256)} | {256: b"ab"}
"""


SCRIPT_HELPER = """
import ujson as json  # the student's trainer saves its vocabulary with it; the harness never reads that file
from absl import app, flags  # flags for the student's own command-line scripts
from pydantic.experimental.pipeline import transform  # an editor's auto-import, never used

_SIZE = flags.DEFINE_integer("vocab_size", 32000, "size")


def vocab():
    json.dump({}, None)
    return {i: bytes([i]) for i in range(256)} | {256: b"ab"}
"""


HDF5_HELPER = """
import h5py  # the student's encoder stores token ids in an HDF5 file; training never does
import swanlab  # experiment logging for the student's training script
from ptflops import get_model_complexity_info  # FLOP counts for the student's model
from torchgen.api.types import boolT  # an editor's auto-import, never used


def vocab():
    return {i: bytes([i]) for i in range(256)} | {256: b"ab"}
"""


def run(tmp_path, helper):
    student = tmp_path / "owner@0000000"
    for rel, text in {
        "tests/adapters.py": ADAPTER,
        "cs336_basics/__init__.py": "",
        "cs336_basics/trainer.py": TRAINER,
        "cs336_basics/helper.py": helper,
    }.items():
        (student / rel).parent.mkdir(parents=True, exist_ok=True)
        (student / rel).write_text(text)
    corpus = tmp_path / "corpus.txt"
    corpus.write_text("ab ab ab")
    return check_students.run_student(student, corpus, 257)


def test_a_student_module_importing_a_sibling_by_bare_name_runs(tmp_path):
    data, why = run(tmp_path, HELPER)
    assert why == ""
    vocab, merges = pickle.loads(data)
    assert merges == [(b"a", b"b")] and vocab[256] == b"ab"


def test_a_student_module_logging_with_loguru_or_icecream_runs(tmp_path):
    data, why = run(tmp_path, LOGGING_HELPER)
    assert why == ""
    vocab, merges = pickle.loads(data)
    assert merges == [(b"a", b"b")] and vocab[256] == b"ab"


def test_a_student_module_importing_zarr_or_mpmath_runs(tmp_path):
    data, why = run(tmp_path, STORAGE_HELPER)
    assert why == ""
    vocab, merges = pickle.loads(data)
    assert merges == [(b"a", b"b")] and vocab[256] == b"ab"


def test_a_student_module_importing_absl_pydantic_or_ujson_runs(tmp_path):
    data, why = run(tmp_path, SCRIPT_HELPER)
    assert why == ""
    vocab, merges = pickle.loads(data)
    assert merges == [(b"a", b"b")] and vocab[256] == b"ab"


def test_a_student_module_importing_h5py_swanlab_ptflops_or_torchgen_runs(tmp_path):
    data, why = run(tmp_path, HDF5_HELPER)
    assert why == ""
    vocab, merges = pickle.loads(data)
    assert merges == [(b"a", b"b")] and vocab[256] == b"ab"


def test_an_adapter_importing_its_test_helper_by_bare_name_runs(tmp_path):
    student = tmp_path / "owner@0000000"
    (student / "tests").mkdir(parents=True)
    (student / "tests" / "common.py").write_text("def vocab():\n    return {i: bytes([i]) for i in range(256)}\n")
    (student / "tests" / "adapters.py").write_text(
        "from common import vocab\n\n\ndef run_train_bpe(input_path, vocab_size, special_tokens, **kwargs):\n"
        "    return vocab(), []\n"
    )
    corpus = tmp_path / "corpus.txt"
    corpus.write_text("ab ab ab")
    data, why = check_students.run_student(student, corpus, 257)
    assert why == ""
    vocab, merges = pickle.loads(data)
    assert merges == [] and vocab[97] == b"a"
