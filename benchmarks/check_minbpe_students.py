"""The Check measured on real students' minbpe trainers: each student's own BasicTokenizer and RegexTokenizer run unchanged, then checked.

Karpathy's minbpe exercise asks for ``BasicTokenizer`` (bytes, no pre-tokenization) and ``RegexTokenizer`` (GPT-4's
split pattern), each with ``train(text, vocab_size, verbose=False)``. Run from the repository root, with a directory
holding one folder per student (their code is never part of this repository), each with ``p_trainers.json``: a list of
the student's trainers, ``{"kind": "basic" or "regex", "file": "minbpe/basic.py", "class": "BasicTokenizer"}``, or,
where their entry point differs, ``{"kind": ..., "adapter": "p_adapter.py", "function": "train_basic"}``, a function of
``(text, vocab_size)`` that calls their code unchanged and returns the tokenizer (or its merges):

    .venv/bin/python benchmarks/check_minbpe_students.py /tmp/students_p --record-only --json recorded.json
    .venv/bin/python benchmarks/check_minbpe_students.py --check recorded.json --json checked.json

The first runs each trainer on the three corpora of :data:`tests.faulty_trainers.CORPORA` (vocabulary sizes each
corpus can reach with either tokenizer, :data:`VOCAB`) in a process of its own (``check_students.run_child``: a new
session, a time and an address-space cap, missing heavy modules stubbed), and records the ``.model`` the student would
upload: their own ``save()``'s, or, without one, the ``.model`` minbpe's ``save()`` writes from their ``merges`` dict
(``{(id, id): new id}`` in insertion order; ``{new id: (id, id)}`` is read too). "Differs" is decided by our own run
with the settings that reproduce minbpe (:data:`SETUPS`: Basic, the whole text one sequence; Regex, GPT-4's pattern;
both the first-seen tie and bytes), never by the Check. ``--record-only`` stops there (it prints same or differs, not
the Check's verdict), so a ground truth can be written before any verdict is seen. ``--check`` then checks each
recorded ``.model`` as the Check page checks an upload (:func:`bpe.check.diagnose`, read by
``read_student_file``): with the settings that describe minbpe (the reference's), no special tokens (minbpe's
trainers register none) and the vocabulary size as the target; ``--page-defaults`` instead takes the settings the
page switches to for a ``.model`` upload (:func:`bpe.check_minbpe.minbpe_settings`: the ``.model``'s split pattern,
the first-seen tie, bytes, no special token, 256 + its merges as the vocabulary size; a pattern none of ours leaves
the CS336 preset's whitespace pre-tokenizer). A ``.model`` built here from the merges of a Regex tokenizer that
keeps no pattern string gets minbpe's GPT-4 pattern, as minbpe's ``save()`` writes for a ``RegexTokenizer``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "benchmarks")]

from check_students import run_child  # noqa: E402
from faulty_trainers import CORPORA  # noqa: E402

from bpe.check import Setup, diagnose, history_bytes, train_setup  # noqa: E402
from bpe.check_minbpe import minbpe_settings  # noqa: E402
from bpe.formats.student_runs import read_student_file  # noqa: E402

VOCAB = {"handout": 256 + 12, "prose": 256 + 190, "bytes": 256 + 80}  # minbpe's vocab_size: 256 bytes + the merges
SETUPS = {"basic": Setup("first", "none", True), "regex": Setup("first", "gpt4", True)}
PAGE_PRE = Setup("first", "whitespace", False)  # a pattern none of ours: the preset's pre-tokenizer stays
MINBPE_GPT4 = (
    r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]++[\r\n]*|\s*[\r\n]|\s+(?!\S)|\s+"""
)

# The child: the student's trainer imported from their folder and trained once; their .model (or merges) written out.
CHILD = r"""
import importlib, importlib.util, json, os, sys, types
student, entry, corpus, vocab_size, out = sys.argv[1], json.loads(sys.argv[2]), sys.argv[3], int(sys.argv[4]), sys.argv[5]
text = open(corpus, encoding="utf-8").read()
sys.path[:0] = [student]
if entry.get("adapter"):
    spec = importlib.util.spec_from_file_location("p_adapter", os.path.join(student, entry["adapter"]))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    trained = getattr(module, entry["function"])(text, vocab_size)
else:
    folder = os.path.dirname(entry["file"])
    sys.path.append(os.path.join(student, folder))  # siblings imported by bare name (last: their regex.py is no regex)
    name = entry["file"][:-3].replace("/", ".")
    if not folder:  # a file at the top: a package of its own, so that its relative imports resolve
        root = types.ModuleType("p_root"); root.__path__ = [student]; sys.modules["p_root"] = root
        name = "p_root." + name
    trained = getattr(importlib.import_module(name), entry["class"])(**entry.get("init", {}))
    returned = trained.train(text, vocab_size)
    if returned is not None and hasattr(returned, "__dict__") and not callable(returned):
        trained = returned  # a train() that returns the trained tokenizer (a classmethod making a new one)
    elif isinstance(returned, (tuple, dict, list)):
        found = returned  # (ids, merges) or the merges

def triples(value):  # [(id, id, new id)] from {(id, id): new id}, {new id: (id, id)}, [((id, id), new id)], triples
    items = list(value.items()) if isinstance(value, dict) else value if isinstance(value, list) else None
    if not items or not all(isinstance(t, tuple) and len(t) in (2, 3) for t in items):
        return None
    first = items[0]
    if len(first) == 2 and isinstance(first[0], tuple) and len(first[0]) == 2:
        return [(int(p[0]), int(p[1]), int(i)) for p, i in items]
    if len(first) == 2 and isinstance(first[1], tuple) and len(first[1]) == 2:
        return [(int(p[0]), int(p[1]), int(i)) for i, p in items]
    if len(first) == 3 and not isinstance(value, dict):
        return [tuple(int(x) for x in t) for t in items]
    return None

# where the merges are: the value train() returned, else the tokenizer's attributes (those named merge... first)
candidates = list(found) if isinstance(globals().get("found"), tuple) else [globals().get("found")]
names = sorted(vars(trained), key=lambda n: ("merge" not in n.lower(), n)) if hasattr(trained, "__dict__") else []
candidates += [getattr(trained, n) for n in names] + [trained]
triples_found = next((t for t in map(triples, candidates) if t), [])
model, saved = None, ""
if hasattr(trained, "save") and not isinstance(trained, (dict, list, tuple)):
    try:
        trained.save(os.path.join(os.getcwd(), "p_student"))
        model = open(os.path.join(os.getcwd(), "p_student.model"), encoding="utf-8").read()
    except Exception as exc:  # their save() is not what is measured: their merges are
        saved = f"{type(exc).__name__}: {exc}"[:200]
pattern = getattr(trained, "pattern", "") or ""
with open(out, "w") as f:
    json.dump({"triples": triples_found, "model": model, "save_error": saved, "pattern": str(pattern)}, f)
"""


def model_text(triples: list, pattern: str) -> str:
    """The ``.model`` minbpe's ``save()`` writes for these merges: the pairs of ids in the dict's order."""
    return "".join(["minbpe v1\n", f"{pattern}\n", "0\n", *(f"{a} {b}\n" for a, b, *_ in triples)])


def reference(kind: str, corpus: str) -> list:
    return history_bytes(train_setup(CORPORA[corpus], SETUPS[kind], VOCAB[corpus] - 256, []))


def record(students: Path, only: set[str]) -> list[dict]:
    """Every student's trainers run on every corpus: one row each, with the .model they would upload."""
    rows = []
    refs = {(k, c): reference(k, c) for k in SETUPS for c in CORPORA}
    with tempfile.TemporaryDirectory() as tmp:
        paths = {}
        for name, text in CORPORA.items():
            paths[name] = Path(tmp) / f"{name}.txt"
            paths[name].write_text(text, encoding="utf-8")
        for student in sorted(p for p in students.iterdir() if (p / "p_trainers.json").exists()):
            if only and student.name not in only:
                continue
            for entry in json.loads((student / "p_trainers.json").read_text()):
                trainer = entry["kind"] + ":" + (entry.get("class") or entry.get("function"))
                for corpus in CORPORA:
                    start = time.perf_counter()
                    data, why = run_child(
                        CHILD, [str(student.resolve()), json.dumps(entry), str(paths[corpus]), str(VOCAB[corpus])],
                        "run.json",
                    )  # fmt: skip
                    row = {"student": student.name, "trainer": trainer, "kind": entry["kind"], "corpus": corpus,
                           "seconds": round(time.perf_counter() - start, 1)}  # fmt: skip
                    if data is None:
                        rows.append(row | {"verdict": "not run", "why": why})
                        print(f"{student.name:20} {trainer:28} {corpus:8} not run: {why}", flush=True)
                        continue
                    got = json.loads(data)
                    built = model_text(got["triples"], got["pattern"])
                    model, source = (got["model"], "save") if got["model"] else (built, "merges")
                    try:
                        run = read_student_file(model.encode(), "student.model")
                    except ValueError as exc:
                        if source == "merges":
                            rows.append(row | {"verdict": "not run", "why": f"unreadable merges: {exc}"})
                            print(f"{student.name:20} {trainer:28} {corpus:8} unreadable: {exc}", flush=True)
                            continue
                        model, source = built, f"merges (their .model unreadable: {exc})"
                        run = read_student_file(model.encode(), "student.model")
                    differs = list(run.merges) != refs[entry["kind"], corpus]
                    row |= {
                        "differs": differs, "merges": len(run.merges), "source": source,
                        "model_equals_merges": model.splitlines()[3:] == built.splitlines()[3:],
                        "save_error": got["save_error"], "model": model,
                        "student_merges": [[a.hex(), b.hex()] for a, b in run.merges],
                    }  # fmt: skip
                    rows.append(row)
                    print(f"{student.name:20} {trainer:28} {corpus:8} {'differs' if differs else 'same   '} "
                          f"{len(run.merges):4} merges ({source})", flush=True)  # fmt: skip
    return rows


def check(row: dict, page_defaults: bool = False) -> dict:
    """``row`` with the Check's verdict on its recorded .model, as the Check page gives it."""
    model = row["model"]
    lines = model.split("\n", 2)
    if row["kind"] == "regex" and row["source"].startswith("merges") and not lines[1].strip():
        model = "\n".join([lines[0], MINBPE_GPT4, lines[2]])  # what minbpe's save() writes for a RegexTokenizer
    run = read_student_file(model.encode(), "student.model")
    text = CORPORA[row["corpus"]]
    if page_defaults:
        found = minbpe_settings(run)
        result, _ = diagnose(text, run, found.setup or PAGE_PRE, (), vocab_size=found.vocab_size)
    else:
        result, _ = diagnose(text, run, SETUPS[row["kind"]], (), vocab_size=VOCAB[row["corpus"]])
    return {**row, "step": result.step, "verdict": result.kind, "fault": result.fault, "rule": result.rule,
            "later": [result.later_kind, result.later_step], "cause": result.cause}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("students", type=Path, nargs="?", help="one folder per student, each with p_trainers.json")
    parser.add_argument("--only", default="", help="students to run, comma-separated")
    parser.add_argument("--record-only", action="store_true", help="record the runs; do not check them")
    parser.add_argument("--check", type=Path, help="check the runs recorded in this JSON instead of running students")
    parser.add_argument("--page-defaults", action="store_true", help="check with the settings the page sets")
    parser.add_argument("--json", type=Path, help="write every row (with the student's merges) here")
    args = parser.parse_args()
    only = {o for o in args.only.split(",") if o}
    if args.check:
        rows = json.loads(args.check.read_text())
    elif args.students:
        rows = record(args.students, only)
    else:
        parser.error("give the students' folder or --check RECORDED.json")
    if not args.record_only:
        for i, row in enumerate(rows):
            if "differs" not in row or (only and row["student"] not in only):
                continue
            start = time.perf_counter()
            rows[i] = row = check(row, args.page_defaults)
            print(
                f"{row['student']:20} {row['trainer']:28} {row['corpus']:8} {'differs' if row['differs'] else 'same   '} "
                f"step {row['step']!s:>4}  {row['verdict']:13} {row['fault'] or row['rule'] or ''} "
                f"{time.perf_counter() - start:5.1f} s (load {os.getloadavg()[0]:.1f})\n    {row['cause']}",
                flush=True,
            )
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1))
    ran = [r for r in rows if "differs" in r]
    checked = [r for r in ran if "verdict" in r]
    print(
        f"\n{len({r['student'] for r in rows})} students, {len(rows)} runs: {sum(not r['differs'] for r in ran)} equal "
        f"ours, {sum(r['differs'] for r in ran)} differ, {len(rows) - len(ran)} not run"
        + (
            f"; of the equal runs {sum(not r['differs'] and r['verdict'] == 'same' for r in checked)} told 'same'."
            if checked
            else "."
        )  # fmt: skip
    )


if __name__ == "__main__":
    main()
