"""The Check measured on real students' BPE trainers from other tutorials and courses (held-out set Q).

Students who followed the Hugging Face LLM course's BPE chapter, Sennrich et al.'s ``get_stats``/``merge_vocab``
snippet (``'l o w </w>'`` word counts) or another course's BPE assignment write their own trainer; their code is
never part of this repository. Each student's checkout lives in ``<dir>/<owner>/`` beside an ``adapter.py`` (also
never committed) whose ``FAMILY`` names the tutorial and whose ``train(text, path, num_merges)`` calls the
student's code unchanged and returns their merges in order as they would write or paste them: a list of
``(a, b)`` string pairs, or the text of a merges file.

Two steps, so that the ground truth can be written before any verdict is seen:

    .venv/bin/python benchmarks/check_other_students.py /tmp/students_q --record-only --json recorded.json
    .venv/bin/python benchmarks/check_other_students.py --check recorded.json --json runs.json

The first runs every adapter on the three corpora of :data:`tests.faulty_trainers.CORPORA` (each in a process
of its own, with :mod:`check_students`'s time cap, address-space cap and stubs for missing heavy modules), reads
the merges as the Check page reads a pasted run (:func:`bpe.formats.student_runs.read_student_text`: ``a b``
lines, or a Python list when a token holds whitespace) and records whether they equal our run with the settings
that reproduce the family's reference code (:data:`FAMILIES`). The second calls :func:`bpe.check.diagnose` as
the page does (``server.jobs.corpus_of`` for a pasted text, the family's pre-tokenizer, tie rule and special
tokens, the number of merges as the target) on each recorded run.
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

from check_students import run_student  # noqa: E402
from faulty_trainers import CORPORA  # noqa: E402

from bpe.check import Setup, diagnose  # noqa: E402
from bpe.check_setup import history_bytes, train_setup  # noqa: E402
from bpe.formats.student_runs import read_student_text  # noqa: E402
from server.jobs import corpus_of  # noqa: E402

# Merges asked of each student per corpus: below what each corpus can make under every family's pre-tokenizer,
# so a run ends by its count, not by running out of pairs.
MERGES = {"handout": 10, "prose": 150, "bytes": 60}

# What a student following each tutorial picks on the Check page: (pre-tokenizer, tie rule, special tokens).
# Each reproduces the family's reference code merge for merge on the three corpora (``--verify-reference``).
# - sennrich: Sennrich et al. (2016)'s snippet: words split on whitespace, ``</w>`` a symbol of its own,
#   ``max(pairs, key=pairs.get)`` over a dict filled word by word (the pair seen first wins a tie).
# - hf: the Hugging Face LLM course, chapter 6.5: GPT-2's byte-level pre-tokenizer (``<|endoftext|>`` in the
#   text is cut like any text: the course never splits it out), the first pair of greatest count in
#   ``compute_pair_freqs``' order.
# - whitespace: course assignments that split words on whitespace with no end-of-word symbol, first-seen ties.
FAMILIES = {
    "sennrich": ("sennrich", "first", ()),
    "hf": ("gpt2", "first", ()),
    "whitespace": ("whitespace", "first", ()),
    # - ain442: Hacettepe's AIN442/BBM497 assignment 1 marks each word ' ' + characters + '_' and breaks ties by
    #   the smallest pair; no setting of the page makes those markers, so a student picks the nearest: words with
    #   an end-of-word symbol, the lexicographic tie rule (no reference run equals theirs).
    "ain442": ("sennrich", "lexicographic", ()),
    # - sennrich-lex, whitespace-lex: trainers that break ties by the smallest pair (``min`` over the tied pairs,
    #   a heap of (-count, pair)), so their students pick the lexicographic rule.
    "sennrich-lex": ("sennrich", "lexicographic", ()),
    "whitespace-lex": ("whitespace", "lexicographic", ()),
    # Set S (own trainers and other courses): a fourth element sets the byte base where the pre-tokenizer does not.
    # - none-bytes, none-chars: no pre-tokenizer (each text one sequence, as the Krafton Jungle GPT lab asks), over
    #   bytes or characters; raschka: Raschka's BPETokenizerSimple (characters, a space written 'Ġ', pasted back as
    #   the space it stands for), the same settings.
    # - gpt2-chars, gpt4-bytes, whitespace-bytes-lex: a pre-tokenizer over the other base, or with the smallest pair.
    "none-bytes": ("none", "first", (), True),
    "none-chars": ("none", "first", (), False),
    "raschka": ("none", "first", (), False),
    "gpt2-chars": ("gpt2", "first", (), False),
    "gpt4-bytes": ("gpt4", "first", (), True),
    "whitespace-bytes-lex": ("whitespace", "lexicographic", (), True),
    # - a family ending in '-eow' reads words as subword-nmt does (the last character carries '</w>'), as the Check
    #   compares a run pasted as subword-nmt codes; this one breaks ties by the greatest pair (max over (count, pair)).
    "sennrich-greatest-eow": ("sennrich", "greatest", (), False),
}

# The child: the owner's adapter imported and run once; its merges written as the student would paste them.
CHILD = r"""
import importlib.util, json, sys
student, corpus, num_merges, out = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
sys.path[:0] = [student]
spec = importlib.util.spec_from_file_location("adapter", student + "/adapter.py")
adapter = importlib.util.module_from_spec(spec)
sys.modules["adapter"] = adapter
spec.loader.exec_module(adapter)
with open(corpus, encoding="utf-8") as f:
    text = f.read()
merges = adapter.train(text, corpus, num_merges)
if not isinstance(merges, str):
    pairs = [(str(a), str(b)) for a, b in merges]
    if any(not t or any(c.isspace() for c in t) for p in pairs for t in p):
        merges = repr(pairs)  # a token holds whitespace: pasted as a Python list
    else:
        merges = "\n".join(f"{a} {b}" for a, b in pairs)
with open(out, "w", encoding="utf-8") as f:
    f.write(merges)
"""


def setup_of(family: str) -> tuple[Setup, tuple[str, ...]]:
    """The page's settings for a family: ``Setup`` (byte base as the page sets it, unless the family names it) and
    the special tokens."""
    pre, rule, specials, *byte_base = FAMILIES[family]
    return Setup(rule, pre, byte_base[0] if byte_base else pre in ("gpt2", "gpt4")), specials


def reference(family: str, text: str, num_merges: int) -> list[tuple[bytes, bytes]]:
    """Our run with the family's settings, as byte pairs."""
    setup, specials = setup_of(family)
    corpus = corpus_of("text", "", text, "")
    return history_bytes(train_setup(corpus, setup, num_merges, specials, family.endswith("-eow")))


def record(students: Path, only: set[str]) -> list[dict]:
    """Each owner's merges on each corpus, and whether they equal our run with their family's settings."""
    owners = sorted(p for p in students.iterdir() if (p / "adapter.py").exists())
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        paths = {}
        for name, text in CORPORA.items():
            paths[name] = Path(tmp) / f"{name}.txt"
            paths[name].write_text(text, encoding="utf-8")
        for student in owners:
            if only and student.name not in only:
                continue
            family = _family(student / "adapter.py")
            for name, text in CORPORA.items():
                start = time.perf_counter()
                data, why = run_student(student.resolve(), paths[name], MERGES[name], child=CHILD)
                row = {"student": student.name, "family": family, "corpus": name, "asked": MERGES[name],
                       "seconds": round(time.perf_counter() - start, 1)}  # fmt: skip
                if data is None:
                    rows.append(row | {"verdict": "not run", "why": why})
                    print(f"{student.name:18} {name:8} not run: {why}", flush=True)
                    continue
                pasted = data.decode("utf-8")
                try:
                    run = read_student_text(pasted, "The pasted text")
                except ValueError as exc:
                    rows.append(row | {"verdict": "not run", "why": f"not readable: {exc}"[:300]})
                    print(f"{student.name:18} {name:8} not readable: {exc}"[:200], flush=True)
                    continue
                ours = reference(family, text, MERGES[name])
                first = next((i + 1 for i, (a, b) in enumerate(zip(ours, run.merges)) if a != b), None)
                if first is None and len(ours) != len(run.merges):
                    first = min(len(ours), len(run.merges)) + 1
                row |= {"pasted": pasted, "format": run.format, "merges": len(run.merges),
                        "differs": first is not None, "first_difference": first}  # fmt: skip
                rows.append(row)
                print(f"{student.name:18} {name:8} {family:10} {len(run.merges):4} merges  "
                      f"{'differs at ' + str(first) if first else 'same'}", flush=True)  # fmt: skip
    return rows


def _family(adapter: Path) -> str:
    """The adapter's ``FAMILY = "..."`` line, read without importing the adapter (it imports the student)."""
    for line in adapter.read_text(encoding="utf-8").splitlines():
        if line.startswith("FAMILY"):
            return line.split("=", 1)[1].strip().strip("\"'")
    raise ValueError(f"{adapter}: no FAMILY line")


def check(rows: list[dict]) -> list[dict]:
    """The Check's verdict on each recorded run, called as the page calls it."""
    for row in rows:
        if "pasted" not in row:
            continue
        text = CORPORA[row["corpus"]]
        setup, specials = setup_of(row["family"])
        run = read_student_text(row["pasted"], "The pasted text")
        start = time.perf_counter()
        result, ranked = diagnose(corpus_of("text", "", text, ""), run, setup, specials, num_merges=row["asked"])
        row |= {
            "step": result.step, "kind": result.kind, "fault": result.fault, "rule": result.rule,
            "later": [result.later_kind, result.later_step], "cause": result.cause,
            "check_seconds": round(time.perf_counter() - start, 1),
        }  # fmt: skip
        print(f"{row['student']:18} {row['corpus']:8} {'differs' if row['differs'] else 'same   '} "
              f"(first {row['first_difference']!s:>4})  step {result.step!s:>4}  {result.kind:13} "
              f"{result.fault or result.rule or '':14}\n    {result.cause}", flush=True)  # fmt: skip
    return rows


def verify_reference(students: Path) -> None:
    """Each family's reference code (``<dir>/_reference_<family>/adapter.py``) against our run."""
    for ref in sorted(students.glob("_reference_*")):
        rows = record(students, {ref.name})
        for row in rows:
            print(f"reference {ref.name}: {row['corpus']} {'DIFFERS' if row.get('differs', True) else 'equal'}")


def summary(rows: list[dict]) -> str:
    ran = [r for r in rows if "differs" in r]
    line = (f"{len({r['student'] for r in rows})} owners, {len(rows)} runs: {sum(not r['differs'] for r in ran)} "
            f"equal ours, {sum(r['differs'] for r in ran)} differ, {len(rows) - len(ran)} not run")  # fmt: skip
    if any("kind" in r for r in ran):
        line += f"; equal runs told 'same': {sum(not r['differs'] and r['kind'] == 'same' for r in ran)}"
    return line + "."


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("students", type=Path, nargs="?")
    parser.add_argument("--only", default="", help="owners to run, comma-separated")
    parser.add_argument("--record-only", action="store_true", help="record the runs; no verdicts")
    parser.add_argument("--check", type=Path, help="the Check's verdicts on runs recorded with --record-only")
    parser.add_argument("--verify-reference", action="store_true", help="each family's reference code vs ours")
    parser.add_argument("--json", type=Path, help="write every row here")
    args = parser.parse_args()
    if args.verify_reference:
        verify_reference(args.students)
        return
    if args.check:
        rows = check(json.loads(args.check.read_text()))
    else:
        rows = record(args.students, {o for o in args.only.split(",") if o} - {""})
        rows = [r for r in rows if not r["student"].startswith("_reference_")]
        if not args.record_only:
            rows = check(rows)
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1, ensure_ascii=False))
    print("\n" + summary(rows))


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    main()
