"""The server package's ``__init__`` imports nothing, so a training worker that imports ``server`` stays small."""

import ast

from browser_support import REPO_ROOT


def test_the_server_package_imports_nothing_so_workers_stay_small():
    tree = ast.parse((REPO_ROOT / "server" / "__init__.py").read_text(encoding="utf-8"))
    assert not any(isinstance(n, (ast.Import, ast.ImportFrom)) for n in ast.walk(tree))
