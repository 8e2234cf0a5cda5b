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


def _engine_imports() -> dict[str, set[str]]:
    """Each bpe/ module's imports of other bpe/ modules, at any depth (function-level imports count;
    those under ``if TYPE_CHECKING:`` do not, since they never run)."""
    import ast

    graph: dict[str, set[str]] = {}
    for path in sorted((REPO_ROOT / "bpe").glob("*.py")):
        name = path.stem
        edges = graph.setdefault(name, set())
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.If) and getattr(node.test, "id", None) == "TYPE_CHECKING":
                node.body = []
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                if node.module:
                    edges.add(node.module.split(".")[0])
                else:
                    edges.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("bpe."):
                edges.add(node.module.split(".")[1])
    for edges in graph.values():
        edges.discard("__init__")
    return graph


def test_no_import_circle_in_the_engine():
    graph = _engine_imports()
    assert graph["hub"] >= {"tokenizer"}, "the graph reader missed hub -> tokenizer"

    def reaches(start: str, goal: str, seen: set[str]) -> bool:
        for nxt in graph.get(start, ()):
            if nxt == goal or (nxt not in seen and reaches(nxt, goal, seen | {nxt})):
                return True
        return False

    circles = sorted(m for m in graph if m != "__init__" and reaches(m, m, {m}))
    assert circles == [], f"modules in an import circle: {circles}"
