"""The bpe/ engine must stay UI-free: importing it must not pull in streamlit."""

import subprocess
import sys

from browser_support import REPO_ROOT


def test_importing_bpe_does_not_import_streamlit():
    proc = subprocess.run(
        [sys.executable, "-c", "import bpe, sys; print('streamlit' in sys.modules)"],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, f"`import bpe` failed:\n{proc.stderr}"
    assert proc.stdout.strip() == "False", "importing bpe imported streamlit"
