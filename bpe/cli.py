"""The command line: train on text files of any size and save the whole run, for the app to step through.

``python -m bpe train FILE... --vocab-size 10000 --special-token '<|endoftext|>' --tie-rule greatest-bytes
--out run.bpe`` does what Stanford CS336's assignment 1 asks of a BPE trainer, keeping every step:

1. count the words of the files (:mod:`bpe.counting`): the files are streamed in chunks cut at special
   tokens, never read whole, and pre-tokenized in parallel worker processes (``--workers``), or on a
   ``dask.distributed`` cluster (``--dask`` for a local one, ``--scheduler ADDRESS`` for any);
2. train on the word counts with :func:`bpe.train_steps`, the same trainer and full step history as the app;
3. write the run file (:mod:`bpe.formats.run_file`).

Progress and an estimate of the time left go to stderr, and at the end where the time went (reading,
pre-tokenizing and counting are added over the workers; ``--timings FILE`` writes them as JSON).
``python -m bpe show run.bpe`` prints what a run file holds.

Left out: WordPiece (``train`` trains BPE) and forced merges (a what-if is the app's).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import sys
import time
from collections.abc import Sequence

from . import counting
from .config import PRE_TOKENIZERS, TIE_RULE_SENTENCES, TIE_RULES
from .formats import run_file
from .state import stop_sentence
from .trainer import train_steps

REPORT_EVERY_S = 1.0  # at most one progress line a second
CONNECT_TIMEOUT_S = 20  # how long --scheduler waits for the scheduler to answer


class Progress:
    """Progress lines on stderr with an estimate of the time left: rewritten in place on a terminal,
    one line per report otherwise (a log file or a test)."""

    def __init__(self, stream=None, quiet: bool = False) -> None:
        self.stream = stream or sys.stderr
        self.quiet = quiet
        self.tty = hasattr(self.stream, "isatty") and self.stream.isatty()
        self.last = 0.0
        self.start = time.monotonic()

    def begin(self) -> None:
        self.start = self.last = time.monotonic()

    def report(self, what: str, done: int, total: int | None, unit: str, final: bool = False) -> None:
        now = time.monotonic()
        if self.quiet or (not final and now - self.last < REPORT_EVERY_S):
            return
        self.last = now
        elapsed = now - self.start
        if total:
            left = f", about {_duration(elapsed * (total - done) / done)} left" if 0 < done < total else ""
            line = f"{what}: {_amount(done, unit)} of {_amount(total, unit)} ({100 * done / total:.0f}%){left}"
        else:
            line = f"{what}: {_amount(done, unit)}"
        line += f" [{_duration(elapsed)}]"
        end = "\n" if final or not self.tty else ""
        self.stream.write(("\r\x1b[K" if self.tty else "") + line + end)
        self.stream.flush()

    def say(self, line: str) -> None:
        if not self.quiet:
            self.stream.write(line + "\n")
            self.stream.flush()


def _amount(n: int, unit: str) -> str:
    return f"{n / 1e6:,.1f} MB" if unit == "bytes" else f"{n:,} {unit}"


def _duration(seconds: float) -> str:
    if seconds < 60:
        return f"{seconds:.0f} s"
    return f"{int(seconds // 60)} min {seconds % 60:02.0f} s"


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m bpe", description="Train BPE on text files and save every step.")
    commands = parser.add_subparsers(dest="command", required=True)
    train = commands.add_parser("train", help="train on text files and write a run file")
    train.add_argument("files", nargs="+", metavar="FILE", help="UTF-8 text files (each one or more documents)")
    limit = train.add_mutually_exclusive_group()
    limit.add_argument("--vocab-size", type=int, help="stop at this many tokens (special tokens included)")
    limit.add_argument("--num-merges", type=int, help="stop after this many merges")
    train.add_argument(
        "--special-token",
        action="append",
        default=[],
        metavar="TOKEN",
        help="a special token (repeat for more): it separates documents and takes the first id",
    )
    train.add_argument(
        "--tie-rule",
        choices=TIE_RULES,
        default="greatest-bytes",
        help="which of the pairs tied at the highest count wins (default: greatest-bytes, CS336's); "
        + "; ".join(f"{rule}: {TIE_RULE_SENTENCES[rule]}" for rule in TIE_RULES),
    )
    train.add_argument(
        "--pre-tokenizer", choices=PRE_TOKENIZERS, default="gpt2", help="how text is cut into words (default gpt2)"
    )
    train.add_argument("--min-frequency", type=int, default=0, help="stop when the best pair occurs fewer times")
    train.add_argument(
        "--full-byte-alphabet",
        action="store_true",
        help="start from all 256 bytes, as CS336 does (byte-level pre-tokenizers only)",
    )
    train.add_argument("--out", required=True, help="the run file to write (e.g. run.bpe)")
    train.add_argument("--workers", type=int, default=None, help="worker processes for counting (default: one per CPU)")
    train.add_argument(
        "--chunk-mb",
        type=float,
        default=counting.CHUNK_BYTES / 1e6,
        help="at most about this many MB a chunk (smaller to give each worker several)",
    )
    train.add_argument(
        "--dask", action="store_true", help="count on a dask.distributed LocalCluster of --workers workers"
    )
    train.add_argument(
        "--scheduler", metavar="ADDRESS", help="count on this dask.distributed scheduler (tcp://host:8786)"
    )
    train.add_argument("--timings", metavar="FILE", help="write where the time went as JSON")
    train.add_argument("--quiet", action="store_true", help="no progress lines")
    show = commands.add_parser("show", help="say what a run file holds")
    show.add_argument("run", help="a run file")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (2 with a sentence on stderr for bad input)."""
    args = _parser().parse_args(argv)
    try:
        if args.command == "show":
            print(describe(run_file.load_run(args.run)))
            return 0
        return train(args)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\nInterrupted: no run file written.", file=sys.stderr)
        return 130


def count(args, progress: Progress) -> tuple[dict[str, int], counting.Timings, str]:
    """Step 1: the word counts, locally or on Dask; returns them, the timings and where they were counted."""
    chunk_bytes = max(1, int(args.chunk_mb * 1e6))
    specials = tuple(dict.fromkeys(args.special_token))

    def report(done: int, total: int) -> None:
        progress.report("Counting words", done, total, "bytes", final=done == total)

    # This process holds no threads while it counts, so on Linux its workers are forked from it: they start
    # with everything imported (spawning costs each worker a fresh interpreter and its imports). Not on macOS,
    # where a forked process may crash in system libraries.
    fork = sys.platform == "linux"
    if not (args.dask or args.scheduler):
        workers = args.workers or os.cpu_count() or 1
        counts, timings = counting.count_files(
            args.files,
            args.pre_tokenizer,
            specials,
            workers=workers,
            chunk_bytes=chunk_bytes,
            progress=report,
            start_method="fork" if fork else "spawn",
        )
        return counts, timings, f"{workers} worker process{'es' if workers > 1 else ''}"
    from dask.distributed import Client, LocalCluster

    if args.scheduler:
        try:
            client = Client(args.scheduler, timeout=CONNECT_TIMEOUT_S)
        except OSError as exc:  # refused, unknown host, or no answer in time
            raise ValueError(f"Cannot reach the Dask scheduler at {args.scheduler} ({exc}); is it running?") from None
        with client:
            counts, timings = counting.count_files_dask(
                args.files, args.pre_tokenizer, specials, client=client, chunk_bytes=chunk_bytes, progress=report
            )
        return counts, timings, f"the Dask scheduler at {args.scheduler}"
    import dask

    workers = args.workers or os.cpu_count() or 1
    started = time.perf_counter()
    # Forked too (Dask spawns by default; fork is one of its documented start methods for workers).
    with (
        dask.config.set({"distributed.worker.multiprocessing-method": "fork" if fork else "spawn"}),
        LocalCluster(n_workers=workers, threads_per_worker=1, dashboard_address=":0") as cluster,
        Client(cluster) as client,
    ):
        up = time.perf_counter() - started
        counts, timings = counting.count_files_dask(
            args.files, args.pre_tokenizer, specials, client=client, chunk_bytes=chunk_bytes, progress=report
        )
        stopping = time.perf_counter()
    timings.extra["starting the Dask cluster"] = up
    timings.extra["stopping the Dask cluster"] = time.perf_counter() - stopping
    return counts, timings, f"a Dask LocalCluster of {workers} workers"


def train(args) -> int:
    """``python -m bpe train``: count, train, write; returns the exit status."""
    started = time.perf_counter()
    progress = Progress(quiet=args.quiet)
    counts, timings, where = count(args, progress)
    counted = time.perf_counter()
    progress.say(f"Counted {len(counts):,} distinct words in {_duration(counted - started)} on {where}.")
    states = train_steps(
        counts,
        pre_tokenizer=args.pre_tokenizer,
        vocab_size=args.vocab_size,
        num_merges=args.num_merges,
        special_tokens=args.special_token,
        min_frequency=args.min_frequency,
        tie_break=args.tie_rule,
        full_byte_alphabet=args.full_byte_alphabet,
    )
    first = next(states)
    history = first.history
    # The word counts and the trainer's splits and indexes live to the end: out of the collector's sight,
    # so its full collections during the merges do not walk them again and again.
    gc.freeze()
    set_up = time.perf_counter()
    if args.vocab_size is not None:
        target = max(0, args.vocab_size - len(history.symbols))
    else:
        target = args.num_merges
    progress.begin()
    for state in states:
        progress.report("Merging", state.step, target, "merges")
    progress.last = 0.0  # the last line always shows, with the merges actually made
    progress.report("Merging", history.num_merges, target or history.num_merges, "merges", final=True)
    merged = time.perf_counter()
    size = run_file.save_run(history, args.out)
    written = time.perf_counter()
    spent = {
        "counting (wall)": counted - started,
        **{k: v for k, v in timings.extra.items() if "Dask" in k},
        "reading (worker CPU)": timings.reading,
        "pre-tokenizing (worker CPU)": timings.pre_tokenizing,
        "counting words (worker CPU)": timings.counting,
        "adding chunk counts (CPU)": timings.extra.get("adding chunks", 0.0),
        "trainer set-up (initial splits, pair counts)": set_up - counted,
        "merging": merged - set_up,
        "writing the run file": written - merged,
        "total": written - started,
    }
    progress.say(
        f"Wrote {args.out}: {history.num_merges:,} merges, {len(history.symbols):,} tokens, {size / 1e6:,.1f} MB, in "
        f"{_duration(written - started)}. {stop_sentence(history) or ''}"
    )
    progress.say("Where the time went: " + ", ".join(f"{k} {v:.2f} s" for k, v in spent.items()) + ".")
    if args.timings:
        record = {"seconds": spent, "bytes": timings.bytes, "chunks": timings.chunks, "words": len(counts)}
        record.update(merges=history.num_merges, run_file_bytes=size, counted_on=where)
        with open(args.timings, "w", encoding="utf-8") as f:
            json.dump(record, f, indent=1)
    return 0


def describe(history) -> str:
    """A few lines saying what a run holds."""
    c = history.config
    lines = [
        f"{history.num_merges:,} merges, {len(history.symbols):,} tokens ({history.num_base:,} at the start), "
        f"{len(history.words):,} distinct words, {sum(history.freqs):,} words in all.",
        f"Pre-tokenizer {c.pre_tokenizer}, tie rule {c.tie_break}, special tokens: {', '.join(c.special_tokens) or 'none'}.",
        stop_sentence(history) or "Training had not stopped.",
    ]
    first = [history.pair_str(m[:2]) for m in history.merges[:5]]
    if first:
        lines.append("First merges: " + ", ".join(f"{a!r} + {b!r}" for a, b in first) + ".")
    return "\n".join(lines)
