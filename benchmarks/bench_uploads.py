"""Reading an uploaded tokenizer file: in the serving process (as before issue 22 #2) against
``server.uploads`` (a process of its own, pickled back), on the same file in the same script.

While a file is read in a thread, the main thread stands for another session's click: it wakes every
10 ms, and the longest time it waited for the interpreter is the stall a click would see. Reported
per way: the read's time, the longest stall, the server's RSS growth at peak and kept, and, for
``server.uploads``, the pickle's size and the RSS kept per pickled byte (``HELD_PER_PICKLED_BYTE``).

    .venv/bin/python benchmarks/bench_uploads.py               # 400,000 tokens padded to 60 MB
    .venv/bin/python benchmarks/bench_uploads.py --tokens 200000 --pad 0
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]


def one(way: str, tokens: int, pad: int) -> None:
    from tokenizer_files import big_tokenizer_json

    from bpe import formats
    from server import uploads

    data = big_tokenizer_json(tokens)
    data += b" " * max(0, pad - len(data))
    before = uploads.rss_bytes()
    peak, stall, out, done = [before], [0.0], {}, threading.Event()

    def read():
        t = time.perf_counter()
        if way == "in-process":
            out["tok"] = formats.from_tokenizer_json(data)
        else:
            (out["tok"], _, _), out["pickled"] = uploads.parse("files", {"t.json": data}, "gpt2", "cl100k")
        out["seconds"] = time.perf_counter() - t
        done.set()

    threading.Thread(target=read).start()
    last = time.perf_counter()
    while not done.wait(0.01):
        now = time.perf_counter()
        stall[0], last = max(stall[0], now - last), now
        peak[0] = max(peak[0], uploads.rss_bytes())
    kept = uploads.rss_bytes() - before
    line = (
        f"{way:>12}: {len(data) / 1e6:.1f} MB file, {out['tok'].vocab_size:,} tokens, read in {out['seconds']:.1f} s; "
        f"longest stall of another thread {stall[0]:.2f} s; RSS +{(peak[0] - before) / 2**20:.0f} MiB at peak, "
        f"+{kept / 2**20:.0f} MiB kept"
    )
    if "pickled" in out:
        line += f"; pickle {out['pickled'] / 2**20:.0f} MiB, kept/pickle {kept / out['pickled']:.1f}"
    print(line, flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tokens", type=int, default=400_000)
    parser.add_argument("--pad", type=int, default=60_000_000, help="pad the file with spaces to this many bytes")
    parser.add_argument("--way", choices=("in-process", "off-process"))
    args = parser.parse_args()
    if args.way:
        one(args.way, args.tokens, args.pad)
        return
    for way in ("in-process", "off-process"):  # each in a fresh interpreter, so RSS figures do not mix
        subprocess.run(
            [sys.executable, __file__, "--way", way, "--tokens", str(args.tokens), "--pad", str(args.pad)], check=True
        )


if __name__ == "__main__":
    main()
