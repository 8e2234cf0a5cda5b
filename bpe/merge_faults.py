"""Known faulty BPE merge loops: the bugs students' trainers commonly have, each a small change to a correct loop.

A correct loop, after merging the pair ``(a, b)``, takes every word that holds it, replaces each
occurrence left to right (``aaa`` becomes ``aa a``), and moves the word's pair counts from its old
split to its new one. Each :class:`Fault` changes one thing in that loop:

1. ``half``: only the first occurrence in a word is merged, so a word holding the pair twice is
   left half-merged;
2. ``left-symbol``: the update subtracts the pairs beside every ``a``, also where ``b`` does not follow;
3. ``stale``: the occurrences are found first, then merged at those positions, which an earlier merge
   in the same word has shifted;
4. ``adjacent``: two merged tokens side by side (``aa aa``) add their pair twice, once from each;
5. ``frozen``: the pair counts are taken once and never updated (the merged pair is only removed);
6. ``banned``: a pair holding a merged token is never counted;
7. ``overlap-twice``: both overlapping pairs in ``aaa`` are treated as merged, adding a pair
   ``(a, aa)`` that is not there;
8. ``overlap-once``: overlapping pairs are counted once (``aaa`` holds ``(a, a)`` twice, not once);
9. ``only-merged``: after a merge the counts are taken again from the merged words only;
10. ``keep-right``: the merge writes the new token in place of the pair's left symbol but keeps its right
    symbol after it (``a b c`` becomes ``ab b c``), unless the pair ends the word;
11. ``overlap-subtract``: the update subtracts the neighbour pairs of every occurrence, also of one that
    overlaps a merged one (the second ``(a, a)`` in ``aaa c``), which is not merged: the pair after the run
    (``(a, c)``) is subtracted though it stays;
12. ``stale-neighbours``: the update takes each occurrence's neighbours from the word before the merge, so
    two occurrences side by side (``abab``) give ``(ab, a)`` and ``(b, ab)``, never ``(ab, ab)``; an update
    by byte positions that never makes the pair between two adjacent new tokens does the same;
13. ``substring``: the loop keeps each word's pair counts but not its split, and moves a neighbour pair to
    the new token wherever the bytes of the three symbols appear in the word's text: also where one of
    them is already inside another token, so the merge does not happen there, and both ways between two
    merged tokens (``(b, a)`` in ``abab`` becomes ``(b, ab)`` and ``(ab, a)``, not ``(ab, ab)``);
14. ``positions``: the loop keeps each pair as the set of byte positions where it starts and moves a
    neighbour pair wherever the merged pair starts beside it (also at an overlapping start in ``aaa``),
    once, so two merged tokens side by side never make their pair;
15. ``no-sift-up``: the selection is a hand-written max-heap of the pairs (ties to the greatest pair of bytes)
    whose update moves a pair only down, also when its count rose (it compares the count with itself after
    raising it), so a pair that gains count stays below pairs it now beats until the pairs above it are taken;
16. ``skip-first-neighbour``: the update skips the left neighbour of an occurrence at position 1 of the word
    (``if pos - 1 > 0``), so after ``x a b`` becomes ``x ab`` the word still counts ``(x, a)`` and not
    ``(x, ab)``; the merged pair's count, phantoms and all, is deleted once it is taken;
17. ``no-sift-up-skip-first``: both at once, as they come together in one student's loop;
18. ``assigned``: the update sets a new pair's count to the word's count (``counts[p] = freq``) instead of
    adding it (``+=``), so a new pair holds the count of the last word that made it, not of all of them;
19. ``stale-index``: the index of the words holding each pair gains a word only for a pair it did not hold
    yet (``index[p].union({w})``, its result thrown away, where ``index[p].add(w)`` is meant), so a word that
    comes to hold a pair already indexed is never merged there, and the merged pair's count is deleted;
20. ``overlap-index``: the update lists every start of the pair, overlapping ones too (``aaa`` at 0 and 1),
    subtracts the pairs beside each, and adds the pairs beside each new token at ``start - earlier starts``,
    so in a run of one symbol the new places collapse and pairs of the run are lost;
21. ``stale-left``: the update subtracts each occurrence's left pair as read from the word before the merge
    (``old[i - 1], old[i]``) and adds the new one from the word being built, so of two occurrences side by side
    (``abab``) the second subtracts ``(b, a)`` again and never removes the ``(ab, a)`` the first one added, which
    keeps its count once merged, so the loop takes it again and again;
22. ``lost-pair``: the counts are right, but the selection (a heap, buckets of counts) lost the pair it
    should take at the step where the runs part, and never offers it again;
23. ``never-merges``: the merge never finds the pair in a word (a pair built as a list compared with a tuple),
    so no word and no count ever changes and the first pair is taken again and again;
24. ``lost-last``: the merge appends the word's last symbol after its scan only when the last two symbols are not
    the merged pair, so a word ending in a run of odd length (``aaa`` merging ``(a, a)``) loses its last symbol, while
    the count update, made occurrence by occurrence, counts the pairs of the whole merged word (``(aa, a)``);
25. ``kept-pair``: the words are merged and the pairs beside each occurrence move, but the merged pair's own count
    is never removed (no ``del counts[pair]``), so the pair keeps the highest count and is taken again and again,
    until a pair made by its merge ties with it and wins the tie. A run that is its first merge over and over is
    made by this loop and by one whose merge never changes a word alike (:mod:`bpe.check_cause` tells both);
26. ``skipped-words``: the loop keeps, for each pair, a list of the words holding it (a word once per occurrence) and
    removes each word from that list while iterating over it (``for w in where[pair]: ... where[pair].remove(w)``):
    the iteration steps over the entry after each one it visits, so every second word is never merged there and
    keeps the pair; each visit merges one occurrence;
28. ``stale-guarded``: as ``stale-neighbours`` (listed after it and ``stale-left``: it parts from the first only on a
    pair ``(x, x)``), the new left
    pair made with the symbol before the occurrence in the old word, but the right pair skipped where the merged pair
    itself follows, so a run ``x x x`` merging ``(x, x)`` becomes ``xx x`` while ``(xx, x)`` is never counted;
27. ``skips-next``: the merge replaces an occurrence in place (``word[:i] + (new,) + word[i + 2:]``) and then moves
    its index on by two, past the symbol after the new token, so an occurrence that starts right there (the second
    ``(a, b)`` in ``abab``) is never merged, while the merged pair's count is deleted;
29. ``stale-overlap`` (set I's and set J's students alike): as ``stale-neighbours`` (listed after it: it parts from it only on a pair ``(x, x)``), but the
    update visits every place where the pair occurs, overlapping ones too (no skip after a match), so in a run
    ``x x x x`` merging ``(x, x)`` it counts ``(xx, x)`` and ``(x, xx)`` twice each, never ``(xx, xx)``;
30. ``overlap-collapse`` (listed after ``overlap-index``): the merge writes the new token at every place the pair
    occurs, overlapping ones too, then deletes the symbol after each place, so a run ``x x x x`` merging ``(x, x)``
    becomes one ``xx`` (its counts moved right for the word so merged);
31. ``uncounted-left``: the update subtracts each occurrence's left pair as read from the word being merged, so of
    two occurrences side by side the second subtracts ``(ab, a)``, never counted in this word (its new pairs are
    counted after the scan): that pair's count drops by the word's count, and can go below zero;
32. ``recorded-positions``: the loop keeps each pair's occurrences as (word, index) recorded when the pair was
    counted or made, merges in place from the last recorded place back, and never moves the places of the pairs
    after a merge: an occurrence after an earlier merge in the same word fails the check of its place and is never
    merged, though its count stays (``' the'`` keeps ``(h, e)`` once ``(' ', t)`` is merged);
33. ``right-added``: the update reads the neighbours from the word before the merge and adds the old pair on the
    right, ``(b, y)``, where it should subtract it (``+=`` for ``-=``), so the pair after each occurrence gains count;
34. ``overlap-duplicate``: the merge makes a new token at every start, overlapping ones too, so a run of one symbol
    gains symbols (``xxxx`` becomes ``xx xx xx``);
35. ``twin-never``: the update makes a new pair only from an old pair beside the merged one, ``(x, a)`` or ``(b, y)``,
    so the pair of two new tokens side by side, ``(ab, ab)``, is never counted;
36. ``wrong-index``: the update uses a loop variable left over from an earlier loop (the last word's index) in place
    of the word's own: counts move by the last word's count and the merged split is written over the last word's;
37. ``adjacent-cross``: as ``adjacent``, two new tokens side by side add their pair once from each, and the pair
    between them, ``(b, a)``, is subtracted once from each too; the merged pair's count loses one per occurrence, so
    what the update left on it (in ``x x x x`` merging ``(x, x)``, the cross pairs are the merged pair) stays;
39. ``accumulated``: the pair counts are made once before the loop and every pass adds all the words' pairs to them
    again, never reset, so untouched pairs grow each pass and a merged pair keeps its old count;
40. ``once-per-word``: each word's pairs are taken as a set, so a pair repeated in a word counts once for it;
41. ``lost-last-counted``: the merge loses the last symbol as ``lost-last`` does, but the counts are taken from the
    merged word, so the lost symbol's pair goes too;
42. ``lazy-heap``: a ``heapq`` of ``(-count, pair)`` given an entry only for a pair whose count rose, stale entries
    dropped when popped, so a pair whose count fell is never offered again until it rises (ties: the smallest pair);
43. ``right-recorded-first``: the pair right of each occurrence is read off the word before the next occurrence merges
    and moved after all the left pairs, subtracting only a pair the counts hold, so ``ab ab`` keeps ``(ab, a)``;
44. ``substring-counts``: the words are never merged; each pair beside the merged one is replaced by the pair with the
    new token, counted as the occurrences of its bytes in all the words.

Where two faults follow a student's run equally far, the earlier one in :data:`FAULTS` is named: ``never-merges`` and
``kept-pair`` first, since a loop whose merged pair keeps its count is all a run that repeats a merge needs (the faults
that delete a merged pair's count are also replayed keeping it, :func:`bpe.check_loop.find_fault`); ``stale-neighbours``
goes before ``stale-left`` and ``substring`` because reading the neighbours off the old word is the commoner bug in
students' code, and all three make the same phantom pair from two merged tokens side by side: where a run repeats
the phantom ``(ab, a)`` (a loop that keeps the merged pair's count), ``stale-neighbours`` and ``stale-left`` make the
same merges, and the run is told with both, the commoner first.

:data:`TIE_KEYS` are tie rules as students write them: the greatest or smallest pair of bytes (CS336's
``max``, or ``min``), of token ids (bytes first, then merges in order, or the bytes in GPT-2's order, printable
ones first, as a vocabulary built from GPT-2's byte table numbers them), of decoded text (a lone byte of a
character read as ``'\ufffd'``, or as nothing with ``errors='ignore'``), the greatest concatenated bytes
``a + b`` (a key on the merged token, not the pair: ``(' ', 'count')`` beats ``('  ', ' ')``), or the pair
that entered the student's dict of counts first (``max(counts, key=counts.get)`` over a dict updated in
place: the pairs of the corpus in the order they occur, then each new pair when a merge makes it), or the greatest
pair as Python prints it (``str((a, b))``, the text of the tuple of bytes objects: ``"(b' ', b'count')"`` beats
``"(b'  ', b' ')"`` because a quote sorts above a space, and ``b'\\xc8'`` sorts below ``b'r'``).

Left out: replaying a student's merges under a fault (:mod:`bpe.fault_replay`), and deciding which fault
to name and saying it (:mod:`bpe.check_loop`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from .formats.cs336 import BytePair

Word = tuple[bytes, ...]
Split = list[bytes]


def occurrences(split: Sequence[bytes], pair: BytePair) -> list[int]:
    """Where ``pair`` starts in ``split``, left to right without overlaps (``aaa`` holds one ``(a, a)`` to merge)."""
    out, i = [], 0
    while i < len(split) - 1:
        if split[i] == pair[0] and split[i + 1] == pair[1]:
            out.append(i)
            i += 2
        else:
            i += 1
    return out


def pair_counter(split: Sequence[bytes], overlap: bool = True) -> Counter:
    """The pairs of a split; ``overlap=False`` counts a run of equal symbols as non-overlapping pairs."""
    if overlap:
        return Counter(zip(split, split[1:]))
    out: Counter = Counter()
    i = 0
    while i < len(split) - 1:
        out[(split[i], split[i + 1])] += 1
        i += 2 if split[i] == split[i + 1] and i + 2 < len(split) and split[i + 2] == split[i] else 1
    return out


def merge_all(split: Split, pair: BytePair) -> tuple[Split, list[int]]:
    """The correct merge: every occurrence, left to right; also where the new tokens stand."""
    out, made, i = [], [], 0
    while i < len(split):
        if i < len(split) - 1 and split[i] == pair[0] and split[i + 1] == pair[1]:
            made.append(len(out))
            out.append(pair[0] + pair[1])
            i += 2
        else:
            out.append(split[i])
            i += 1
    return out, made


def merge_first(split: Split, pair: BytePair) -> tuple[Split, list[int]]:
    found = occurrences(split, pair)
    if not found:
        return list(split), []
    i = found[0]
    return [*split[:i], pair[0] + pair[1], *split[i + 2 :]], [i]


def merge_stale(split: Split, pair: BytePair) -> tuple[Split, list[int]]:
    """Each occurrence merged at the position found before any merge, not shifted by the earlier ones."""
    out = list(split)
    made = []
    for i in occurrences(split, pair):
        if i < len(out):
            out[i : i + 2] = [pair[0] + pair[1]]
            made.append(i)
    return out, made


def merge_skip_next(split: Split, pair: BytePair) -> tuple[Split, list[int]]:
    """Left to right, but after each merge the scan moves past the symbol after the new token, so an occurrence that
    starts right there (the second ``(a, b)`` in ``abab``, the second ``(a, a)`` in ``aaaa``) is never merged."""
    out, made, i = [], [], 0
    while i < len(split):
        if i < len(split) - 1 and split[i] == pair[0] and split[i + 1] == pair[1]:
            made.append(len(out))
            out.append(pair[0] + pair[1])
            if i + 2 < len(split):
                out.append(split[i + 2])
            i += 3
        else:
            out.append(split[i])
            i += 1
    return out, made


def merge_collapse(split: Split, pair: BytePair) -> tuple[Split, list[int]]:
    """Every place the pair occurs, overlapping ones too, gets the new token, then the symbol after each place is
    deleted (from the right): a run of one symbol collapses into one new token (``aaaa`` becomes ``aa``)."""
    places = [i for i in range(len(split) - 1) if (split[i], split[i + 1]) == pair]
    if not places:
        return list(split), []
    joined = pair[0] + pair[1]
    marked: list[tuple[bytes, bool]] = [(s, False) for s in split]
    for i in places:
        marked[i] = (joined, True)
    for i in reversed([i + 1 for i in places]):
        marked.pop(i)
    return [s for s, _ in marked], [k for k, (_, new) in enumerate(marked) if new]


def merge_keep_right(split: Split, pair: BytePair) -> tuple[Split, list[int]]:
    """Each neighbour pair read in turn: the pair gives the new token, any other pair its left symbol, and
    the last symbol is kept unless the last pair was merged, so a merged pair's right symbol stays."""
    if len(split) < 2:
        return list(split), []
    out, made = [], []
    for a, b in zip(split, split[1:]):
        if (a, b) == pair:
            made.append(len(out))
            out.append(a + b)
        else:
            out.append(a)
    if (split[-2], split[-1]) != pair:
        out.append(split[-1])
    return out, made


def merge_drop_tail(split: Split, pair: BytePair) -> tuple[Split, list[int]]:
    """The correct scan, but the word's last symbol appended after it only when the last two symbols are not the
    pair: where the last pair overlaps a merged one (``aaa`` merging ``(a, a)``), the last symbol is lost."""
    out, made, i = [], [], 0
    while i < len(split) - 1:
        if split[i] == pair[0] and split[i + 1] == pair[1]:
            made.append(len(out))
            out.append(pair[0] + pair[1])
            i += 2
        else:
            out.append(split[i])
            i += 1
    if len(split) > 1 and (split[-2], split[-1]) != pair:
        out.append(split[-1])
    elif len(split) == 1:
        out.append(split[0])
    return out, made


def _tail_counted_extra(old: Split, new: Split, pair: BytePair, made: list[int]) -> Counter:
    """The update made as the correct merge's, though the word lost its last symbol: the pairs the correct split
    holds and the shortened one does not."""
    extra = pair_counter(merge_all(old, pair)[0])
    extra.subtract(pair_counter(new))
    return Counter({p: n for p, n in extra.items() if n != 0})


def merge_duplicate(split: Split, pair: BytePair) -> tuple[Split, list[int]]:
    """A new token at every start of the pair, overlapping ones too, the symbols between one occurrence's end and
    the next start copied (none where they overlap): a run of one symbol merging ``(x, x)`` gains symbols
    (``xxxx`` becomes ``xx xx xx``)."""
    out, made, start = [], [], 0
    for i in range(len(split) - 1):
        if split[i] == pair[0] and split[i + 1] == pair[1]:
            out.extend(split[start:i])
            made.append(len(out))
            out.append(pair[0] + pair[1])
            start = i + 2
    out.extend(split[start:])
    return out, made


def merge_none(split: Split, pair: BytePair) -> tuple[Split, list[int]]:
    """A merge that never finds the pair (a pair built as a list, ``[a, b]``, compared with the tuple ``(a, b)``)."""
    return list(split), []


def no_extra(old: Split, new: Split, pair: BytePair, made: list[int]) -> Counter:
    return Counter()


def _left_symbol_extra(old: Split, new: Split, pair: BytePair, made: list[int]) -> Counter:
    """The pairs beside an ``a`` that does not start an occurrence, subtracted as if it did."""
    starts = set(occurrences(old, pair))
    extra: Counter = Counter()
    for i, symbol in enumerate(old):
        if symbol != pair[0] or i in starts or i - 1 in starts:
            continue
        if i > 0:
            extra[(old[i - 1], symbol)] -= 1
        if i + 1 < len(old):
            extra[(symbol, old[i + 1])] -= 1
    return extra


def _overlap_subtract_extra(old: Split, new: Split, pair: BytePair, made: list[int]) -> Counter:
    """For ``(x, x)``: an occurrence skipped for overlapping a merged one has its neighbour pairs subtracted
    too. The pair before it is the merged one's, already subtracted; the pair after it (``(x, c)`` in
    ``x x x c``) stays in the word, unless the next occurrence starts there and is merged."""
    extra: Counter = Counter()
    if pair[0] != pair[1]:
        return extra
    starts = set(occurrences(old, pair))
    for i in range(1, len(old) - 2):
        if i - 1 in starts and i not in starts and i + 1 not in starts and old[i] == old[i + 1] == pair[0]:
            extra[(old[i + 1], old[i + 2])] -= 1
    return extra


def _substring_moves(held: BytePair, text: bytes, pair: BytePair) -> tuple[BytePair, ...]:
    """What a word's pair ``held`` becomes after merging ``(a, b)``, judged from the word's text alone:
    ``(x, a)`` becomes ``(x, ab)`` where the bytes of ``x a b`` are in the text, ``(b, y)`` becomes
    ``(ab, y)`` where those of ``a b y`` are, and ``(b, a)`` may become both."""
    a, b = pair
    joined = a + b
    out = ()
    if held[1] == a and held[0] + joined in text:
        out += ((held[0], joined),)
    if held[0] == b and joined + held[1] in text:
        out += ((joined, held[1]),)
    return out


def _stale_neighbours_extra(old: Split, new: Split, pair: BytePair, made: list[int]) -> Counter:
    """The update with each occurrence's neighbours read from the old split, ``(x, a)`` to ``(x, ab)`` and
    ``(b, y)`` to ``(ab, y)``, and the merged pair dropped, less the correct update (new pairs less old ones)."""
    return _stale_extra(old, new, pair, guarded=False)


def _stale_guarded_extra(old: Split, new: Split, pair: BytePair, made: list[int]) -> Counter:
    """As :func:`_stale_neighbours_extra`, but the right neighbour skipped where the merged pair itself follows (the
    guard ``if (old[i + 1], old[i + 2]) != pair``): in a run ``x x x`` merging ``(x, x)``, ``(xx, x)`` is never counted."""
    return _stale_extra(old, new, pair, guarded=True)


def _stale_overlap_extra(old: Split, new: Split, pair: BytePair, made: list[int]) -> Counter:
    """As :func:`_stale_neighbours_extra`, but at every place the pair occurs, overlapping ones too (no skip after a
    match): in a run ``x x x x`` merging ``(x, x)`` each of the three places moves its neighbours, so ``(xx, x)`` and
    ``(x, xx)`` are counted twice each where the merged run holds one ``(xx, xx)``."""
    return _stale_extra(old, new, pair, guarded=False, overlapping=True)


def _stale_extra(old: Split, new: Split, pair: BytePair, guarded: bool, overlapping: bool = False) -> Counter:
    a, b = pair
    joined = a + b
    faulty: Counter = Counter()
    places = [i for i in range(len(old) - 1) if (old[i], old[i + 1]) == pair] if overlapping else occurrences(old, pair)
    for i in places:
        if i > 0:
            faulty[(old[i - 1], a)] -= 1
            faulty[(old[i - 1], joined)] += 1
        if i + 2 < len(old) and not (guarded and (old[i + 1], old[i + 2]) == pair):
            faulty[(b, old[i + 2])] -= 1
            faulty[(joined, old[i + 2])] += 1
    faulty[pair] -= pair_counter(old)[pair]
    faulty.subtract(pair_counter(new))
    faulty.update(pair_counter(old))
    return Counter({p: n for p, n in faulty.items() if n != 0})


def _stale_left_extra(old: Split, new: Split, pair: BytePair, made: list[int]) -> Counter:
    """Two new tokens side by side: the second one's left pair subtracted as read from the old split, ``(b, a)``,
    already subtracted by the first, where the split being built holds ``(ab, a)``, which stays."""
    a, b = pair
    extra: Counter = Counter()
    for i, j in zip(made, made[1:]):
        if j == i + 1:
            extra[(b, a)] -= 1
            extra[(a + b, a)] += 1
    return extra


def _uncounted_left_extra(old: Split, new: Split, pair: BytePair, made: list[int]) -> Counter:
    """Two new tokens side by side: the second one's left pair read from the word as merged so far, ``(ab, a)``,
    subtracted though the word's new pairs are counted only after the scan, so it comes off other words' count."""
    a, b = pair
    extra: Counter = Counter()
    for i, j in zip(made, made[1:]):
        if j == i + 1:
            extra[(a + b, a)] -= 1
    return extra


def _skip_first_extra(old: Split, new: Split, pair: BytePair, made: list[int]) -> Counter:
    """An occurrence merged at position 1 (of the word as merged so far, which is the new split's position): the
    pair with the symbol before it left as it was, ``(x, a)`` kept and ``(x, ab)`` never made."""
    extra: Counter = Counter()
    for i in made:
        if i == 1:
            extra[(new[0], pair[0])] += 1
            extra[(new[0], pair[0] + pair[1])] -= 1
    return extra


def _overlap_index_extra(old: Split, new: Split, pair: BytePair, made: list[int]) -> Counter:
    """Every start of the pair, overlapping ones too: the pairs at and beside each subtracted once, and the
    pairs beside each new token added once, the token placed at ``start - earlier starts`` (which, after an
    overlapping start, is the place of the token before it); less the correct update."""
    starts = [i for i in range(len(old) - 1) if (old[i], old[i + 1]) == pair]
    gone = {j for i in starts for j in (i - 1, i, i + 1) if 0 <= j and j + 1 < len(old)}
    placed = {i - k for k, i in enumerate(starts)}
    come = {j for i in placed for j in (i - 1, i) if 0 <= j and j + 1 < len(new)}
    faulty: Counter = Counter()
    for j in gone:
        faulty[(old[j], old[j + 1])] -= 1
    for j in come:
        faulty[(new[j], new[j + 1])] += 1
    faulty.subtract(pair_counter(new))
    faulty.update(pair_counter(old))
    return Counter({p: n for p, n in faulty.items() if n != 0})


def _right_added_extra(old: Split, new: Split, pair: BytePair, made: list[int]) -> Counter:
    """The neighbours of each occurrence read from the old split, as :func:`_stale_neighbours_extra`, but the old
    pair on the right, ``(b, y)``, added where it should be subtracted (``+=`` for ``-=``), so it gains twice what
    it loses; less the correct update."""
    a, b = pair
    joined = a + b
    faulty: Counter = Counter()
    for i in occurrences(old, pair):
        if i > 0:
            faulty[(old[i - 1], a)] -= 1
            faulty[(old[i - 1], joined)] += 1
        if i + 2 < len(old):
            faulty[(b, old[i + 2])] += 1
            faulty[(joined, old[i + 2])] += 1
    faulty[pair] -= pair_counter(old)[pair]
    faulty.subtract(pair_counter(new))
    faulty.update(pair_counter(old))
    return Counter({p: n for p, n in faulty.items() if n != 0})


def _twin_never_extra(old: Split, new: Split, pair: BytePair, made: list[int]) -> Counter:
    """Two new tokens side by side: their pair never counted (the update makes a new pair only from an old one
    beside the merged pair, ``(x, a)`` or ``(b, y)``, and ``(ab, ab)`` comes from neither)."""
    joined = pair[0] + pair[1]
    extra: Counter = Counter()
    for i, j in zip(made, made[1:]):
        if j == i + 1:
            extra[(joined, joined)] -= 1
    return extra


def _adjacent_cross_extra(old: Split, new: Split, pair: BytePair, made: list[int]) -> Counter:
    """The update made from the merged split, at each new token: the pair on its left and on its right moved to it,
    where the neighbour is another new token the old pair taken as ``(b, a)``, so two new tokens side by side
    subtract ``(b, a)`` twice and add their pair twice, once from each; then the merged pair's count less one per
    occurrence; less the correct update."""
    a, b = pair
    joined = a + b
    faulty: Counter = Counter()
    spots = set(made)
    for p in made:
        if p > 0:
            left = new[p - 1]
            faulty[(b, a) if p - 1 in spots else (left, a)] -= 1
            faulty[(left, joined)] += 1
        if p + 1 < len(new):
            right = new[p + 1]
            faulty[(b, a) if p + 1 in spots else (b, right)] -= 1
            faulty[(joined, right)] += 1
    faulty[pair] -= len(made)
    faulty.subtract(pair_counter(new))
    faulty.update(pair_counter(old))
    return Counter({p: n for p, n in faulty.items() if n != 0})


def _adjacent_extra(old: Split, new: Split, pair: BytePair, made: list[int]) -> Counter:
    """Two new tokens side by side: their pair added once more."""
    joined = pair[0] + pair[1]
    extra: Counter = Counter()
    for i, j in zip(made, made[1:]):
        if j == i + 1:
            extra[(joined, joined)] += 1
    return extra


def _overlap_twice_extra(old: Split, new: Split, pair: BytePair, made: list[int]) -> Counter:
    """For ``(x, x)``: each occurrence skipped for overlapping a merged one adds its neighbour pairs too."""
    extra: Counter = Counter()
    if pair[0] != pair[1]:
        return extra
    starts = set(occurrences(old, pair))
    joined = pair[0] + pair[1]
    for i in range(1, len(old) - 1):
        if i - 1 in starts and i not in starts and old[i] == old[i + 1] == pair[0]:
            extra[(old[i - 1], joined)] += 1
            if i + 2 < len(old):
                extra[(joined, old[i + 2])] += 1
    return extra


@dataclass(frozen=True)
class Fault:
    """One faulty merge loop: how it merges a word, what its count update adds or subtracts beyond the
    correct one, and the flags of the loops that count differently altogether. ``sentence`` says what
    the loop does, addressed to the student; ``about_merge`` says it of one merge (``{merge}``, its
    symbols ``{a}`` and ``{b}``, the new token ``{joined}``) of the last merge that ``blames`` says changed the pair whose count is off
    (by default: a merge whose left symbol is in that pair).
    ``moves``: a loop that keeps each word's pair counts but not its split; after a merge, each pair of a
    word beside the merged pair's symbols becomes the pairs ``moves`` gives from the word's bytes (none: it
    stays), with all of its count (``merge`` and ``extra`` then unused)."""

    name: str
    sentence: str
    about_merge: str = ""  # the sentence for one merge, when the fault's harm can be traced to it
    blames: Callable[[BytePair, BytePair], bool] = lambda merge, pair: merge[0] in pair  # merge's update changed pair
    merge: Callable[[Split, BytePair], tuple[Split, list[int]]] = merge_all
    extra: Callable[[Split, Split, BytePair, list[int]], Counter] = no_extra
    frozen: bool = False
    banned: bool = False
    overlap: bool = True
    only_merged: bool = False
    positions: bool = False  # pairs kept as sets of byte positions, moved by position (see _PositionPairs)
    loses: bool = False  # counts right, but the selection never offers again the pairs it should take at the step
    drops: bool = False  # the merged pair's count deleted outright, also what the update moved there by mistake
    moves: Callable[[BytePair, bytes, BytePair], tuple[BytePair, ...]] | None = None
    heap: bool = False  # the selection a max-heap whose update never sifts up (see fault_replay._SiftlessHeap)
    skip_first: bool = False  # with ``heap``: the heap's update skips the left neighbour at position 1
    assigns: bool = False  # a new pair's count set to the last word's count that made it, not the sum
    stale_index: bool = False  # a word joins a pair's index only when the pair had none (see fault_replay)
    keeps_pair: bool = False  # the merged pair's count is left as it was when it was taken
    skips: bool = False  # every second word of the list holding the pair skipped (removed from it while iterated)
    wrong_index: bool = False  # the update uses the last word's index for the count and the merged split
    recorded: bool = False  # occurrences kept at the places recorded when counted, never shifted (fault_replay)
    prefix_first: bool = False  # the left pairs moved before the right ones, read off the word as it is (fault_replay)
    follow: int = 0  # merges past the step it must follow the run too (or to its end): one choice may pass for it
    global_substring: bool = False  # pair counts moved to substring counts of the whole corpus, no words (fault_replay)
    lazy: bool = False  # with ``heap``: a heapq of (-count, pair) pushed only when a count rises (fault_replay)
    once: bool = False  # each pair counted once per word (the word's pairs taken as a set), times the word's count
    accumulates: bool = False  # the counts never reset: each pass adds every word's pairs again to the old counts


CORRECT = Fault("correct", "your loop merges and counts as ours does")
FAULTS: dict[str, Fault] = {
    f.name: f
    for f in (
        Fault("never-merges", "your merge never changes a word (a pair built as a list, [a, b], never equals the "
              "tuple (a, b)), so no count changes and the first pair wins every time", merge=merge_none),
        Fault("kept-pair", "your update never removes the merged pair's count (no 'del counts[pair]' after the "
              "merge): the words are merged, but the pair keeps its count, so it is taken again while that count is "
              "the highest", keeps_pair=True),
        Fault("half", "your merge replaces only the first occurrence of the pair in a word, so a word holding "
              "it twice is left half-merged", merge=merge_first),
        Fault("left-symbol", "your update subtracts the pairs beside every occurrence of the merged pair's left "
              "symbol, also where its right symbol does not follow", extra=_left_symbol_extra,
              about_merge="your update for the merge {merge} subtracts the pairs beside every {a}, also where {b} "
              "does not follow it"),
        Fault("stale", "your loop merges at positions found before an earlier merge in the same word shifted "
              "them", merge=merge_stale),
        Fault("adjacent", "your update counts the pair of two merged tokens side by side (as in 'aa aa') twice, "
              "once from each", extra=_adjacent_extra),
        Fault("frozen", "your pair counts are never updated after a merge (only the merged pair is removed)",
              frozen=True),
        Fault("banned", "your loop never counts a pair that holds a merged token", banned=True),
        Fault("overlap-twice", "your update treats both overlapping pairs in a run like 'aaa' as merged, adding "
              "a pair that is not there", extra=_overlap_twice_extra),
        Fault("overlap-once", "your count skips overlapping pairs ('aaa' holds (a, a) twice, you count it once)",
              overlap=False),
        Fault("accumulated", "your pair counts are made once, before the loop, and never reset: each pass adds "
              "every word's pairs again to the counts of the passes before, so the pairs of words no merge touches "
              "grow every pass while a new pair starts from nothing, and a merged pair keeps its old count",
              accumulates=True),
        Fault("once-per-word", "your count takes each word's pairs as a set, so a pair that occurs several times in one "
              "word is counted once for it (times the word's count), not once per occurrence", once=True, follow=3),
        Fault("only-merged", "after a merge your loop counts pairs again in the merged words only, forgetting "
              "every other word", only_merged=True),
        Fault("keep-right", "your merge writes the new token but keeps the pair's right symbol after it ('a b c' "
              "becomes 'ab b c'), so words hold pairs that are not there", merge=merge_keep_right),
        Fault("overlap-subtract", "your update subtracts the pairs beside every occurrence of the merged pair, also "
              "beside one that overlaps a merged one (the second (a, a) in 'aaa c'), which is not merged, so the pair "
              "after the run is subtracted though it stays", extra=_overlap_subtract_extra,
              about_merge="your update for the merge {merge} also subtracts the pairs beside an occurrence that "
              "overlaps a merged one (the second of three {a} in a row), which is not merged, so the pair after "
              "the run is subtracted though it stays", blames=lambda merge, pair: merge[0] == merge[1] == pair[0]),
        Fault("stale-neighbours", "your update takes the neighbours of each merged pair from the word before the "
              "merge, so two merged tokens side by side (as in 'ab ab') never make their pair: you count (ab, a) "
              "and (b, ab) instead of (ab, ab)", extra=_stale_neighbours_extra, drops=True,
              about_merge="your update for the merge {merge} takes the neighbours of each {merge} from the word "
              "before the merge, so two merged tokens side by side never make their pair: you count ({joined}, {a}) "
              "and ({b}, {joined}) instead of ({joined}, {joined})",
              blames=lambda merge, pair: merge[0] + merge[1] in pair),
        Fault("stale-left", "your update subtracts the left neighbour pair of each merged pair as read from the "
              "word before the merge (old[i-1], old[i]) but adds the new one from the merged word, so of two merged "
              "tokens side by side (as in 'ab ab') the second subtracts (b, a) twice and (ab, a), made by the first, "
              "is never removed", extra=_stale_left_extra,
              about_merge="your update for the merge {merge} subtracts the left neighbour pair of each {merge} as "
              "read from the word before the merge but adds the new one from the merged word, so of two {joined} side "
              "by side the second subtracts ({b}, {a}) twice and ({joined}, {a}), made by the first, is never removed",
              blames=lambda merge, pair: pair in ((merge[1], merge[0]), (merge[0] + merge[1], merge[0]))),
        Fault("substring", "your update moves the pairs beside a merged pair wherever the symbols' bytes appear in "
              "the word's text, without looking at its tokens: also where a symbol is inside another token, so the "
              "merge does not happen there, and both ways between two merged tokens", moves=_substring_moves,
              about_merge="your update for the merge {merge} moves the pairs beside {a} and {b} wherever their bytes "
              "appear in the word's text, without looking at its tokens: also where one of them is inside another "
              "token, so {merge} does not happen there, and both ways between two merged tokens",
              blames=lambda merge, pair: merge[0] in pair or merge[1] in pair or merge[0] + merge[1] in pair),
        Fault("positions", "your update moves the pairs by their byte positions, and never makes the pair of two "
              "merged tokens side by side (after (a, b), 'abab' holds no (ab, ab)); after (a, a) it also moves the "
              "pair after a run like 'aaa' to aa, though the last a stays", positions=True,
              about_merge="your update for the merge {merge} moves the pairs by their byte positions, and never "
              "makes the pair of two {joined} side by side", blames=lambda merge, pair: merge[0] + merge[1] in pair),
        Fault("no-sift-up", "your heap's update never moves a pair up when its count rises (it compares the new "
              "count with itself, already raised, and only sifts down), so a pair that gains count stays below "
              "pairs it now beats", heap=True),
        Fault("lazy-heap", "your heap of (-count, pair) gets a new entry only for a pair whose count rose, never for "
              "one whose count fell, and drops an entry whose count is no longer the pair's, so a pair whose count "
              "fell is never offered again until it gains count (among equal counts your min-heap pops the smallest "
              "pair)", heap=True, lazy=True, follow=3),
        Fault("skip-first-neighbour", "your update skips the pair on the left of a merge at position 1 of a word "
              "(a test like 'pos - 1 > 0' where 'pos - 1 >= 0' is meant), so after 'x a b' becomes 'x ab' the word "
              "still counts (x, a) and never (x, ab)", extra=_skip_first_extra, drops=True,
              about_merge="your update for the merge {merge} skips the pair on the left of {joined} where it is "
              "second in a word ('pos - 1 > 0' where 'pos - 1 >= 0' is meant), so the word keeps (x, {a}) and never "
              "counts (x, {joined})", blames=lambda merge, pair: merge[0] in pair or merge[0] + merge[1] in pair),
        Fault("no-sift-up-skip-first", "your heap's update never moves a pair up when its count rises (it compares "
              "the new count with itself, already raised, and only sifts down), and your update skips the pair on "
              "the left of a merge at position 1 of a word ('pos - 1 > 0' where 'pos - 1 >= 0' is meant)",
              heap=True, skip_first=True),
        Fault("assigned", "your update sets the count of a new pair to the count of the word that makes it "
              "(counts[pair] = freq) instead of adding it (+=), so a new pair counts only the last word that made "
              "it", assigns=True,
              about_merge="your update for the merge {merge} sets the count of each new pair with {joined} to the "
              "count of the word that makes it (counts[pair] = freq) instead of adding it (+=), so it counts only "
              "the last such word", blames=lambda merge, pair: merge[0] + merge[1] in pair),
        Fault("stale-index", "your index of the words holding each pair never gains a word once the pair is in it "
              "(a set's union() returns a new set, which is thrown away; add() or |= changes the set), so a word "
              "that comes to hold a pair already indexed is never merged there", stale_index=True, drops=True),
        Fault("overlap-index", "your update lists every start of the pair, overlapping ones too ('aaa' holds "
              "(a, a) at 0 and 1), and places each new token at its start minus the starts before it, so in a run "
              "of one symbol the new tokens' places collapse and pairs of the run are lost",
              extra=_overlap_index_extra,
              about_merge="your update for the merge {merge} lists every start of {merge}, overlapping ones too, "
              "and places each {joined} at its start minus the starts before it, so in a run of {a} the new "
              "tokens' places collapse and pairs of the run are lost",
              blames=lambda merge, pair: merge[0] == merge[1] and (merge[0] in pair or merge[0] + merge[1] in pair)),
        Fault("overlap-collapse", "your merge writes the new token at every place the pair occurs, overlapping ones "
              "too ('aaa' holds (a, a) at 0 and 1), then deletes the symbol after each place, so a run of one symbol "
              "collapses into one new token ('aaaa' becomes 'aa') and the run's other symbols are lost",
              merge=merge_collapse,
              about_merge="your merge for {merge} writes {joined} at every place {merge} occurs, overlapping ones too, "
              "then deletes the symbol after each place, so a run of {a} collapses into one {joined} and the run's "
              "other symbols are lost",
              blames=lambda merge, pair: merge[0] == merge[1] and (merge[0] in pair or merge[0] + merge[1] in pair)),
        Fault("uncounted-left", "your update subtracts the pair on the left of each occurrence as read from the word "
              "being merged, so of two occurrences side by side (as in 'ab ab') the second subtracts (ab, a), a pair "
              "not yet counted in this word (its new pairs are counted after the scan), which comes off the count "
              "other words gave it", extra=_uncounted_left_extra, drops=True,
              about_merge="your update for the merge {merge} subtracts the pair on the left of each {merge} as read "
              "from the word being merged, so of two {joined} side by side the second subtracts ({joined}, {a}), a "
              "pair not yet counted in this word (its new pairs are counted after the scan), which comes off the "
              "count other words gave it", blames=lambda merge, pair: pair == (merge[0] + merge[1], merge[0])),
        Fault("recorded-positions", "your loop keeps each pair's places (word, index) as recorded when it was "
              "counted, and a merge earlier in the same word shifts the tokens after it without moving their places, "
              "so an occurrence after an earlier merge fails your check of its place and is never merged, while its "
              "count stays", recorded=True,
              about_merge="your loop keeps each pair's places (word, index) as recorded when it was counted, and "
              "the merge {merge} shifts the tokens after each {joined} without moving their places, so a later "
              "occurrence in such a word fails your check of its place and is never merged, while its count stays",
              blames=lambda merge, pair: merge[0] + merge[1] in pair),
        Fault("lost-last", "your merge appends a word's last symbol after its scan only when the last two symbols "
              "are not the merged pair, so a word ending in a run of odd length ('aaa' merging (a, a)) loses its last "
              "symbol, while your counts were updated as if it stayed", merge=merge_drop_tail,
              extra=_tail_counted_extra, drops=True,
              about_merge="your merge for {merge} appends a word's last symbol only when the last two symbols are "
              "not {merge}, so a word ending in a run of odd length of {a} loses its last {a} (the scan stops after "
              "{joined}), while your counts were updated as if it stayed",
              blames=lambda merge, pair: merge[0] == merge[1] and (merge[0] in pair or merge[0] + merge[1] in pair)),
        Fault("lost-last-counted", "your merge appends a word's last symbol after its scan only when the last two "
              "symbols are not the merged pair, so a word ending in a run of odd length ('aaa' merging (a, a)) loses "
              "its last symbol, and your counts, taken from the merged word, lose its last pair", merge=merge_drop_tail,
              about_merge="your merge for {merge} appends a word's last symbol only when the last two symbols are "
              "not {merge}, so a word ending in a run of odd length of {a} loses its last {a} (the scan stops after "
              "{joined}), and your counts, taken from the merged word, lose its last pair",
              blames=lambda merge, pair: merge[0] == merge[1] and (merge[0] in pair or merge[0] + merge[1] in pair)),
        Fault("skipped-words", "your loop removes each word from the list of words holding the pair while it "
              "iterates over that list ('for w in words: ... words.remove(w)'), so it steps over the next word: every "
              "second word holding the pair is never merged, and its pairs keep their counts", merge=merge_first, skips=True,
              drops=True),
        Fault("skips-next", "your merge moves on past the symbol after each new token (the index goes up by two after "
              "the word has shrunk by one), so an occurrence that starts right after a merged one is never merged: "
              "'abab' becomes 'ab a b', and the pair's count is deleted though the word still holds it",
              merge=merge_skip_next, drops=True,
              about_merge="your merge for {merge} moves on past the symbol after each {joined}, so an occurrence "
              "right after a merged one is never merged, and its count is deleted with the pair's",
              blames=lambda merge, pair: merge[0] + merge[1] in pair),
        Fault("stale-guarded", "your update takes the left neighbour of each merged pair from the word before the "
              "merge (old[i-1]), so two merged tokens side by side (as in 'ab ab') make (b, ab) "
              "where (ab, ab) should be, and it skips the pair on the right where the merged pair itself follows, so "
              "a run like 'aaa' merging (a, a) never counts (aa, a)", extra=_stale_guarded_extra, drops=True,
              about_merge="your update for the merge {merge} takes the left neighbour of each {joined} from the word "
              "before the merge, so two {joined} side by side make ({b}, {joined}) where "
              "({joined}, {joined}) should be, and it skips the pair on the right where {merge} follows",
              blames=lambda merge, pair: merge[0] + merge[1] in pair),
        Fault("stale-overlap", "your update visits every place where the merged pair occurs, overlapping ones too "
              "(no skip after a match, so 'aaa' holds (a, a) at two places), and takes the neighbours of each from "
              "the word before the merge, so a run like 'aaaa' merging (a, a) counts (aa, a) and (a, aa) twice each "
              "where it holds one (aa, aa)", extra=_stale_overlap_extra, drops=True,
              about_merge="your update for the merge {merge} visits every place where {merge} occurs, overlapping "
              "ones too (no skip after a match, so a run of three {a} holds it at two places), and takes the "
              "neighbours of each from the word before the merge, so in a run of {a} you count ({joined}, {a}) and "
              "({a}, {joined}) at every place where the merged run holds ({joined}, {joined})",
              blames=lambda merge, pair: merge[0] + merge[1] in pair),
        Fault("right-added", "your update adds the old right pair of each merged pair, (b, next), instead of "
              "subtracting it (counts[(b, next)] += instead of -=), so the pair after every merged occurrence gains "
              "count it should lose", extra=_right_added_extra, drops=True,
              about_merge="your update for the merge {merge} adds the old right pair of each {joined}, ({b}, next), "
              "instead of subtracting it (+= instead of -=), so that pair gains count it should lose",
              blames=lambda merge, pair: pair[0] == merge[1]),
        Fault("overlap-duplicate", "your merge makes a new token at every place the pair starts, overlapping ones too, "
              "so a run of one symbol gains symbols ('aaaa' merging (a, a) becomes 'aa aa aa', not 'aa aa')",
              merge=merge_duplicate,
              about_merge="your merge for {merge} makes a {joined} at every place {merge} starts, overlapping ones too, "
              "so a run of {a} gains symbols (four {a} become three {joined})",
              blames=lambda merge, pair: merge[0] == merge[1] and (merge[0] in pair or merge[0] + merge[1] in pair)),
        Fault("twin-never", "your update never counts the pair of two merged tokens side by side (after (a, b), "
              "'abab' becomes 'ab ab', and (ab, ab) is never counted): it makes a new pair only from an old pair beside "
              "the merged one, and (ab, ab) comes from none", extra=_twin_never_extra,
              about_merge="your update for the merge {merge} never counts the pair of two {joined} side by side: it "
              "makes a new pair only from an old pair beside {merge}, and ({joined}, {joined}) comes from none",
              blames=lambda merge, pair: pair == (merge[0] + merge[1], merge[0] + merge[1])),
        Fault("wrong-index", "your update uses the wrong loop variable: the loop over the words holding the pair "
              "names each word 'index', but the body uses 'i', left over from the loop that counted the pairs (the last "
              "word's index), so every count moves by the last word's count and the merged word is stored in the last "
              "word's place: the words themselves never change", wrong_index=True, drops=True),
        Fault("right-recorded-first", "your update records each occurrence's right neighbour from the word before the "
              "merge (the next occurrence not yet merged) and moves the left-hand pairs before the right-hand ones, "
              "subtracting a pair only while your counts hold it, so of two merged tokens side by side (as in 'ab ab') "
              "the pair (ab, a) is added and never taken back", prefix_first=True),
        Fault("substring-counts", "your loop never merges the words: after merging (a, b) each pair (b, c) is "
              "replaced by (ab, c) and each (c, a) by (c, ab), counted as the occurrences of the joined bytes in all "
              "your pre-tokens (a count of every substring made once), and the old pair is dropped, so a pair beside a "
              "merged one is counted wherever its bytes occur, also inside other tokens, and never where it stays",
              global_substring=True),
        Fault("adjacent-cross", "your update moves the pairs on both sides of each merged token, so two merged "
              "tokens side by side (as in 'ab ab') add their pair twice, once from each, and subtract the pair between "
              "them, (b, a), twice; the merged pair's count loses one per occurrence merged, so what the update left "
              "there stays", extra=_adjacent_cross_extra,
              about_merge="your update for the merge {merge} moves the pairs on both sides of each {joined}, so two "
              "{joined} side by side add ({joined}, {joined}) twice, once from each, and subtract ({b}, {a}) twice",
              blames=lambda merge, pair: merge[0] + merge[1] in pair or pair == (merge[1], merge[0])),
        Fault("lost-pair", "your counts are right, but your selection never offered the pair with the highest "
              "count: the heap or the buckets of counts your loop picks from lost it (a pair changed but never "
              "pushed, or a count's entry removed while other pairs still hold that count)", loses=True),
    )
}  # fmt: skip


def token_ids(words: Sequence[Word], merges: Sequence[BytePair]) -> dict[bytes, int]:
    """Token ids as students assign them: the base symbols in byte order, then one id per merge in order."""
    ids = {s: i for i, s in enumerate(sorted({s for w in words for s in w}))}
    for a, b in merges:
        ids.setdefault(a + b, len(ids))
    return ids


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


def _gpt2_id(token: bytes, ids: Mapping[bytes, int]) -> int:
    return _GPT2_RANK[token[0]] if len(token) == 1 else 256 + ids.get(token, -1)


ORDER_TIES = ("greatest-text-ignore", "first-added")  # the tie keys that read the order the dict gained its pairs
RECOUNT_TIE = "first-recounted"  # the tie key that reads the order of a fresh count over a reordered dict of words
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
    "greatest-text-ignore": ("the greatest pair of text decoded with errors='ignore' wins (a lone byte of a "
                             "character reads as nothing), the pair seen first among equal texts",
                             lambda tied, ids, seen: max(tied, key=lambda p: (
                                 _ignored(p[0]), _ignored(p[1]), -seen.get(p, UNSEEN)))),
    "first-added": ("the pair that entered your dict of counts first wins (max over a dict keeps the first of "
                    "equal counts, and a merge adds its new pairs at the end)",
                    lambda tied, ids, seen: min(tied, key=lambda p: seen.get(p, UNSEEN))),
    "first-recounted": ("the pair met first wins, your counts taken afresh each step over your dict of words (max over "
                        "the counts keeps the first of equal counts), where each merged word is deleted and added again "
                        "at the dict's end", lambda tied, ids, seen: min(tied, key=lambda p: seen.get(p, UNSEEN))),
    "gpt2-id": ("the pair with the greatest token ids wins, the bytes numbered in GPT-2's order (printable first)",
                lambda tied, ids, seen: max(tied, key=lambda p: (_gpt2_id(p[0], ids), _gpt2_id(p[1], ids)))),
    "greatest-repr": ("the greatest pair as Python prints it wins: the text str((a, b)) of the pair of bytes objects "
                      "is compared, not the bytes, so the quote closing b' ' sorts above a second space and an "
                      "escape such as b'\\xc8' below a letter",
                      lambda tied, ids, seen: max(tied, key=lambda p: (str(p), p))),
}  # fmt: skip
