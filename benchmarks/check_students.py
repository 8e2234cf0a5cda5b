"""The Check measured on real students' BPE trainers: each student's own code run unchanged, then checked.

Run from the repository root, with a directory holding one checkout of Stanford CS336's assignment 1
per student (``<dir>/<owner>/tests/adapters.py`` with ``run_train_bpe``; their code is never part of
this repository):

    .venv/bin/python benchmarks/check_students.py /tmp/students [--only owner,owner] [--json out.json]

Each student's ``run_train_bpe(input_path, vocab_size, special_tokens)`` runs in a process of its own
(a new session, killed with its workers after :data:`SECONDS`, an address-space cap of :data:`MEMORY`)
on the three corpora the tests check faulty trainers on (:data:`tests.faulty_trainers.CORPORA`: the
CS336 handout example, English prose with indented code and two ``<|endoftext|>`` separators, text of
multi-byte characters), with ``<|endoftext|>`` as the special token and vocabulary sizes below what each
corpus can make (:data:`VOCAB`), so a run ends by its size, not by running out of pairs. Modules the
adapter imports but training never needs (torch, jaxtyping, einops...) are stubbed when missing.
The student's (vocab, merges) is then checked as the Check page checks a CS336 pickle
(:func:`bpe.check.diagnose` with CS336's settings and the vocabulary size), and compared with our
correct run; one line per student and corpus: same or differs (our reference), the Check's step, kind,
fault and sentence.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from faulty_trainers import CORPORA, EOT  # noqa: E402

from bpe.check import CS336_SETUP, diagnose, history_bytes, train_setup  # noqa: E402
from bpe.formats.student_runs import read_student_file  # noqa: E402

SECONDS = 60.0
MEMORY = 4 << 30
VOCAB = {"handout": 257 + 12, "prose": 257 + 190, "bytes": 257 + 80}

# Missing heavy modules stubbed and the student's package given a version. It runs as ``sitecustomize`` in the
# child and in every process the student's code starts: a spawned worker imports the student's modules afresh.
PRELUDE = r"""
import importlib.abc, importlib.machinery, importlib.util, sys, types
STUBS = ("torch", "jaxtyping", "einops", "einx", "wandb", "triton", "tqdm", "matplotlib", "psutil", "submitit",
         "hydra", "omegaconf", "pandas", "scipy", "sklearn", "humanfriendly", "line_profiler", "memory_profiler", "datasets", "pynvml", "transformers", "seaborn",
         "IPython", "huggingface_hub", "torchvision", "lightning", "timm", "safetensors", "loguru", "icecream", "sympy", "mpmath",
         "zarr", "torchinfo", "absl", "pydantic", "ujson", "ijson", "h5py",
         "swanlab", "ptflops", "torchgen", "ortools")

class Anything(types.ModuleType):
    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return Anything(name)
    def __call__(self, *a, **k):
        return a[0] if len(a) == 1 and callable(a[0]) and not k else Anything("call")
    def __getitem__(self, key):
        return Anything("item")
    def __iter__(self):
        return iter(())
    def __or__(self, other):
        return self
    __ror__ = __or__
    def __mro_entries__(self, bases):
        return (object,)

class Stubs(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def find_spec(self, name, path, target=None):
        if name.split(".")[0] in STUBS:
            return importlib.machinery.ModuleSpec(name, self, is_package=True)
    def create_module(self, spec):
        return Anything(spec.name)
    def exec_module(self, module):
        module.__path__ = []

import importlib.metadata as md
_version = md.version
def version(name):
    try:
        return _version(name)
    except md.PackageNotFoundError:  # the student's package is not installed, only on the path
        return "0"
md.version = version
import os
if not hasattr(os, "process_cpu_count"):  # Python 3.13's, which students' code calls
    os.process_cpu_count = os.cpu_count
missing = [m for m in STUBS if importlib.util.find_spec(m) is None]
STUBS = tuple(missing)
sys.meta_path.append(Stubs())
"""

# The child: the student's adapter imported from their checkout (the prelude has run), then run once.
CHILD = r"""
import importlib.util, pickle, sys, types
student, corpus, vocab_size, out = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
sys.path[:0] = [student, student + "/src"]
sys.path.append(student + "/cs336_basics")  # modules that import their siblings by bare name, as run from there
sys.path.append(student + "/tests")  # an adapter importing its helper (common.py) by bare name, as pytest's rootdir lets it
spec = importlib.util.spec_from_file_location("tests.adapters", student + "/tests/adapters.py")
pkg = types.ModuleType("tests"); pkg.__path__ = [student + "/tests"]; sys.modules["tests"] = pkg
adapters = importlib.util.module_from_spec(spec); sys.modules["tests.adapters"] = adapters
spec.loader.exec_module(adapters)
vocab, merges = adapters.run_train_bpe(corpus, vocab_size, ["<|endoftext|>"])
with open(out, "wb") as f:
    pickle.dump(({int(k): bytes(v) for k, v in vocab.items()}, [(bytes(a), bytes(b)) for a, b in merges]), f)
"""


def _limit() -> None:
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


def run_child(child: str, args: list[str], out_name: str = "run.pkl", seconds: float = SECONDS) -> tuple[object, str]:
    """The bytes ``child`` (a Python script run with ``args`` and then the path of its output) wrote to its output
    file, or None and why not. It runs in a process of its own, a new session, under :data:`MEMORY` of address space,
    with :data:`PRELUDE` as its ``sitecustomize`` (missing heavy modules stubbed), killed with every process it started
    after ``seconds``, in a temporary directory of its own."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / out_name
        (Path(tmp) / "sitecustomize.py").write_text(PRELUDE)
        path = os.pathsep.join(p for p in (tmp, os.environ.get("PYTHONPATH")) if p)
        proc = subprocess.Popen(
            [sys.executable, "-c", child, *args, str(out)],
            cwd=tmp, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True,
            preexec_fn=_limit, env={**os.environ, "PYTHONHASHSEED": "0", "OMP_NUM_THREADS": "1", "PYTHONPATH": path},
        )  # fmt: skip
        try:
            _, err = proc.communicate(timeout=seconds)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
            return None, f"did not finish in {seconds:.0f} s"
        finally:
            try:
                os.killpg(proc.pid, signal.SIGKILL)  # the student's worker processes, if any are left
            except ProcessLookupError:
                pass
        if proc.returncode != 0 or not out.exists():
            last = err.decode("utf-8", "replace").strip().splitlines()
            return None, f"failed: {last[-1][:160] if last else proc.returncode}"
        return out.read_bytes(), ""


def run_student(student: Path, corpus: Path, vocab_size: int, child: str = CHILD) -> tuple[object, str]:
    """What ``child`` (run as ``child student corpus size out``) wrote: by default CS336's (vocab, merges) pickled
    from the student's trainer; or None and why not."""
    return run_child(child, [str(student), str(corpus), str(vocab_size)])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("students", type=Path)
    parser.add_argument("--only", default="", help="owners to run, comma-separated")
    parser.add_argument("--json", type=Path, help="write every row (with the student's merges) here")
    args = parser.parse_args()
    only = {o for o in args.only.split(",") if o}
    owners = sorted(p for p in args.students.iterdir() if (p / "tests" / "adapters.py").exists())
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        paths = {}
        for name, text in CORPORA.items():
            paths[name] = Path(tmp) / f"{name}.txt"
            paths[name].write_text(text, encoding="utf-8")
        reference = {n: history_bytes(train_setup(t, CS336_SETUP, VOCAB[n] - 257, [EOT])) for n, t in CORPORA.items()}
        for student in owners:
            if only and student.name not in only:
                continue
            for name, text in CORPORA.items():
                start = time.perf_counter()
                data, why = run_student(student.resolve(), paths[name], VOCAB[name])
                took = time.perf_counter() - start
                row = {"student": student.name, "corpus": name, "seconds": round(took, 1), "load": os.getloadavg()[0]}
                if data is None:
                    row |= {"verdict": "not run", "why": why}
                    print(f"{student.name:16} {name:8} not run: {why}", flush=True)
                    rows.append(row)
                    continue
                run = read_student_file(data, "run.pkl")
                result, _ = diagnose(text, run, CS336_SETUP, [EOT], vocab_size=VOCAB[name])
                ours = reference[name]
                differs = list(run.merges) != ours
                row |= {
                    "differs": differs, "merges": len(run.merges), "step": result.step, "kind": result.kind,
                    "fault": result.fault, "rule": result.rule, "later": [result.later_kind, result.later_step],
                    "cause": result.cause, "student_merges": [[a.hex(), b.hex()] for a, b in run.merges],
                }  # fmt: skip
                print(
                    f"{student.name:16} {name:8} {'differs' if differs else 'same   '} {len(run.merges):4} merges  "
                    f"step {result.step!s:>4}  {result.kind:13} {result.fault or result.rule or '':14} "
                    f"{took:5.1f} s (load {os.getloadavg()[0]:.1f})\n    {result.cause}",
                    flush=True,
                )
                rows.append(row)
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1))
    ran = [r for r in rows if "differs" in r]
    print(
        f"\n{len({r['student'] for r in rows})} students, {len(ran)} runs: {sum(not r['differs'] for r in ran)} equal "
        f"ours ({sum(not r['differs'] and r['kind'] == 'same' for r in ran)} of them 'same'), "
        f"{sum(r['differs'] for r in ran)} differ; {len(rows) - len(ran)} not run."
    )


if __name__ == "__main__":
    main()
