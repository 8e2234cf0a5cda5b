"""Benchmark of the Check's counted work: per search, the work each check spends and the time it takes.

Run from the repository root, on a recorded students' JSON (``benchmarks/check_students.py``'s, with each run's
merges) and, with ``--big``, on the costliest input the Check takes:

    .venv/bin/python benchmarks/bench_check_work.py /tmp/integ_re_i.json [--limit N] [--unbounded] [--big]

For each differing run it runs ``bpe.check.diagnose`` as ``benchmarks/recheck_students.py`` does and records, for
every search of ``bpe.check_work`` (its name, its allowance), the work it spent (symbol rewrites) and the seconds of
CPU from its start to its return. It prints, per search: the checks that ran it, the most work one check spent and
the share of the allowance that is, how many checks used it up, and the rate (work per second of CPU, all checks
summed: what a quiet machine's wall clock would show), from which each allowance is set (the former time limit
times that rate). ``--unbounded`` lifts every allowance (not the safety net), to see how much work each search
would take to try everything. Each check's time is printed as a ratio against our own training of the same merges
on the same corpus (the reference, timed beside it), with the load average. ``--big``: one check on the largest
corpus the settings search takes (200,000 characters) with a 2,000-merge run that no known fault explains (every
search runs), and one on 5,000,000 characters (every search but the settings'; a 100 MB text, the Train page's
limit, needs more memory to train alone than the server lets a check's process have, which stops it with a
sentence).
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "benchmarks")]

from check_students import VOCAB  # noqa: E402
from faulty_trainers import CORPORA, EOT  # noqa: E402

from bpe import check_work  # noqa: E402
from bpe.check import CS336_SETUP, CS336_SPECIALS, diagnose, train_setup  # noqa: E402
from bpe.formats.student_runs import StudentRun, read_student_file  # noqa: E402

BIG_CHARS = 5_000_000
RECORDS: list[check_work.Work] = []  # every search's work in the check being run


class Recorded(check_work.Work):
    """A search's work as :class:`bpe.check_work.Work` counts it, recorded with its time when the check ends."""

    def __init__(self, search: str, units: float | None = None) -> None:
        super().__init__(search, units)
        self.started = self.last = time.process_time()
        RECORDS.append(self)

    def spend(self, units: int) -> None:
        super().spend(units)
        self.last = time.process_time()


def _student(row: dict) -> StudentRun:
    merges = [(bytes.fromhex(a), bytes.fromhex(b)) for a, b in row["student_merges"]]
    vocab = {i: bytes([i]) for i in range(256)}
    vocab[256] = EOT.encode()
    for a, b in merges:
        vocab[len(vocab)] = a + b
    return read_student_file(pickle.dumps((vocab, merges)), "run.pkl")


def _timed_check(text, student, **target) -> tuple[float, float, str]:
    """(the check's seconds, our training's seconds on the same merges, the verdict)."""
    start = time.perf_counter()
    result, _ = diagnose(text, student, CS336_SETUP, [EOT], **target)
    took = time.perf_counter() - start
    start = time.perf_counter()
    train_setup(text, CS336_SETUP, max(len(student.merges), 1), CS336_SPECIALS)
    reference = time.perf_counter() - start
    verdict = f"step {result.step} {result.kind} {result.fault or ''} {result.rule or ''}"
    return took, reference, verdict + (" [cut short]" if "stopped after" in result.cause else "")


def recorded(path: str, limit: int | None) -> None:
    rows = [r for r in json.loads(Path(path).read_text()) if r.get("differs") and "student_merges" in r]
    checks, total, total_ref = 0, 0.0, 0.0
    per_search: dict[str, list] = defaultdict(list)
    for row in rows[:limit]:
        RECORDS.clear()
        took, reference, verdict = _timed_check(CORPORA[row["corpus"]], _student(row), vocab_size=VOCAB[row["corpus"]])
        checks, total, total_ref = checks + 1, total + took, total_ref + reference
        for work in RECORDS:
            per_search[work.search].append((work.units, work.used, work.last - work.started))  # type: ignore[attr-defined]
        print(f"{row['student']:28} {row['corpus']:8} {took:6.2f} s = {took / reference:6.1f}x training  {verdict}")
    load = os.getloadavg()[0]
    print(
        f"\n{checks} checks: {total:.1f} s in all = {total / max(total_ref, 1e-9):.1f}x our training (load {load:.1f})"
    )
    print(f"{'search':10} {'checks':>6} {'most work':>12} {'of allowance':>12} {'used up':>7} {'work/s':>12}")
    for search, rows_ in sorted(per_search.items()):
        units = rows_[0][0]
        most = max(r[1] for r in rows_)
        used_up = sum(1 for r in rows_ if r[1] >= r[0])
        seconds = sum(r[2] for r in rows_)
        rate = sum(r[1] for r in rows_) / seconds if seconds else 0.0
        share = f"{most / units:.0%}" if units != float("inf") else "-"
        print(f"{search:10} {len(rows_):6} {most:12,} {share:>12} {used_up:7} {rate:12,.0f}")


def big() -> None:
    """The costliest inputs: every search runs on the largest corpora with a long run no fault explains."""
    from bpe.check_setup import MAX_SEARCH_CHARS, student_words
    from bpe.corpora import english_corpus
    from bpe.fault_replay import faulty_merges

    for chars in (MAX_SEARCH_CHARS, BIG_CHARS):
        text = english_corpus(chars)[:chars]
        merges_n = 2_000
        _, words, freqs = student_words(text, CS336_SETUP, CS336_SPECIALS)
        merges = faulty_merges(words, freqs, merges_n)
        merges[merges_n // 2], merges[merges_n // 2 + 1] = merges[merges_n // 2 + 1], merges[merges_n // 2]
        student = StudentRun("CS336 pickle", tuple(merges), byte_level=True)
        RECORDS.clear()
        took, reference, verdict = _timed_check(text, student)
        spent = ", ".join(
            f"{w.search} {w.used:,} in {w.last - w.started:.1f} s"  # type: ignore[attr-defined]
            for w in RECORDS
        )
        print(
            f"{len(text):,} characters, {merges_n:,} merges (swapped at {merges_n // 2 + 1}): {took:.1f} s = "
            f"{took / reference:.1f}x our training ({reference:.1f} s); {verdict}; work: {spent} "
            f"(load {os.getloadavg()[0]:.1f})"
        )


def _timed_to_return() -> None:
    """Each search's time taken up to its return, not its last spend (a reader's last training comes after it)."""
    import bpe.check_cause

    for name in ("find_fault", "find_count_fault", "tie_key", "find_tie_and_fault", "special_ban", "set_order"):
        search = getattr(bpe.check_cause, name)

        def timed(*args, _search=search, **options):
            before = len(RECORDS)
            try:
                return _search(*args, **options)
            finally:
                for work in RECORDS[before:]:
                    work.last = time.process_time()  # type: ignore[attr-defined]

        setattr(bpe.check_cause, name, timed)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("recorded", nargs="?", help="a check_students.py JSON with each run's merges")
    ap.add_argument("--limit", type=int, help="check only the first N differing runs")
    ap.add_argument("--unbounded", action="store_true", help="lift every allowance (the safety net stays)")
    ap.add_argument("--big", action="store_true", help="also check the costliest inputs")
    args = ap.parse_args()
    check_work.Work = Recorded  # type: ignore[misc]
    _timed_to_return()
    for module in (
        "check_loop",
        "check_reading",
        "check_setup",
        "check_set_order",
        "check_special_ban",
        "occurrence_order",
    ):
        sys.modules[f"bpe.{module}"].Work = Recorded
    if args.unbounded:
        for name in check_work.ALLOWANCES:
            check_work.ALLOWANCES[name] = float("inf")  # type: ignore[assignment]
    print(f"load {os.getloadavg()}")
    if args.recorded:
        recorded(args.recorded, args.limit)
    if args.big:
        big()


if __name__ == "__main__":
    main()
