"""The tests' own layout: test modules grouped by subject, sharing helpers only through support modules, and named
for the behaviour they check rather than for the report that asked for it."""

import ast
import re

from browser_support import REPO_ROOT

TESTS = REPO_ROOT / "tests"


def _test_modules():
    return sorted(TESTS.glob("*/test_*.py"))


def test_no_test_module_imports_another():
    """A helper two test modules need lives once in a support module (tests/*_support.py, tests/*.py beside
    conftest.py, or a conftest fixture), so each test module can be read, moved or deleted alone."""
    found = []
    for path in sorted(TESTS.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            found += [
                f"{path.relative_to(REPO_ROOT)} imports {n}" for n in names if n.split(".")[0].startswith("test_")
            ]
    assert found == []


def test_test_modules_sit_in_a_subject_folder():
    assert not list(TESTS.glob("test_*.py"))  # the top level holds conftest.py and the support modules
    assert {path.parent.name for path in _test_modules()} <= {
        "engine",
        "formats",
        "pages",
        "server",
        "browser",
        "project",
    }


def test_test_modules_are_named_for_behaviour_not_report_numbers():
    """A test module's name and docstring say what it checks; an issue number means nothing to a newcomer."""
    cited = []
    for path in [*_test_modules(), *TESTS.glob("*.py")]:
        doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
        if re.search(r"issue|_\d+(_|$)", path.stem, re.I) or re.search(r"\bissues?\b|#\d", doc, re.I):
            cited.append(path.relative_to(REPO_ROOT).as_posix())
        cited += re.findall(r"def (test_\w*issue\w*)\(", path.read_text(encoding="utf-8"))
    assert cited == []


def test_every_module_and_test_marked_slow_exists():
    """conftest.py marks tests slow by name: a misspelt or renamed name would silently put a slow test back in the
    fast subset."""
    tree = ast.parse((TESTS / "conftest.py").read_text(encoding="utf-8"))
    marked = {
        node.targets[0].id: {e.value for e in node.value.elts}
        for node in tree.body
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") in ("SLOW_MODULES", "SLOW_TESTS")
    }
    modules = {path.stem for path in _test_modules()}
    source = "\n".join(path.read_text(encoding="utf-8") for path in _test_modules())
    assert marked["SLOW_MODULES"] - modules == set()
    assert {name for name in marked["SLOW_TESTS"] if f"def {name}(" not in source} == set()
