"""Benchmark of the command line (``python -m bpe train``) beside ``tokenizers`` and ``rustbpe`` on the same text.

Run from the repository root:

    .venv/bin/python benchmarks/bench_cli.py                      # 20 MB to 10,000 tokens (a few minutes)
    .venv/bin/python benchmarks/bench_cli.py --mb 100 --vocab 10000 32000
    .venv/bin/python benchmarks/bench_cli.py --mb 1000 --repeat 1

The corpus is real English text from ``bpe.corpora`` (CPython's docs and docstrings, about 2 MB, repeated to
reach the size asked for), written to a temporary file with ``<|endoftext|>`` between groups of paragraphs;
every trainer gets that same text, split into documents at the special token. Each trainer runs as its own
process, in turn (ours, tokenizers, rustbpe, ours on Dask, ...; medians of ``--repeat`` runs), so the peak
memory of each is its own:

- ``bpe (local)``: ``python -m bpe train FILE --vocab-size V --special-token '<|endoftext|>' --tie-rule hf
  --workers W`` (W worker processes count, then the full step history is trained and the run file written);
- ``bpe (Dask)``: the same with ``--dask``, a ``LocalCluster`` of W worker processes started by the command;
- ``tokenizers``: ``BpeTrainer(vocab_size=V, special_tokens=[...])`` with ``ByteLevel(add_prefix_space=False)``,
  ``train_from_iterator`` over the documents read from the file in 1 MB pieces;
- ``rustbpe``: ``Tokenizer().train_from_iterator(documents, 256 + merges, pattern=GPT-2's)`` (it always starts
  from the 256 bytes, so it is given the same number of merges as ours made);
- ``bpe (Dask, running)``: ours with ``--scheduler ADDRESS`` on a 2-worker ``LocalCluster`` the script starts once
  beforehand in a process of its own: what a user with a running cluster pays, without the cluster's start-up.

``--counting-rounds N`` also times the counting stage alone, the local path and the running cluster in turn N
times in the script's own process, so the Dask ratio without start-up is measured side by side under one load.

Every run has a time limit (``--timeout``) and an address-space cap (``--memory-cap-gb``, ``RLIMIT_AS`` set in
each trainer's process before it starts, inherited by its workers): a trainer that runs out of either is
reported as such (with the last line it wrote) and the others go on, so a reference that cannot hold 1 GB does
not take the machine down with it.

Printed: wall time and its ratio to ``tokenizers`` (the goal: at most 1.2x), the 1-minute load average when
each run ended, CPU time (user + system of the
process and the workers it waited for: on a machine other jobs keep busy, wall time mostly measures waiting
for a core, and CPU time is the fairer cost), the peak memory (the whole
process tree's resident memory, sampled every 0.1 s, and the largest single process from ``wait4``), and
where our time goes for each of our runs (reading, pre-tokenizing and counting are CPU seconds added over the
workers; the stages after them run in the main process), the Dask path's ratio to the local path with and
without the cluster's start-up, and whether our ``hf`` merges equal ``tokenizers'``.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import psutil
from tables import print_table  # benchmarks/tables.py (the script's own folder)

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))

from bpe.corpora import english_corpus  # noqa: E402
from bpe.pre_tokenizers import GPT2_PATTERN  # noqa: E402

SPECIAL = "<|endoftext|>"
GOAL = 1.2  # ours / tokenizers, at most

# The text as its documents (split at the special token), read 1 MB at a time: both reference trainers' input.
DOCUMENTS = """
def documents():
    rest = ""
    with open(path, encoding="utf-8", newline="") as f:
        while piece := f.read(1 << 20):
            *docs, rest = (rest + piece).split(special)
            yield from docs
    yield rest
"""

TOKENIZERS = (
    """
import json, sys
from tokenizers import Tokenizer, models, pre_tokenizers, trainers
path, vocab, special, out = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
"""
    + DOCUMENTS
    + """
tok = Tokenizer(models.BPE())
tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
tok.train_from_iterator(documents(), trainers.BpeTrainer(vocab_size=vocab, special_tokens=[special], show_progress=False))
merges = json.loads(tok.to_str())["model"]["merges"]
json.dump([m.split(" ", 1) if isinstance(m, str) else m for m in merges], open(out, "w"))
"""
)

RUSTBPE = (
    """
import sys
import rustbpe
path, vocab, special, pattern = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
"""
    + DOCUMENTS
    + """
tok = rustbpe.Tokenizer()
tok.train_from_iterator(documents(), vocab, pattern=pattern)
"""
)


def write_corpus(path: Path, n_bytes: int) -> int:
    """Real English text of about ``n_bytes``, a special token after every fourth paragraph, written in pieces."""
    base = english_corpus(min(n_bytes, 2_000_000)).split("\n\n")
    text = "".join(p + (SPECIAL if i % 4 == 3 else "\n\n") for i, p in enumerate(base)).encode("utf-8")
    written = 0
    with open(path, "wb") as f:
        while written < n_bytes:
            piece = text[: n_bytes - written]
            f.write(piece)
            written += len(piece)
    return written


CLUSTER = """
import sys
import dask
import bpe.counting  # imported before the workers fork, as the command line does
from dask.distributed import LocalCluster
if __name__ == "__main__":
    with (
        dask.config.set({"distributed.worker.multiprocessing-method": "fork"}),
        LocalCluster(n_workers=int(sys.argv[1]), threads_per_worker=1, dashboard_address=":0") as cluster,
    ):
        print(cluster.scheduler_address, flush=True)
        sys.stdin.read()  # until the benchmark closes our stdin
"""


class Limits:
    """The time limit and address-space cap of every trainer's process."""

    def __init__(self, timeout_s: float, memory_cap_gb: float) -> None:
        self.timeout_s = timeout_s
        self.cap = int(memory_cap_gb * 2**30)

    def apply(self) -> None:  # in the child, before exec
        resource.setrlimit(resource.RLIMIT_AS, (self.cap, self.cap))


def run(argv: list[str], limits: Limits, also: psutil.Process | None = None) -> dict:
    """Run one trainer as a process; its wall time, peak memory of its process tree (and of ``also``'s, a
    cluster it uses) and largest process, or why it failed (an error, the time limit, the memory cap)."""
    start = time.perf_counter()
    proc = subprocess.Popen(
        argv,
        cwd=REPO_ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        preexec_fn=limits.apply,
        start_new_session=True,  # its own process group, so a time-out ends its workers too
    )
    peak, done, timed_out = [0], threading.Event(), threading.Event()

    def sample() -> None:
        roots = [psutil.Process(proc.pid)] + ([also] if also else [])
        while not done.is_set():
            try:
                tree = [p for root in roots for p in (root, *root.children(recursive=True))]
                peak[0] = max(peak[0], sum(p.memory_info().rss for p in tree if p.is_running()))
            except psutil.Error:
                pass
            done.wait(0.1)

    def stop_at_time_limit() -> None:
        if not done.wait(limits.timeout_s):
            timed_out.set()
            os.killpg(proc.pid, signal.SIGKILL)

    threads = [threading.Thread(target=f, daemon=True) for f in (sample, stop_at_time_limit)]
    for t in threads:
        t.start()
    err = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    done.set()
    for t in threads:
        t.join()
    code = os.waitstatus_to_exitcode(status)
    cpu = usage.ru_utime + usage.ru_stime  # the process and the descendants it waited for (its workers)
    result = {"wall": wall, "cpu": cpu, "tree_mb": peak[0] / 1e6, "largest_mb": usage.ru_maxrss / 1e3}
    result["load"] = os.getloadavg()[0]
    if timed_out.is_set():
        result["failed"] = f"stopped at the {limits.timeout_s:.0f} s time limit"
    elif code != 0:
        last = err.decode(errors="replace").strip().splitlines()[-1:] or [f"exit status {code}"]
        result["failed"] = f"exit status {code}: {last[0][:160]}"
    return result


def start_cluster(workers: int) -> tuple[subprocess.Popen, str, float]:
    """A LocalCluster in a process of its own (as a running cluster would be): its process, address, start-up s."""
    t = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-c", CLUSTER, str(workers)],
        cwd=REPO_ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    address = proc.stdout.readline().strip()
    if not address.startswith("tcp://"):
        proc.kill()
        raise SystemExit("The benchmark's Dask cluster did not start.")
    return proc, address, time.perf_counter() - t


def compare_counting(corpus: Path, workers: int, address: str, rounds: int) -> None:
    """The counting stage alone (no process start, no merges), in this process: the local path's worker
    processes and the running cluster in turn, so both see the same load; the ratio of each pair."""
    from dask.distributed import Client

    from bpe import counting

    job = ([str(corpus)], "gpt2", (SPECIAL,))
    print(f"Counting stage alone, local ({workers} forked workers) and on the running cluster, in turn:")
    with Client(address) as client:
        for _ in range(rounds):
            t = time.perf_counter()
            counting.count_files(*job, workers=workers, start_method="fork")
            local = time.perf_counter() - t
            t = time.perf_counter()
            counting.count_files_dask(*job, client=client)
            dask = time.perf_counter() - t
            print(
                f"  local {local:.1f} s, running cluster {dask:.1f} s: {dask / local:.2f}x (load {os.getloadavg()[0]:.1f})"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mb", type=float, default=20, help="corpus size in MB (default 20; try 100 or 1000)")
    parser.add_argument("--vocab", type=int, nargs="+", default=[10_000], help="vocabulary sizes (default 10000)")
    parser.add_argument("--workers", type=int, default=2, help="our worker processes (and Dask workers)")
    parser.add_argument("--repeat", type=int, default=1, help="runs of each trainer (medians are shown)")
    parser.add_argument("--no-dask", action="store_true", help="leave out the Dask runs")
    parser.add_argument("--no-rustbpe", action="store_true", help="leave out rustbpe")
    parser.add_argument("--timeout", type=float, default=3600, help="seconds each run may take (default 3600)")
    parser.add_argument(
        "--memory-cap-gb", type=float, default=16, help="address space each process may map, GiB (default 16)"
    )
    parser.add_argument("--dir", default=None, help="where to write the corpus (default: a temporary folder)")
    parser.add_argument(
        "--counting-rounds",
        type=int,
        default=0,
        help="also time the counting stage alone, local and on the running cluster in turn, this many times",
    )
    args = parser.parse_args()
    py = sys.executable
    limits = Limits(args.timeout, args.memory_cap_gb)
    try:
        import rustbpe  # noqa: F401
    except ImportError:
        args.no_rustbpe = True
    cluster, up = None, None
    with tempfile.TemporaryDirectory(dir=args.dir) as folder:
        corpus = Path(folder, "corpus.txt")
        t = time.perf_counter()
        size = write_corpus(corpus, int(args.mb * 1e6))
        print(f"Corpus: {size / 1e6:,.1f} MB of English text ({time.perf_counter() - t:.1f} s to write); "
              f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}; our workers: {args.workers}; "
              f"each run at most {args.timeout:.0f} s and {args.memory_cap_gb:g} GiB of address space.")  # fmt: skip
        try:
            if not args.no_dask:
                cluster, address, up = start_cluster(args.workers)
                print(f"A {args.workers}-worker LocalCluster started for the 'Dask, running' runs in {up:.1f} s "
                      f"(load {os.getloadavg()[0]:.1f}).")  # fmt: skip
            if args.counting_rounds and cluster is not None:
                compare_counting(corpus, args.workers, address, args.counting_rounds)
            for vocab in args.vocab:
                ours = [py, "-m", "bpe", "train", str(corpus), "--vocab-size", str(vocab), "--special-token", SPECIAL]
                ours += ["--tie-rule", "hf", "--workers", str(args.workers), "--quiet"]
                runs = {
                    "bpe (local)": ours,
                    "tokenizers": [
                        py,
                        "-c",
                        TOKENIZERS,
                        str(corpus),
                        str(vocab),
                        SPECIAL,
                        str(Path(folder, "hf.json")),
                    ],
                }
                if not args.no_dask:
                    runs["bpe (Dask)"] = [*ours, "--dask"]
                    runs["bpe (Dask, running)"] = [*ours, "--scheduler", address]
                results: dict[str, list[dict]] = {name: [] for name in runs}
                ours_timings: dict[str, list[dict]] = {}
                merges = None
                for _ in range(args.repeat):
                    for name, argv in runs.items():
                        if name.startswith("bpe"):
                            out = Path(folder, name.replace(" ", "_") + ".bpe")
                            timings = out.with_suffix(".json")
                            argv = [*argv, "--out", str(out), "--timings", str(timings)]
                        also = psutil.Process(cluster.pid) if name == "bpe (Dask, running)" else None
                        results[name].append(run(argv, limits, also))
                        if name.startswith("bpe") and "failed" not in results[name][-1]:
                            ours_timings.setdefault(name, []).append(json.loads(timings.read_text()))
                            merges = ours_timings[name][-1]["merges"]
                    if not args.no_rustbpe and merges is not None:
                        argv = [py, "-c", RUSTBPE, str(corpus), str(256 + merges), SPECIAL, GPT2_PATTERN]
                        results.setdefault("rustbpe", []).append(run(argv, limits))
                report(size, vocab, merges, results, ours_timings, folder, up)
        finally:
            if cluster is not None:
                cluster.stdin.close()  # the cluster process stops its workers and exits
                cluster.wait(timeout=60)


def report(
    size: int, vocab: int, merges: int | None, results: dict, ours_timings: dict, folder: str, cluster_up: float | None
) -> None:
    from bpe.formats import run_file

    done = {name: [r for r in rs if "failed" not in r] for name, rs in results.items()}
    med = {name: {k: statistics.median(r[k] for r in rs) for k in rs[0]} for name, rs in done.items() if rs}
    ref = med.get("tokenizers")
    repeat = max(len(rs) for rs in results.values())
    merges_text = f"{merges:,} merges" if merges is not None else "our run failed"
    print(f"\n{size / 1e6:,.0f} MB to {vocab:,} tokens ({merges_text}), median of {repeat}:")
    rows = []
    for name, rs in results.items():
        failures = "; ".join(r["failed"] for r in rs if "failed" in r)
        m = med.get(name, rs[0])  # a trainer that always failed: its first run, to see how far it got
        wall_ratio = f"{m['wall'] / ref['wall']:.2f}x" if ref and name in med else "-"
        cpu_ratio = f"{m['cpu'] / ref['cpu']:.2f}x" if ref and name in med else "-"
        rows.append([name, f"{m['wall']:.1f} s", wall_ratio, f"{m['cpu']:.1f} s", cpu_ratio, f"{m['tree_mb']:,.0f} MB",
                     f"{m['largest_mb']:,.0f} MB", f"{m['load']:.1f}", failures or "ok"])  # fmt: skip
    headers = ["trainer", "wall time", "/ tokenizers", "CPU time", "/ tokenizers", "peak memory (all processes)"]
    print_table([*headers, "largest process", "load", "outcome"], rows)
    if ref and "bpe (local)" in med:
        ratio = med["bpe (local)"]["wall"] / ref["wall"]
        verdict = "met" if ratio <= GOAL else f"NOT met, by {ratio / GOAL:.2f}x"
        print(f"Goal: bpe (local) at most {GOAL}x tokenizers' wall time: {ratio:.2f}x, {verdict}.")
    if "bpe (local)" in med:
        local = med["bpe (local)"]
        for name, what in (
            ("bpe (Dask)", "starting its LocalCluster"),
            ("bpe (Dask, running)", "on a running cluster"),
        ):
            if name in med:
                print(f"{name} / local path ({what}): {med[name]['wall'] / local['wall']:.2f}x wall, "
                      f"{med[name]['cpu'] / local['cpu']:.2f}x CPU (a running cluster's own CPU is not counted).")  # fmt: skip
        if cluster_up is not None:
            print(f"(Starting that running cluster took {cluster_up:.1f} s, before any run.)")
    if ours_timings:
        print("\nWhere our time goes (seconds, medians; worker CPU seconds are added over the workers):")
        names = list(ours_timings)
        stages = list(dict.fromkeys(k for name in names for t in ours_timings[name] for k in t["seconds"]))
        rows = [
            [stage, *(f"{statistics.median(t['seconds'].get(stage, 0.0) for t in ours_timings[n]):.2f}" for n in names)]
            for stage in stages
        ]
        print_table(["stage", *names], rows)
    hf, ours_file = Path(folder, "hf.json"), Path(folder, "bpe_(local).bpe")
    if hf.exists() and ours_file.exists():
        theirs = json.loads(hf.read_text())
        t = time.perf_counter()
        ours_run = run_file.load_run(ours_file)
        opened = time.perf_counter() - t
        ours = [list(ours_run.pair_str(m[:2])) for m in ours_run.merges]
        first = next((i for i, (a, b) in enumerate(zip(ours, theirs), 1) if a != b), min(len(ours), len(theirs)) + 1)
        same = "yes" if ours == theirs else f"NO (first difference at merge {first})"
        print(f"Same merges as tokenizers (tie rule hf): {same}. Opening the run file: {opened:.2f} s, "
              f"{ours_file.stat().st_size / 1e6:.1f} MB.")  # fmt: skip
        hf.unlink()


if __name__ == "__main__":
    main()
