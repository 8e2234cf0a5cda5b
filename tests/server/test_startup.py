"""The switch out of Streamlit's folder-pages mode is an explicit call in every module of pages/ (any
.py file there is a page until the router has run), not a side effect of importing some module first."""

import ast

from browser_support import REPO_ROOT


def _calls_ensure_router(tree: ast.Module, only_as_page: bool) -> bool:
    """Whether the module's top level calls ``startup.ensure_router()`` (under ``if __name__ ==
    "__main__"`` for a helper module, which runs it only when opened as a page)."""
    for node in tree.body:
        body = [node]
        if only_as_page:
            if not (isinstance(node, ast.If) and "__main__" in ast.unparse(node.test)):
                continue
            body = node.body
        for stmt in body:
            if isinstance(stmt, ast.Expr) and ast.unparse(stmt.value) == "startup.ensure_router()":
                return True
    return False


def test_every_module_in_pages_leaves_folder_pages_mode_itself():
    missing = []
    router = (REPO_ROOT / "app.py").read_text(encoding="utf-8")
    for path in sorted((REPO_ROOT / "pages").glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        page = f'st.Page("pages/{path.name}"' in router  # the router's pages call it; helpers only when run as a page
        if not _calls_ensure_router(tree, only_as_page=not page):
            missing.append(path.name)
    assert missing == [], f"call startup.ensure_router() at the top of: {missing}"
    app = ast.parse((REPO_ROOT / "app.py").read_text(encoding="utf-8"))
    assert _calls_ensure_router(app, only_as_page=False)


def test_the_server_package_imports_nothing_so_workers_stay_small():
    tree = ast.parse((REPO_ROOT / "server" / "__init__.py").read_text(encoding="utf-8"))
    assert not any(isinstance(n, (ast.Import, ast.ImportFrom)) for n in ast.walk(tree))
