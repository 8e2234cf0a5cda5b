"""Every page is drawn through app.py's router: ``pages/`` holds only the router's page scripts (Streamlit
opens any .py file there as a page until the router has run on a fresh server), each calls
``routing.through_router()`` before it draws, and app.py runs the routed page inside ``routing.running_page()``.
What a fresh server's first request shows is tests/browser/test_browser_train.py's
``test_direct_links_go_through_the_router``."""

import ast

from browser_support import REPO_ROOT

ROUTER = (REPO_ROOT / "app.py").read_text(encoding="utf-8")
PAGE_SCRIPTS = sorted((REPO_ROOT / "pages").glob("*.py"))


def _first_statement(tree: ast.Module) -> str:
    """The module's first top-level statement after its docstring and imports."""
    for node in tree.body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            continue
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            continue
        return ast.unparse(node)
    return ""


def test_pages_holds_only_the_routers_page_scripts():
    not_pages = [path.name for path in PAGE_SCRIPTS if f'st.Page("pages/{path.name}"' not in ROUTER]
    assert not_pages == [], f"only page scripts belong in pages/ (a helper module goes in ui/): {not_pages}"
    assert {path.stem for path in PAGE_SCRIPTS} >= {"train", "encode", "check", "worksheet"}


def test_every_page_script_goes_through_the_router_before_it_draws():
    first = {path.name: _first_statement(ast.parse(path.read_text(encoding="utf-8"))) for path in PAGE_SCRIPTS}
    missing = [name for name, statement in first.items() if statement != "routing.through_router()"]
    assert missing == [], f"call routing.through_router() first (after the imports) in: {missing}"


def test_the_router_runs_the_page_inside_running_page():
    runs = [
        node
        for node in ast.walk(ast.parse(ROUTER))
        if isinstance(node, ast.With) and ast.unparse(node.items[0].context_expr) == "routing.running_page()"
    ]
    assert len(runs) == 1 and ast.unparse(runs[0].body[0]) == "st.navigation(pages).run()"
