"""tiktoken's ``.tiktoken`` rank files: one ``base64-token rank`` pair per line.

A rank file has no merges and no split pattern. The pattern is chosen by name (:data:`PATTERNS`:
``gpt2``, ``cl100k``, ``o200k``, as published in tiktoken) or typed. A token's id is its rank, and the
file is encoded by rank, as tiktoken does (:class:`~bpe.models.rank_bpe.RankBPE`: a
piece that is a token is taken whole, else the adjacent pair whose joined bytes have the lowest rank
merges, leftmost first), so nothing needs deriving to encode. The merges, for the merge views, are
derived from the ranks when first asked for (:func:`reachable_merges`): every token of two bytes or
more is the merge of the two parts that tiktoken's own algorithm joins last when it encodes the
token's bytes with only the lower ranks (the conversion ``tokenizers`` and ``transformers`` use), in
rank order. Some files hold tokens no merge of lower ranks builds (Llama 3's ``tokenizer.model``:
678): tiktoken still produces them, so do we, and their merge tree shows them whole. An empty token
(Whisper's ``= 50256``) is read and never produced. Tested against tiktoken's own ``Encoding``.

Left out: writing a rank file (save the tokenizer as tokenizer.json), and tiktoken's own encoder
(the tokenizer built here runs :mod:`bpe.pipeline`'s).
"""

from __future__ import annotations

import base64
import binascii
import re
from heapq import heapify, heappop, heappush
from itertools import accumulate

from .. import budget
from .. import pre_tokenizers as pt
from ..config import MAX_TOKEN_ID, shown
from ..models.rank_bpe import RankBPE, rank_bounds
from ..pipeline import Pipeline, PipelineText
from ..pipeline.onig import possessive_to_onig
from ..tokenizer import Tokenizer
from .fields import without_gc

# Published in tiktoken (tiktoken_ext/openai_public.py).
PATTERNS = {
    "gpt2": r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}++| ?\p{N}++| ?[^\s\p{L}\p{N}]++|\s++$|\s+(?!\S)|\s""",
    "cl100k": r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s""",
    "o200k": "|".join(
        [
            r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
            r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
            r"""\p{N}{1,3}""",
            r""" ?[^\s\p{L}\p{N}]+[\r\n/]*""",
            r"""\s*[\r\n]+""",
            r"""\s+(?!\S)""",
            r"""\s+""",
        ]
    ),
}
# The special tokens tiktoken adds to each encoding (used when their ids are free).
SPECIALS = {
    "gpt2": {"<|endoftext|>": 50256},
    "cl100k": {
        "<|endoftext|>": 100257,
        "<|fim_prefix|>": 100258,
        "<|fim_middle|>": 100259,
        "<|fim_suffix|>": 100260,
        "<|endofprompt|>": 100276,
    },
    "o200k": {"<|endoftext|>": 199999, "<|endofprompt|>": 200018},
}


def read_ranks(data: str | bytes, name: str = "the .tiktoken file") -> dict[bytes, int]:
    """Token bytes -> rank from the text of a ``.tiktoken`` file; a ValueError names a bad line."""
    ranks = _read_ranks_fast(data)
    return ranks if ranks is not None else _read_ranks(data, name)


# One well-formed line: a strict base64 token (or "=" alone, the empty token) and a rank in digits.
_WELL_FORMED = re.compile(rb"(?:[ \t]*[A-Za-z0-9+/]*={0,2}[ \t]+[0-9]{1,10}[ \t]*\r?\n|[ \t]*\r?\n)*")


def _read_ranks_fast(data) -> dict[bytes, int] | None:
    """:func:`_read_ranks` for a well-formed file, with no Python loop over its lines; None for anything
    else (a str, an odd line, a repeat, a missing byte: :func:`_read_ranks` says what and where)."""
    if isinstance(data, str):
        if not data.isascii():
            return None
        data = data.encode("ascii")
    elif not isinstance(data, (bytes, bytearray)):
        return None
    data = bytes(data)
    if not data.endswith(b"\n"):
        data += b"\n"
    if _WELL_FORMED.fullmatch(data) is None:
        return None
    parts = data.split()
    tokens, numbers = parts[0::2], list(map(int, parts[1::2]))
    try:
        decoded = list(map(_strict_base64, tokens))
    except binascii.Error:
        try:  # "=" alone is the empty token (Whisper's rank 50256), as tiktoken's lenient decoding reads it
            decoded = [b"" if t[:1] == b"=" and not t.strip(b"=") else _strict_base64(t) for t in tokens]
        except binascii.Error:
            return None
    ranks = dict(zip(decoded, numbers))
    if not ranks or len(ranks) != len(tokens) or len(set(numbers)) != len(numbers) or max(numbers) > MAX_TOKEN_ID:
        return None
    if any(bytes([b]) not in ranks for b in range(256)):
        return None
    return ranks


def _strict_base64(token: bytes) -> bytes:
    return binascii.a2b_base64(token, strict_mode=True)  # what base64.b64decode(validate=True) runs


def _read_ranks(data: str | bytes, name: str) -> dict[bytes, int]:
    if isinstance(data, (bytes, bytearray)):
        try:
            data = bytes(data).decode("ascii")
        except UnicodeDecodeError:
            raise ValueError(
                f"{name} is not a .tiktoken rank file: it should be plain ASCII lines of a base64 token and its rank."
            ) from None
    if not isinstance(data, str):
        raise ValueError(f"Expected the text of {name}, got {type(data).__name__}.")
    ranks: dict[bytes, int] = {}
    seen: set[int] = set()
    for number, line in enumerate(data.splitlines(), start=1):
        if not line.strip():
            continue
        parts = line.split()
        if len(parts) != 2:
            raise ValueError(f"Line {number} of {name} ({line[:60]!r}) should be a base64 token and its rank.")
        try:
            # "=" alone is the empty token (Whisper's rank 50256), which tiktoken's lenient decoding reads
            token = b"" if not parts[0].strip("=") else base64.b64decode(parts[0], validate=True)
            rank = int(parts[1])
        except (binascii.Error, ValueError):
            raise ValueError(
                f"Line {number} of {name} ({line[:60]!r}) should be a base64 token and a whole-number rank."
            ) from None
        if not 0 <= rank <= MAX_TOKEN_ID:  # an empty token ("= 50256", Whisper's) is allowed, as in tiktoken
            raise ValueError(f"Line {number} of {name}: a rank must be a whole number from 0 to {MAX_TOKEN_ID:,}.")
        if token in ranks or rank in seen:
            raise ValueError(f"Line {number} of {name} repeats a token or a rank ({rank}); each must appear once.")
        ranks[token] = rank
        seen.add(rank)
    if not ranks:
        raise ValueError(f"{name} holds no ranks.")
    missing = [b for b in range(256) if bytes([b]) not in ranks]
    if missing:
        raise ValueError(
            f"{name} lacks {len(missing)} of the 256 single bytes (first: {missing[0]:#04x}); "
            "a byte-level rank file needs all of them."
        )
    return ranks


_DERIVING, _TOO_LONG = "deriving the merges of this rank file", "its tokens are too long for BPE Explorer"
PAIR_CACHE = 1_000_000  # pairs remembered while deriving (about 100 MB at most), then forgotten
SHORT_TOKEN = 16  # bytes: shorter tokens are split by scanning (faster in Python than a heap)


def _split(
    ranks: dict[bytes, int], token: bytes, max_rank: int, pairs=None, by_rank=None
) -> tuple[bytes, bytes] | None:
    """tiktoken's BPE on ``token`` with ranks below ``max_rank``: the two parts left at the end (a long
    token by :func:`_split_heap`, with its shared ``pairs`` and ``by_rank``)."""
    n = len(token)
    if n > SHORT_TOKEN:
        return _split_heap(ranks, token, max_rank, pairs, by_rank)
    if n <= 2:
        return (token[:1], token[1:]) if n == 2 else None
    # tiktoken's scan with ranks below the token's own: a token it builds ends as two parts
    bounds = rank_bounds(ranks.get, token, max_rank)
    return (token[: bounds[1]], token[bounds[1] :]) if len(bounds) == 3 else None


def _split_heap(
    ranks: dict[bytes, int], token: bytes, max_rank: int, pairs: dict | None = None, by_rank: dict | None = None
) -> tuple[bytes, bytes] | None:
    """:func:`_split` in O(n log n) merges: a heap of ``(rank, start, end)`` over a linked list of
    parts. The lowest rank merges first, and among equal ranks (the same bytes twice) the leftmost, as
    tiktoken's scan does; an entry whose part is gone or now ends elsewhere is stale and skipped. Every
    part is a token, so a pair is looked up by its two ranks in ``pairs`` (shared by the tokens of one
    file: a long token's pairs were mostly met in shorter ones), joining bytes only once per pair."""
    n = len(token)
    if by_rank is None:
        by_rank = {r: t for t, r in ranks.items()}
    if pairs is None:
        pairs = {}
    get = ranks.get

    def joined(a: int, b: int) -> int | None:
        key = (a, b)
        r = pairs.get(key, -1)
        if r == -1:
            r = pairs[key] = get(by_rank[a] + by_rank[b])
        return r

    rank = [get(token[i : i + 1]) for i in range(n)]  # rank[i]: the token of the part starting at i
    end = list(range(1, n + 1))  # end[i]: where the part starting at i ends (i a live start)
    prev = list(range(-1, n - 1))
    alive = [True] * n
    heap = []  # (rank, start, end of the pair): stale once the part at start is gone or ends elsewhere
    for i in range(n - 1):
        r = joined(rank[i], rank[i + 1])
        if r is not None and r < max_rank:
            heap.append((r, i, i + 2))
    heapify(heap)
    parts, pops = n, 0
    while parts > 2:
        if not heap:
            return None
        r, i, e = heappop(heap)
        pops += 1
        if not pops & 4095:
            budget.check_time(_DERIVING, _TOO_LONG)
        j = end[i]
        if not alive[i] or j >= n or end[j] != e:
            continue
        end[i] = e
        rank[i] = r
        alive[j] = False
        if e < n:
            prev[e] = i
            r2 = joined(r, rank[e])
            if r2 is not None and r2 < max_rank:
                heappush(heap, (r2, i, end[e]))
        k = prev[i]
        if k >= 0:
            r2 = joined(rank[k], r)
            if r2 is not None and r2 < max_rank:
                heappush(heap, (r2, k, e))
        parts -= 1
    first = end[0]
    return (token[:first], token[first:]) if parts == 2 else None


def merges_from_ranks(ranks: dict[bytes, int]) -> list[tuple[bytes, bytes]]:
    """The merges, in rank order, that rebuild every token of two bytes or more (a ValueError if one
    cannot be built from lower ranks: see :func:`reachable_merges` for such files)."""
    merges, unreachable = reachable_merges(ranks)
    if unreachable:
        rank = unreachable[0]
        token = next(t for t, r in ranks.items() if r == rank)
        raise ValueError(
            f"The token of rank {rank} ({shown(token)}) cannot be built from lower-ranked tokens, "
            "so this rank file has no merges that rebuild it."
        )
    return merges


def reachable_merges(ranks: dict[bytes, int]) -> tuple[list[tuple[bytes, bytes]], list[int]]:
    """The merges, in rank order, of every token of two bytes or more that tiktoken's BPE builds from
    lower ranks, and the ranks of those it cannot build (they are still tokens: tiktoken takes a piece
    that is one whole, and merges any adjacent pair whose joined bytes are a token). The tokens may
    also be GPT-2's byte symbols (one character a byte, as the tokenizer keeps them): the same merges,
    as strings."""
    merges, unreachable = [], []
    by_rank: dict[int, bytes] | None = None
    pairs: dict[tuple[int, int], int | None] = {}  # pairs of long tokens' parts, by rank
    for token, rank in sorted(ranks.items(), key=lambda kv: kv[1]):
        if len(token) < 2:
            continue
        if len(token) > SHORT_TOKEN:
            budget.check_time(_DERIVING, _TOO_LONG)
            if by_rank is None:
                by_rank = {r: t for t, r in ranks.items()}
            if len(pairs) > PAIR_CACHE:
                pairs.clear()
        pair = _split(ranks, token, rank, pairs, by_rank)
        if pair is None:
            unreachable.append(rank)
        else:
            merges.append(pair)
    return merges, unreachable


def _derive(ranks: dict[str, int]) -> tuple[list[tuple[str, str]], list[int]]:
    """The tokenizer's merges, derived when a merge view first asks (see :func:`reachable_merges`)."""
    with without_gc():  # hundreds of thousands of new tuples: no collections while they are made
        return reachable_merges(ranks)


def from_tiktoken(
    data: str | bytes,
    pattern: str = "cl100k",
    *,
    special_tokens: dict[str, int] | None = None,
    name: str = "the .tiktoken file",
) -> Tokenizer:
    """A byte-level :class:`~bpe.Tokenizer` from a ``.tiktoken`` rank file.

    ``pattern`` is ``"gpt2"``, ``"cl100k"`` or ``"o200k"`` (their tiktoken patterns and special
    tokens) or a regex of your own (read as tiktoken reads it: ``++`` and ``{1,3}+`` possessive).
    """
    if not isinstance(pattern, str) or not pattern:
        raise ValueError("Choose a split pattern (gpt2, cl100k, o200k) or type one.")
    regex_text = PATTERNS.get(pattern, pattern)
    specials = dict(SPECIALS.get(pattern, {}) if special_tokens is None else special_tokens)
    with without_gc(), budget.request(0):
        ranks = read_ranks(data, name)
        # every token as GPT-2's byte symbols, with one translate of all the tokens' bytes together
        tokens = list(ranks)
        ends = list(accumulate(map(len, tokens)))
        joined = pt.bytes_to_symbols(b"".join(tokens))
        vocab = dict(zip([joined[a:b] for a, b in zip([0, *ends], ends)], ranks.values()))
    taken = set(vocab.values())
    added = []
    for content, i in specials.items():
        if i in taken or content in vocab:
            continue  # a different vocabulary: leave the special out rather than clash
        vocab[content] = i
        taken.add(i)
        added.append(
            {
                "id": i,
                "content": content,
                "single_word": False,
                "lstrip": False,
                "rstrip": False,
                "normalized": False,
                "special": True,
            }
        )
    try:
        onig_text = possessive_to_onig(regex_text)
    except ValueError as exc:
        raise ValueError(
            f"The split pattern {shown(regex_text)} is not a regex BPE Explorer can read: {exc}."
        ) from None
    # Written as a tokenizer.json would be: Split (tiktoken's pattern with its possessive intervals
    # spelled as Oniguruma atomic groups, so tokenizers reads it alike) then ByteLevel. The Split keeps
    # only the pattern's matches (Removed + invert): tiktoken skips any text its pattern does not match.
    pre = {
        "type": "Sequence",
        "pretokenizers": [
            {
                "type": "Split",
                "pattern": {"Regex": onig_text},
                "behavior": "Removed",
                "invert": True,
            },
            {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": False},
        ],
    }
    pipeline = Pipeline(
        pre_tokenizer=pre,
        decoder={"type": "ByteLevel", "add_prefix_space": True, "trim_offsets": True, "use_regex": True},
        added_tokens=added,
        outside_model=frozenset(a["content"] for a in added),
        name=f"tiktoken {pattern if pattern in PATTERNS else 'pattern (typed)'}",
    )
    # Encoded by rank, as tiktoken does (any adjacent pair whose joined bytes are a token merges at
    # that token's rank); the merges, for the merge views, are derived from the ranks when first asked.
    return Tokenizer.from_parts(
        RankBPE(vocab, derive=_derive, outside=pipeline.outside_model),
        PipelineText(pipeline, pattern_timed=pattern not in PATTERNS),
        special_tokens=[a["content"] for a in added],
    )
