"""Benchmark of the Check's diagnosis on the page's largest inputs: 200,000 characters, 2,000 merges.

Run from the repository root:

    .venv/bin/python benchmarks/bench_check.py

For a correct CS336 run, for runs made by some of :mod:`bpe.merge_faults`' faulty loops (2,000
merges each, on English text from ``bpe.corpora.english_corpus`` as one document), and for a run that no known
fault explains (the correct run with two merges swapped: every cause is tried, a tie rule with each loop fault
too, before what is certain is said), it times
``bpe.check.diagnose`` (the settings search, then the comparison and the replays, each search within its
allowance of work, ``bpe.check_work.ALLOWANCES``) and prints each time as a ratio against one training run of ours of the
same 2,000 merges, timed beside it in the same process, with the verdict's kind and fault, the check's CPU time, and
whether the check's safety net (``bpe.check_work.BACKSTOP_SECONDS``) cut a search short.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run as a script from anywhere

from bpe.check import CS336_SETUP, CS336_SPECIALS, diagnose, train_setup
from bpe.check_setup import student_words
from bpe.corpora import english_corpus
from bpe.fault_replay import faulty_merges
from bpe.formats.student_runs import StudentRun
from bpe.merge_faults import CORRECT, FAULTS

CHARS, MERGES = 200_000, 2_000


def main() -> None:
    text = english_corpus(CHARS)[:CHARS]
    _, words, freqs = student_words(text, CS336_SETUP, CS336_SPECIALS)
    start = time.perf_counter()
    train_setup(text, CS336_SETUP, MERGES, CS336_SPECIALS)
    reference = time.perf_counter() - start
    print(f"reference: our training, {len(text):,} characters, {MERGES:,} merges: {reference:.2f} s")
    names = ("correct", "left-symbol", "banned", "frozen", "stale", "adjacent", "overlap-subtract", "substring")
    for name in (*names, "unexplained"):
        merges = faulty_merges(words, freqs, MERGES, FAULTS.get(name, CORRECT))
        if name == "unexplained":
            merges[MERGES // 2], merges[MERGES // 2 + 1] = merges[MERGES // 2 + 1], merges[MERGES // 2]
        student = StudentRun("CS336 pickle", tuple(merges), byte_level=True)
        start, cpu = time.perf_counter(), time.process_time()
        result, _ = diagnose(text, student, CS336_SETUP, CS336_SPECIALS)
        took, cpu = time.perf_counter() - start, time.process_time() - cpu
        net = "cut by the net" if "stopped after" in result.cause else ""
        print(
            f"{name:16} step {result.step!s:>5}  {result.kind:11} {result.fault or '':16} "
            f"{took:6.2f} s = {took / reference:5.1f}x our training ({cpu:5.2f} s CPU, load {os.getloadavg()[0]:.1f}) "
            f"{net}"
        )


if __name__ == "__main__":
    main()
