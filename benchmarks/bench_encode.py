"""Benchmark of what the encode page does with a 100 KB text (its limit).

Run from the repository root:

    .venv/bin/python benchmarks/bench_encode.py            # 5 runs each, 100 KB, 5,000 merges
    .venv/bin/python benchmarks/bench_encode.py --runs 3 --size 50000

The tokenizer is the "python-docs" preset's: ``bpe.train(corpus_lines(1_000_000),
pre_tokenizer="gpt2", num_merges=5000, tie_break="hf")``. It is saved with
``bpe.formats.save`` and loaded by the ``tokenizers`` library
(``Tokenizer.from_file``), which encodes the same text with the same model side by side;
the tokens are checked equal. Timed, medians of ``--runs``:

- encode, cold: a fresh tokenizer (empty word cache), as after training or the k slider;
- encode, warm: the same tokenizer again (every word cached), as on a rerun;
- the chips HTML for the first 2,000 tokens (what the page draws) and for all tokens;
- the token table rows (``display.token_rows``) and the disagreement spans against the
  same tokenizer with half its merges (side by side).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))

import tokenizers  # noqa: E402

import bpe  # noqa: E402
from bpe import display, formats  # noqa: E402
from bpe.corpora import corpus_lines, english_corpus  # noqa: E402

MAX_CHIPS = 2_000  # as on the page


def median_time(fn, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--size", type=int, default=100_000, help="text size in bytes (the page's limit: 100,000)")
    parser.add_argument("--merges", type=int, default=5000)
    args = parser.parse_args()

    t0 = time.perf_counter()
    tok = bpe.train(corpus_lines(1_000_000), pre_tokenizer="gpt2", num_merges=args.merges, tie_break="hf")
    print(f"trained {len(tok.merges):,} merges on 1 MB in {time.perf_counter() - t0:.1f} s")
    text = english_corpus(args.size)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "tokenizer.json"
        formats.save(tok, path)
        hf_path = str(path)
        hf = tokenizers.Tokenizer.from_file(hf_path)
        ours = tok.encode_full(text)
        theirs = hf.encode(text, add_special_tokens=False)
        assert list(ours.tokens) == theirs.tokens, "bpe and tokenizers disagree on the tokens"
        assert list(ours.ids) == theirs.ids
        n = len(ours.ids)
        print(
            f"text: {len(text.encode('utf-8')):,} bytes, {len(text):,} characters -> {n:,} tokens "
            f"(same tokens and ids as tokenizers {tokenizers.__version__})\n"
        )

        def fresh() -> bpe.Tokenizer:
            return tok.with_merges(len(tok.merges))  # same model, empty word cache

        cold = [fresh() for _ in range(args.runs)]
        ours_cold = median_time(lambda: cold.pop().encode_full(text), args.runs)
        ours_warm = median_time(lambda: tok.encode_full(text), args.runs)
        hf_cold = median_time(lambda: tokenizers.Tokenizer.from_file(hf_path).encode(text), args.runs)
        hf_load = median_time(lambda: tokenizers.Tokenizer.from_file(hf_path), args.runs)
        hf_warm = median_time(lambda: hf.encode(text), args.runs)

    html_first = median_time(lambda: display.encoding_html(tok, ours, text, limit=MAX_CHIPS), args.runs)
    html_all = median_time(lambda: display.encoding_html(tok, ours, text, limit=None), args.runs)
    rows = median_time(lambda: display.token_rows(tok, ours, text), args.runs)
    half = tok.with_merges(len(tok.merges) // 2).encode_full(text)
    spans = median_time(lambda: display.disagreement_spans(ours.offsets, half.offsets, len(text)), args.runs)

    ms = lambda s: f"{s * 1000:9.1f}"  # noqa: E731
    print(f"{'step (median of ' + str(args.runs) + ')':<42}{'bpe ms':>10}{'tokenizers ms':>15}{'ratio':>8}")
    print("-" * 75)
    print(
        f"{'encode, cold cache':<42}{ms(ours_cold)}{ms(hf_cold - hf_load):>15}{ours_cold / (hf_cold - hf_load):>8.1f}"
    )
    print(f"{'encode, warm cache':<42}{ms(ours_warm)}{ms(hf_warm):>15}{ours_warm / hf_warm:>8.1f}")
    print(f"{'chips HTML, first 2,000 tokens':<42}{ms(html_first)}")
    print(f"{'chips HTML, all ' + format(n, ',') + ' tokens':<42}{ms(html_all)}")
    print(f"{'token table rows':<42}{ms(rows)}")
    print(f"{'disagreement spans vs half the merges':<42}{ms(spans)}")
    print("-" * 75)
    page = ours_cold + html_first + rows
    print(
        f"{'page total, cold (encode, chips, table)':<42}{ms(page)}{ms(hf_cold - hf_load):>15}"
        f"{page / (hf_cold - hf_load):>8.1f}"
    )
    page = ours_warm + html_first + rows
    print(f"{'page total, warm':<42}{ms(page)}{ms(hf_warm):>15}{page / hf_warm:>8.1f}")
    print(f"\n(tokenizers' cold time is from_file + encode minus from_file alone: {ms(hf_load).strip()} ms to load)")


if __name__ == "__main__":
    main()
