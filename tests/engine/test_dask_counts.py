"""Counting on Dask (``dask.distributed``) gives the word counts, and so the run, of the local path.

Each test starts a real ``LocalCluster`` (threads in this process, or two small worker processes) and
checks that no process is left behind once it is closed.
"""

from __future__ import annotations

import contextlib
import time

import psutil
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis_support import examples

import bpe
from bpe import cli, counting
from bpe.corpora import english_corpus
from bpe.formats import run_file

distributed = pytest.importorskip("distributed")
from distributed import Client, LocalCluster  # noqa: E402

SPECIAL = "<|endoftext|>"


def descendants() -> set[int]:
    """This process's live descendants, less multiprocessing's resource tracker (it exits with this process)
    and the forkserver with the training and file-reading workers other tests start under it."""
    found = set()
    for child in psutil.Process().children():
        with contextlib.suppress(psutil.Error):
            line = " ".join(child.cmdline())
            if "multiprocessing.resource_tracker" in line or "multiprocessing.forkserver" in line:
                continue
            for p in [child, *child.children(recursive=True)]:
                if p.is_running() and p.status() != psutil.STATUS_ZOMBIE:
                    found.add(p.pid)
    return found


def wait_until_gone(pids: set[int], timeout: float = 60.0) -> set[int]:
    """The pids still alive once they have all exited or ``timeout`` seconds have passed."""
    deadline = time.monotonic() + timeout
    left = set(pids)
    while left and time.monotonic() < deadline:
        _, alive = psutil.wait_procs([psutil.Process(p) for p in left if psutil.pid_exists(p)], timeout=0.5)
        left = {p.pid for p in alive if p.status() != psutil.STATUS_ZOMBIE}
    return left


@pytest.fixture(scope="module")
def client():
    """A cluster of two worker threads in this process (fast to start), shared by this module's tests."""
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=":0") as cluster:
        with Client(cluster) as c:
            yield c


@pytest.fixture(scope="module")
def real_text(tmp_path_factory):
    paragraphs = english_corpus(1_500_000).split("\n\n")
    path = tmp_path_factory.mktemp("corpus") / "corpus.txt"
    path.write_text("".join(p + ("\n\n" if i % 4 else SPECIAL) for i, p in enumerate(paragraphs)), encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("pre_tokenizer", ["gpt2", "whitespace"])
def test_dask_counts_equal_the_local_counts_on_real_text(client, real_text, pre_tokenizer):
    local, _ = counting.count_files([real_text], pre_tokenizer, [SPECIAL], workers=1, chunk_bytes=100_000)
    on_dask, timings = counting.count_files_dask(
        [real_text], pre_tokenizer, [SPECIAL], client=client, chunk_bytes=100_000
    )
    assert timings.chunks > 10
    assert list(on_dask.items()) == list(local.items())  # same counts in the same first-seen order


@settings(
    max_examples=examples(20),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    text=st.lists(st.sampled_from(["the", " cat", "\n", "x.\nY", " ", "é", "42", SPECIAL, "'s"]), max_size=50).map(
        "".join
    )
)
def test_dask_counts_equal_the_local_counts_on_any_text(client, tmp_path, text):
    path = tmp_path / "corpus.txt"
    path.write_bytes(text.encode("utf-8"))
    outcomes = []
    for count in (counting.count_files, counting.count_files_dask):
        kwargs = {"workers": 1} if count is counting.count_files else {"client": client}
        try:
            outcomes.append(list(count([str(path)], "gpt2", [SPECIAL], chunk_bytes=7, **kwargs)[0].items()))
        except ValueError as exc:  # no words at all: both say so
            outcomes.append(str(exc))
    assert outcomes[0] == outcomes[1]


def test_the_cli_on_a_two_process_local_cluster_trains_bpe_s_run_and_leaves_no_process(real_text, tmp_path):
    before = descendants()
    out = tmp_path / "run.bpe"
    argv = ["train", real_text, "--vocab-size", "600", "--special-token", SPECIAL, "--tie-rule", "hf", "--quiet"]
    status = cli.main([*argv, "--dask", "--workers", "2", "--chunk-mb", "0.2", "--out", str(out)])
    assert status == 0
    with open(real_text, encoding="utf-8") as f:
        docs = f.read().split(SPECIAL)
    expected = bpe.run_training(docs, pre_tokenizer="gpt2", vocab_size=600, special_tokens=[SPECIAL], tie_break="hf")
    run = run_file.load_run(out)
    assert run.merges == expected.merges and run.words == expected.words and run.freqs == expected.freqs
    assert wait_until_gone(descendants() - before) == set()


def test_the_cli_counts_on_a_running_cluster_given_by_its_address(client, real_text, tmp_path):
    out = tmp_path / "run.bpe"
    address = client.scheduler.address
    argv = ["train", real_text, "--num-merges", "50", "--special-token", SPECIAL, "--quiet", "--chunk-mb", "0.3"]
    assert cli.main([*argv, "--scheduler", address, "--workers", "1", "--out", str(out)]) == 0
    local = tmp_path / "local.bpe"
    assert cli.main([*argv, "--workers", "1", "--out", str(local)]) == 0
    one, other = run_file.load_run(out), run_file.load_run(local)
    assert (one.merges, one.words, one.freqs) == (other.merges, other.words, other.freqs)
    assert client.status == "running"  # the command left the cluster it was given running


def test_a_scheduler_that_does_not_answer_gets_a_sentence(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(cli, "CONNECT_TIMEOUT_S", 1)
    corpus = tmp_path / "corpus.txt"
    corpus.write_text("low lower lowest", encoding="utf-8")
    argv = ["train", str(corpus), "--num-merges", "2", "--scheduler", "tcp://127.0.0.1:1", "--out", str(tmp_path / "r")]
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert "Cannot reach the Dask scheduler at tcp://127.0.0.1:1" in err and "Traceback" not in err
