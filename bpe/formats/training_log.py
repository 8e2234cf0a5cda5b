"""The training log: one row per merge of a run, as dicts for the page's table or as CSV for a spreadsheet.

Left out: the splits and pair counts of each step (rebuild them with :meth:`bpe.History.state`).
"""

from __future__ import annotations

import csv
import io
import json

from ..config import PAIR_SHIFT
from ..history import History


def training_log_csv(history: History) -> str:
    """One CSV row per merge: ``step,left,right,new_token,count,tied_with,tied_pairs`` (and
    ``score`` for WordPiece, as a decimal).

    ``tied_with`` is how many other pairs had the winner's count; ``tied_pairs`` lists them (as
    many as the run kept, at least the 23 after the winner) as a JSON array of ``[left, right]``
    pairs (``[]`` when there was no tie). JSON, because tokens may contain spaces, commas or ``|``.

    >>> from bpe.trainer import run_training
    >>> h = run_training({"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}, num_merges=1)
    >>> print(training_log_csv(h), end="")
    step,left,right,new_token,count,tied_with,tied_pairs
    1,u,g,ug,20,0,[]
    """
    if not isinstance(history, History):
        raise ValueError(f"Expected a training History (from run_training), got {type(history).__name__}.")
    wordpiece = history.config.rule.scored  # WordPiece: a score column
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    header = ["step", "left", "right", "new_token", "count", "tied_with", "tied_pairs"]
    writer.writerow(header + ["score"] if wordpiece else header)
    for step in range(1, history.num_merges + 1):
        state = history.state(step)
        left, right = state.pair
        others = [list(pair) for pair in state.tied[1:]]
        row = [
            step,
            left,
            right,
            state.new_token,
            state.count,
            state.num_tied - 1,
            json.dumps(others, ensure_ascii=False),
        ]
        if wordpiece:
            row.append(repr(float(state.score)) if state.score is not None else "")
        writer.writerow(row)
    return out.getvalue()


def merge_rows(history: History, with_ties: bool = True) -> list[dict]:
    """The training log, one dict per merge: step, pair, new token, count, score, tied pairs
    (``with_ties=False`` leaves the list of tied pairs out, which is most of the cost)."""
    rows = []
    for k in range(1, history.num_merges + 1):
        a, b, new = history.merges[k - 1]
        score = history.merge_scores[k - 1]
        rows.append(
            {
                "step": k,
                "left": history.symbols[a],
                "right": history.symbols[b],
                "new_token": history.symbols[new],
                "count": history.merge_counts[k - 1],
                "score": None if score is None else str(score),
                "tied": history.num_ties[k - 1] - 1,
                "forced": history.merge_forced[k - 1],
                "tied_pairs": [history.pair_str(divmod(c, PAIR_SHIFT)) for c in history.ties[k - 1][1:]]
                if with_ties
                else None,
            }
        )
    return rows
