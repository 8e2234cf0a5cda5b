"""Every benchmark script starts as its documented command runs it: from the repository root, without PYTHONPATH."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = sorted(p for p in (ROOT / "benchmarks").glob("*.py") if 'if __name__ == "__main__"' in p.read_text())


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_a_benchmark_script_finds_its_imports_without_pythonpath(script, tmp_path):
    # as `python script.py` does, the script's folder comes first on the path; run under another name than
    # __main__, it runs its imports and definitions, not the benchmark
    code = (
        f"import runpy, sys; sys.path[0] = {str(script.parent)!r}; runpy.run_path({str(script)!r}, run_name='imported')"
    )
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
