"""The tie rules students' loops use to pick among pairs of equal count, as keys the replay can apply.

:data:`TIE_KEYS` are tie rules as students write them: the greatest or smallest pair of bytes (CS336's
``max``, or ``min``), of token ids (bytes first, then merges in order, or the bytes in GPT-2's order, printable
ones first, as a vocabulary built from GPT-2's byte table numbers them), of decoded text (a lone byte of a
character read as ``'\ufffd'``, or as nothing with ``errors='ignore'``), the greatest or smallest concatenated
bytes ``a + b`` (a key on the merged token, not the pair: ``(' ', 'count')`` beats ``('  ', ' ')``; a heap of
``(-count, a + b)`` pops the smallest), or the pair
that entered the student's dict of counts first (``max(counts, key=counts.get)`` over a dict updated in
place: the pairs of the corpus in the order they occur, then each new pair when a merge makes it), or the greatest
pair as Python prints it (``str((a, b))``, the text of the tuple of bytes objects: ``"(b' ', b'count')"`` beats
``"(b'  ', b' ')"`` because a quote sorts above a space, and ``b'\\xc8'`` sorts below ``b'r'``), the smallest
second symbol first (``pair[1]`` compared before ``pair[0]``, or its id before the left one's), the smallest byte values with each merged token
written as a byte value the text does not use (the original BPE compression), the pair that reaches the greatest
count first in a fresh count (a best pair kept as the loop counts, over a dict of word counts or over every word in
the text's order), the shortest or the longest merged token (a sort on ``(-count, len(a + b), a + b)``, or on
``-len(a + b)``), the greatest pair of ids compared as little-endian memory (C's ``memcmp`` over two ``uint32_t``),
or the first in a Java
``HashMap``'s iteration order, its key ``a + " " + b`` (``Collections.max`` over the entries of a fresh count keeps
the first greatest, and a HashMap iterates its buckets by the key's hash), or the pair that reaches the greatest count
first over a Java ``HashMap`` of words.
:func:`token_ids` numbers the tokens as students do, for the keys on ids.

Left out: replaying a student's merges under a tie key (:mod:`bpe.fault_replay`), finding the key a student
used (:mod:`bpe.check_loop`, :mod:`bpe.check_ties`), and our own tie rules (:mod:`bpe.tie_order`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from .formats.cs336 import BytePair
from .pre_tokenizers import MARK_ALIASES
from .word_merges import Word


class TokenIds(dict):
    """Token ids (token -> id), with how many of them are base symbols (``base``: ids below it)."""

    base: int = 0
    _free: list[int] | None = None
    first: dict[bytes, int]  # the base symbols numbered in the order the words first hold them

    def free_bytes(self) -> list[int]:
        """The byte values no base symbol is, in order (the ids are all given at once: found once)."""
        if self._free is None:
            self._free = [v for v in range(256) if bytes([v]) not in self]
        return self._free


def token_ids(words: Sequence[Word], merges: Sequence[BytePair]) -> TokenIds:
    """Token ids as students assign them: the base symbols in byte order, then one id per merge in order."""
    ids = TokenIds((s, i) for i, s in enumerate(sorted({s for w in words for s in w})))
    ids.base = len(ids)
    ids.first = {}
    for w in words:
        for s in w:
            ids.first.setdefault(s, len(ids.first))
    for a, b in merges:
        ids.setdefault(a + b, len(ids))
    return ids


def _free_byte(token: bytes, ids: Mapping[bytes, int]) -> int:
    """The byte value a token is written as when each merged token takes the next byte value the text does not use
    (0, 1, 2, ...: the original BPE compression's replacement bytes): a base byte its own, the k-th merged token the
    k-th free value (past them, or for a base symbol of several bytes, an id above every byte)."""
    if not isinstance(ids, TokenIds):
        return 256 + ids.get(token, 1 << 30)
    at = ids.get(token, 1 << 30)
    if at < ids.base:
        return token[0] if len(token) == 1 else 256 + at
    free = ids.free_bytes()
    k = at - ids.base
    return free[k] if k < len(free) else 256 + at


MARK_WIDTH = 4  # a word mark written as one character (MARK_ALIASES) counts as the commonest marks do: '</w>', '</s>'


def _length(token: bytes) -> int:
    text = _text(token)
    return len(text) + sum(text.count(c) for c in MARK_ALIASES.values()) * (MARK_WIDTH - 1)


def _first_id(token: bytes, ids: Mapping[bytes, int]) -> int:
    """A token's id with the base symbols numbered as the text first holds them (a vocabulary filled as the text is
    read), each merged token the next id, as :func:`token_ids` numbers them."""
    first = getattr(ids, "first", {})
    return first[token] if token in first else ids.get(token, 1 << 30)


# the tied pairs, the token ids, and each pair's place in the order the student's dict of counts gained it
TiePick = Callable[[Sequence[BytePair], Mapping[bytes, int], Mapping[BytePair, int]], BytePair]
UNSEEN = 1 << 30  # the place of a pair the replay did not number: after every numbered one


def _text(token: bytes) -> str:
    return token.decode("utf-8", "replace")


def _ignored(token: bytes) -> str:
    return token.decode("utf-8", "ignore")


def _gpt2_order() -> dict[int, int]:
    """Each byte's place in GPT-2's byte table: the printable bytes first, in order, then the others."""
    printable = [*range(ord("!"), ord("~") + 1), *range(ord("\xa1"), ord("\xac") + 1), *range(ord("\xae"), 256)]
    return {b: i for i, b in enumerate(printable + [b for b in range(256) if b not in printable])}


_GPT2_RANK = _gpt2_order()


def _le_id(token: bytes, ids: Mapping[bytes, int]) -> bytes:
    """A token's id as C stores a ``uint32_t`` on a little-endian machine, its low byte first: a byte its value, the
    k-th merged token 256 + k (a base symbol of several bytes, or a token not numbered, past them)."""
    at = ids.get(token, 1 << 30)
    base = getattr(ids, "base", 0)
    value = token[0] if len(token) == 1 and at < base else 256 + at - base if at >= base else 1 << 30
    return min(value, 0xFFFFFFFF).to_bytes(4, "little")


def _gpt2_id(token: bytes, ids: Mapping[bytes, int]) -> int:
    return _GPT2_RANK[token[0]] if len(token) == 1 else 256 + ids.get(token, -1)


ORDER_TIES = (
    "greatest-text-ignore",
    "first-added",
    "recounted-to-end",
)  # the tie keys that read the order the dict gained its pairs
OUR_FIRST = "first"  # our own ``first`` rule as a replay's key (not a student's rule: not in TIE_KEYS)
TIE_KEY = {"greatest-bytes": "greatest-bytes", "first": OUR_FIRST}  # our rules a replay follows exactly, as its key
RECOUNT_TIE = "first-recounted"  # the tie key that reads the order of a fresh count over a reordered dict of words
REACHED_TIE = "first-reached"  # the tie key that reads where a fresh count brings each pair to its full count
TEXT_REACHED_TIE = "first-reached-in-text"  # the same over every word in the text's order (the words' last places)
REACHED_TIES = (REACHED_TIE, TEXT_REACHED_TIE)
ID_SUM_TIE = "first-id-sum"  # reads where a fresh count brings each pair to its full count, after the sum
JAVA_TIE = "java-hashmap"  # the tie keys that read a Java HashMap's order (:class:`bpe.java_order.JavaOrder`)
JAVA_MERGE_TIE = "java-hashmap-merge"
JAVA_WORDS_TIE = "java-words-reached"  # reads where a count over a Java HashMap of words brings each pair to its count
# orders made by a student's whole program, not a key beside a loop fault: each such a key fits a few choices by chance
PROGRAM_ORDERS = ("first-id-text", ID_SUM_TIE, JAVA_TIE, JAVA_MERGE_TIE, JAVA_WORDS_TIE, "greatest-le-ids")
BYTE_KEYS = ("free-byte", "greatest-le-ids")  # tie keys on byte values: tried only on a run written in bytes
TIE_KEYS: dict[str, tuple[str, TiePick]] = {
    "greatest-bytes": ("the greatest pair of bytes wins", lambda tied, ids, seen: max(tied)),
    "smallest-bytes": ("the smallest pair of bytes wins, as a heap of (-count, pair) pops it", lambda tied, ids, seen: min(tied)),
    "greatest-id": ("the pair with the greatest token ids (left, then right) wins", lambda tied, ids, seen: max(
        tied, key=lambda p: (ids.get(p[0], -1), ids.get(p[1], -1)))),
    "smallest-id": ("the pair with the smallest token ids (left, then right) wins", lambda tied, ids, seen: min(
        tied, key=lambda p: (ids.get(p[0], 1 << 30), ids.get(p[1], 1 << 30)))),
    "greatest-text": ("the greatest pair of decoded text wins (a broken character reads as '\ufffd', then bytes)",
                      lambda tied, ids, seen: max(tied, key=lambda p: (_text(p[0]), _text(p[1]), p))),
    "greatest-concat": ("the greatest merged token wins, its bytes a + b compared, not the pair (a, b)",
                        lambda tied, ids, seen: max(tied, key=lambda p: (p[0] + p[1], p))),
    "smallest-concat": ("the smallest merged token wins, its bytes a + b compared, not the pair (a, b), as a heap of "
                        "(-count, a + b) pops it", lambda tied, ids, seen: min(tied, key=lambda p: (p[0] + p[1], p))),
    "greatest-text-ignore": ("the greatest pair of text decoded with errors='ignore' wins (a lone byte of a "
                             "character reads as nothing), the pair seen first among equal texts",
                             lambda tied, ids, seen: max(tied, key=lambda p: (
                                 _ignored(p[0]), _ignored(p[1]), -seen.get(p, UNSEEN)))),
    "first-added": ("the pair that entered your dict of counts first wins (max over a dict keeps the first of "
                    "equal counts in the dict's insertion order, and a merge adds its new pairs at the end)",
                    lambda tied, ids, seen: min(tied, key=lambda p: seen.get(p, UNSEEN))),
    "first-recounted": ("the pair met first wins, your counts taken afresh each step over your dict of words (max over "
                        "the counts keeps the first of equal counts), where each merged word is deleted and added again "
                        "at the dict's end", lambda tied, ids, seen: min(tied, key=lambda p: seen.get(p, UNSEEN))),
    "recounted-to-end": ("the pair first in your dict's order wins (max over a dict of counts keeps the first of "
                         "equal counts in its insertion order), where each merge deletes the counts of the pairs "
                         "beside the merged symbols and adds them again, counted afresh, at the dict's end",
                         lambda tied, ids, seen: min(tied, key=lambda p: seen.get(p, UNSEEN))),
    "last-recounted": ("the last pair of the greatest count wins, in the order a fresh count meets the pairs (a "
                       "reduce or loop that takes a later pair on an equal count, >= where > was meant)",
                       lambda tied, ids, seen: max(tied, key=lambda p: seen.get(p, -1))),
    "first-reached": ("the pair that reaches the greatest count first wins: your loop keeps the best pair as it counts "
                      "(if counts[p] > best_count: best = p), so of equal counts the pair whose last occurrence comes "
                      "first in the count's order is taken", lambda tied, ids, seen: min(
                          tied, key=lambda p: seen.get(p, UNSEEN))),
    "first-reached-in-text": (
        "the pair that reaches the greatest count first wins, counted over every word as the text has them: your loop "
        "keeps the best pair as it counts (if counts[p] > best_count: best = p), so of equal counts the pair whose "
        "last occurrence comes first in the text is taken", lambda tied, ids, seen: min(
            tied, key=lambda p: seen.get(p, UNSEEN))),
    "free-byte": ("the pair of the smallest byte values wins, each merged token written as the next byte value the "
                  "text does not use (0, 1, 2, ..., as the original BPE compression replaces a pair), so a merged "
                  "token, the earliest first, wins a tie over the text's own bytes", lambda tied, ids, seen: min(
                      tied, key=lambda p: (_free_byte(p[0], ids), _free_byte(p[1], ids), p))),
    "greatest-le-ids": ("the greatest pair of ids compared as memory wins: memcmp over the pair of uint32_t ids "
                        "(a byte its value, the k-th merge 256 + k) on a little-endian machine compares each id's low "
                        "byte first, so a merged token's id ranks by its number modulo 256",
                        lambda tied, ids, seen: max(tied, key=lambda p: (_le_id(p[0], ids) + _le_id(p[1], ids), p))),
    "gpt2-id": ("the pair with the greatest token ids wins, the bytes numbered in GPT-2's order (printable first)",
                lambda tied, ids, seen: max(tied, key=lambda p: (_gpt2_id(p[0], ids), _gpt2_id(p[1], ids)))),
    "greatest-repr": ("the greatest pair as Python prints it wins: the text str((a, b)) of the pair of bytes objects "
                      "is compared, not the bytes, so the quote closing b' ' sorts above a second space and an "
                      "escape such as b'\\xc8' below a letter",
                      lambda tied, ids, seen: max(tied, key=lambda p: (str(p), p))),
    "second-first": ("the pair with the smallest second symbol wins, then the smallest first: your tie key compares "
                     "pair[1] before pair[0]", lambda tied, ids, seen: min(tied, key=lambda p: (p[1], p[0]))),
    "second-first-id": ("the pair with the smallest token ids wins, its right id compared first: one number per pair, "
                        "left + right * vocabulary size, and the first of the greatest counts over those numbers "
                        "(np.argmax of np.bincount) takes the smallest", lambda tied, ids, seen: min(
                            tied, key=lambda p: (ids.get(p[1], 1 << 30), ids.get(p[0], 1 << 30)))),
    "shortest": ("the pair whose merged token is shortest wins, then the smallest merged token: your sort key is "
                 "(-count, len(a + b), a + b)", lambda tied, ids, seen: min(tied, key=lambda p: (
                     len(_text(p[0] + p[1])), p[0] + p[1], p))),
    "longest": ("the pair whose merged token is longest wins, then the smallest merged token: your sort key is "
                "(-count, -len(a + b), a + b), so an end-of-word symbol such as '</w>' counts as four characters",
                lambda tied, ids, seen: min(tied, key=lambda p: (-_length(p[0] + p[1]), p[0] + p[1], p))),
    "first-id-text": ("the pair whose ids, written as the text 'left,right', sort first wins (a sort on a key such "
                      "as `${a},${b}` compares text, so '10,4' comes before '3,15'), the characters numbered in the "
                      "order the text first holds them and each merged token the next id",
                      lambda tied, ids, seen: min(tied, key=lambda p: (f"{_first_id(p[0], ids)},{_first_id(p[1], ids)}", p))),
    "first-id": ("the pair with the smallest token ids (left, then right) wins, the characters numbered in the order "
                 "the text first holds them and each merged token the next id", lambda tied, ids, seen: min(
                     tied, key=lambda p: (_first_id(p[0], ids), _first_id(p[1], ids)))),
    ID_SUM_TIE: ("the pair whose two ids add up to the least wins (the characters numbered in the order the text first "
                 "holds them, each merged token the next id), of equal sums the one whose count was complete first",
                 lambda tied, ids, seen: min(tied, key=lambda p: (
                     _first_id(p[0], ids) + _first_id(p[1], ids), seen.get(p, UNSEEN)))),
    JAVA_TIE: ("the pair a Java HashMap of your counts holds first wins: Collections.max over its entries keeps the "
               "first of equal counts, and a HashMap iterates in the order of its keys' hashes (here a + \" \" + b, "
               "filled with put), not the order you added them", lambda tied, ids, seen: min(
                   tied, key=lambda p: seen.get(p, UNSEEN))),
    JAVA_MERGE_TIE: ("the pair a Java HashMap of your counts holds first wins: Collections.max over its entries keeps "
                     "the first of equal counts, and a HashMap iterates in the order of its keys' hashes (here "
                     "a + \" \" + b, filled with merge, over your words kept in a HashMap of token lists), not the "
                     "order you added them", lambda tied, ids, seen: min(tied, key=lambda p: seen.get(p, UNSEEN))),
    JAVA_WORDS_TIE: ("the pair that reaches the greatest count first wins, counted over a Java HashMap of your words "
                     "(each word's symbols joined by spaces): your loop keeps the best pair as it counts (if count > "
                     "best), and the map iterates in the order of the words' hashes, not the text's, a merged word "
                     "put again under its new string", lambda tied, ids, seen: min(
                         tied, key=lambda p: seen.get(p, UNSEEN))),
}  # fmt: skip
