"""A rank file's text to ids, as tiktoken's ``encode_ordinary``: each word's ids from a word -> ids cache, flattened.

A ``.tiktoken`` file (or a ``tokenizer.json`` read as one) whose split pattern keeps only its matches is
encoded without tokens or offsets: the file's added tokens are matched first, the pattern's matches
of each stretch between them are looked up in a plain dict of word -> ids, and the lists are flattened
with no Python loop over the words. Words not yet in the cache are tokenized together (their bytes
mapped to GPT-2's symbols in one translate) by the model (:class:`~bpe.models.rank_bpe.RankBPE`).

Left out: tokens, offsets and word ids (``encode_full``, :mod:`bpe.pipeline.encoder`) and the model's
rule (:mod:`bpe.models.rank_bpe`).
"""

from __future__ import annotations

from itertools import accumulate, chain

from .. import budget
from ..models.rank_bpe import BYTE_SYMBOLS, NO_RANK
from ..units import WORD_CACHE_MAX_CHARS, WORD_CACHE_SIZE
from .pipeline import Pipeline


def applies(pipeline: Pipeline, text: str) -> bool:
    """Whether ``text`` can take this path: the file has one fast regex without groups whose gaps are not
    words (findall gives whole matches only for a pattern without groups), and its normaliser (if any)
    leaves the text unchanged."""
    fast = pipeline.fast
    return not (fast is None or fast.groups or pipeline.fast_gaps or not pipeline.fast_applies(text))


def encode_ids(side, text: str) -> list[int]:
    """The ids of ``text`` for ``side`` (a :class:`~bpe.pipeline.encoder.PipelineText` running a rank
    model) where :func:`applies`: each word's ids from ``side.ids_cache``, flattened."""
    p = side.pipeline
    fast = p.fast
    out: list[int] = []
    with budget.request(len(text)):
        cache = side.ids_cache
        for seg in p.fast_segments(text):
            if seg[0] == "added":
                out.append(seg[2])
                continue
            budget.check_time()
            if side.pattern_timed:
                words = fast.findall(text, seg[1], seg[2], timeout=budget.regex_timeout())
            else:
                words = fast.findall(text, seg[1], seg[2])
            start = len(out)
            try:  # warm: every word cached, flattened with no Python loop
                out.extend(chain.from_iterable(map(cache.__getitem__, words)))
            except KeyError:  # cold: each distinct new word computed once, then flattened the same way
                del out[start:]
                table, passing = _fill(side, set(words).difference(cache))
                out.extend(chain.from_iterable(map(table.__getitem__, words)))
                for w in passing:  # words too long to keep: in the cache only for this flattening
                    del cache[w]
    return out


def _fill(side, missing: set[str]) -> tuple[dict[str, tuple[int, ...]], list[str]]:
    """A table of the ids of the cached and the ``missing`` words, and the words the caller must drop
    from the cache after using it. The table is the cache itself, with every missing word added (no copy
    per call: a text cut by many added tokens calls this once a stretch); words over 256 characters are
    dropped again after use. Only when the cache would overflow is the table a copy, and the cache starts
    again with this call's words."""
    cache, model = side.ids_cache, side.model
    ranks = model.mergeable_ranks
    rank_of, split = ranks.get, model.split
    limit = NO_RANK if model.limit is None else model.limit
    fresh = {}
    words = list(missing)
    data = [w.encode("utf-8") for w in words]
    ends = list(accumulate(map(len, data)))
    joined = b"".join(data).decode("latin-1").translate(BYTE_SYMBOLS)  # all the words' byte symbols at once
    for k, (w, a, b) in enumerate(zip(words, [0, *ends], ends)):
        if not k & 63:
            budget.check_time()
        word = joined[a:b]
        r = rank_of(word, limit)
        # a piece that is a token is that token (tiktoken's first step), else merged by rank
        fresh[w] = (r,) if r < limit else tuple(map(ranks.__getitem__, split(word))) if w else ()
    passing = [w for w in fresh if len(w) > WORD_CACHE_MAX_CHARS]
    if len(cache) + len(fresh) - len(passing) > WORD_CACHE_SIZE:
        table = {**cache, **fresh}
        cache.clear()
        cache.update({w: i for w, i in fresh.items() if len(w) <= WORD_CACHE_MAX_CHARS})
        return table, []
    cache.update(fresh)
    return cache, passing
