"""How a token was built, as HTML: the merge tree of one token and the merge replay of one word.

Left out: computing the tree and the replay (:mod:`bpe.replay`); this module only draws them.
"""

from __future__ import annotations

import html

from .tokens import TOKEN_CSS, token_chips, token_label


def _tree_label(tokenizer, tree) -> str:
    """The token a merge tree stands for (its leaves joined; WordPiece drops the ``##``)."""
    if isinstance(tree, str):
        return tree
    return _tree_labels(tokenizer, tree)[id(tree)]


def _tree_labels(tokenizer, tree) -> dict[int, str]:
    """The label of every node of a merge tree, by ``id(node)``, built without recursion."""
    labels: dict[int, str] = {}
    stack = [(tree, False)]
    while stack:
        node, ready = stack.pop()
        if isinstance(node, str) or id(node) in labels:
            continue
        left, right = node
        if not ready:
            stack.append((node, True))
            stack.extend((child, False) for child in (right, left) if not isinstance(child, str))
            continue
        a = left if isinstance(left, str) else labels[id(left)]
        b = right if isinstance(right, str) else labels[id(right)]
        if tokenizer.algorithm == "wordpiece" and b.startswith("##"):
            b = b[2:]
        elif getattr(tokenizer, "continuing_subword_prefix", None) and b.startswith(
            tokenizer.continuing_subword_prefix
        ):
            b = b[len(tokenizer.continuing_subword_prefix) :]
        labels[id(node)] = a + b
    return labels


MAX_TREE_NODES = 300  # merge tree nodes drawn; a token built by thousands of merges is cut


def merge_tree_html(tokenizer, tree, show_whitespace: bool = False, limit: int | None = None) -> str:
    """A merge tree (:meth:`Tokenizer.merge_tree`) as nested, escaped HTML lists:
    ``hug = h + ug``, under it ``ug = u + g``. Built without recursion; with ``limit``, at most that
    many merges are opened (the rest show as their token and ``…``): see :func:`merge_tree_size`."""
    labels = _tree_labels(tokenizer, tree)

    def label(t) -> str:
        text = t if isinstance(t, str) else labels[id(t)]
        shown = token_label(tokenizer, text, show_whitespace)
        if len(shown) > 48:  # a long token is named by its ends, so a deep tree stays small
            shown = f"{shown[:24]}…{shown[-12:]} ({len(text):,} characters)"
        return html.escape(shown)

    out: list[str] = []
    opened = 0
    stack: list = [tree]
    while stack:
        t = stack.pop()
        if t is None:
            out.append("</ul></li>")
            continue
        if isinstance(t, str):
            out.append(f"<li><code>{label(t)}</code></li>")
            continue
        if limit is not None and opened >= limit:
            out.append(f"<li><code>{label(t)}</code> …</li>")
            continue
        opened += 1
        a, b = t
        out.append(f"<li><code>{label(t)}</code> = <code>{label(a)}</code> + <code>{label(b)}</code><ul>")
        stack.extend((None, b, a))
    return f'{TOKEN_CSS}<ul class="bpe-tree">{"".join(out)}</ul>'


def merge_tree_size(tree, cap: int = 1_000_000) -> int:
    """How many merges a merge tree holds (its tuple nodes, a shared part once per place it appears),
    counted without recursion and up to ``cap``."""
    n, stack = 0, [tree]
    while stack and n < cap:
        t = stack.pop()
        if not isinstance(t, str):
            n += 1
            stack.extend(t)
    return n


def step_label(tokenizer, step) -> str:
    """A replay step's name: ``merge 3`` (numbered from 1, as the token's tooltip and the Train page
    number it). A rank file merged by rank joins pairs at their token's rank, which is not the merge's
    number: its step is named by the merge that makes the token, or ``rank N`` when none does."""
    if not tokenizer.merge_by_rank:
        return f"merge {step.rank + 1}"
    joined = step.pair[0] + step.pair[1]
    rank = tokenizer.token_rank(joined)
    return f"merge {rank + 1}" if rank is not None else f"rank {tokenizer.vocab[joined]:,}"


def trace_html(tokenizer, trace, show_whitespace: bool = False) -> str:
    """A word's merge replay (:meth:`Tokenizer.trace`): its start, then the split after each merge."""

    def row(head: str, tokens, new=()) -> str:
        return (
            f'<tr><td style="padding:2px 10px 2px 0;white-space:nowrap">{head}</td>'
            f"<td>{token_chips(tokenizer, tokens, show_whitespace=show_whitespace, highlight=new)}</td></tr>"
        )

    def lab(t: str) -> str:
        return html.escape(token_label(tokenizer, t, show_whitespace))

    rows = [row("start", trace.initial)]
    for _n, step in enumerate(trace.steps, 1):
        a, b = step.pair
        merged = _tree_label(tokenizer, step.pair)
        rows.append(
            row(f"{step_label(tokenizer, step)}: <code>{lab(a)}</code> + <code>{lab(b)}</code>", step.split, (merged,))
        )
    return f'<table class="bpe-replay" style="border:none">{"".join(rows)}</table>'
