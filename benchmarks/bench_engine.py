"""Benchmark of the bpe/ engine: training speed, memory, history size and step jumps.

Run from the repository root:

    .venv/bin/python benchmarks/bench_engine.py                 # 100 KB, 1 MB, 3 MB; 5000 merges
    .venv/bin/python benchmarks/bench_engine.py --quick         # 1 run each, naive over 200 merges
    .venv/bin/python benchmarks/bench_engine.py --sizes 100000 1000000 --merges 2000

Every speed goal is a ratio against a reference timed in the same process, side by
side (the `tokenizers` library's BpeTrainer, and the Hugging Face course's naive loop),
so a noisy or slow machine moves both sides together. Corpora come from
``bpe.corpora.corpus_lines(n)``. Sections:

1. Training time, ``bpe.run_training(lines, pre_tokenizer="gpt2", num_merges=N, tie_break=...)``
   (pre-tokenization, counting and training with the full step history), for the
   "hf" and "first" tie rules, against ``tokenizers``' BpeTrainer on the same lines.
   Runs alternate (ours, tokenizers, ours, tokenizers, ...); medians are reported.
   The "hf" merges are checked equal to tokenizers' merges.
2. Against the course's naive algorithm (recount every pair of every word each step,
   rewrite every word with list slicing) over 1000 merges on the 1 MB corpus. Both sides
   start from the same lines and use ``bpe.count_words`` for pre-tokenization.
3. Peak memory of one training run (tracemalloc, in a separate untimed run) and the
   history's size per step (``History.nbytes() / num_merges``).
4. The cost of jumping to a random step of the 1 MB history: what a page reads then.
5. Targets, PASS/FAIL.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import random
import statistics
import sys
import time
import tracemalloc
from collections import defaultdict
from pathlib import Path

from tables import print_table  # benchmarks/tables.py (the script's own folder)

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))

import bpe  # noqa: E402
from bpe.corpora import corpus_lines  # noqa: E402
from bpe.reference_loops import compute_pair_freqs, merge_pair  # noqa: E402

try:
    import tokenizers
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers
except ImportError:  # the comparison is skipped, everything else still runs
    tokenizers = None

TARGET_SIZE = 1_000_000  # the corpus the targets are judged on
TARGETS = {
    "hf_ratio": 2.0,  # ours ("hf") / tokenizers, at most
    "first_ratio": 3.0,  # ours ("first") / tokenizers, at most
    "naive_speedup": 100.0,  # naive / ours over the naive merges, at least
    "bytes_per_step": 8 * 1024,  # History.nbytes() / num_merges, at most
    "jump_ms": 5.0,  # median cost of a jump, at most
}


# -- helpers ---------------------------------------------------------------------------------------
def label(n_bytes: int) -> str:
    if n_bytes >= 1_000_000 and n_bytes % 1_000_000 == 0:
        return f"{n_bytes // 1_000_000} MB"
    if n_bytes >= 1_000_000:
        return f"{n_bytes / 1_000_000:.1f} MB"
    return f"{n_bytes / 1000:g} KB"


def timed(fn, *args, **kwargs):
    """(seconds, result) of one call, after a full collection so garbage from the previous
    run is not charged to this one."""
    gc.collect()
    start = time.perf_counter()
    result = fn(*args, **kwargs)
    return time.perf_counter() - start, result


def median(xs):
    return statistics.median(xs) if xs else float("nan")


# -- the two sides ---------------------------------------------------------------------------------
def train_ours(lines, num_merges, tie_break):
    return bpe.run_training(lines, pre_tokenizer="gpt2", num_merges=num_merges, tie_break=tie_break)


def train_ours_phased(lines, num_merges, tie_break):
    """(setup seconds, total seconds, history) of one run split in two phases, for a breakdown:
    setup = pre-tokenize + count + initial splits and pair counts (up to step 0), then the merges.
    Same calls as bpe.run_training (train_steps, next, consume)."""
    gc.collect()
    start = time.perf_counter()
    states = bpe.train_steps(lines, pre_tokenizer="gpt2", num_merges=num_merges, tie_break=tie_break)
    first = next(states)
    setup = time.perf_counter() - start
    for _ in states:
        pass
    return setup, time.perf_counter() - start, first.history


def our_merges(history):
    return [history.pair_str(m[:2]) for m in history.merges]


def train_tokenizers(lines, vocab_size):
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    trainer = trainers.BpeTrainer(vocab_size=vocab_size, show_progress=False)
    tok.train_from_iterator(lines, trainer=trainer)
    return tok


def tokenizers_merges(tok):
    merges = json.loads(tok.to_str())["model"]["merges"]
    return [tuple(m.split(" ", 1)) if isinstance(m, str) else tuple(m) for m in merges]


def compare_merges(ours, theirs):
    if ours == theirs:
        return f"yes ({len(ours)} merges)"
    for i, (x, y) in enumerate(zip(ours, theirs)):
        if x != y:
            return f"NO: merge {i + 1} differs ({x!r} vs {y!r})"
    return f"NO: {len(ours)} vs {len(theirs)} merges"


# -- the Hugging Face course's BPE loop (chapter 6, "Byte-Pair Encoding tokenization") -------------
def naive_course_bpe(lines, num_merges, word_counts=None):
    """The course's code, kept in its shape: word_freqs, alphabet, splits, then every step
    compute_pair_freqs over all words and merge_pair over all words with list slicing (the two functions
    are bpe/reference_loops.py's, which the Train page shows beside the step).
    Pre-tokenization uses bpe.count_words (GPT-2 pattern, byte-mapped, first-seen order)
    where the course calls a tokenizer's pre_tokenize_str: same words, same order."""
    word_freqs = defaultdict(int)
    for word, count in (word_counts or bpe.count_words(lines, "gpt2")).items():
        word_freqs[word] += count

    alphabet = []
    for word in word_freqs.keys():
        for letter in word:
            if letter not in alphabet:
                alphabet.append(letter)
    alphabet.sort()
    vocab = ["<|endoftext|>"] + alphabet.copy()
    splits = {word: [c for c in word] for word in word_freqs.keys()}

    merges = {}
    vocab_size = len(vocab) + num_merges
    while len(vocab) < vocab_size:
        pair_freqs = compute_pair_freqs(splits, word_freqs)
        best_pair = ""
        max_freq = None
        for pair, freq in pair_freqs.items():
            if max_freq is None or max_freq < freq:
                best_pair = pair
                max_freq = freq
        if max_freq is None:
            break  # every word is one token (the course's loop would fail here)
        splits = merge_pair(*best_pair, splits)
        merges[best_pair] = best_pair[0] + best_pair[1]
        vocab.append(best_pair[0] + best_pair[1])
    return list(merges)


# -- sections --------------------------------------------------------------------------------------
def section_training(corpora, args):
    print(f"1. Training time: pre-tokenize (gpt2) + count + train {args.merges} merges with the full step history")
    print(f"   ours = bpe.run_training(lines, pre_tokenizer='gpt2', num_merges={args.merges}, tie_break=...)")
    print(
        "   tokenizers = BpeTrainer(vocab_size=alphabet+merges), ByteLevel(add_prefix_space=False), "
        "train_from_iterator(lines)"
    )
    print(
        f"   runs alternate ours-hf, tokenizers, ours-first, tokenizers; median of {args.runs} runs each "
        f"(tokenizers: median of its {2 * args.runs} runs)"
    )
    if tokenizers is None:
        print("   (tokenizers is not installed: its column is skipped)")
    results = {}
    rows = []
    for n, lines in corpora.items():
        counts = bpe.count_words(lines, "gpt2")
        alphabet = len({c for w in counts for c in w})
        vocab_size = alphabet + args.merges
        t_count = median([timed(bpe.count_words, lines, "gpt2")[0] for _ in range(args.runs)])
        ours = {"hf": [], "first": []}
        theirs = []
        check = "n/a"
        nbytes = {}
        for r in range(args.runs):
            for rule in ("hf", "first"):
                t, h = timed(train_ours, lines, args.merges, rule)
                ours[rule].append(t)
                nbytes[rule] = h.nbytes() / max(h.num_merges, 1)
                hf_list = our_merges(h) if (r == 0 and rule == "hf") else None
                del h
                if tokenizers is not None:
                    t, tok = timed(train_tokenizers, lines, vocab_size)
                    theirs.append(t)
                    if hf_list is not None:
                        check = compare_merges(hf_list, tokenizers_merges(tok))
                    del tok
        setup, _, h = train_ours_phased(lines, args.merges, "hf")  # one extra run, for the breakdown
        done, stop = h.num_merges, h.stop_reason
        del h
        t_hf, t_first, t_tok = median(ours["hf"]), median(ours["first"]), median(theirs)
        results[n] = {
            "hf": t_hf,
            "first": t_first,
            "tok": t_tok,
            "check": check,
            "bytes_per_step": nbytes,
            "hf_runs": ours["hf"],
            "first_runs": ours["first"],
            "tok_runs": theirs,
        }
        rows.append(
            [
                label(n),
                f"{len(lines):,}",
                f"{len(counts):,}",
                alphabet,
                f"{done}" + ("" if stop == "num_merges" else f" ({stop})"),
                f"{t_count:.2f}",
                f"{setup:.2f}",
                f"{t_hf:.2f}",
                f"{t_first:.2f}",
                f"{t_tok:.2f}" if theirs else "n/a",
                f"{t_hf / t_tok:.2f}x" if theirs else "n/a",
                f"{t_first / t_tok:.2f}x" if theirs else "n/a",
                check,
            ]
        )
        print(f"   ... {label(n)} done", flush=True)
    print()
    print_table(
        [
            "corpus",
            "lines",
            "words",
            "alphabet",
            "merges",
            "count s",
            "setup s",
            "ours hf s",
            "ours first s",
            "tokenizers s",
            "hf/tok",
            "first/tok",
            "hf merges == tokenizers",
        ],
        rows,
        ["<", ">", ">", ">", ">", ">", ">", ">", ">", ">", ">", ">", "<"],
    )
    print("   merges: what ours ('hf') made; fewer than asked when the corpus ran out of pairs (no_pairs).")
    print("   count s: bpe.count_words alone; setup s: pre-tokenize + count + initial pair counts, up to step 0")
    print("   (one extra 'hf' run). Both are included in the 'ours' columns.")
    print("   all runs (s):")
    for n, r in results.items():
        fmt = lambda xs: " ".join(f"{x:.2f}" for x in xs)  # noqa: E731
        print(
            f"     {label(n):>7}: hf [{fmt(r['hf_runs'])}]  first [{fmt(r['first_runs'])}]  "
            f"tokenizers [{fmt(r['tok_runs'])}]"
        )
    print()
    return results


def section_naive(lines, args):
    m = args.naive_merges
    print(f"2. Against the Hugging Face course's naive loop: {m} merges on the {label(TARGET_SIZE)} corpus")
    print("   the algorithm: both train from the same GPT-2 word counts (bpe.count_words, computed once, not timed);")
    print("   ours = bpe.run_training(counts, pre_tokenizer='whitespace', tie_break='first'): the counts are already")
    print("   byte-mapped, so 'whitespace' takes each word as is, exactly as the course's loop does")
    counts = bpe.count_words(lines, "gpt2")
    ours = []
    t, h = timed(bpe.run_training, counts, pre_tokenizer="whitespace", num_merges=m, tie_break="first")
    ours.append(t)
    mine = our_merges(h)
    del h
    print("   naive run ...", flush=True)
    t_naive, naive = timed(naive_course_bpe, lines, m, counts)
    for _ in range(max(args.runs - 1, 0)):
        ours.append(timed(bpe.run_training, counts, pre_tokenizer="whitespace", num_merges=m, tie_break="first")[0])
    t_ours = median(ours)
    same = compare_merges(mine, naive)
    speedup = t_naive / t_ours
    print_table(
        ["merges", f"ours s (median of {len(ours)})", "naive s (1 run)", "speed-up", "same merges as naive"],
        [[m, f"{t_ours:.2f}", f"{t_naive:.2f}", f"{speedup:.0f}x", same]],
        ["<", ">", ">", ">", "<"],
    )
    t_count = median([timed(bpe.count_words, lines, "gpt2")[0] for _ in range(args.runs)])
    print(
        f"   with the pre-tokenization both would share ({t_count:.2f} s) added to each side: "
        f"{(t_naive + t_count) / (t_ours + t_count):.0f}x (info)"
    )
    print(f"   naive per merge: {1000 * t_naive / m:.0f} ms (every step recounts and rewrites all words)")
    print()
    return {"ours": t_ours, "naive": t_naive, "speedup": speedup, "merges": m, "check": same}


def section_memory(corpora, training, args):
    print(
        f"3. Memory: tracemalloc peak of one run of ours (tie_break='first', {args.merges} merges; "
        "a separate, untimed run), and history bytes per step"
    )
    rows, results = [], {}
    kept = None
    for n, lines in corpora.items():
        gc.collect()
        tracemalloc.start()
        h = train_ours(lines, args.merges, "first")
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        per_step = h.nbytes() / max(h.num_merges, 1)
        bps = training.get(n, {}).get("bytes_per_step", {})
        results[n] = {"peak": peak, "bytes_per_step": per_step, "num_merges": h.num_merges}
        rows.append(
            [
                label(n),
                f"{peak / 2**20:.1f}",
                h.num_merges,
                f"{h.nbytes() / 2**20:.2f}",
                f"{per_step:,.0f}",
                f"{bps['hf']:,.0f}" if "hf" in bps else "n/a",
            ]
        )
        if n == TARGET_SIZE:
            kept = h
        del h
    print_table(["corpus", "peak MiB", "merges", "history MiB", "bytes/step (first)", "bytes/step (hf)"], rows)
    print()
    return results, kept


def section_jump(history, lines, args):
    if history is None:
        history = train_ours(lines, args.merges, "first")
    print(
        f"4. Jump to a random step of the {label(TARGET_SIZE)} / {history.num_merges}-merge history "
        f"(tie_break='first'), {args.jumps} random steps (seed {args.seed})"
    )
    print(
        "   timed per jump: state = history.state(k); state.top_pairs(20); state.vocab; splits of the 50 most "
        "frequent words; state.provenance_sentence(); state.changes()"
    )
    order = sorted(range(len(history.words)), key=lambda i: -history.freqs[i])
    top_words = [history.words[i] for i in order[:50]]  # once, outside the timing
    rng = random.Random(args.seed)
    steps = [rng.randint(0, history.num_merges) for _ in range(args.jumps)]
    costs = []
    worst_step = None
    gc.collect()
    for k in steps:
        start = time.perf_counter()
        state = history.state(k)
        state.top_pairs(20)
        _ = state.vocab
        splits = state.splits
        [splits[w] for w in top_words]
        state.provenance_sentence()
        state.changes()
        cost = (time.perf_counter() - start) * 1000
        if not costs or cost > max(costs):
            worst_step = k
        costs.append(cost)
    costs_sorted = sorted(costs)
    p95 = costs_sorted[int(0.95 * (len(costs_sorted) - 1))]
    print_table(
        ["jumps", "median ms", "p95 ms", "max ms", "slowest step"],
        [[len(costs), f"{median(costs):.3f}", f"{p95:.3f}", f"{max(costs):.3f}", worst_step]],
    )
    # Where the slowest jumps are: early steps rewrite the most words (provenance replays them).
    ws = history.words_changed_at(worst_step)
    print(f"   (step {worst_step} rewrote {len(ws):,} words; step 1 rewrote {len(history.words_changed_at(1)):,})")
    print()
    return {"median": median(costs), "max": max(costs), "p95": p95}


def section_targets(training, naive, memory, jump, args):
    print(f"5. Targets ({label(TARGET_SIZE)} corpus, {args.merges} merges)")
    rows = []

    def add(name, value, target, ok):
        rows.append([name, value, target, "n/a" if ok is None else ("PASS" if ok else "FAIL")])

    t = training.get(TARGET_SIZE)
    if t is not None and t["tok"] == t["tok"]:  # not NaN
        r = t["hf"] / t["tok"]
        add("ours ('hf') / tokenizers", f"{r:.2f}x", f"<= {TARGETS['hf_ratio']:g}x", r <= TARGETS["hf_ratio"])
        r = t["first"] / t["tok"]
        add("ours ('first') / tokenizers", f"{r:.2f}x", f"<= {TARGETS['first_ratio']:g}x", r <= TARGETS["first_ratio"])
        add("'hf' merges == tokenizers' merges", t["check"], "equal", t["check"].startswith("yes"))
    else:
        add("ours / tokenizers", "not measured", f"<= {TARGETS['hf_ratio']:g}x / {TARGETS['first_ratio']:g}x", None)
    note = "" if naive["merges"] == 1000 else f" (--quick: {naive['merges']} merges, not 1000)"
    add(
        f"speed-up over naive, {naive['merges']} merges{note}",
        f"{naive['speedup']:.0f}x",
        f">= {TARGETS['naive_speedup']:g}x",
        naive["speedup"] >= TARGETS["naive_speedup"],
    )
    m = memory.get(TARGET_SIZE)
    if m is not None:
        add(
            "history bytes per step",
            f"{m['bytes_per_step']:,.0f} B",
            f"<= {TARGETS['bytes_per_step']:,} B",
            m["bytes_per_step"] <= TARGETS["bytes_per_step"],
        )
        add("peak memory of training (info)", f"{m['peak'] / 2**20:.1f} MiB", "-", None)
    add(
        "jump to a random step, median",
        f"{jump['median']:.3f} ms",
        f"<= {TARGETS['jump_ms']:g} ms",
        jump["median"] <= TARGETS["jump_ms"],
    )
    add("jump to a random step, max (info)", f"{jump['max']:.3f} ms", "-", None)
    print_table(["goal", "measured", "target", "result"], rows, ["<", ">", ">", "<"])
    verdicts = [r[3] for r in rows if r[3] != "n/a"]
    print()
    print(
        f"Overall: {'PASS' if all(v == 'PASS' for v in verdicts) else 'FAIL'} "
        f"({verdicts.count('PASS')} of {len(verdicts)} goals met)"
    )


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--sizes",
        type=int,
        nargs="+",
        default=[100_000, 1_000_000, 3_000_000],
        help="corpus sizes in bytes (default: 100000 1000000 3000000)",
    )
    parser.add_argument("--merges", type=int, default=5000, help="merges per training run (default 5000)")
    parser.add_argument(
        "--quick", action="store_true", help="naive comparison over 200 merges and 1 run each, for a fast smoke run"
    )
    parser.add_argument("--runs", type=int, default=None, help="timed runs per side (default 3; 1 with --quick)")
    parser.add_argument("--jumps", type=int, default=500, help="random steps for the jump timing (default 500)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the random steps (default 0)")
    args = parser.parse_args(argv)
    args.runs = args.runs if args.runs is not None else (1 if args.quick else 3)
    args.naive_merges = 200 if args.quick else 1000
    sizes = sorted(dict.fromkeys(args.sizes))

    started = time.perf_counter()
    print("BPE Explorer engine benchmark")
    print(
        f"Python {platform.python_version()} ({platform.machine()}), "
        f"tokenizers {tokenizers.__version__ if tokenizers else 'not installed'}, "
        f"{os.cpu_count()} CPUs, RAYON_NUM_THREADS={os.environ.get('RAYON_NUM_THREADS', 'unset')}"
    )
    print(
        f"sizes {', '.join(label(n) for n in sizes)}; {args.merges} merges; {args.runs} run(s) per side"
        f"{'; --quick' if args.quick else ''}"
    )
    print()

    # Corpora are built before any timing (the first request past ~0.5 MB parses the stdlib).
    corpora = {n: corpus_lines(n) for n in sizes}
    target_lines = corpora.get(TARGET_SIZE) or corpus_lines(TARGET_SIZE)

    training = section_training(corpora, args)
    naive = section_naive(target_lines, args)
    memory, kept = section_memory(corpora, training, args)
    jump = section_jump(kept, target_lines, args)
    section_targets(training, naive, memory, jump, args)
    print(f"\n(total benchmark time {time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
