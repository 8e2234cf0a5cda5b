"""Count the assertions of every test function at HEAD and at another revision, and list the tests that lost some.

    .venv/bin/python scripts/count_assertions.py 8dbdff2     # HEAD against 8dbdff2
    .venv/bin/python scripts/count_assertions.py 8dbdff2 main  # main against 8dbdff2

An assertion is an ``assert`` statement or a ``pytest.raises`` / ``pytest.warns`` block or call. A test is a
function named ``test_*`` in a module under tests/, matched between the two revisions by its name alone, so a
test moved to another file or folder is still the same test; where several modules define the same name,
their counts are added. Both revisions are read with ``git show REV:path``: the checkout is never touched.
Listed: tests whose count went down, and tests that are gone (with the new tests whose names are close); helpers (assertions outside ``test_*``
functions, e.g. in tests/*_support.py) are totalled apart, since a test may have moved its asserts into one.
Exits 1 when something is listed.
"""

from __future__ import annotations

import argparse
import ast
import difflib
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
RAISES = {"raises", "warns"}


def git(*args: str) -> str:
    return subprocess.run(["git", *args], cwd=REPO_ROOT, check=True, capture_output=True, text=True).stdout


def python_files(rev: str) -> list[str]:
    names = git("ls-tree", "-r", "--name-only", rev, "--", "tests").splitlines()
    return [n for n in names if n.endswith(".py")]


def _is_raises(node: ast.AST) -> bool:
    """``pytest.raises(...)`` or ``raises(...)`` (imported from pytest)."""
    if not isinstance(node, ast.Call):
        return False
    f = node.func
    return (isinstance(f, ast.Attribute) and f.attr in RAISES and getattr(f.value, "id", None) == "pytest") or (
        isinstance(f, ast.Name) and f.id in RAISES
    )


def assertions(node: ast.AST) -> int:
    """The ``assert`` statements and ``pytest.raises`` calls under ``node``, nested functions included."""
    return sum(isinstance(n, ast.Assert) or _is_raises(n) for n in ast.walk(node))


def count(rev: str) -> tuple[dict[str, int], dict[str, list[str]], int]:
    """For ``rev``: assertions per test name, the files defining each name, and the helpers' assertions."""
    per_test: dict[str, int] = defaultdict(int)
    where: dict[str, list[str]] = defaultdict(list)
    helpers = 0
    for path in python_files(rev):
        source = git("show", f"{rev}:{path}")
        tree = ast.parse(source, filename=path)
        in_tests = 0
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test_"):
                n = assertions(node)
                per_test[node.name] += n
                where[node.name].append(path)
                in_tests += n
        helpers += assertions(tree) - in_tests
    return dict(per_test), dict(where), helpers


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rev", help="the revision to compare with (e.g. 8dbdff2)")
    parser.add_argument("head", nargs="?", default="HEAD", help="the revision to check (default HEAD)")
    args = parser.parse_args(argv)
    old, old_where, old_helpers = count(args.rev)
    new, new_where, new_helpers = count(args.head)
    print(
        f"{args.rev}: {len(old):,} test functions, {sum(old.values()):,} assertions in them, {old_helpers:,} in helpers"
    )
    print(
        f"{args.head}: {len(new):,} test functions, {sum(new.values()):,} assertions in them, {new_helpers:,} in helpers"
    )
    fewer = sorted(name for name in old if name in new and new[name] < old[name])
    gone = sorted(name for name in old if name not in new)
    for name in fewer:
        print(
            f"fewer: {name}: {old[name]} -> {new[name]} ({', '.join(old_where[name])} -> {', '.join(new_where[name])})"
        )
    added = [name for name in new if name not in old]
    for name in gone:
        print(f"gone: {name}: {old[name]} assertions ({', '.join(old_where[name])})")
        prefixed = [a for a in added if min(len(a), len(name)) >= 30 and (a.startswith(name) or name.startswith(a))]
        for like in dict.fromkeys(prefixed + difflib.get_close_matches(name, added, n=2, cutoff=0.75)):  # renamed?
            print(f"    like {like}: {new[like]} assertions ({', '.join(new_where[like])})")
    if not fewer and not gone:
        print("no test lost an assertion, and none is gone")
    return 1 if fewer or gone else 0


if __name__ == "__main__":
    sys.exit(main())
