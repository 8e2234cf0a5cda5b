"""A full run of the Train page (what opening a session, or any rerun outside the step view, costs the serving
process), in two checkouts of the app side by side: the reference and this one, interleaved, so the machine's
load hits both alike. AppTest in a child process per checkout and round; each round opens a fresh session on the
1 MB preset (trained once, by the first), then times one more full run of it. Prints each tree's median, the
ratio and the load average.

    git archive <ref> | tar -x -C /tmp/ref && ln -s "$PWD/.venv" /tmp/ref/.venv
    .venv/bin/python benchmarks/bench_full_run.py /tmp/ref .            # 8 sessions a tree, 2 rounds
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
from pathlib import Path

CHILD = r"""
import os, sys, time
root = sys.argv[1]
sys.path[:0] = [root, root + "/tests"]
os.chdir(root)
from streamlit.testing.v1 import AppTest
from apptest_support import APP, settle
for _ in range(int(sys.argv[2])):
    at = AppTest.from_file(APP, default_timeout=600)
    at.query_params["preset"] = "python-docs"
    settle(at.run())
    started = time.perf_counter()
    at.run()
    print("run", time.perf_counter() - started, flush=True)
"""


def runs(tree: Path, sessions: int, data_dir: str) -> list[float]:
    out = subprocess.run(
        [sys.executable, "-c", CHILD, str(tree.resolve()), str(sessions)],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "BPE_DATA_DIR": data_dir},
        timeout=1800,
    ).stdout
    return [float(line.split()[1]) for line in out.splitlines() if line.startswith("run ")]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("reference", type=Path)
    ap.add_argument("tree", type=Path)
    ap.add_argument("--sessions", type=int, default=8)
    ap.add_argument("--rounds", type=int, default=2)
    args = ap.parse_args()
    import tempfile

    times: dict[Path, list[float]] = {args.reference: [], args.tree: []}
    with tempfile.TemporaryDirectory(prefix="bpe-bench-full-run-") as data_dir:
        for _ in range(args.rounds):
            for tree in times:
                times[tree] += runs(tree, args.sessions, data_dir)
    ref, new = (statistics.median(times[t]) * 1000 for t in (args.reference, args.tree))
    print(f"full run of the Train page (1 MB preset), median of {len(times[args.tree])}:")
    print(f"  reference {args.reference}: {ref:.0f} ms")
    print(f"  this tree {args.tree}: {new:.0f} ms ({new / ref:.2f}x the reference)")
    print(f"  load average {', '.join(f'{x:.1f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
