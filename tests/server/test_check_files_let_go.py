"""On a real server, the Check page lets go of a student's run files once it has read them: Streamlit's uploader
holds none of their bytes afterwards, and the page still shows what was read (ui/check_files.py)."""

from __future__ import annotations

import re
import urllib.request

import pytest
from browser_support import on_new_server
from st_client import Session

pytestmark = pytest.mark.slow


def uploader_bytes(url: str) -> int:
    """Bytes Streamlit's uploader holds for every session (``/_stcore/metrics``, its UploadedFileManager)."""
    with urllib.request.urlopen(f"{url}/_stcore/metrics", timeout=30) as r:
        text = r.read().decode()
    found = re.findall(r'cache_memory_bytes\{[^}]*cache_type="UploadedFileManager"[^}]*\} (\d+)', text)
    return sum(map(int, found))


async def upload_a_run(url: str):
    s = Session(url, "", page="check")
    await s.open()
    await s.upload("chk_files", [("merges.txt", b"s t\ne st\n")])
    held = uploader_bytes(url)
    await s.set_widget("chk_target", 300.0)  # another click: what was read is still there
    shown, exceptions = list(s.texts) + list(s.html), list(s.exceptions)
    await s.close()
    return held, shown, exceptions


@pytest.mark.timeout(300)
def test_a_students_files_are_let_go_once_read_and_what_was_read_stays():
    (held, shown, exceptions), log = on_new_server(upload_a_run)
    assert not exceptions, exceptions
    assert held == 0, f"the uploader still holds {held} bytes"
    assert any("Read as merges.txt: 2 merges" in t for t in shown), shown
    assert any("merges.txt (9 bytes)" in t for t in shown), shown
