"""The framework internals the app reads (``server/internals.py``) are all there on the pinned versions,
so an upgrade that removes one fails here instead of silently turning a feature off."""

import threading
from concurrent.futures import ProcessPoolExecutor

from server import internals


def test_every_internal_is_there_on_the_pinned_versions():
    assert internals.missing() == []


def test_missing_names_an_internal_that_is_gone(monkeypatch):
    monkeypatch.delattr(threading, "_register_atexit")
    assert internals.missing() == ["threading._register_atexit"]
    assert internals.register_before_thread_join(lambda: None) is False


def test_pool_accessors_read_a_real_pool():
    with ProcessPoolExecutor(max_workers=1) as pool:
        assert pool.submit(abs, -3).result(timeout=60) == 3
        assert len(internals.pool_processes(pool)) == 1
        assert internals.pool_broken(pool) is False


def test_no_other_module_reads_a_framework_internal():
    """The private names are read only in server/internals.py: as an attribute (``x._session_mgr``) or by
    name (``getattr(x, "_session_mgr")``); docstrings and comments may mention them."""
    import ast

    from browser_support import REPO_ROOT

    names = {
        "_session_mgr", "_browser_queue", "_event_loop", "uses_pages_directory", "_register_atexit",
        "_async_objs", "_session_storage", "_processes", "_broken",
    }  # fmt: skip
    offenders = []
    for folder in ("bpe", "pages", "server", "ui"):
        for path in (REPO_ROOT / folder).rglob("*.py"):
            if path.name == "internals.py":
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                read = node.attr if isinstance(node, ast.Attribute) else None
                if isinstance(node, ast.Call) and getattr(node.func, "id", "") in ("getattr", "hasattr", "setattr"):
                    read = getattr(node.args[1], "value", None) if len(node.args) > 1 else None
                if read in names:
                    offenders.append(f"{path.relative_to(REPO_ROOT)}:{node.lineno}: {read}")
    assert offenders == []
