"""A teacher's one big paste and one big upload, timed on each checkout's ``serve.py``: the pacing must not slow them.

``server/ws_pacing.py`` paces a connection's big websocket messages by their bytes and ``server/upload_pacing.py``
a session's upload bodies, each after a burst that one teacher's sends stay within. Here, ``--tries`` times, a
fresh session from an address of its own (so a fresh budget of texts sent, as a teacher's) opens the Train page and
pastes a distinct ``--paste-mb`` MB corpus (to 1 merge), and another, from another address, uploads one
``--upload-mb`` MB file to the corpus uploader (taken, read and stored); each send is timed from the message to
the end of the page's run. The checkouts take turns, each going first in turn and ``--pause`` seconds apart, so
the machine's load moves all of them; printed per checkout: each send's median and slowest, and the load average.

    git archive main | tar -x -C /tmp/ref_main && ln -s "$PWD/.venv" /tmp/ref_main/.venv
    .venv/bin/python benchmarks/bench_big_sends.py /tmp/ref_main .
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "benchmarks")]

from browser_support import AppServer  # noqa: E402
from hostile_neighbour import paste, paste_text  # noqa: E402
from st_client import Session  # noqa: E402


async def sends(url: str, source: str, nonce: int, args) -> tuple[float, float]:
    """One teacher pastes, another (an address of its own: a text alone in its minute) uploads: (seconds of the
    paste, seconds of the upload)."""
    seconds = []
    for what, address in (("paste", f"127.0.{source}"), ("upload", f"127.1.{source}")):
        s = Session(url, "step=0", source=address)
        await s.open(timeout=300)
        try:
            values = {s.ids["source"]: "Paste or upload text", s.ids["limit"]: "Number of merges"}
            await s._rerun(timeout=300, **values)  # the box and the uploader drawn: only the sends are timed
            if what == "paste":
                text = paste_text(nonce, int(args.paste_mb * 1e6))
                started = time.perf_counter()
                await paste(s, text, 1, timeout=300)
                seconds.append(time.perf_counter() - started)
            else:
                data = b"one teacher's file " * int(args.upload_mb * 1e6 / 19)
                seconds.append(await s.upload("corpus_file", [("corpus.txt", data)], timeout=300))
        finally:
            await s.close()
    return seconds[0], seconds[1]


async def main(args) -> None:
    times: dict[Path, list[tuple[float, float, tuple]]] = {c: [] for c in args.checkouts}
    nonce = random.randrange(10**6)
    servers = {
        c: AppServer(script=str(c / "serve.py"), env={"BPE_DATA_DIR": f"{args.data_dir}/{i}"})
        for i, c in enumerate(args.checkouts)
    }
    try:
        urls = {c: server.start() for c, server in servers.items()}
        for i in range(args.tries):
            order = list(enumerate(args.checkouts))
            for j, checkout in order if i % 2 == 0 else order[::-1]:  # each goes first in turn
                await asyncio.sleep(args.pause)  # the last send's training (in the pool) is over, mostly
                source = f"{10 + j}.{10 + i}"  # fresh addresses each time: a teacher's own budget
                pasted, uploaded = await sends(urls[checkout], source, nonce + 100 * i + j, args)
                times[checkout].append((pasted, uploaded, os.getloadavg()))
                print(f"  {checkout}: try {i + 1}: paste {pasted:.2f} s, upload {uploaded:.2f} s", flush=True)
    finally:
        for server in servers.values():
            server.stop()
    print(
        f"\none {args.paste_mb:g} MB paste and one {args.upload_mb:g} MB upload from a fresh session, {args.tries} tries:"
    )
    for checkout, rows in times.items():
        pastes, uploads = [r[0] for r in rows], [r[1] for r in rows]
        loads = [r[2][0] for r in rows]
        print(
            f"  {str(checkout):24s} paste median {statistics.median(pastes):5.2f} s, slowest {max(pastes):5.2f} s; "
            f"upload median {statistics.median(uploads):5.2f} s, slowest {max(uploads):5.2f} s "
            f"(load {min(loads):.1f}-{max(loads):.1f})"
        )


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "checkouts", nargs="*", type=Path, default=[ROOT], help="checkouts whose serve.py to serve, in turn"
    )
    ap.add_argument("--tries", type=int, default=3)
    ap.add_argument("--paste-mb", type=float, default=5.0)
    ap.add_argument("--upload-mb", type=float, default=59.0)
    ap.add_argument("--pause", type=float, default=5.0, help="seconds between one teacher's sends and the next's")
    parsed = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="bpe-bench-store-") as folder:
        parsed.data_dir = folder
        asyncio.run(main(parsed))
