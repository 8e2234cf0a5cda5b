"""A Hub download is bounded in size and time, and a name being fetched never blocks
another session for long. Offline: each fetch runs in a fresh interpreter whose ``HF_ENDPOINT`` (read by
huggingface_hub at import) points at a stand-in Hub on localhost (tests/hub_server.py), with an empty
cache in ``tmp_path``, a memory cap and a time limit. What each limit stopped is read from the requests the
stand-in Hub was sent and from what the fetching interpreter saw (a clock it was handed, the waits for a
name's lock), never from how long the fetch took, which depends on how busy the machine is."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from pathlib import Path

import hub_server
import pytest

import bpe

ROOT = Path(__file__).resolve().parents[2]
MEMORY_CAP = 2 * 1024**3  # address space of one fetching interpreter
TIME_LIMIT = 60  # seconds for one fetching interpreter (a per-read timeout alone waits out the 600 s trickle)

FETCH = """
import glob, json, os, sys, time, types, bpe.hub
bpe.hub.DEADLINE_S = float(os.environ["DEADLINE_S"])
late = []  # the clock's readings once the deadline has passed
if os.environ.get("DEADLINE_PASSES_AT_DOWNLOAD"):
    def clock():  # past the deadline as soon as the download has begun (its partial file exists)
        if glob.glob(os.path.join(os.environ["HF_HUB_CACHE"], "*", "blobs", "*.incomplete")):
            late.append(time.monotonic() + bpe.hub.DEADLINE_S + 1)
            return late[-1]
        return time.monotonic()
    bpe.hub.time = types.SimpleNamespace(monotonic=clock)
try:
    tok = bpe.hub.from_hub(sys.argv[1])
    result = {"tokens": tok.tokenize("This is not a token.")}
except ValueError as exc:
    result = {"error": str(exc)}
print(json.dumps({**result, "late_readings": len(late)}))
"""

# Two sessions asking for the trickling name: the first holds it; the second asks once the first's download
# has begun (its partial file is in the cache) and must hear back within its bounded wait. ``waits``: each
# request's wait for the name's lock, as [timeout, whether it got the lock].
TWO_SESSIONS = """
import glob, json, os, sys, threading, time, types, bpe.hub
bpe.hub.DEADLINE_S, bpe.hub.LOCK_WAIT_S = 30.0, 1.0
waits = []

class RecordedLock:
    def __init__(self):
        self.lock = threading.Lock()

    def acquire(self, timeout=-1):
        waits.append([timeout, self.lock.acquire(timeout=timeout)])
        return waits[-1][1]

    def release(self):
        self.lock.release()

bpe.hub.threading = types.SimpleNamespace(Lock=RecordedLock)
threading.Thread(target=bpe.hub.tokenizer_json_path, args=(sys.argv[1],), daemon=True).start()
until = time.monotonic() + 20
while not glob.glob(os.path.join(os.environ["HF_HUB_CACHE"], "*", "blobs", "*.incomplete")):
    assert time.monotonic() < until, "the first download never started"
    time.sleep(0.05)
try:
    bpe.hub.tokenizer_json_path(sys.argv[1])
    result = {"path": "loaded"}
except ValueError as exc:
    result = {"error": str(exc)}
print(json.dumps({**result, "waits": waits}), flush=True)
os._exit(0)  # the first download is still trickling
"""


@pytest.fixture(scope="module")
def hub():
    """The stand-in Hub, shared by the module's tests."""
    tok = bpe.train(["This is not a token. This is the course."] * 5, pre_tokenizer="gpt2", num_merges=30)
    server, url = hub_server.serve(bpe.to_tokenizer_json(tok).encode("utf-8"))
    yield server, url
    server.shutdown()
    server.server_close()


@pytest.fixture
def endpoint(hub) -> str:
    return hub[1]


def _capped() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))


def fetch(endpoint: str, cache: Path, repo_id: str, code: str = FETCH, deadline: float = 60, **env) -> dict:
    env = {
        **os.environ,
        "HF_ENDPOINT": endpoint,
        "HF_HUB_CACHE": str(cache),
        "HF_HOME": str(cache / "home"),
        "HF_HUB_DISABLE_PROGRESS_BARS": "1",
        "PYTHONPATH": str(ROOT),
        "DEADLINE_S": str(deadline),
        "HF_HUB_OFFLINE": "0",
        **env,
    }
    out = subprocess.run(
        [sys.executable, "-c", code, repo_id],
        env=env,
        capture_output=True,
        text=True,
        timeout=TIME_LIMIT,
        cwd=ROOT,
        preexec_fn=_capped,
    )
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


def bytes_on_disk(cache: Path) -> int:
    return sum(p.lstat().st_size for p in cache.rglob("*") if p.is_file() and not p.is_symlink())


def test_a_file_announced_over_the_cap_is_refused_before_it_is_downloaded(hub, tmp_path):
    server, endpoint = hub
    result = fetch(endpoint, tmp_path, "test/big")
    assert result["error"] == "test/big's tokenizer.json is over 60 MB, more than BPE Explorer reads."
    assert [method for method, repo in server.requests if repo == "test/big"] == ["HEAD"]  # its size, never its body
    assert bytes_on_disk(tmp_path) < bpe.hub.MAX_BYTES  # without the cap all 300 MB would be kept in the cache


def test_a_file_of_unannounced_size_stops_at_the_cap_and_leaves_no_partial_file(endpoint, tmp_path):
    result = fetch(endpoint, tmp_path, "test/unannounced")
    assert result["error"] == "test/unannounced's tokenizer.json is over 60 MB, more than BPE Explorer reads."
    assert bytes_on_disk(tmp_path) < bpe.hub.MAX_BYTES
    assert not list(tmp_path.rglob("*.incomplete"))


def test_a_trickling_download_is_refused_at_the_deadline(endpoint, tmp_path):
    """A byte a second, 600 bytes: a per-read timeout alone never fires (600 s)."""
    result = fetch(endpoint, tmp_path, "test/trickle", deadline=3, DEADLINE_PASSES_AT_DOWNLOAD="1")
    assert result["error"].startswith("test/trickle's tokenizer.json took longer than 3 s to download")
    assert result["late_readings"] == 1  # the first piece read after the deadline stopped the download
    assert not list(tmp_path.rglob("*.incomplete"))


def test_a_second_request_for_a_name_being_fetched_hears_so_within_its_wait(endpoint, tmp_path):
    """huggingface_hub's file lock alone would hold the second session for the whole trickle."""
    result = fetch(endpoint, tmp_path, "test/trickle", code=TWO_SESSIONS)
    assert "still being fetched for another session" in result["error"]
    assert result["waits"] == [[1.0, True], [1.0, False]]  # the second waited LOCK_WAIT_S once, then heard


def test_a_small_file_loads_and_is_then_read_from_the_cache_offline(endpoint, tmp_path):
    """The control (it holds without the limits too): a normal file loads, and is cached as huggingface_hub
    lays its cache out, so an offline machine reads it afterwards."""
    expected = bpe.from_tokenizer_json(hub_server_small(endpoint)).tokenize("This is not a token.")
    assert fetch(endpoint, tmp_path, "test/small").get("tokens") == expected
    assert fetch(endpoint, tmp_path, "test/small", HF_HUB_OFFLINE="1").get("tokens") == expected
    assert "no public model" in fetch(endpoint, tmp_path, "test/missing")["error"]


def hub_server_small(endpoint: str) -> str:
    from urllib.request import urlopen

    with urlopen(f"{endpoint}/test/small/resolve/main/tokenizer.json", timeout=10) as response:
        return response.read().decode("utf-8")
