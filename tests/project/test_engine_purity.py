"""The bpe/ engine must stay UI-free and acyclic: importing it must not pull in streamlit, and no two
engine modules import each other, directly or through others (a type-only import may point back)."""

import ast
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


def _engine_modules() -> dict[str, tuple[str, bool]]:
    """Dotted name -> (source, is a package) for every module under bpe/, subpackages included."""
    modules = {}
    for path in sorted((REPO_ROOT / "bpe").rglob("*.py")):
        parts = path.relative_to(REPO_ROOT).with_suffix("").parts
        package = parts[-1] == "__init__"
        name = ".".join(parts[:-1] if package else parts)
        modules[name] = (path.read_text(encoding="utf-8"), package)
    return modules


def _imports(name: str, source: str, package: bool, known: set[str]) -> set[str]:
    """The engine modules ``name`` imports at run time, at the top or inside functions; imports under
    ``if TYPE_CHECKING:`` are left out (an annotation may name a type from a module that imports this one). Relative
    imports at any level and absolute ``bpe.`` ones both count; ``from pkg import mod`` is an import of
    the module ``pkg.mod`` when that is a module, else of ``pkg`` itself."""
    here = name.split(".") if package else name.split(".")[:-1]  # the package relative imports start in
    edges: set[str] = set()
    for node in _run_time_nodes(ast.parse(source)):
        if isinstance(node, ast.Import):
            edges.update(alias.name for alias in node.names if alias.name.split(".")[0] == "bpe")
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here[: len(here) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.split(".")[0] != "bpe":
                continue
            submodules = {f"{target}.{alias.name}" for alias in node.names} & known
            edges.update(submodules or {target})
            if len(submodules) < len(node.names):
                edges.add(target)  # names taken from the module itself
    return {edge for edge in edges if edge in known and edge != name}


def _is_type_checking(node: ast.AST) -> bool:
    test = getattr(node, "test", None)
    return isinstance(node, ast.If) and (
        (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING")
        or (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")
    )


def _run_time_nodes(tree: ast.AST):
    """Every node of ``tree`` except the bodies of ``if TYPE_CHECKING:`` blocks."""
    stack = [tree]
    while stack:
        node = stack.pop()
        yield node
        if _is_type_checking(node):
            stack.extend(node.orelse)
        else:
            stack.extend(ast.iter_child_nodes(node))


def _engine_graph() -> dict[str, set[str]]:
    modules = _engine_modules()
    known = set(modules)
    return {name: _imports(name, source, package, known) for name, (source, package) in modules.items()}


def test_the_graph_reader_sees_every_kind_of_import():
    """Function-level, relative (any depth) and absolute imports count; type-only ones do not."""
    source = (
        "from typing import TYPE_CHECKING\n"
        "from ..config import Pair\n"
        "from . import onig\n"
        "if TYPE_CHECKING:\n"
        "    from ..history import History\n"
        "def f():\n"
        "    from bpe.tokenizer import Tokenizer\n"
        "    import bpe.replay\n"
    )
    known = {"bpe", "bpe.config", "bpe.history", "bpe.tokenizer", "bpe.replay", "bpe.pipeline", "bpe.pipeline.onig"}
    assert _imports("bpe.pipeline.encoder", source, False, known) == known - {"bpe", "bpe.pipeline", "bpe.history"}
    graph = _engine_graph()
    assert {"bpe.pipeline", "bpe.tokenizer"} <= graph["bpe.formats.tokenizer_json"]
    assert "bpe.models.rank_bpe" in graph["bpe.pipeline.encoder"] and "bpe.state" in graph["bpe.history"]


def test_no_import_circle_in_the_engine():
    graph = _engine_graph()
    assert len(graph) > 30, "the engine's modules were not found"
    circles = []
    state: dict[str, int] = {}  # 1: on the current path, 2: done

    def visit(module: str, path: list[str]) -> None:
        state[module] = 1
        for nxt in sorted(graph[module]):
            if state.get(nxt) == 1:
                circles.append(path[path.index(nxt) :] + [nxt])
            elif nxt not in state:
                visit(nxt, path + [nxt])
        state[module] = 2

    for module in sorted(graph):
        if module not in state:
            visit(module, [module])
    assert circles == [], "engine modules in an import circle: " + "; ".join(" -> ".join(c) for c in circles)
