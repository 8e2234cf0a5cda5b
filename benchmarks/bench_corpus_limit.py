"""What a pasted or uploaded text of the page's limit costs: the worker's path (``server.jobs.train_job``) per size.

For each size, a fresh process reads that much real text (the ``.py`` sources of the installed packages, in
sorted path order: code with indents and blank lines, as users upload it), trains it as one document with the
gpt2 pre-tokenizer to the Train page's first stop (1,000 merges), and prints wall time, CPU time and peak
memory (RSS, less the text itself); then ``tokenizers``' ``BpeTrainer`` on the same text and vocabulary size
in a fresh process, as the reference (the ratio is ours / tokenizers').

    .venv/bin/python benchmarks/bench_corpus_limit.py            # 25 MB and 100 MB
    .venv/bin/python benchmarks/bench_corpus_limit.py --mb 20
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import sysconfig
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MERGES = 1_000


def real_text(n: int) -> str:
    parts, total = [], 0
    for path in sorted(Path(sysconfig.get_paths()["purelib"]).rglob("*.py")):
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        parts.append(text)
        total += len(text)
        if total >= n:
            break
    return "".join(parts)[:n]


def measure(n: int, which: str) -> dict:
    """Runs in a child process: one training of ``n`` characters, by ``which`` (ours or tokenizers)."""
    text = real_text(n)
    before = resource.getrusage(resource.RUSAGE_SELF)
    started = time.monotonic()
    if which == "ours":
        sys.path.insert(0, str(ROOT))
        from server import jobs

        spec = dict(source="text", preset="", text=text, counts="")
        history, _ = jobs.train_job(0, spec, dict(pre_tokenizer="gpt2", num_merges=MERGES, tie_break="hf"))
        vocab = history.num_base + MERGES
    else:
        from tokenizers import Tokenizer, models, pre_tokenizers, trainers

        sys.path.insert(0, str(ROOT))
        import bpe

        base = len({c for w in bpe.count_words([text[:2_000_000]], "gpt2") for c in w})
        tok = Tokenizer(models.BPE())
        tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
        trainer = trainers.BpeTrainer(vocab_size=base + MERGES, show_progress=False)
        tok.train_from_iterator([text], trainer=trainer)
        vocab = base + MERGES
    after = resource.getrusage(resource.RUSAGE_SELF)
    return {
        "wall": time.monotonic() - started,
        "cpu": after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime,
        "peak_mb": after.ru_maxrss / 1024,
        "before_mb": before.ru_maxrss / 1024,
        "vocab": vocab,
        "bytes": len(text.encode()),
    }


def child(n: int, which: str) -> dict:
    out = subprocess.run(
        [sys.executable, __file__, "--child", which, "--chars", str(n)], capture_output=True, text=True, check=True
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=int, nargs="*", default=[25, 100])
    parser.add_argument("--child", choices=["ours", "tokenizers"])
    parser.add_argument("--chars", type=int)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(measure(args.chars, args.child)))
        return
    for mb in args.mb:
        ours, ref = child(mb * 1_000_000, "ours"), child(mb * 1_000_000, "tokenizers")
        print(
            f"{ours['bytes'] / 1e6:.0f} MB to {MERGES:,} merges: wall {ours['wall']:.1f} s, CPU {ours['cpu']:.1f} s "
            f"({ours['cpu'] / ref['cpu']:.2f}x tokenizers' CPU {ref['cpu']:.1f} s), worker memory "
            f"{ours['peak_mb'] - ours['before_mb']:,.0f} MB over the text (peak RSS {ours['peak_mb']:,.0f} MB; "
            f"tokenizers {ref['peak_mb'] - ref['before_mb']:,.0f} MB)",
            flush=True,
        )


if __name__ == "__main__":
    main()
