"""The catalogue of known faulty BPE merge loops the Check replays: the bugs students' trainers commonly have.

Each entry of :data:`FAULTS` is a :class:`~bpe.loop_fault.Fault`, one small change to a correct loop, told
beside it: the comment says what the loop does, the sentences say it to the student.

Where two faults follow a student's run equally far, the earlier one in :data:`FAULTS` is named: ``never-merges`` and
``kept-pair`` first, since a loop whose merged pair keeps its count is all a run that repeats a merge needs (the faults
that delete a merged pair's count are also replayed keeping it, :func:`bpe.check_loop.find_fault`); ``stale-neighbours``
goes before ``stale-left`` and ``substring`` because reading the neighbours off the old word is the commoner bug in
students' code, and all three make the same phantom pair from two merged tokens side by side: where a run repeats
the phantom ``(ab, a)`` (a loop that keeps the merged pair's count), ``stale-neighbours`` and ``stale-left`` make the
same merges, and the run is told with both, the commoner first.

Left out: what a fault is made of (:mod:`bpe.loop_fault`), the merge rules and faulty updates
(:mod:`bpe.word_merges`, :mod:`bpe.neighbour_faults`, :mod:`bpe.run_faults`), the students' tie rules
(:mod:`bpe.tie_keys`), replaying a student's merges under a fault (:mod:`bpe.fault_replay`), and deciding
which fault to name and saying it (:mod:`bpe.check_loop`).
"""

from __future__ import annotations

from .kept_pairs import kept_readded_extra, never_subtracted_extra, never_subtracted_own_right_extra
from .loop_fault import Fault
from .neighbour_faults import (
    left_symbol_extra,
    merged_sides_extra,
    right_added_extra,
    right_never_extra,
    skip_first_extra,
    stale_guarded_extra,
    stale_left_extra,
    stale_neighbours_extra,
    stale_overlap_extra,
    substring_moves,
    uncounted_left_extra,
)
from .run_faults import (
    adjacent_cross_extra,
    adjacent_extra,
    overlap_index_extra,
    overlap_subtract_extra,
    overlap_twice_extra,
    tail_counted_extra,
    twin_never_extra,
)
from .word_merges import (
    merge_collapse,
    merge_drop_tail,
    merge_duplicate,
    merge_first,
    merge_first_left,
    merge_keep_right,
    merge_lose_after_end,
    merge_none,
    merge_replace,
    merge_skip_next,
    merge_split_spaces,
    merge_stale,
    merge_tail_lost,
)

CORRECT = Fault("correct", "your loop merges and counts as ours does")
FAULTS: dict[str, Fault] = {
    f.name: f
    for f in (
        # the merge never finds the pair in a word (a pair built as a list compared with a tuple), so no word and no
        # count ever changes and the first pair is taken again and again.
        Fault("never-merges", "your merge never changes a word (a pair built as a list, [a, b], never equals the "
              "tuple (a, b)), so no count changes and the first pair wins every time", merge=merge_none),
        # the words are merged and the pairs beside each occurrence move, but the merged pair's own count is never
        # removed (no ``del counts[pair]``), so the pair keeps the highest count and is taken again and again, until a
        # pair made by its merge ties with it and wins the tie. A run that is its first merge over and over is made by
        # this loop and by one whose merge never changes a word alike (:mod:`bpe.check_cause` tells both).
        Fault("kept-pair", "your update never removes the merged pair's count (no 'del counts[pair]' after the "
              "merge): the words are merged, but the pair keeps its count, so it is taken again while that count is "
              "the highest", keeps_pair=True),
        # only the first occurrence in a word is merged, so a word holding the pair twice is left half-merged.
        Fault("half", "your merge replaces only the first occurrence of the pair in a word, so a word holding "
              "it twice is left half-merged", merge=merge_first),
        # the update subtracts the pairs beside every ``a``, also where ``b`` does not follow.
        Fault("left-symbol", "your update subtracts the pairs beside every occurrence of the merged pair's left "
              "symbol, also where its right symbol does not follow", extra=left_symbol_extra,
              about_merge="your update for the merge {merge} subtracts the pairs beside every {a}, also where {b} "
              "does not follow it"),
        # the word is its symbols joined by spaces, rewritten with ``str.replace('a b', 'ab')`` (or ``re.sub`` of the
        # escaped pair) where Sennrich et al.'s snippet matches only between whole symbols, so ``a b`` is also found
        # where ``a`` ends a longer symbol or ``b`` starts one, and those two symbols are merged.
        Fault("replace", "your merge rewrites each word with str.replace (or re.sub) on its symbols joined by spaces, "
              "with no check of the symbol boundaries: the pair's text is also found across two longer symbols "
              "('xa b' or 'a bc' for the pair (a, b)), inside a longer token, and those two symbols are merged",
              merge=merge_replace, unbounded=True,
              about_merge="your merge for {merge} also joins two symbols where {a} ends the first and {b} starts "
              "the second (str.replace finds the pair's text inside longer symbols)",
              # a merge whose text stands inside a token of the pair made that token across two symbols
              blames_first=lambda merge, pair: any(merge[0] + merge[1] in t != merge[0] + merge[1] for t in pair)),
        # the occurrences are found first, then merged at those positions, which an earlier merge in the same word has
        # shifted.
        Fault("stale", "your loop merges at positions found before an earlier merge in the same word shifted "
              "them", merge=merge_stale),
        # two merged tokens side by side (``aa aa``) add their pair twice, once from each.
        Fault("adjacent", "your update counts the pair of two merged tokens side by side (as in 'aa aa') twice, "
              "once from each", extra=adjacent_extra),
        # the pair counts are taken once and never updated (the merged pair is only removed).
        Fault("frozen", "your pair counts are never updated after a merge (only the merged pair is removed)",
              frozen=True),
        # the first merge updates the words and counts; after it the loop's dict of words is the one it empties
        # (``words = new_words; new_words.clear()``), so no later merge changes a word or a count.
        Fault("frozen-after-first", "your words and pair counts are never updated after the first merge: after "
              "it your dict of words is the very dict you then empty (words = new_words followed by "
              "new_words.clear()), so no later merge changes a word or a count and each step takes the next pair of "
              "the counts left after the first merge", frozen_later=True),
        # a pair holding a merged token is never counted.
        Fault("banned", "your loop never counts a pair that holds a merged token", banned=True),
        # both overlapping pairs in ``aaa`` are treated as merged, adding a pair ``(a, aa)`` that is not there.
        Fault("overlap-twice", "your update treats both overlapping pairs in a run like 'aaa' as merged, adding "
              "a pair that is not there", extra=overlap_twice_extra),
        # overlapping pairs are counted once (``aaa`` holds ``(a, a)`` twice, not once).
        Fault("overlap-once", "your count skips overlapping pairs ('aaa' holds (a, a) twice, you count it once)",
              overlap=False),
        # the pair counts are made once before the loop and every pass adds all the words' pairs to them again, never
        # reset, so untouched pairs grow each pass and a merged pair keeps its old count.
        Fault("accumulated", "your pair counts are made once, before the loop, and never reset: each pass adds "
              "every word's pairs again to the counts of the passes before, so the pairs of words no merge touches "
              "grow every pass while a new pair starts from nothing, and a merged pair keeps its old count",
              accumulates=True),
        # the same counts, but the best pair kept while scanning the words (``if counts[p] > best_count``), so only a
        # pair the words hold now is taken, whatever count a merged or destroyed pair kept
        Fault("accumulated-present", "your pair counts are made once, before the loop, and never reset: each pass "
              "adds every word's pairs again to the counts of the passes before, and the best pair is kept while "
              "counting, so of the pairs your words still hold the ones no merge touches grow every pass while a new "
              "pair starts from nothing", accumulates=True, present=True),
        # the count steps over the symbols two at a time (``range(0, len(ids) - 1, 2)``, as if pairs never overlapped),
        # so only the pairs starting at even positions are counted: half the pairs, and which half depends on where
        # each earlier merge shifted the symbols. Counts so far off make a few choices of any short run: it must
        # follow the run 3 merges past the step.
        Fault("even-pairs", "your count steps two symbols at a time (range(0, len(ids) - 1, 2)), so it counts only "
              "the pairs that start at an even position and never those that start at an odd one", even=True, follow=3,
              past_end=True),
        # each word's pairs are taken as a set, so a pair repeated in a word counts once for it.
        Fault("once-per-word", "your count takes each word's pairs as a set, so a pair that occurs several times in one "
              "word is counted once per word (times the word's count), not once per occurrence", once=True, follow=3),
        # after a merge the counts are taken again from the merged words only.
        Fault("only-merged", "after a merge your loop counts pairs again in the merged words only, forgetting "
              "every other word", only_merged=True),
        # the merge writes the new token in place of the pair's left symbol but keeps its right symbol after it
        # (``a b c`` becomes ``ab b c``), unless the pair ends the word.
        Fault("keep-right", "your merge writes the new token but keeps the pair's right symbol after it ('a b c' "
              "becomes 'ab b c'), so words hold pairs that are not there", merge=merge_keep_right),
        # the update subtracts the neighbour pairs of every occurrence, also of one that overlaps a merged one (the
        # second ``(a, a)`` in ``aaa c``), which is not merged: the pair after the run (``(a, c)``) is subtracted
        # though it stays.
        Fault("overlap-subtract", "your update subtracts the pairs beside every occurrence of the merged pair, also "
              "beside one that overlaps a merged one (the second (a, a) in 'aaa c'), which is not merged, so the pair "
              "after the run is subtracted though it stays", extra=overlap_subtract_extra,
              about_merge="your update for the merge {merge} also subtracts the pairs beside an occurrence that "
              "overlaps a merged one (the second of three {a} in a row), which is not merged, so the pair after "
              "the run is subtracted though it stays", blames=lambda merge, pair: merge[0] == merge[1] == pair[0]),
        # the update takes each occurrence's neighbours from the word before the merge, so two occurrences side by
        # side (``abab``) give ``(ab, a)`` and ``(b, ab)``, never ``(ab, ab)``; an update by byte positions that never
        # makes the pair between two adjacent new tokens does the same.
        Fault("stale-neighbours", "your update takes the neighbours of each merged pair from the word before the "
              "merge, so two merged tokens side by side (as in 'ab ab') never make their pair: you count (ab, a) "
              "and (b, ab) instead of (ab, ab)", extra=stale_neighbours_extra, drops=True,
              about_merge="your update for the merge {merge} takes the neighbours of each {merge} from the word "
              "before the merge, so two merged tokens side by side never make their pair: you count ({joined}, {a}) "
              "and ({b}, {joined}) instead of ({joined}, {joined})",
              blames=lambda merge, pair: merge[0] + merge[1] in pair),
        # the update subtracts each occurrence's left pair as read from the word before the merge
        # (``old[i - 1], old[i]``) and adds the new one from the word being built, so of two occurrences side by side
        # (``abab``) the second subtracts ``(b, a)`` again and never removes the ``(ab, a)`` the first one added,
        # which keeps its count once merged, so the loop takes it again and again.
        Fault("stale-left", "your update subtracts the left neighbour pair of each merged pair as read from the "
              "word before the merge (old[i-1], old[i]) but adds the new one from the merged word, so of two merged "
              "tokens side by side (as in 'ab ab') the second subtracts (b, a) twice and (ab, a), made by the first, "
              "is never removed", extra=stale_left_extra,
              about_merge="your update for the merge {merge} subtracts the left neighbour pair of each {merge} as "
              "read from the word before the merge but adds the new one from the merged word, so of two {joined} side "
              "by side the second subtracts ({b}, {a}) twice and ({joined}, {a}), made by the first, is never removed",
              blames=lambda merge, pair: pair in ((merge[1], merge[0]), (merge[0] + merge[1], merge[0]))),
        # the loop keeps each word's pair counts but not its split, and moves a neighbour pair to the new token
        # wherever the bytes of the three symbols appear in the word's text: also where one of them is already inside
        # another token, so the merge does not happen there, and both ways between two merged tokens (``(b, a)`` in
        # ``abab`` becomes ``(b, ab)`` and ``(ab, a)``, not ``(ab, ab)``).
        Fault("substring", "your update moves the pairs beside a merged pair wherever the symbols' bytes appear in "
              "the word's text, without looking at its tokens: also where a symbol is inside another token, so the "
              "merge does not happen there, and both ways between two merged tokens", moves=substring_moves,
              about_merge="your update for the merge {merge} moves the pairs beside {a} and {b} wherever their bytes "
              "appear in the word's text, without looking at its tokens: also where one of them is inside another "
              "token, so {merge} does not happen there, and both ways between two merged tokens",
              blames=lambda merge, pair: merge[0] in pair or merge[1] in pair or merge[0] + merge[1] in pair),
        # the loop keeps each pair as the set of byte positions where it starts and moves a neighbour pair wherever
        # the merged pair starts beside it (also at an overlapping start in ``aaa``), once, so two merged tokens side
        # by side never make their pair.
        Fault("positions", "your update moves the pairs by their byte positions, and never makes the pair of two "
              "merged tokens side by side (after (a, b), 'abab' holds no (ab, ab)); after (a, a) it also moves the "
              "pair after a run like 'aaa' to aa, though the last a stays", positions=True,
              about_merge="your update for the merge {merge} moves the pairs by their byte positions, and never "
              "makes the pair of two {joined} side by side", blames=lambda merge, pair: merge[0] + merge[1] in pair),
        # the selection is a hand-written max-heap of the pairs (ties to the greatest pair of bytes) whose update
        # moves a pair only down, also when its count rose (it compares the count with itself after raising it), so a
        # pair that gains count stays below pairs it now beats until the pairs above it are taken.
        Fault("no-sift-up", "your heap's update never moves a pair up when its count rises (it compares the new "
              "count with itself, already raised, and only sifts down), so a pair that gains count stays below "
              "pairs it now beats", heap=True),
        # a ``heapq`` of ``(-count, pair)`` given an entry only for a pair whose count rose, stale entries dropped
        # when popped, so a pair whose count fell is never offered again until it rises (ties: the smallest pair).
        Fault("lazy-heap", "your heap of (-count, pair) gets a new entry only for a pair whose count rose, never for "
              "one whose count fell, and drops an entry whose count is no longer the pair's, so a pair whose count "
              "fell is never offered again until it gains count (among equal counts your min-heap pops the smallest "
              "pair)", heap=True, lazy=True, follow=3),
        # the update skips the left neighbour of an occurrence at position 1 of the word (``if pos - 1 > 0``), so
        # after ``x a b`` becomes ``x ab`` the word still counts ``(x, a)`` and not ``(x, ab)``; the merged pair's
        # count, phantoms and all, is deleted once it is taken.
        Fault("skip-first-neighbour", "your update skips the pair on the left of a merge at position 1 of a word "
              "(a test like 'pos - 1 > 0' where 'pos - 1 >= 0' is meant), so after 'x a b' becomes 'x ab' the word "
              "still counts (x, a) and never (x, ab)", extra=skip_first_extra, drops=True,
              about_merge="your update for the merge {merge} skips the pair on the left of {joined} where it is "
              "second in a word ('pos - 1 > 0' where 'pos - 1 >= 0' is meant), so the word keeps (x, {a}) and never "
              "counts (x, {joined})", blames=lambda merge, pair: merge[0] in pair or merge[0] + merge[1] in pair),
        # both at once, as they come together in one student's loop.
        Fault("no-sift-up-skip-first", "your heap's update never moves a pair up when its count rises (it compares "
              "the new count with itself, already raised, and only sifts down), and your update skips the pair on "
              "the left of a merge at position 1 of a word ('pos - 1 > 0' where 'pos - 1 >= 0' is meant)",
              heap=True, skip_first=True),
        # the update sets a new pair's count to the word's count (``counts[p] = freq``) instead of adding it (``+=``),
        # so a new pair holds the count of the last word that made it, not of all of them.
        Fault("assigned", "your update sets the count of a new pair to the count of the word that makes it "
              "(counts[pair] = freq) instead of adding it (+=), so a new pair counts only the last word that made "
              "it", assigns=True,
              about_merge="your update for the merge {merge} sets the count of each new pair with {joined} to the "
              "count of the word that makes it (counts[pair] = freq) instead of adding it (+=), so it counts only "
              "the last such word", blames=lambda merge, pair: merge[0] + merge[1] in pair),
        # the index of the words holding each pair gains a word only for a pair it did not hold yet
        # (``index[p].union({w})``, its result thrown away, where ``index[p].add(w)`` is meant), so a word that comes
        # to hold a pair already indexed is never merged there, and the merged pair's count is deleted.
        Fault("stale-index", "your index of the words holding each pair never gains a word once the pair is in it "
              "(a set's union() returns a new set, which is thrown away; add() or |= changes the set), so a word "
              "that comes to hold a pair already indexed is never merged there", stale_index=True, drops=True),
        # the update lists every start of the pair, overlapping ones too (``aaa`` at 0 and 1), subtracts the pairs
        # beside each, and adds the pairs beside each new token at ``start - earlier starts``, so in a run of one
        # symbol the new places collapse and pairs of the run are lost.
        Fault("overlap-index", "your update lists every start of the pair, overlapping ones too ('aaa' holds "
              "(a, a) at 0 and 1), and places each new token at its start minus the starts before it, so in a run "
              "of one symbol the new tokens' places collapse and pairs of the run are lost",
              extra=overlap_index_extra,
              about_merge="your update for the merge {merge} lists every start of {merge}, overlapping ones too, "
              "and places each {joined} at its start minus the starts before it, so in a run of {a} the new "
              "tokens' places collapse and pairs of the run are lost",
              blames=lambda merge, pair: merge[0] == merge[1] and (merge[0] in pair or merge[0] + merge[1] in pair)),
        # (listed after ``overlap-index``): the merge writes the new token at every place the pair occurs, overlapping
        # ones too, then deletes the symbol after each place, so a run ``x x x x`` merging ``(x, x)`` becomes one
        # ``xx`` (its counts moved right for the word so merged).
        Fault("overlap-collapse", "your merge writes the new token at every place the pair occurs, overlapping ones "
              "too ('aaa' holds (a, a) at 0 and 1), then deletes the symbol after each place, so a run of one symbol "
              "collapses into one new token ('aaaa' becomes 'aa') and the run's other symbols are lost",
              merge=merge_collapse,
              about_merge="your merge for {merge} writes {joined} at every place {merge} occurs, overlapping ones too, "
              "then deletes the symbol after each place, so a run of {a} collapses into one {joined} and the run's "
              "other symbols are lost",
              blames=lambda merge, pair: merge[0] == merge[1] and (merge[0] in pair or merge[0] + merge[1] in pair)),
        # the update subtracts each occurrence's left pair as read from the word being merged, so of two occurrences
        # side by side the second subtracts ``(ab, a)``, never counted in this word (its new pairs are counted after
        # the scan): that pair's count drops by the word's count, and can go below zero.
        Fault("uncounted-left", "your update subtracts the pair on the left of each occurrence as read from the word "
              "being merged, so of two occurrences side by side (as in 'ab ab') the second subtracts (ab, a), a pair "
              "not yet counted in this word (its new pairs are counted after the scan), which comes off the count "
              "other words gave it", extra=uncounted_left_extra, drops=True,
              about_merge="your update for the merge {merge} subtracts the pair on the left of each {merge} as read "
              "from the word being merged, so of two {joined} side by side the second subtracts ({joined}, {a}), a "
              "pair not yet counted in this word (its new pairs are counted after the scan), which comes off the "
              "count other words gave it", blames=lambda merge, pair: pair == (merge[0] + merge[1], merge[0])),
        # the loop keeps each pair's occurrences as (word, index) recorded when the pair was counted or made, merges
        # in place from the last recorded place back, and never moves the places of the pairs after a merge: an
        # occurrence after an earlier merge in the same word fails the check of its place and is never merged, though
        # its count stays (``' the'`` keeps ``(h, e)`` once ``(' ', t)`` is merged).
        Fault("recorded-positions", "your loop keeps each pair's places (word, index) as recorded when it was "
              "counted, and a merge earlier in the same word shifts the tokens after it without moving their places, "
              "so an occurrence after an earlier merge fails your check of its place and is never merged, while its "
              "count stays", recorded=True,
              about_merge="your loop keeps each pair's places (word, index) as recorded when it was counted, and "
              "the merge {merge} shifts the tokens after each {joined} without moving their places, so a later "
              "occurrence in such a word fails your check of its place and is never merged, while its count stays",
              blames=lambda merge, pair: merge[0] + merge[1] in pair),
        # the merge appends the word's last symbol after its scan only when the last two symbols are not the merged
        # pair, so a word ending in a run of odd length (``aaa`` merging ``(a, a)``) loses its last symbol, while the
        # count update, made occurrence by occurrence, counts the pairs of the whole merged word (``(aa, a)``).
        Fault("lost-last", "your merge appends a word's last symbol after its scan only when the last two symbols "
              "are not the merged pair, so a word ending in a run of odd length ('aaa' merging (a, a)) loses its last "
              "symbol, while your counts were updated as if it stayed", merge=merge_drop_tail,
              extra=tail_counted_extra, drops=True,
              about_merge="your merge for {merge} appends a word's last symbol only when the last two symbols are "
              "not {merge}, so a word ending in a run of odd length of {a} loses its last {a} (the scan stops after "
              "{joined}), while your counts were updated as if it stayed",
              blames=lambda merge, pair: merge[0] == merge[1] and (merge[0] in pair or merge[0] + merge[1] in pair)),
        # the merge loses the last symbol as ``lost-last`` does, but the counts are taken from the merged word, so the
        # lost symbol's pair goes too.
        Fault("lost-last-counted", "your merge appends a word's last symbol after its scan only when the last two "
              "symbols are not the merged pair, so a word ending in a run of odd length ('aaa' merging (a, a)) loses "
              "its last symbol, and your counts, taken from the merged word, lose its last pair", merge=merge_drop_tail,
              about_merge="your merge for {merge} appends a word's last symbol only when the last two symbols are "
              "not {merge}, so a word ending in a run of odd length of {a} loses its last {a} (the scan stops after "
              "{joined}), and your counts, taken from the merged word, lose its last pair",
              blames=lambda merge, pair: merge[0] == merge[1] and (merge[0] in pair or merge[0] + merge[1] in pair)),
        # the merge scans ``while i < len(tokens) - 1`` and appends nothing after the scan, so the symbol left at the
        # end is lost unless the pair's last occurrence takes it; the counts are taken afresh from what is left. A
        # trainer on the whole text as one sequence loses the text's last symbol at nearly every merge.
        Fault("tail-lost", "your merge scans while i < len(tokens) - 1 and never adds the symbol left at the end "
              "after the scan, so a word (or your whole text, kept as one sequence) loses its last symbol at every "
              "merge that does not take it, and your counts, taken afresh, lose the pairs it was in",
              merge=merge_tail_lost),
        # the symbols joined by spaces for the merge and split back with ``split()``: a text kept as one sequence of
        # characters, spaces among them, loses every space at its first merge, and its words run together; a reader
        # that drops the whitespace before counting makes the same merges after the first, and is named first
        Fault("split-spaces", "your merge joins the symbols with ' ', replaces the pair and splits them back with "
              "split(), which also splits at every space symbol of your text: its spaces are lost at the first merge "
              "(a token holding one falls apart), so its words run together and no pair with a space is left",
              merge=merge_split_spaces, weight=3.1),
        # the same scan, but run on every word of two symbols or more at each merge (a new list built for each word of
        # the dict, not only for those holding the pair): every word loses its last symbol at every merge that does
        # not take it, until it is one symbol
        Fault("tail-lost-every", "your merge rewrites every word at each merge, also the words without the pair, "
              "scanning while i < len(tokens) - 1 and never adding the symbol left at the end, so every word of two "
              "symbols or more loses its last symbol at every merge that does not take it, and your counts, taken "
              "afresh, lose the pairs it was in", merge=merge_tail_lost, every_word=True),
        # minbpe's merge written from the second id, comparing each with the one before (``ids[i - 1], ids[i]``),
        # and the last id appended after the scan only when the output does not end in the new token: a pair merged
        # at the third- and second-to-last ids jumps past the end, so the last id is lost; the counts are taken
        # afresh from the merged words, so its pair goes too.
        Fault("lost-last-scan", "your merge compares each symbol with the one before it and appends the word's last "
              "symbol after the scan only when the output does not end in the new token, so a word whose pair sits at "
              "its third- and second-to-last symbols loses its last symbol ('abc' merging (a, b) becomes 'ab': the "
              "scan jumps past the end)", merge=merge_lose_after_end,
              about_merge="your merge for {merge} appends a word's last symbol only when the output does not end in "
              "{joined}, so a word ending in {joined} and one more symbol loses its last symbol",
              blames=lambda merge, pair: merge[0] + merge[1] in pair),
        # the loop keeps, for each pair, a list of the words holding it (a word once per occurrence) and removes each
        # word from that list while iterating over it (``for w in where[pair]: ... where[pair].remove(w)``): the
        # iteration steps over the entry after each one it visits, so every second word is never merged there and
        # keeps the pair; each visit merges one occurrence.
        Fault("skipped-words", "your loop removes each word from the list of words holding the pair while it "
              "iterates over that list ('for w in words: ... words.remove(w)'), so it steps over the next word: every "
              "second word holding the pair is never merged, and its pairs keep their counts", merge=merge_first, skips=True,
              drops=True),
        # the merge replaces an occurrence in place (``word[:i] + (new,) + word[i + 2:]``) and then moves its index on
        # by two, past the symbol after the new token, so an occurrence that starts right there (the second ``(a, b)``
        # in ``abab``) is never merged, while the merged pair's count is deleted.
        Fault("skips-next", "your merge moves on past the symbol after each new token (the index goes up by two after "
              "the word has shrunk by one), so an occurrence that starts right after a merged one is never merged: "
              "'abab' becomes 'ab a b', and the pair's count is deleted though the word still holds it",
              merge=merge_skip_next, drops=True,
              about_merge="your merge for {merge} moves on past the symbol after each {joined}, so an occurrence "
              "right after a merged one is never merged, and its count is deleted with the pair's",
              blames=lambda merge, pair: merge[0] + merge[1] in pair),
        # as ``stale-neighbours`` (listed after it and ``stale-left``: it parts from the first only on a pair
        # ``(x, x)``), the new left pair made with the symbol before the occurrence in the old word, but the right
        # pair skipped where the merged pair itself follows, so a run ``x x x`` merging ``(x, x)`` becomes ``xx x``
        # while ``(xx, x)`` is never counted.
        Fault("stale-guarded", "your update takes the left neighbour of each merged pair from the word before the "
              "merge (old[i-1]), so two merged tokens side by side (as in 'ab ab') make (b, ab) "
              "where (ab, ab) should be, and it skips the pair on the right where the merged pair itself follows, so "
              "a run like 'aaa' merging (a, a) never counts (aa, a)", extra=stale_guarded_extra, drops=True,
              about_merge="your update for the merge {merge} takes the left neighbour of each {joined} from the word "
              "before the merge, so two {joined} side by side make ({b}, {joined}) where "
              "({joined}, {joined}) should be, and it skips the pair on the right where {merge} follows",
              blames=lambda merge, pair: merge[0] + merge[1] in pair),
        # (set I's and set J's students alike): as ``stale-neighbours`` (listed after it: it parts from it only on a
        # pair ``(x, x)``), but the update visits every place where the pair occurs, overlapping ones too (no skip
        # after a match), so in a run ``x x x x`` merging ``(x, x)`` it counts ``(xx, x)`` and ``(x, xx)`` twice each,
        # never ``(xx, xx)``.
        Fault("stale-overlap", "your update visits every place where the merged pair occurs, overlapping ones too "
              "(no skip after a match, so 'aaa' holds (a, a) at two places), and takes the neighbours of each from "
              "the word before the merge, so a run like 'aaaa' merging (a, a) counts (aa, a) and (a, aa) twice each "
              "where it holds one (aa, aa)", extra=stale_overlap_extra, drops=True,
              about_merge="your update for the merge {merge} visits every place where {merge} occurs, overlapping "
              "ones too (no skip after a match, so a run of three {a} holds it at two places), and takes the "
              "neighbours of each from the word before the merge, so in a run of {a} you count ({joined}, {a}) and "
              "({a}, {joined}) at every place where the merged run holds ({joined}, {joined})",
              blames=lambda merge, pair: merge[0] + merge[1] in pair),
        # the update reads the neighbours from the word before the merge and adds the old pair on the right,
        # ``(b, y)``, where it should subtract it (``+=`` for ``-=``), so the pair after each occurrence gains count.
        # the update moves only the pair on the left of each new token: its right side sits behind a guard that never
        # holds, so (b, next) keeps its count and (ab, next) is never counted.
        Fault("right-never", "your update moves only the pair on the left of each merged pair: the pair on its right, "
              "(b, next), is never subtracted and (ab, next) never added (the right side's guard never holds), so "
              "the pair after every merged occurrence keeps count it should lose", extra=right_never_extra,
              about_merge="your update for the merge {merge} never moves the pair on the right of each {joined}: "
              "({b}, next) keeps its count and ({joined}, next) is never counted",
              blames=lambda merge, pair: pair[0] == merge[1] or pair[0] == merge[0] + merge[1]),
        Fault("right-added", "your update adds the old right pair of each merged pair, (b, next), instead of "
              "subtracting it (counts[(b, next)] += instead of -=), so the pair after every merged occurrence gains "
              "count it should lose", extra=right_added_extra, drops=True,
              about_merge="your update for the merge {merge} adds the old right pair of each {joined}, ({b}, next), "
              "instead of subtracting it (+= instead of -=), so that pair gains count it should lose",
              blames=lambda merge, pair: pair[0] == merge[1]),
        # the merge makes a new token at every start, overlapping ones too, so a run of one symbol gains symbols
        # (``xxxx`` becomes ``xx xx xx``).
        Fault("overlap-duplicate", "your merge makes a new token at every place the pair starts, overlapping ones too, "
              "so a run of one symbol gains symbols ('aaaa' merging (a, a) becomes 'aa aa aa', not 'aa aa')",
              merge=merge_duplicate,
              about_merge="your merge for {merge} makes a {joined} at every place {merge} starts, overlapping ones too, "
              "so a run of {a} gains symbols (four {a} become three {joined})",
              blames=lambda merge, pair: merge[0] == merge[1] and (merge[0] in pair or merge[0] + merge[1] in pair)),
        # the update makes a new pair only from an old pair beside the merged one, ``(x, a)`` or ``(b, y)``, so the
        # pair of two new tokens side by side, ``(ab, ab)``, is never counted.
        Fault("twin-never", "your update never counts the pair of two merged tokens side by side (after (a, b), "
              "'abab' becomes 'ab ab', and (ab, ab) is never counted): it makes a new pair only from an old pair beside "
              "the merged one, and (ab, ab) comes from none", extra=twin_never_extra,
              about_merge="your update for the merge {merge} never counts the pair of two {joined} side by side: it "
              "makes a new pair only from an old pair beside {merge}, and ({joined}, {joined}) comes from none",
              blames=lambda merge, pair: pair == (merge[0] + merge[1], merge[0] + merge[1])),
        # the update uses a loop variable left over from an earlier loop (the last word's index) in place of the
        # word's own: counts move by the last word's count and the merged split is written over the last word's.
        Fault("wrong-index", "your update uses the wrong loop variable: the loop over the words holding the pair "
              "names each word 'index', but the body uses 'i', left over from the loop that counted the pairs (the last "
              "word's index), so every count moves by the last word's count and the merged word is stored in the last "
              "word's place: the words themselves never change", wrong_index=True, drops=True),
        # the pair right of each occurrence is read off the word before the next occurrence merges and moved after all
        # the left pairs, subtracting only a pair the counts hold, so ``ab ab`` keeps ``(ab, a)``.
        Fault("right-recorded-first", "your update records each occurrence's right neighbour from the word before the "
              "merge (the next occurrence not yet merged) and moves the left-hand pairs before the right-hand ones, "
              "subtracting a pair only while your counts hold it, so of two merged tokens side by side (as in 'ab ab') "
              "the pair (ab, a) is added and never taken back", prefix_first=True),
        # the words are never merged; each pair beside the merged one is replaced by the pair with the new token,
        # counted as the occurrences of its bytes in all the words.
        Fault("substring-counts", "your loop never merges the words: after merging (a, b) each pair (b, c) is "
              "replaced by (ab, c) and each (c, a) by (c, ab), counted as the occurrences of the joined bytes in all "
              "your pre-tokens (a count of every substring made once), and the old pair is dropped, so a pair beside a "
              "merged one is counted wherever its bytes occur, also inside other tokens, and never where it stays",
              global_substring=True),
        # as ``adjacent``, two new tokens side by side add their pair once from each, and the pair between them,
        # ``(b, a)``, is subtracted once from each too; the merged pair's count loses one per occurrence, so what the
        # update left on it (in ``x x x x`` merging ``(x, x)``, the cross pairs are the merged pair) stays.
        Fault("adjacent-cross", "your update moves the pairs on both sides of each merged token, so two merged "
              "tokens side by side (as in 'ab ab') add their pair twice, once from each, and subtract the pair between "
              "them, (b, a), twice; the merged pair's count loses one per occurrence merged, so what the update left "
              "there stays", extra=adjacent_cross_extra,
              about_merge="your update for the merge {merge} moves the pairs on both sides of each {joined}, so two "
              "{joined} side by side add ({joined}, {joined}) twice, once from each, and subtract ({b}, {a}) twice",
              blames=lambda merge, pair: merge[0] + merge[1] in pair or pair == (merge[1], merge[0])),
        # the counts are right, but the selection (a heap, buckets of counts) lost the pair it should take at the step
        # where the runs part, and never offers it again.
        Fault("lost-pair", "your counts are right, but your selection never offered the pair with the highest "
              "count: the heap or the buckets of counts your loop picks from lost it (a pair changed but never "
              "pushed, or a count's entry removed while other pairs still hold that count)", loses=True),
        # the update subtracts only the old pairs the merged word no longer holds, then adds every pair of its new
        # split, so a pair the word keeps is counted again at every merge that touches the word (which merge made a
        # count wrong is not told: any merge touching a word holding the pair did)
        Fault("kept-readded", "your update subtracts only the pairs a merged word no longer holds and then adds every "
              "pair of its new split, so the pairs the word keeps are counted again at each merge that touches it",
              extra=kept_readded_extra, drops=True),
        # the update only adds the pairs each new token makes, read off the word before the merge, and never takes
        # off the pairs the merge destroyed; the merged pair's count is deleted once taken.
        Fault("never-subtracted", "your update only adds the pairs beside each new token and never subtracts the "
              "pairs the merge destroyed, so after (a, b) merges in 'x a b' the old pair (x, a) keeps its count",
              extra=never_subtracted_extra, drops=True,
              about_merge="your update for the merge {merge} only adds the pairs beside each {joined}: the old "
              "pairs it destroyed are never subtracted and keep their counts",
              blames=lambda merge, pair: merge[0] == pair[1] or merge[1] == pair[0]),
        # as ``never-subtracted``, and the right pair built from the pair's own second symbol (``tokens[i + 1]`` for
        # ``tokens[i + 2]``), so ``(ab, b)`` is counted after each ``ab`` that does not end its word.
        Fault("never-subtracted-own-right", "your update only adds the pairs beside each new token, never "
              "subtracting the pairs the merge destroyed, and builds the right one from the pair's own second symbol "
              "(tokens[i + 1] where tokens[i + 2] is meant), so after (a, b) merges in 'a b c' you count (ab, b), "
              "a pair no word holds, and (b, c) keeps its count", extra=never_subtracted_own_right_extra, drops=True,
              about_merge="your update for the merge {merge} only adds the pairs beside each {joined}: the old pairs "
              "it destroyed are never subtracted and keep their counts, and the right one is built from the pair's "
              "own second symbol, ({joined}, {b}) (tokens[i + 1] where tokens[i + 2] is meant)",
              blames=lambda merge, pair: merge[0] == pair[1] or merge[1] == pair[0]
              or pair == (merge[0] + merge[1], merge[1])),
        # as ``lazy-heap``, a heap of (-count, id, id), over words kept as linked lists merged as ``dead-node`` does.
        Fault("lazy-heap-dead-node", "your merge visits a copy of the pair's places taken before it, and a node an "
              "earlier place absorbed is never marked, so in a run like 'aaaa' it passes your check and is merged "
              "again: the pair of two merged tokens and the pairs beside them gain count, though the tokens come out "
              "right; and your heap of (-count, id, id) gets a new entry only for a pair whose count rose, never for "
              "one whose count fell, so such a pair is never offered again until it gains count (among equal counts "
              "your min-heap pops the pair of smallest token ids)", heap=True, lazy=True, linked=True, follow=3),
        # as ``lazy-heap``, a heap of (-count, id, id) whose update subtracts all of a merged word's pairs and adds the
        # new word's back, pushing each with its count at that moment: an entry goes stale when a later word takes
        # count off the pair, and among equal counts the pair of smallest token ids is popped.
        Fault("lazy-heap-words", "your heap of (-count, id, id) gets a new entry only as each merged word's pairs are "
              "added back, with the count at that moment, and drops an entry whose count is no longer the pair's, so "
              "a pair whose count a later word lowered is never offered again until it gains count (among equal "
              "counts your min-heap pops the pair of smallest token ids)", heap=True, lazy=True, whole_words=True,
              follow=3),
        # the update subtracts the neighbours' old pairs but adds ``(a, ab)`` and ``(ab, b)`` for the new ones: the
        # merged pair's own symbols put beside the new token where its neighbours belong (a C loop's ``prev``/``next``
        # mixed up with ``left``/``right``), so pairs no word holds gain count.
        Fault("merged-sides", "your update adds the pairs (a, ab) and (ab, b) for each merged pair (a, b), the new "
              "token beside the merged pair's own symbols, where it should add (prev, ab) and (ab, next) with the "
              "symbols around it: pairs that no word holds gain count", extra=merged_sides_extra,
              about_merge="your update for the merge {merge} adds ({a}, {joined}) and ({joined}, {b}) where it "
              "should add the pairs of {joined} with its neighbours"),
        # the merge looks only at the first ``a`` of a word (``word.index(a)``, ``indexOf``) and merges there if ``b``
        # follows it, so a word whose first ``a`` is not followed by ``b`` is never merged at all (last: a rarer bug,
        # named where no other fault makes as many merges).
        Fault("first-left", "your merge looks only at the first occurrence of the pair's left symbol in each word "
              "(word.index(a), or indexOf) and merges there only if the right symbol follows it, so a word whose "
              "first left symbol is not followed by the right one keeps the pair unmerged", merge=merge_first_left),
    )
}  # fmt: skip
