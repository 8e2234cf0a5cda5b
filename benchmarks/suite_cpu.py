"""Where a command's CPU goes, by kind of process: the test suite's time on a 2-core machine is its CPU.

Runs the command, reads the CPU time of every process in its tree twice a second (psutil), and prints the
CPU-seconds of each kind (chromium's renderers, the rest of chromium, Streamlit servers, pytest and its workers,
the training pools' workers, other) with the wall time. A process that lives less than half a second may be
missed; the figure is a floor. On a saturated machine the wall time is about the CPU-seconds over the cores,
so a change to the suite is measured by its CPU-seconds, side by side with the old tree's, not by a wall time
that other work on the machine moves.

    .venv/bin/python benchmarks/suite_cpu.py bash scripts/test.sh
    .venv/bin/python benchmarks/suite_cpu.py .venv/bin/python -m pytest -q tests/browser/test_browser_fit.py
"""

from __future__ import annotations

import subprocess
import sys
import time
from collections import Counter

import psutil


def kind(cmdline: list[str]) -> str:
    line = " ".join(cmdline)
    if "chromium" in line or "headless_shell" in line:
        return "chromium renderers" if "--type=renderer" in line else "chromium, the rest"
    if "streamlit" in line:
        return "Streamlit servers"
    if "forkserver" in line or "multiprocessing" in line:
        return "training pool workers"
    if "pytest" in line or "execnet" in line or "-c import sys;exec(eval(" in line:
        return "pytest and its workers"
    return "other"


def main(argv: list[str]) -> None:
    if not argv:
        sys.exit(__doc__)
    start = time.monotonic()
    proc = subprocess.Popen(argv)
    root = psutil.Process(proc.pid)
    seen: dict[tuple[int, float], tuple[str, float]] = {}  # (pid, start time) -> (kind, CPU-s)
    while proc.poll() is None:
        try:
            family = [root, *root.children(recursive=True)]
        except psutil.NoSuchProcess:
            break
        for p in family:
            try:
                with p.oneshot():
                    key = (p.pid, p.create_time())
                    name = seen[key][0] if key in seen else kind(p.cmdline())
                    t = p.cpu_times()
                    seen[key] = (name, t.user + t.system)
            except psutil.Error:
                continue
        time.sleep(0.5)
    wall = time.monotonic() - start
    totals: Counter[str] = Counter()
    for name, cpu in seen.values():
        totals[name] += cpu
    for name, cpu in totals.most_common():
        print(f"{cpu:9.1f} CPU-s  {name}")
    print(f"{sum(totals.values()):9.1f} CPU-s  in all; {wall:.1f} s wall; exit status {proc.returncode}")
    sys.exit(proc.returncode)


if __name__ == "__main__":
    main(sys.argv[1:])
