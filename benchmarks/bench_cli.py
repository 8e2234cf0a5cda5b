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
  from the 256 bytes, so it is given the same number of merges as ours made).

Printed: wall time and its ratio to ``tokenizers`` (the goal: at most 1.2x), CPU time (user + system of the
process and the workers it waited for: on a machine other jobs keep busy, wall time mostly measures waiting
for a core, and CPU time is the fairer cost), the peak memory (the whole
process tree's resident memory, sampled every 0.1 s, and the largest single process from ``wait4``), and
where our time goes (reading, pre-tokenizing and counting are CPU seconds added over the workers; the
stages after them run in the main process). With ``--vocab`` hf merges are compared with tokenizers'.
"""

from __future__ import annotations

import argparse
import json
import os
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


def run(argv: list[str]) -> dict:
    """Run one trainer as a process; its wall time, peak memory of its process tree and largest process."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, cwd=REPO_ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    peak, done = [0], threading.Event()

    def sample() -> None:
        root = psutil.Process(proc.pid)
        while not done.is_set():
            try:
                tree = [root, *root.children(recursive=True)]
                peak[0] = max(peak[0], sum(p.memory_info().rss for p in tree if p.is_running()))
            except psutil.Error:
                pass
            done.wait(0.1)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    err = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    done.set()
    sampler.join()
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(argv[:4])} failed:\n{err.decode(errors='replace')}")
    cpu = usage.ru_utime + usage.ru_stime  # the process and the descendants it waited for (its workers)
    return {"wall": wall, "cpu": cpu, "tree_mb": peak[0] / 1e6, "largest_mb": usage.ru_maxrss / 1e3}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mb", type=float, default=20, help="corpus size in MB (default 20; try 100 or 1000)")
    parser.add_argument("--vocab", type=int, nargs="+", default=[10_000], help="vocabulary sizes (default 10000)")
    parser.add_argument("--workers", type=int, default=2, help="our worker processes (and Dask workers)")
    parser.add_argument("--repeat", type=int, default=1, help="runs of each trainer (medians are shown)")
    parser.add_argument("--no-dask", action="store_true", help="leave out the Dask run")
    parser.add_argument("--no-rustbpe", action="store_true", help="leave out rustbpe")
    args = parser.parse_args()
    py = sys.executable
    try:
        import rustbpe  # noqa: F401
    except ImportError:
        args.no_rustbpe = True
    with tempfile.TemporaryDirectory() as folder:
        corpus = Path(folder, "corpus.txt")
        t = time.perf_counter()
        size = write_corpus(corpus, int(args.mb * 1e6))
        print(f"Corpus: {size / 1e6:,.1f} MB of English text ({time.perf_counter() - t:.1f} s to write); "
              f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}; our workers: {args.workers}.")  # fmt: skip
        for vocab in args.vocab:
            ours = [py, "-m", "bpe", "train", str(corpus), "--vocab-size", str(vocab), "--special-token", SPECIAL]
            ours += ["--tie-rule", "hf", "--workers", str(args.workers), "--quiet"]
            timings = Path(folder, "timings.json")
            runs = {
                "bpe (local)": [*ours, "--out", str(Path(folder, "run.bpe")), "--timings", str(timings)],
                "tokenizers": [py, "-c", TOKENIZERS, str(corpus), str(vocab), SPECIAL, str(Path(folder, "hf.json"))],
            }
            if not args.no_dask:
                runs["bpe (Dask)"] = [*ours, "--dask", "--out", str(Path(folder, "dask.bpe"))]
            results: dict[str, list[dict]] = {name: [] for name in runs}
            ours_timings = []
            merges = None
            for _ in range(args.repeat):
                for name, argv in runs.items():
                    results[name].append(run(argv))
                    if name == "bpe (local)":
                        ours_timings.append(json.loads(timings.read_text()))
                        merges = ours_timings[-1]["merges"]
                if not args.no_rustbpe:
                    argv = [py, "-c", RUSTBPE, str(corpus), str(256 + merges), SPECIAL, GPT2_PATTERN]
                    results.setdefault("rustbpe", []).append(run(argv))
            report(size, vocab, merges, results, ours_timings, folder)


def report(size: int, vocab: int, merges: int, results: dict, ours_timings: list[dict], folder: str) -> None:
    from bpe.formats import run_file

    med = {name: {k: statistics.median(r[k] for r in rs) for k in rs[0]} for name, rs in results.items()}
    ref = med["tokenizers"]["wall"]
    print(f"\n{size / 1e6:,.0f} MB to {vocab:,} tokens ({merges:,} merges), median of {len(results['tokenizers'])}:")
    rows = []
    for name, m in med.items():
        cpu_ratio = m["cpu"] / med["tokenizers"]["cpu"]
        rows.append([name, f"{m['wall']:.1f} s", f"{m['wall'] / ref:.2f}x", f"{m['cpu']:.1f} s", f"{cpu_ratio:.2f}x",
                     f"{m['tree_mb']:,.0f} MB", f"{m['largest_mb']:,.0f} MB"])  # fmt: skip
    headers = ["trainer", "wall time", "/ tokenizers", "CPU time", "/ tokenizers", "peak memory (all processes)"]
    print_table([*headers, "largest process"], rows)
    ratio = med["bpe (local)"]["wall"] / ref
    verdict = "met" if ratio <= GOAL else f"NOT met, by {ratio / GOAL:.2f}x"
    print(f"Goal: bpe (local) at most {GOAL}x tokenizers' wall time: {ratio:.2f}x, {verdict}.")
    if "bpe (Dask)" in med:
        print(f"Dask path / local path: {med['bpe (Dask)']['wall'] / med['bpe (local)']['wall']:.2f}x.")
    seconds = {k: statistics.median(t["seconds"][k] for t in ours_timings) for k in ours_timings[0]["seconds"]}
    print("\nWhere our time goes (bpe local; worker CPU seconds are added over the workers):")
    print_table(["stage", "seconds"], [[k, f"{v:.2f}"] for k, v in seconds.items()])
    theirs = json.loads(Path(folder, "hf.json").read_text())
    run = run_file.load_run(Path(folder, "run.bpe"))
    ours = [list(run.pair_str(m[:2])) for m in run.merges]
    same = (
        "yes"
        if ours == theirs
        else f"NO (first difference at merge {next(i for i, (a, b) in enumerate(zip(ours, theirs), 1) if a != b)})"
    )
    t = time.perf_counter()
    run_file.load_run(Path(folder, "run.bpe"))
    print(f"Same merges as tokenizers (tie rule hf): {same}. Opening the run file: {time.perf_counter() - t:.2f} s, "
          f"{Path(folder, 'run.bpe').stat().st_size / 1e6:.1f} MB.")  # fmt: skip


if __name__ == "__main__":
    main()
