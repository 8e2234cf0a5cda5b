"""The Check run again on students' recorded merges: a new version of the Check measured without their code.

``benchmarks/check_students.py`` records each student's merges in its JSON (``student_merges``, hex byte pairs). This
reads such a file, checks each differing run again as the Check page checks a CS336 pickle (the vocabulary rebuilt
from the 256 bytes, the special token and the merges; the vocabulary size as ``check_students.VOCAB``) and writes the
same rows with the new verdicts, for a scorer to read. Students whose loops change their merges from one run to the
next keep the merges recorded, so both versions are judged on the same run. ``--same`` checks the equal runs too.

    .venv/bin/python benchmarks/recheck_students.py /tmp/students_k.json /tmp/students_k_new.json [--same]
"""

from __future__ import annotations

import argparse
import json
import pickle
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "benchmarks")]

from check_students import VOCAB  # noqa: E402
from faulty_trainers import CORPORA, EOT  # noqa: E402

from bpe.check import CS336_SETUP, diagnose  # noqa: E402
from bpe.formats.student_runs import read_student_file  # noqa: E402


def recheck(row: dict) -> dict:
    """``row`` with the Check's verdict on its recorded merges."""
    merges = [(bytes.fromhex(a), bytes.fromhex(b)) for a, b in row["student_merges"]]
    vocab = {i: bytes([i]) for i in range(256)}
    vocab[256] = EOT.encode()
    for a, b in merges:
        vocab[len(vocab)] = a + b
    run = read_student_file(pickle.dumps((vocab, merges)), "run.pkl")
    result, _ = diagnose(CORPORA[row["corpus"]], run, CS336_SETUP, [EOT], vocab_size=VOCAB[row["corpus"]])
    return {**row, "step": result.step, "kind": result.kind, "fault": result.fault, "rule": result.rule,
            "cause": result.cause}  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("recorded", help="a check_students.py JSON")
    ap.add_argument("out", help="the same rows, with the verdicts of this checkout's Check")
    ap.add_argument("--same", action="store_true", help="also check the runs that equal ours")
    args = ap.parse_args()
    rows = json.loads(Path(args.recorded).read_text())
    for i, row in enumerate(rows):
        if "student_merges" not in row or not (row["differs"] or args.same):
            continue
        started = time.perf_counter()
        rows[i] = recheck(row)
        print(f"{row['student']:28} {row['corpus']:8} {time.perf_counter() - started:5.1f} s  step {rows[i]['step']}  "
              f"{rows[i]['kind']} {rows[i]['fault'] or ''} {rows[i]['rule'] or ''}", flush=True)  # fmt: skip
    Path(args.out).write_text(json.dumps(rows))


if __name__ == "__main__":
    main()
