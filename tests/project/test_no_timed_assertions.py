"""No test asserts on elapsed wall-clock time: such a bound fails when the machine is busy, not when the code is
wrong. A test counts what the limit stopped, hands the code a stand-in clock, or checks that the guard fired;
how fast something runs is a figure a benchmarks/ script prints."""

from __future__ import annotations

import ast

from browser_support import REPO_ROOT

TESTS = REPO_ROOT / "tests"
CLOCKS = {"monotonic", "perf_counter", "time", "process_time", "monotonic_ns", "perf_counter_ns", "time_ns"}
# Names (variables, attributes, dictionary keys) that hold a duration.
DURATION_WORDS = ("seconds", "elapsed", "duration", "took", "wall_time", "runtime")


def _is_clock_call(node: ast.AST) -> bool:
    """``time.monotonic()``, ``perf_counter()`` and the like."""
    if not isinstance(node, ast.Call):
        return False
    f = node.func
    return (isinstance(f, ast.Attribute) and f.attr in CLOCKS and getattr(f.value, "id", "") == "time") or (
        isinstance(f, ast.Name) and f.id in CLOCKS - {"time"}
    )


def _is_elapsed(node: ast.AST) -> bool:
    """A difference with a clock reading on one side (``time.monotonic() - started``)."""
    return (
        isinstance(node, ast.BinOp) and isinstance(node.op, ast.Sub) and any(_is_clock_call(n) for n in ast.walk(node))
    )


def _name_of(node: ast.AST) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str):
        return node.slice.value
    return ""


def _says_duration(node: ast.AST) -> bool:
    name = _name_of(node).lower()
    return any(word in name for word in DURATION_WORDS)


def timed_assertions(source: str) -> list[int]:
    """The lines of ``source`` whose ``assert`` compares an elapsed time: a clock difference, a name bound to
    one, or a value named as a duration (``result["seconds"] < 2``)."""
    tree = ast.parse(source)
    elapsed_names = {
        target.id
        for node in ast.walk(tree)
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None and _is_elapsed(node.value)
        for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
        if isinstance(target, ast.Name)
    }
    lines = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Assert):
            continue
        for compare in (n for n in ast.walk(node.test) if isinstance(n, ast.Compare)):
            if not any(isinstance(op, (ast.Lt, ast.LtE, ast.Gt, ast.GtE)) for op in compare.ops):
                continue
            sides = [compare.left, *compare.comparators]
            if any(
                _is_elapsed(n) or _says_duration(n) or (isinstance(n, ast.Name) and n.id in elapsed_names)
                for side in sides
                for n in ast.walk(side)
            ):
                lines.append(node.lineno)
                break
    return lines


def test_the_check_finds_each_form_of_timed_assertion_and_leaves_waits_alone():
    timed = [
        "assert time.monotonic() - started < 30",
        "assert len(tried) == 2 and time.perf_counter() - start < 10",
        'assert result["seconds"] < 2',
        "took = time.monotonic() - t0\nassert took <= 5",
        "assert 2 > elapsed_s",
    ]
    for source in timed:
        assert timed_assertions(source), source
    untimed = [
        "while time.monotonic() < deadline:\n    pass",  # a wait for a condition, not an assertion
        "assert waits == [(1, False)]",
        'assert "ran longer than 0.5 seconds" in str(exc)',
        "assert peak < 6_007_000",
        "assert budget.SECONDS == 5",  # a setting, compared for equality
    ]
    for source in untimed:
        assert not timed_assertions(source), source


def test_no_test_asserts_on_elapsed_time():
    found = [
        f"{path.relative_to(REPO_ROOT)}:{line}"
        for path in sorted(TESTS.rglob("*.py"))
        if path.name != "test_no_timed_assertions.py"
        for line in timed_assertions(path.read_text(encoding="utf-8"))
    ]
    assert found == []
