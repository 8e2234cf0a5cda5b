"""Set CD's class, written for the tests independently of ``bpe/``: the whole text one sequence of characters kept as
a linked list (a dict of each node's next and previous node) with each pair's nodes in a set, merged at a list made
of that set before the merge, where a node a merge absorbs is left as it was (its symbol and its links), so in a run
of one symbol it passes the check again and is merged a second time (set CD's Halva773), each pair picked from a
``heapq`` of ``(-count, id, id)`` pushed only when a count rises (ids: the sorted characters, then the merged tokens in
the order made): :func:`cd_dead_nodes_heap`. :func:`cg_right_never`: set CG's class, the text's bytes one sequence whose counts are
updated only on the left of each new token (set CG's toxypiks); :func:`cf_start_marked_bytes`: set CF's class, each
whitespace-split word's UTF-8 bytes after a ``'_'`` of the student's own (set CF's kishanku56), pasted as bytes;
:func:`ci_short_range`: set CI's class, pairs counted and merged over ``range(len(word) - 2)``, one pair short, so a
word's last pair, the one ending in ``'</w>'``, is never counted (set CI's shreeya-sengupta); :func:`ch_positions_chr`:
set CH's class, the text's bytes merged by a loop that writes each unmerged symbol's position in place of the symbol,
each id pasted as ``chr(id)`` (set CH's elahehaghaarabi); :func:`cl_decomposed`: set CL's class, the text in Unicode's
NFD form (each accented letter its letter and a combining mark), words cut at whitespace ending in ``'</w>'`` (set CL's
AnimaVR); :func:`by_repeated_passes` and :func:`cm_tied_passes`: sets BY's and CM's class, loops that merge several
pairs in each walk of the text's bytes: every pair counted more than once, listed as met (BY's rajdeep-biswas), or
every pair tied at the greatest count, listed greatest first (CM's p-dekker, whose Java HashMap lists them so);
:func:`cm_printable_padded`: set CM's class, a C reader that keeps only the printable ASCII bytes in a buffer as long
as the file, whose end stays zeros (CM's osamasrour); :func:`co_first_ids`: set CO's class, the whole text's characters
numbered in the order the text first holds them, each merged token the next id, ties to the smallest pair of ids
(CO's ndbre); :func:`cp_newline_skipped`: set CP's class, the whole text's characters with every pair holding a line
break left out of the choice, spaces merged freely (CP's hosseinkh79); :func:`cq_unspaced_pattern`: set CQ's class,
words cut by GPT-2's pattern written without its optional spaces (CQ's TQCB); :func:`cr_greedy_cut`: set CR's class, a
loop that keeps only its vocabulary and cuts the whole text anew at each step by the longest token it knows (CR's
cvcore, BI's BFavier); :func:`ct_key_right_id`: set CT's class, ``max(pair_counts, key=lambda x: x[1])`` over the
text's byte ids, which takes the pair with the greatest right id, not the most frequent (CT's AnubhavGupta3377)."""

from __future__ import annotations

import heapq
import unicodedata
from collections import defaultdict

from line_trainers import train_sequences
from w_trainers import CHARS as BYTE_CHARS  # GPT-2's table: each byte as a printable character


def _counts(seq: list) -> dict:
    """Each pair of ``seq`` with how often it stands there, in the order first met."""
    counts: dict = {}
    for p in zip(seq, seq[1:]):
        counts[p] = counts.get(p, 0) + 1
    return counts


def _merged(seq: list, pair: tuple, new) -> list:
    """``seq`` with each occurrence of ``pair``, left to right, written ``new``."""
    out, i = [], 0
    while i < len(seq):
        if i + 1 < len(seq) and (seq[i], seq[i + 1]) == pair:
            out.append(new)
            i += 2
        else:
            out.append(seq[i])
            i += 1
    return out


def cd_dead_nodes_heap(text: str, num_merges: int) -> list[tuple[str, str]]:
    """The merges on ``text``, as strings, from a lazy heap over a linked list whose absorbed nodes stay."""
    chars = sorted(set(text))
    token = dict(enumerate(chars))
    index = {c: k for k, c in token.items()}
    seq = [index[c] for c in text]
    nxt = {k: k + 1 for k in range(len(seq) - 1)}
    prv = {k + 1: k for k in range(len(seq) - 1)}
    count: dict[tuple[int, int], int] = defaultdict(int)
    where: dict[tuple[int, int], set[int]] = defaultdict(set)
    for k in range(len(seq) - 1):
        count[(seq[k], seq[k + 1])] += 1
        where[(seq[k], seq[k + 1])].add(k)
    queue = [(-n, p) for p, n in count.items()]
    heapq.heapify(queue)
    merges = []
    for _ in range(num_merges):
        while queue and (count[queue[0][1]] != -queue[0][0] or queue[0][0] == 0):
            heapq.heappop(queue)
        if not queue:
            break
        pair = heapq.heappop(queue)[1]
        new = len(token)
        token[new] = token[pair[0]] + token[pair[1]]
        merges.append((token[pair[0]], token[pair[1]]))
        for k in list(where[pair]):
            after = nxt.get(k)
            if after is None or seq[k] != pair[0] or seq[after] != pair[1]:
                continue
            before, beyond = prv.get(k), nxt.get(after)
            changed = []
            if before is not None:
                count[(seq[before], seq[k])] -= 1
                where[(seq[before], seq[k])].discard(before)
            if beyond is not None:
                count[(seq[after], seq[beyond])] -= 1
                where[(seq[after], seq[beyond])].discard(after)
            seq[k] = new
            if beyond is None:
                nxt.pop(k, None)
            else:
                nxt[k], prv[beyond] = beyond, k
            if before is not None:
                changed.append(((seq[before], new), before))
            if beyond is not None:
                changed.append(((new, seq[beyond]), k))
            for p, at in changed:
                count[p] += 1
                where[p].add(at)
                heapq.heappush(queue, (-count[p], p))
        count[pair] = 0
        where[pair].clear()
    return merges


def cg_right_never(text: str, num_merges: int) -> list[tuple[str, str]]:
    """The merges on ``text``'s bytes, as strings of GPT-2's byte characters, from counts made once and then moved only on the left of
    each new token (the right side never), the first of equal counts in the dict's order winning."""
    seq = [bytes([c]) for c in text.encode()]
    count: dict[tuple[bytes, bytes], int] = {}
    for p in zip(seq, seq[1:]):
        count[p] = count.get(p, 0) + 1
    merges = []
    for _ in range(num_merges):
        best = None
        for p, n in count.items():
            if best is None or n > count[best]:
                best = p
        if best is None or count[best] <= 0:
            break
        merges.append(("".join(BYTE_CHARS[c] for c in best[0]), "".join(BYTE_CHARS[c] for c in best[1])))
        new, out, k = best[0] + best[1], [], 0
        while k < len(seq):
            if k + 1 < len(seq) and (seq[k], seq[k + 1]) == best:
                if out:
                    count[(out[-1], seq[k])] = count.get((out[-1], seq[k]), 0) - 1
                    count[(out[-1], new)] = count.get((out[-1], new), 0) + 1
                count[best] -= 1
                out.append(new)
                k += 2
            else:
                out.append(seq[k])
                k += 1
        seq = out
    return merges


def cf_start_marked_bytes(text: str, num_merges: int) -> str:
    """The merges on the bytes of ``text``'s words, each word led by a ``'_'`` symbol, as a list of ``bytes`` pairs
    printed by Python (the start symbol is a string of its own: ``'_'`` in the text stays a byte of its word)."""
    seqs = [["<start>", *(chr(b) for b in word.encode())] for word in text.split()]

    def raw(token: str) -> bytes:
        return token.replace("<start>", "_").encode("latin-1")

    return repr([(raw(a), raw(b)) for a, b in train_sequences(seqs, num_merges)])


def ci_short_range(text: str, num_merges: int) -> list[tuple[str, str]]:
    """The merges on ``text``'s whitespace-split words ending in ``'</w>'``, each pair counted over
    ``range(len(word) - 2)``, the first of equal counts in the order first counted winning."""
    words = [[*w, "</w>"] for w in text.split()]
    merges: list[tuple[str, str]] = []
    for _ in range(num_merges):
        counts: dict[tuple[str, str], int] = {}
        for word in words:
            for i in range(len(word) - 2):
                counts[(word[i], word[i + 1])] = counts.get((word[i], word[i + 1]), 0) + 1
        if not counts:
            break
        pair = max(counts, key=counts.get)
        merges.append(pair)
        for k, word in enumerate(words):
            out, i = [], 0
            while i < len(word):
                if i < len(word) - 2 and (word[i], word[i + 1]) == pair:
                    out.append(word[i] + word[i + 1])
                    i += 2
                else:
                    out.append(word[i])
                    i += 1
            words[k] = out
    return merges


def ch_positions_chr(text: str, num_merges: int) -> str:
    """The merges on ``text``'s bytes by a loop that appends ``i`` where ``ids[i]`` was meant, each pair printed as
    ``(chr(a), chr(b))``: only the first merge is the text's."""
    ids = list(text.encode())
    merges = []
    for step in range(num_merges):
        counts: dict[tuple[int, int], int] = {}
        for p in zip(ids, ids[1:]):
            counts[p] = counts.get(p, 0) + 1
        if not counts:
            break
        pair = max(counts, key=counts.get)
        merges.append((chr(pair[0]), chr(pair[1])))
        out, i = [], 0
        while i < len(ids):
            if i + 1 < len(ids) and (ids[i], ids[i + 1]) == pair:
                out.append(256 + step)
                i += 2
            else:
                out.append(i)
                i += 1
        ids = out
    return repr(merges)


def cl_decomposed(text: str, num_merges: int) -> list[tuple[str, str]]:
    """The merges on the NFD form of ``text``, as strings, words cut at whitespace and ending in ``'</w>'``."""
    return train_sequences([[*w, "</w>"] for w in unicodedata.normalize("NFD", text).split()], num_merges)


def _passes(text: str, num_merges: int, tied: bool) -> list[tuple[str, str]]:
    seq = [bytes([b]) for b in text.encode()]
    merges: list[tuple[bytes, bytes]] = []
    while len(merges) < num_merges:
        counts: dict[tuple[bytes, bytes], int] = {}
        for p in zip(seq, seq[1:]):
            counts[p] = counts.get(p, 0) + 1
        top = max(counts.values(), default=0)
        chosen = {p for p, n in counts.items() if (n == top if tied else n > 1) and n > 1}
        if not chosen:
            break
        out, met, i = [], [], 0
        while i < len(seq):
            if i + 1 < len(seq) and (seq[i], seq[i + 1]) in chosen:
                if (seq[i], seq[i + 1]) not in met:
                    met.append((seq[i], seq[i + 1]))
                out.append(seq[i] + seq[i + 1])
                i += 2
            else:
                out.append(seq[i])
                i += 1
        seq = out
        merges += sorted(chosen, reverse=True) if tied else met
    shown = ["".join(BYTE_CHARS[b] for b in token) for pair in merges[:num_merges] for token in pair]
    return list(zip(shown[::2], shown[1::2], strict=True))


def by_repeated_passes(text: str, num_merges: int) -> list[tuple[str, str]]:
    """The merges on ``text``'s bytes, as GPT-2's characters, each walk merging every pair counted more than once."""
    return _passes(text, num_merges, tied=False)


def cm_tied_passes(text: str, num_merges: int) -> list[tuple[str, str]]:
    """The merges on ``text``'s bytes, as GPT-2's characters, each walk merging every pair tied at the top count."""
    return _passes(text, num_merges, tied=True)


def cm_printable_padded(text: str, num_merges: int) -> str:
    """The merges, as a list of ``bytes`` pairs, on ``text``'s printable ASCII bytes (and newlines) followed by as
    many zero bytes as were dropped, the first pair of the greatest count winning."""
    raw = text.encode()
    kept = bytes(b for b in raw if 0x20 <= b < 0x7F or b == 0x0A)
    seq = [bytes([b]) for b in kept + bytes(len(raw) - len(kept))]
    merges = []
    for _ in range(num_merges):
        counts = _counts(seq)
        if not counts:
            break
        pair = max(counts, key=counts.get)
        merges.append(pair)
        seq = _merged(seq, pair, pair[0] + pair[1])
    return repr(merges)


def co_first_ids(text: str, num_merges: int) -> list[tuple[str, str]]:
    """The merges on ``text``'s characters, as strings, ties to the smallest (left id, right id), the characters
    numbered as the text first holds them."""
    ids: dict[str, int] = {}
    for c in text:
        ids.setdefault(c, len(ids))
    token = {i: c for c, i in ids.items()}
    seq = [ids[c] for c in text]
    merges = []
    for _ in range(num_merges):
        counts = _counts(seq)
        if not counts:
            break
        top = max(counts.values())
        pair = min(p for p, n in counts.items() if n == top)
        new = len(token)
        token[new] = token[pair[0]] + token[pair[1]]
        merges.append((token[pair[0]], token[pair[1]]))
        seq = _merged(seq, pair, new)
    return merges


def cp_newline_skipped(text: str, num_merges: int) -> list[tuple[str, str]]:
    """The merges on ``text``'s characters, as strings, never taking a pair that holds a line break."""
    return train_sequences(
        [list(text)], num_merges, pick=lambda stats: next(p for p, _ in stats.most_common() if "\n" not in p[0] + p[1])
    )


def cq_unspaced_pattern(text: str, num_merges: int) -> list[tuple[str, str]]:
    """The merges on ``text``'s words cut by GPT-2's pattern with no ``' ?'`` before a word, number or mark."""
    import regex

    pattern = r"'s|'t|'re|'ve|'m|'ll|'d|[\p{L}]+|[\p{N}]+|[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"
    return train_sequences([list(w) for w in regex.findall(pattern, text)], num_merges)


def cr_greedy_cut(text: str, num_merges: int) -> list[tuple[str, str]]:
    """The merges on ``text``'s characters, as strings, each step's pairs counted on the text cut left to right by
    the longest learned token (the vocabulary tried longest first), the pair counted first winning a tie."""
    vocab = sorted(set(text))
    merges: list[tuple[str, str]] = []
    for _ in range(num_merges):
        ordered = sorted(vocab, key=len, reverse=True)
        cut, i = [], 0
        while i < len(text):
            token = next(t for t in ordered if text.startswith(t, i))
            cut.append(token)
            i += len(token)
        counts = _counts(cut)
        if not counts:
            break
        pair = max(counts, key=counts.get)
        merges.append(pair)
        vocab.append(pair[0] + pair[1])
    return merges


def ct_key_right_id(text: str, num_merges: int) -> list[tuple[str, str]]:
    """The merges on ``text``'s bytes, as GPT-2's characters, each the first pair counted whose right id is greatest."""
    ids = list(text.encode())
    vocab = {i: bytes([i]) for i in range(256)}
    merges = []
    for k in range(num_merges):
        pair_counts = _counts(ids)
        if not pair_counts:
            break
        pair = max(pair_counts, key=lambda x: x[1])
        vocab[256 + k] = vocab[pair[0]] + vocab[pair[1]]
        merges.append(tuple("".join(BYTE_CHARS[b] for b in vocab[t]) for t in pair))
        ids = _merged(ids, pair, 256 + k)
    return merges
