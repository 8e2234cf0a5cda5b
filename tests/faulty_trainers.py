"""Faulty BPE trainers written for the tests, one fault each, independently of bpe/ (bpe.merge_faults
is never imported): CS336-shaped runs (bytes, GPT-2's pattern, <|endoftext|> split out, ties to the
greatest pair of bytes) as students write them, and the three corpora they are checked on.

Merge-loop faults (:data:`LOOP_FAULTS`): ``half`` (only a word's first occurrence merged),
``left-symbol`` (the pairs beside every left symbol subtracted), ``stale`` (merges at positions found
before the word shrank), ``adjacent`` (two merged tokens side by side counted twice), ``frozen`` (counts
never updated), ``banned`` (pairs with a merged token never counted), ``overlap-twice`` (both overlapping
pairs in ``aaa`` treated as merged), ``overlap-once`` (overlapping pairs counted once), ``only-merged``
(counts taken from the merged words only), ``keep-right`` (the merge keeps the pair's right symbol after
the new token unless the pair ends the word), ``overlap-subtract`` (the pairs beside every occurrence
subtracted, also beside one overlapping a merged one in ``aaa``), ``substring`` (words kept as pair counts
without a split, a neighbour pair moved wherever the bytes of the three symbols are in the word's text),
``stale-neighbours`` (each merged pair's neighbours read from the word before the merge, so ``ab ab`` never
makes ``(ab, ab)``), ``assigned`` (a new pair's count set to the word's count, ``=`` where ``+=`` is meant),
``stale-index`` (the index of the words holding a pair gains a word only for a pair it does not hold yet: the
result of ``set.union`` thrown away), ``overlap-index`` (every start of the pair listed, overlapping ones too,
each new token placed at its start minus the starts before it), ``stale-left`` (each merged pair's left pair
subtracted as read from the word before the merge, the new one added from the word being built, so of two merged
tokens side by side the second subtracts ``(b, a)`` again and ``(ab, a)`` stays), ``never-merges`` (:data:`NEVER_MERGES`, apart: the merge compares the pair built as a list
with the chosen tuple, never equal, so every merge repeats the first), ``skip-first-neighbour`` (the left neighbour of a merge at position 1 never moved:
``if pos - 1 > 0``). Heap faults (:data:`HEAP_FAULTS`): ``no-sift-up``, a hand-written max-heap whose update is
called after the count was raised, so it only sifts down; ``no-sift-up-skip-first``, the same with the left
neighbour of a merge at position 1 skipped (``if pos - 1 > 0``). A selection fault (:data:`SELECTION_FAULTS`): ``lost-pair``, counts
kept right, but the pair the loop should take at step :data:`LOST_STEP` is never offered again, as a heap that
lost it. Tie faults (:data:`TIE_FAULTS`; ``first-added`` and
``greatest-text-ignore`` over a dict of counts updated in place, whose order is the order the pairs came in;
``greatest-repr``, the greatest ``str((a, b))`` of the pair of bytes objects; ``first-recounted``, the first of equal
counts in a count taken afresh each step over a dict of words where each merged word goes to its end), a tie
fault and a loop fault together (``first-added+assigned``), and setting faults
(:data:`SETTING_FAULTS`): lowercasing, whitespace kept on words, a character base, special tokens left in,
``none`` (no pre-tokenization: the whole text one sequence with its special tokens, ties to the pair seen
first, as minbpe trains), ``one-sequence`` (every pre-token of a document appended to one list, so no word
boundaries but the special token, ties as CS336's);
a setting fault and another one together are joined by ``+`` (``chars+left-symbol``). A counting fault
(:data:`COUNT_FAULTS`): ``cut-last``, the corpus's last character counted as a word of its own, as a chunk
boundary put at the file's size minus one (when no special token follows) cuts it off; ``unescaped``, the
text split on ``<|endoftext|>`` as an unescaped pattern (at ``<``, ``endoftext`` and ``>``) and joined again,
so ``||`` stays between the documents. Faults in reading the file in :data:`CHUNKS` chunks (also in
:data:`COUNT_FAULTS`): ``drop-last``, the last character never read; ``even-chunks``, the chunks cut at evenly
spaced bytes and never moved to a special token, so a word at a cut is counted as two; ``drop-tail``, the
boundaries moved to the next special token but the file's size never added, so the last chunk is never read;
``drop-special-length``, each chunk read from a file opened as text as its size less the length of ``<|endoftext|>``
(characters, though the size is in bytes), so the characters before each chunk's end are never read;
``chunk-positions``, a
word's occurrences kept as a set of positions numbered from 0 in each chunk, so a word at the same position in
two chunks counts once. Faults in the pre-token pattern (also in :data:`COUNT_FAULTS`): ``special-in-pattern``,
the special token an alternative inside the pattern, so ``.<|`` is one word and ``endoftext`` another;
``lines``, each line pre-tokenized on its own; ``bytes-pattern``, the pattern run on UTF-8 bytes, where only
ASCII counts as letters and digits; ``lines-stripped``, each line read as ``line.strip()``; ``cjk-single``, each Han, Hiragana, Katakana or Hangul character a word of its own, the letter class without
them; ``latin-pattern``, the letter class
``[a-zA-Z\\u00C0-\\u017F]`` on the stdlib ``re``, so other letters are never counted; ``unescaped-split``, the text
split on ``'(' + re.escape('|').join(specials) + ')'``, which escapes the joiner, not the token, so it is split at
``<``, ``endoftext`` and ``>`` and those are counted as words. :data:`WORD_CLASS`: GPT-2's pattern on the
stdlib ``re`` with ``\\w`` for ``\\p{L}``, so '_' and digits stay in a word with letters; :data:`ASCII_CLASS`: letters
as ``[a-zA-Z]``, so other letters fall in with punctuation; :data:`END_SYMBOL`: ``</w>`` after each word's bytes. :data:`MERGE_IDS`: a correct
run whose merges are returned as the ids of its own dict, ``bytes(id)`` each. :data:`LAST_DOCUMENT`: only the
text after the last ``<|endoftext|>`` counted. ``cut-at-space``: the
file read as one buffer cut after its last space or newline, the rest read alone, so the last word loses its space.
:data:`HEAP_REMOVAL`: a max-heap of counts updated in place whose removal of a pair down to 0 moves the last entry into
its place and sifts it only down, so the heap goes out of order. :data:`SET_ORDER`: the pre-tokens of the text in one linked list of positions, each pair's starts kept in a set and
merged in the set's order (``list(starts[pair])``), not left to right, so a run of one symbol may be split ``a aa``.
:data:`SPECIAL_BAN`: the selection leaves out every pair whose merged bytes are a substring of ``<|endoftext|>``
(``nd``, ``en``), so that no merge rebuilds it. :data:`SKIPS_NEXT`: each occurrence merged in place, then the index moved on by two, so an occurrence right after a
merged one is left. :data:`PER_WORD`: a correct loop that appends each merge to its list once per word it changes. :data:`OFFSET_SET`: each pair's occurrences kept as a set of (word, byte offset, live) tuples over the distinct
words and merged in the set's order, a replaced neighbour marked dead rather than removed. :data:`STALE_GUARDED`: the left pair of each occurrence made with the old word's symbol, the right one skipped where the
merged pair follows. :data:`STALE_OVERLAP`: the neighbours of every place where the pair occurs, overlapping ones too (no
skip after a match), moved using the old word, so a run of four spaces merging (' ', ' ') counts ('  ', ' ') twice. :data:`SKIPPED_WORDS`: each pair's list of the words holding it iterated while each word is removed from it, so every
second word is skipped and keeps the pair. :data:`LOST_LAST`: after the scan that merges a word, its last symbol appended only when the last two symbols are not
the merged pair, so a word ending in a run of odd length loses its last symbol ('aaa' merging (a, a) becomes 'aa'),
while the update counted (aa, a). :data:`INT_SUM`: tokens kept as ints (``tuple(word.encode())``), so a merge adds two byte values, and the merges saved
as ``bytes(n)``, runs of zero bytes. :data:`ID_SUM`: a loop on token ids (a byte's id its value, ``<|endoftext|>`` 256,
each merge the next id), ties to the smallest ids as a heap of (-count, ids) pops them, whose merged token's bytes are
recorded as the sum of its two ids (``vocab[new] = a + b``), so its merges hold those ints, saved as ``bytes(n)``.
:data:`RECORDED_POSITIONS`: each pair's places kept as (word, index) as first recorded, merged in place from the last
back and checked there, never moved when an earlier merge in the word shifts the tokens after it.
:data:`UNCOUNTED_LEFT`: each occurrence merged in place, its left pair read from the word as merged so far and
subtracted where that pair is a key of the counts (from any word), its right pair subtracted, then the word's pairs
with the new token added after the scan, so of two occurrences side by side the second subtracts (ab, a).
:data:`OVERLAP_COLLAPSE`: the merge writes the new token at every index where the pair occurs, overlapping ones too,
then pops the index after each (from the right), so a run of four spaces merging (' ', ' ') becomes one '  '.
:data:`FIRST_POSITION`: every pre-token of the text in order, the pairs counted afresh each step, and of equal counts
the pair whose first occurrence comes first in the text taken (``min(candidates, key=first_position.get)``).
:data:`KEPT_PAIR`: the words merged and the pairs beside each occurrence moved, but the merged pair's own count never
removed, so it is taken again and again (as a merge that never changes a word is), until a pair made by its merge
ties with it and wins the tie. :data:`STALE_KEPT`: the neighbours read from the old word in a loop that only subtracts each merged occurrence, so the
phantom ``(ab, a)`` keeps a count once merged and is merged again and again. A loop that merges a word's occurrences
from its end (:data:`RIGHT_TO_LEFT`: ``aaa`` becomes ``a aa``, as a loop
merging in a set's order may), not modelled by the Check, only hinted at. A trainer that never reads its input
(:data:`IGNORES_INPUT`) trains on a sample text of its own (:data:`SAMPLE`). :data:`RIGHT_ADDED`: the neighbours read
from the old word and the old right pair added where it should be subtracted. :data:`OVERLAP_STALE`: the neighbours
read from the old word and moved at every start of the pair, overlapping ones too. :data:`OVERLAP_COLLAPSE`: every
start made the new token and the symbol after each popped, so a run collapses (``aaaa`` becomes ``aa``).
:data:`OVERLAP_DUPLICATE`: a new token for every start, so a run gains symbols (``aaaa`` becomes ``aa aa aa``).
:data:`TWIN_NEVER`: the pairs beside the merged one deleted and counted again from the words that held them, so
``(ab, ab)`` is never made. :data:`WRONG_INDEX`: the update's body uses the last word's index left over from an
earlier loop, so counts move by the last word's count and the merged word is stored over the last word.
:data:`ADJACENT_CROSS`: the pairs on both sides of each new token moved, so two new tokens side by side add their pair
twice and subtract the pair between them twice, and the merged pair loses one count per occurrence.
Set K's loops: :data:`ONCE_PER_WORD`: the pairs counted afresh each pass from each word's set of pairs, so a pair
repeated in a word counts once for it; :data:`LOST_LAST_COUNTED`: the last symbol lost as :data:`LOST_LAST`, but the
word's pairs subtracted whole and the merged word's added, so the lost symbol's pair goes too; :data:`ACCUMULATED`:
the counts made once before the loop and every pass adding all the words' pairs to them again; :data:`LAZY_HEAP`: a
``heapq`` of (-count, pair) given a new entry only for a pair whose count rose, stale entries skipped when popped, so
a pair whose count fell is never taken until it rises again. :data:`RIGHT_FIRST`: each occurrence's left pair read off
the word merged so far, its right pair off the word not merged yet, the left pairs moved first, then the right ones,
a pair subtracted only while the dict holds it, so ``ab ab`` keeps a phantom ``(ab, a)``. :data:`SUBSTRING_COUNTS`: the
words never merged; after ``(a, b)`` each pair ``(b, c)`` becomes ``(ab, c)`` counted as the substring ``abc`` in all
the words (a cache of every substring's count), each ``(c, a)`` likewise, the old pair dropped. :data:`CHUNK_OVERWRITTEN` (also in :data:`COUNT_FAULTS`):
the chunks' word counts joined by ``result[word] = count``, so each word keeps its count in the last chunk.
Set L's readers and counters (:data:`COUNT_CLASS_FAULTS`): :data:`EACH_WORD_ONCE`: the pairs counted afresh each pass
over the distinct pre-tokens, ``+= 1`` where ``+= count`` is meant; :data:`LAST_CHUNK`: the file cut into 100 chunks
moved to the next <|endoftext|>, ``word_freq = count(chunk)`` in the loop over them, so only the last chunk's words are
kept; :data:`SPECIAL_AS_SPACE`: ``re.sub(special, " ", text)`` and the text pre-tokenized as one;
:data:`SPECIAL_AS_WORDS`: ``re.split("(" + special + ")", text)`` keeps the token, and each piece, the token too, is
pre-tokenized and counted; :data:`SPECIAL_ONE_WORD`: the token kept so too, but counted as one word whole.
Vocabularies that label the bytes wrongly (:data:`RELABELLED`), the loop right on the ids it counts (a byte's id its
value, each merge the next id) but each merge written through the vocabulary: ``ids-shifted``, the vocabulary
``{0: <|endoftext|>, b + 1: bytes([b])}`` while the text is counted in raw byte values, so every byte is written one
lower; ``loop-variable``, the vocabulary rebuilt after training as ``vocab[len(vocab)] = bytes([i])`` with ``i`` left
over from the merge loop, so every byte is written as one byte; ``chr-vocab``, bytes built as
``chr(i).encode('utf-8')``, so bytes 128-255 are written as two bytes each. Updates that only add
(:data:`ONLY_ADDED`): ``never-subtracted``, the pairs beside each new token added (read off the word before the
merge), the pairs the merge destroyed never subtracted; ``never-subtracted-own-right``, the same with the right pair
built from the pair's own second symbol (``tokens[i + 1]`` where ``tokens[i + 2]`` is meant). :data:`DOCUMENTS_MAX`
(also in :data:`COUNT_FAULTS`): each document's word counts joined with ``Counter |=``, which keeps the largest.
:data:`WORD_HEAP`: a loop on token ids with a ``heapq`` of ``(-count, id, id)``, stale entries skipped when popped,
whose update subtracts all of a merged word's pairs and adds the new word's back, pushing each with its count then.
"""

from __future__ import annotations

import heapq
import io
import re
from collections import Counter

import regex

GPT2_PAT = r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""
EOT = "<|endoftext|>"

LOOP_FAULTS = (
    "half", "left-symbol", "stale", "adjacent", "frozen", "banned", "overlap-twice", "overlap-once", "only-merged",
    "keep-right", "overlap-subtract", "substring", "stale-neighbours", "positions", "skip-first-neighbour",
    "assigned", "stale-index", "overlap-index", "stale-left",
)  # fmt: skip
SELECTION_FAULTS = ("lost-pair",)
NEVER_MERGES = "never-merges"  # the merge compares a list with a tuple, so no word ever changes
HEAP_FAULTS = ("no-sift-up", "no-sift-up-skip-first")
LOST_STEP = 5  # where the lost-pair selection first leaves out the pair it should take
TIE_FAULTS = (
    "smallest-bytes", "greatest-id", "smallest-id", "greatest-text", "greatest-concat", "gpt2-id",
    "greatest-text-ignore", "first-added", "greatest-repr", "first-recounted",
)  # fmt: skip
DICT_ORDER_TIES = ("greatest-text-ignore", "first-added")  # ties that depend on the order of the dict of counts
SETTING_FAULTS = ("lower", "whitespace", "chars", "specials", "none", "one-sequence")
COUNT_FAULTS = (
    "cut-last", "unescaped", "drop-last", "even-chunks", "drop-tail", "chunk-positions", "special-in-pattern",
    "lines", "bytes-pattern", "drop-special-length", "cut-at-space", "lines-stripped", "latin-pattern", "cjk-single",
    "unescaped-split", "chunk-overwritten", "documents-max",
)  # fmt: skip
DOCUMENTS_MAX = "documents-max"  # the documents' word counts joined with Counter |=: each word's largest count
HEAP_REMOVAL = "heap-removal"  # 1611Dhruv's heap: a count down to 0 swaps the last entry in and sifts it only down
SET_ORDER = "set-order"  # Ethan-a2's loop: a pair's positions kept in a set and merged in the set's order
LOST_LAST = "lost-last"  # AndreySvistunovHSEMIEM's merge: the last symbol appended only if the last pair is not merged
SPECIAL_BAN = "special-ban"  # richiefeng's selection: no pair whose merged bytes are a substring of <|endoftext|>
PER_WORD = "per-word"  # JRyanShue's loop: merges.append inside the loop over the words holding the pair
SKIPS_NEXT = "skips-next"  # angeris's merge: in place, then the index up by two, past the symbol after the new token
OFFSET_SET = "offset-set"  # salzhu's loop: each pair's set of (word, byte offset, live) tuples, merged in its order
STALE_GUARDED = "stale-guarded"  # tangguochuan's update: left pair from the old word, right skipped before the pair
STALE_OVERLAP = "stale-overlap"  # MatthewZhang473's update: old word's neighbours at every place, overlapping ones too
SKIPPED_WORDS = "skipped-words"  # dequeueing's loop: each word removed from the pair's list while the list is iterated
OVERLAP_COLLAPSE = "overlap-collapse"  # Verma001manik's merge: each place, overlapping too, then the next popped
RECORDED_POSITIONS = "recorded-positions"  # antonfefilov's loop: each pair's (word, index) never moved by a merge
UNCOUNTED_LEFT = "uncounted-left"  # teddiw's update: the left pair read from the word as merged so far, subtracted
FIRST_POSITION = "first-position"  # OnlyHero5's ties: the pair met first in the text, counts taken afresh each step
ID_SUM = "id-sum"  # chenhr56's loop: on token ids, a merged token's bytes recorded as the sum of its two ids
ID_SUM_MEANT = "id-sum-meant"  # the same loop recording a merged token's bytes as meant: the pairs its ids stand for
INT_SUM = "int-sum"  # 1156230954's loop: tokens kept as ints, a merge adds them (108 + 111), saved as bytes(n)
KEPT_PAIR = "kept-pair"  # 735084170's loop: the words merged, the merged pair's own count never removed
STALE_KEPT = "stale-neighbours-kept"  # stale-neighbours in a loop that never deletes a merged pair's count
RIGHT_ADDED = "right-added"  # no6rainer's update: the old right pair added (+=) where it should be subtracted
OVERLAP_STALE = "overlap-stale"  # qufy6's update: stale neighbours moved at every start, overlapping ones too
OVERLAP_COLLAPSE = "overlap-collapse"  # YVSemlani's merge: every start made the new token, the next symbol popped
OVERLAP_DUPLICATE = "overlap-duplicate"  # hashemelezabi's merge: a new token for every start: 'aaaa' is 'aa aa aa'
TWIN_NEVER = "twin-never"  # SplashCloud's update: pairs beside the merge recounted, (ab, ab) never made
ONCE_PER_WORD = "once-per-word"  # chengkai-dai's count: get_pairs returns a set, so a repeated pair counts once a word
LOST_LAST_COUNTED = "lost-last-counted"  # she-is-automatic's loop: the tail lost, the merged word's pairs counted
ACCUMULATED = "accumulated"  # kanda-mashiro's counts: made before the loop, every pass adds all the pairs again
RIGHT_FIRST = "right-recorded-first"  # pikaxinge's update: right pairs read before the next merge, moved after the left
SUBSTRING_COUNTS = (
    "substring-counts"  # Jingxu-Li's loop: pairs beside a merge recounted as substrings, words never merged
)
CUT_BEFORE_END = "cut-before-end"  # shawnspitzel's reader: the text's last 10 characters pre-tokenized apart
LAZY_HEAP = "lazy-heap"  # DAMI211's heap: pushed only for a count that rose, stale entries dropped when popped
CHUNK_OVERWRITTEN = "chunk-overwritten"  # simpissa's merge_dicts: result[key] = d2[key], the chunks' counts not summed
ADJACENT_CROSS = "adjacent-cross"  # KleistvonLiu's update: both sides of each new token, (b, a) between two taken twice
WRONG_INDEX = "wrong-index"  # Thinkin999's update: the last word's index 'i' where the loop's 'index' is meant
RIGHT_TO_LEFT = "right-to-left"  # a word's occurrences merged from its end: 'aaa' becomes a aa, not aa a
WORD_CLASS = "word-class"  # the pattern's letter class \w on the stdlib re: 'num_merges' is one word
ASCII_CLASS = "ascii-class"  # the pattern's letters [a-zA-Z]: 'café' is 'caf' and 'é'
END_SYMBOL = "end-symbol"  # b'</w>' appended to each word as a symbol of its own, as in BPE for translation
MERGE_IDS = "merge-ids"  # the loop's own dict {(id, id): new id} returned as the merges, each id saved as bytes(id)
LAST_DOCUMENT = "last-document"  # the words counted after the loop over the documents: the last one only
IGNORES_INPUT = "ignores-input"  # a trainer that trains on a text written into its code, never on its input
SAMPLE = "Съешь же ещё этих мягких французских булок, да выпей чаю. " * 3  # the text it trains on instead
CHUNKS = 4  # the workers a student's reader cuts the file for
EACH_WORD_ONCE = "each-word-once"  # WShawnMing's count: pair_count[pair] += 1 over the distinct pre-tokens
LAST_CHUNK = "last-chunk"  # xieweibbz's reader: word_freq = build_word_frequency(docs) for each of 100 chunks
SPECIAL_AS_SPACE = "special-as-space"  # Dawnfz-Lenfeng's reader: re.sub(special, " ", text), then one text
SPECIAL_AS_WORDS = "special-as-words"  # sanspareilsmyn's reader: re.split with a group keeps the token as a piece
SPECIAL_ONE_WORD = "special-one-word"  # golonzovsky's reader: the token split out but kept, counted as one word
COUNT_CLASS_FAULTS = (EACH_WORD_ONCE, LAST_CHUNK, SPECIAL_AS_SPACE, SPECIAL_AS_WORDS, SPECIAL_ONE_WORD)

HANDOUT = "low low low low low lower lower widest widest widest newest newest newest newest newest newest"
PROSE = (
    "The tokenizer reads the text as bytes, and the trainer counts every pair of neighbouring tokens. "
    "Then the most frequent pair is merged into a new token, and the counts are updated.\n"
    "Here is the loop that a student writes for it:\n\n"
    "    for step in range(num_merges):\n"
    "        pairs = count_pairs(words)\n"
    "        best = max(pairs, key=lambda p: (pairs[p], p))\n"
    "        words = merge(words, best)\n\n"
    f"That is all there is to the loop.{EOT}"
    "Another document starts here. Its sentences are short. They repeat the words that the other one "
    "used: the pair, the token, the count, the merge. aaaa aaaa aaa baba baba bababa.\n"
    "    return merges  # indented, after a blank line\n"
    f"{EOT}The last document: tokens, pairs and counts, then merges again and again."
) * 4
BYTES = (
    "café naïve résumé — déjà vu. 東京 東京 東京タワー. Ünïcödé ünïcödé ünïcödé! "
    "ĀĀĀĀ ĀĀĀ ȧȧȧȧ. smörgåsbord smörgåsbord, crème brûlée crème brûlée. 😀😀 😀😀😀 ππππ πππ. "
) * 6
CORPORA = {"handout": HANDOUT, "prose": PROSE, "bytes": BYTES}


def _words(text: str, fault: str | None) -> Counter:
    if fault == "none":  # minbpe's way: the whole text one sequence, special tokens included
        return Counter({tuple(bytes([b]) for b in text.encode("utf-8")): 1})
    if fault == "one-sequence":  # every pre-token of a document appended to one list: no word boundaries
        seqs = ["".join(regex.findall(GPT2_PAT, doc)) for doc in text.split(EOT)]
        return Counter(tuple(bytes([b]) for b in s.encode("utf-8")) for s in seqs if s)
    if fault == "lower":
        text = text.lower()
    if fault in COUNT_CLASS_FAULTS:
        return _class_words(text, fault)
    parts = [text] if fault == "specials" else text.split(EOT)
    if fault == "unescaped":  # split on the token as a pattern where '|' means 'or', the pieces joined again
        parts = ["".join(regex.split("|".join([EOT]), text))]
    if fault == "cut-last":
        parts[-1:] = [parts[-1][:-1], parts[-1][-1:]]
    if fault == "drop-last":
        parts[-1] = parts[-1][:-1]
    if fault in ("even-chunks", "chunk-positions"):
        return _chunked_words(text, fault)
    if fault == "drop-tail":
        return _words_before_last_boundary(text)
    if fault == CHUNK_OVERWRITTEN:
        return _chunk_counts_assigned(text)
    if fault == "drop-special-length":
        return _chunks_read_short(text)
    if fault == "special-in-pattern":  # re.findall(r"(<\|endoftext\|>)|" + PAT): the token one of the words
        found = regex.findall(regex.escape(EOT) + "|" + GPT2_PAT, text)
        return Counter(tuple(bytes([b]) for b in w.encode("utf-8")) for w in found if w != EOT)
    if fault == "lines":  # for line in f: each line pre-tokenized on its own
        parts = [doc for line in io.StringIO(text) for doc in line.split(EOT)]
    if fault == "lines-stripped":  # for line in f: line.strip(), so no indentation and no newline is read
        parts = [doc for line in io.StringIO(text) for doc in line.strip().split(EOT)]
    if fault == CUT_BEFORE_END:  # shawnspitzel's reader: no newline in a buffer, so buffer[:-10] and the rest apart
        parts = [doc for piece in (text[:-10], text[-10:]) for doc in piece.split(EOT)]
    if fault == "cut-at-space":  # one buffer of the file, cut after its last b" " or b"\n", the rest read alone
        data = text.encode("utf-8")
        last = max(data.rfind(b" "), data.rfind(b"\n"))
        pieces = [data[: last + 1], data[last + 1 :]]
        parts = [doc for piece in pieces for doc in piece.decode("utf-8").split(EOT)]
    if fault == "cjk-single":  # sakuri932's pattern: each Han, kana or Hangul character a word, out of the letters
        cjk = r"\p{Han}|\p{Hiragana}|\p{Katakana}|\p{Hangul}"
        single = (
            rf"(?:{cjk})|'(?:[sdmt]|ll|ve|re)| ?[\p{{L}}--\p{{Han}}--\p{{Hiragana}}--\p{{Katakana}}--\p{{Hangul}}]+"
            r"| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"
        )
        found = (w for part in parts for w in regex.findall(single, part, flags=regex.V1))
        return Counter(tuple(bytes([b]) for b in w.encode("utf-8")) for w in found)
    if fault == "latin-pattern":  # 1156230954's pattern for the stdlib re: Latin letters only, others never matched
        latin = r"""'(?:[sdmt]|ll|ve|re)| ?[a-zA-Z\u00C0-\u017F]+| ?[0-9]+| ?[^\s\w]+|\s+(?!\S)|\s+"""
        return Counter(tuple(bytes([b]) for b in w.encode("utf-8")) for part in parts for w in re.findall(latin, part))
    if fault == WORD_CLASS:  # the GPT-2 pattern for the stdlib re with \w for \p{L}: '_' and digits join letters
        word = r"""'(?:[sdmt]|ll|ve|re)| ?\w+| ?\d+| ?[^\s\w\d]+|\s+(?!\S)|\s+"""
        return Counter(tuple(bytes([b]) for b in w.encode("utf-8")) for part in parts for w in re.findall(word, part))
    if fault == ASCII_CLASS:  # letters as [a-zA-Z]: 'é' and '東' fall in with punctuation, as ' ?[^\s a-zA-Z0-9]+'
        ascii_words = r"""'(?:[sdmt]|ll|ve|re)| ?[a-zA-Z]+| ?[0-9]+| ?[^\sa-zA-Z0-9]+|\s+(?!\S)|\s+"""
        found = (w for part in parts for w in re.findall(ascii_words, part))
        return Counter(tuple(bytes([b]) for b in w.encode("utf-8")) for w in found)
    if fault == END_SYMBOL:  # each word's bytes, then b"</w>", a symbol that pairs with the word's last byte
        found = (w for part in parts for w in regex.findall(GPT2_PAT, part))
        return Counter((*(bytes([b]) for b in w.encode("utf-8")), b"</w>") for w in found)
    if fault == DOCUMENTS_MAX:  # michaelltao's final_toks |= Counter(toks) for each document: a union keeps the max
        final: Counter = Counter()
        for part in parts:
            final |= Counter(tuple(bytes([b]) for b in w.encode("utf-8")) for w in regex.findall(GPT2_PAT, part))
        return final
    if fault == LAST_DOCUMENT:  # for part in parts: ... then the counting loop over regex.findall(PAT, part)
        return Counter(tuple(bytes([b]) for b in w.encode("utf-8")) for w in regex.findall(GPT2_PAT, parts[-1]))
    if fault == "unescaped-split":  # Azizimj's re.split('(' + re.escape('|').join(specials) + ')', chunk)
        pieces = re.split("(" + re.escape("|").join([EOT]) + ")", text)
        parts = [piece for piece in pieces if piece not in (EOT,)]
    if fault == "bytes-pattern":  # regex.compile(rb"..."): \p{L} and \p{N} are ASCII only on bytes
        pattern = regex.compile(GPT2_PAT.encode())
        return Counter(tuple(bytes([b]) for b in w) for part in parts for w in pattern.findall(part.encode("utf-8")))
    words: Counter = Counter()
    for part in parts:
        for w in regex.findall(r"\S+\s*" if fault == "whitespace" else GPT2_PAT, part):
            if fault == "chars":
                words[tuple(c.encode("utf-8") for c in w)] += 1
            else:
                words[tuple(bytes([b]) for b in w.encode("utf-8"))] += 1
    return words


def _chunked_words(text: str, fault: str) -> Counter:
    """The file read in CHUNKS chunks, as a student's workers read it: ``even-chunks`` cuts at evenly spaced
    bytes; ``chunk-positions`` moves each cut to the next <|endoftext|> (as CS336's find_chunk_boundaries does)
    but counts a word by its set of positions, numbered from 0 in each chunk."""
    data = text.encode("utf-8")
    step = len(data) // CHUNKS
    cuts = [k * step for k in range(CHUNKS)] + [len(data)]
    if fault == "chunk-positions":
        for k in range(1, CHUNKS):
            found = data.find(EOT.encode(), cuts[k])
            cuts[k] = len(data) if found < 0 else found
    seen: dict[tuple, set] = {}
    words: Counter = Counter()
    for start, end in zip(cuts, cuts[1:]):
        if start >= end:
            continue
        chunk = data[start:end].decode("utf-8", errors="ignore")
        position = 0
        for document in chunk.split(EOT):
            for w in regex.findall(GPT2_PAT, document):
                word = tuple(bytes([b]) for b in w.encode("utf-8"))
                words[word] += 1
                seen.setdefault(word, set()).add(position)
                position += 1
    if fault == "chunk-positions":
        return Counter({word: len(positions) for word, positions in seen.items()})
    return words


def _words_before_last_boundary(text: str) -> Counter:
    """A student's own find_chunk_boundaries: a boundary at 0, then each evenly spaced guess moved to the next
    <|endoftext|> (or to the end of the file when none follows), but the file's size never appended, so the
    chunks run between the boundaries and the text after the last one is never read."""
    data = text.encode("utf-8")
    boundaries = [0]
    for k in range(1, CHUNKS):
        found = data.find(EOT.encode(), k * (len(data) // CHUNKS))
        boundaries.append(len(data) if found == -1 else found)
    boundaries = sorted(set(boundaries))
    words: Counter = Counter()
    for start, end in zip(boundaries[:-1], boundaries[1:]):
        for document in data[start:end].decode("utf-8").split(EOT):
            words.update(tuple(bytes([b]) for b in w.encode("utf-8")) for w in regex.findall(GPT2_PAT, document))
    return words


def _chunk_counts_assigned(text: str) -> Counter:
    """simpissa's reader: the chunks between boundaries moved to the next <|endoftext|>, each counted by a worker, the
    workers' counts joined by ``reduce(merge_dicts, results, {})`` where ``merge_dicts`` copies the first dict and sets
    ``result[key] = d2.get(key)`` for every key of the second: a word's count is its count in the last chunk."""
    data = text.encode("utf-8")
    cuts = [k * (len(data) // CHUNKS) for k in range(CHUNKS)] + [len(data)]
    for k in range(1, CHUNKS):
        found = data.find(EOT.encode(), cuts[k])
        cuts[k] = len(data) if found < 0 else found
    result: dict = {}
    for start, end in zip(cuts, cuts[1:]):
        if start >= end:
            continue
        chunk: Counter = Counter()
        for document in data[start:end].decode("utf-8").split(EOT):
            chunk.update(tuple(bytes([b]) for b in w.encode("utf-8")) for w in regex.findall(GPT2_PAT, document))
        merged = dict(result)
        for key in chunk:
            merged[key] = chunk.get(key, 0)
        result = merged
    return Counter(result)


def _chunks_read_short(text: str) -> Counter:
    """A student's reader: the chunks between boundaries moved to the next <|endoftext|>, each read as
    ``f.seek(start); f.read(end - start - len(EOT))`` from a file opened as text, which reads characters (meant
    to leave out an <|endoftext|> ending the chunk, though the chunk starts with it)."""
    data = text.encode("utf-8")
    cuts = [k * (len(data) // CHUNKS) for k in range(CHUNKS)] + [len(data)]
    for k in range(1, CHUNKS):
        found = data.find(EOT.encode(), cuts[k])
        cuts[k] = len(data) if found < 0 else found
    words: Counter = Counter()
    for start, end in zip(cuts, cuts[1:]):
        if start >= end:
            continue
        chunk = data[start:].decode("utf-8")[: max(0, end - start - len(EOT))]
        for document in chunk.split(EOT):
            words.update(tuple(bytes([b]) for b in w.encode("utf-8")) for w in regex.findall(GPT2_PAT, document))
    return words


def _class_words(text: str, fault: str) -> Counter:
    """The word counts of set L's readers and counters (:data:`COUNT_CLASS_FAULTS`)."""
    pieces: list[str]
    if fault == SPECIAL_AS_SPACE:
        pieces = [re.sub(re.escape(EOT), " ", text)]
    elif fault in (SPECIAL_AS_WORDS, SPECIAL_ONE_WORD):
        pieces = [piece for piece in re.split("(" + re.escape(EOT) + ")", text) if piece]
    elif fault == LAST_CHUNK:
        data = text.encode("utf-8")
        size = len(data) // 100
        cuts = [0]
        for k in range(1, 100):
            found = data.find(EOT.encode(), k * size)
            cuts.append(len(data) if found < 0 else found)
        cuts = sorted(set([*cuts, len(data)]))
        pieces = []
        for start, end in zip(cuts, cuts[1:]):
            pieces = data[start:end].decode("utf-8", errors="ignore").split(EOT)  # each chunk replaces the one before
    else:
        pieces = text.split(EOT)
    words: Counter = Counter()
    for piece in pieces:
        found = regex.findall(GPT2_PAT, piece) if not (fault == SPECIAL_ONE_WORD and piece == EOT) else [piece]
        words.update(tuple(bytes([b]) for b in w.encode("utf-8")) for w in found)
    if fault == EACH_WORD_ONCE:  # the count of a word never used: each distinct word adds its pairs once
        return Counter(dict.fromkeys(words, 1))
    return words


def word_counts(text: str, fault: str | None = None) -> Counter:
    """The word counts (words as byte tuples) the trainer with ``fault`` starts from."""
    return _words(text, fault)


def _positions(word, a, b) -> list[int]:
    found, i = [], 0
    while i + 1 < len(word):
        if word[i] == a and word[i + 1] == b:
            found.append(i)
            i += 2
        else:
            i += 1
    return found


def _merged(word, a, b, fault=None) -> list:
    """The word with the pair merged; ``half``: only the first one; ``stale``: at unshifted positions."""
    where = _positions(word, a, b)
    if fault == "keep-right":  # the word rebuilt pair by pair: a merged pair's right symbol is read again
        out = []
        for i in range(len(word) - 1):
            out.append(a + b if (word[i], word[i + 1]) == (a, b) else word[i])
        return out if (word[-2], word[-1]) == (a, b) else [*out, word[-1]]
    if fault == "never-merges":  # the student's merge builds the pair as a list: [x, y] == (a, b) is never true
        out, i = [], 0
        while i < len(word):
            if i + 1 < len(word) and [word[i], word[i + 1]] == (a, b):
                out.append(a + b)
                i += 2
            else:
                out.append(word[i])
                i += 1
        return out
    if fault == RIGHT_TO_LEFT:  # the occurrences merged from the last one back, as popped off a list of positions
        out, i = list(word), len(word) - 2
        while i >= 0:
            if (out[i], out[i + 1]) == (a, b):
                out[i : i + 2] = [a + b]
                i -= 2
            else:
                i -= 1
        return out
    if fault == "half":
        where = where[:1]
    out = list(word)
    if fault == "stale":
        for i in where:
            if i < len(out):
                out[i : i + 2] = [a + b]
        return out
    for i in reversed(where):
        out[i : i + 2] = [a + b]
    return out


def _pairs(word, fault=None) -> Counter:
    c: Counter = Counter()
    i = 0
    while i + 1 < len(word):
        c[(word[i], word[i + 1])] += 1
        skip = fault == "overlap-once" and word[i] == word[i + 1] and i + 2 < len(word) and word[i + 2] == word[i]
        i += 2 if skip else 1
    return c


def _ids(words, merges) -> dict:
    ids = {s: n for n, s in enumerate(sorted({s for w in words for s in w}))}
    for a, b in merges:
        if a + b not in ids:
            ids[a + b] = len(ids)
    return ids


def _gpt2_ids(merges) -> dict:
    """A vocabulary numbered as GPT-2's byte table lists the bytes (printable ones first), then the merges."""
    printable = list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1)) + list(range(ord("®"), 256))
    order = printable + [b for b in range(256) if b not in printable]
    ids = {bytes([b]): n for n, b in enumerate(order)}
    for a, b in merges:
        ids.setdefault(a + b, len(ids))
    return ids


def _pick(pairs: Counter, fault, words, merges):
    top = max(pairs.values())
    tied = [p for p, n in pairs.items() if n == top]
    if fault == "smallest-bytes":
        return min(tied)
    if fault in ("greatest-id", "smallest-id"):
        ids = _ids(words, merges)
        key = [(ids[a], ids[b]) for a, b in tied]
        pick = max(key) if fault == "greatest-id" else min(key)
        return tied[key.index(pick)]
    if fault == "none":  # minbpe's max(stats, key=stats.get): the pair seen first in the text
        return tied[0]
    if fault == "greatest-concat":  # max(pairs, key=lambda p: (pairs[p], vocab[p[0]] + vocab[p[1]]))
        return max(tied, key=lambda p: p[0] + p[1])
    if fault == "gpt2-id":
        ids = _gpt2_ids(merges)
        return max(tied, key=lambda p: (ids[p[0]], ids[p[1]]))
    if fault == "greatest-text":
        return max(tied, key=lambda p: (p[0].decode("utf-8", "replace"), p[1].decode("utf-8", "replace"), p))
    if fault == "greatest-text-ignore":  # max keeps the first of equal keys, in the dict's order
        return max(tied, key=lambda p: (p[0].decode("utf-8", errors="ignore"), p[1].decode("utf-8", errors="ignore")))
    if fault == "first-added":  # max(counts, key=counts.get): the first of the tied in the dict's order
        return tied[0]
    if fault == "greatest-repr":  # max(pairs, key=lambda p: (pairs[p], str((vocab[p[0]], vocab[p[1]])))
        return max(tied, key=lambda p: str((p[0], p[1])))
    return max(tied)


def train(text: str, num_merges: int, fault: str | None = None) -> tuple[dict[int, bytes], list[tuple[bytes, bytes]]]:
    """A CS336 run with one fault (None: the correct trainer): CS336's vocab and merges. A setting fault
    and a merge-loop or tie fault together are written ``"chars+left-symbol"``."""
    if fault in RELABELLED:
        return _relabelled_run(text, num_merges, fault)
    if fault == WORD_HEAP:
        return _vocab(_train_with_a_word_heap(_words(text, None), num_merges))
    if fault in ONLY_ADDED:
        return _vocab(_train_only_adding(_words(text, None), num_merges, own_right=fault.endswith("own-right")))
    if fault == IGNORES_INPUT:  # the open(input_path) commented out: a sample text trained on instead
        return train(SAMPLE, num_merges)
    setting, _, loop = (fault or "").rpartition("+")
    tie = setting if setting in TIE_FAULTS else fault if fault in TIE_FAULTS else None
    setting = None if setting in TIE_FAULTS else setting
    words = _words(text, setting or fault)
    fault = loop if loop and (setting or tie) and loop != tie else fault
    if fault == "stale-index":
        return _vocab(_train_with_word_index(words, num_merges))
    if fault == "substring":
        return _vocab(_train_on_pair_counts(words, num_merges))
    if fault == "positions":
        return _vocab(_train_on_offsets(words, num_merges))
    if fault == HEAP_REMOVAL:
        return _vocab(_train_with_removal_heap(words, num_merges))
    if fault == SET_ORDER:
        return _vocab(_train_on_linked_positions(text, num_merges))
    if fault == LOST_LAST:
        return _vocab(_train_losing_the_last_symbol(words, num_merges))
    if fault == INT_SUM:
        return _vocab(_train_on_ints(words, num_merges))
    if fault == RECORDED_POSITIONS:
        return _vocab(_train_on_recorded_positions(words, num_merges))
    if fault == UNCOUNTED_LEFT:
        return _vocab(_train_subtracting_the_merged_left(words, num_merges))
    if fault == OVERLAP_COLLAPSE:
        return _vocab(_train_collapsing_runs(words, num_merges))
    if fault == FIRST_POSITION:
        return _vocab(_train_first_position(text, num_merges))
    if fault in (ID_SUM, ID_SUM_MEANT):
        return _train_on_ids_recording_sums(words, num_merges, meant=fault == ID_SUM_MEANT)
    if fault == MERGE_IDS:  # bytes 0-255, <|endoftext|> 256, each merge the next id: the ids saved, not the bytes
        vocab, merges = train(text, num_merges)
        ids = {bytes([i]): i for i in range(256)}
        for a, b in merges:
            ids[a + b] = 257 + len(ids) - 256
        return vocab, [(bytes(ids[a]), bytes(ids[b])) for a, b in merges]
    if fault == PER_WORD:
        return _train_listing_per_word(words, num_merges)
    if fault == STALE_GUARDED:
        return _vocab(_train_with_old_left_and_guarded_right(words, num_merges))
    if fault == STALE_OVERLAP:
        return _vocab(_train_with_old_neighbours_at_every_place(words, num_merges))
    if fault == "first-recounted":
        return _vocab(_train_recounting_a_reordered_dict(words, num_merges))
    if fault == SKIPS_NEXT:
        return _vocab(_train_merging_in_place(words, num_merges))
    if fault == OFFSET_SET:
        return _vocab(_train_on_offset_tuples(words, num_merges))
    if fault == SKIPPED_WORDS:
        return _vocab(_train_removing_while_iterating(words, num_merges))
    if fault in HEAP_FAULTS:
        return _vocab(_train_with_heap(words, num_merges, skip_first=fault == "no-sift-up-skip-first"))
    if fault in (RIGHT_ADDED, OVERLAP_STALE):
        return _vocab(_train_adding_the_right_pair(words, num_merges, every_start=fault == OVERLAP_STALE))
    if fault in (OVERLAP_COLLAPSE, OVERLAP_DUPLICATE):
        return _vocab(_train_marking_every_start(words, num_merges, collapse=fault == OVERLAP_COLLAPSE))
    if fault == TWIN_NEVER:
        return _vocab(_train_recounting_pairs_beside(words, num_merges))
    if fault == ADJACENT_CROSS:
        return _vocab(_train_moving_both_sides(words, num_merges))
    if fault == WRONG_INDEX:
        return _vocab(_train_with_a_leftover_index(words, num_merges))
    if fault == ONCE_PER_WORD:
        return _vocab(_train_on_sets_of_pairs(words, num_merges))
    if fault == LOST_LAST_COUNTED:
        return _vocab(_train_recounting_the_cut_word(words, num_merges))
    if fault == ACCUMULATED:
        return _vocab(_train_never_resetting(words, num_merges))
    if fault == LAZY_HEAP:
        return _vocab(_train_with_lazy_heap(words, num_merges))
    if fault == SUBSTRING_COUNTS:
        return _vocab(_train_on_substring_counts(words, num_merges))
    if fault == RIGHT_FIRST:
        return _vocab(_train_moving_left_pairs_first(words, num_merges))
    first = dict(words)
    splits = {w: list(w) for w in words}
    merges: list[tuple[bytes, bytes]] = []
    made: set[bytes] = set()

    def recount(only=None) -> Counter:
        c: Counter = Counter()
        for w, f in words.items():
            if only is not None and w not in only:
                continue
            for p, n in _pairs(splits[w], fault).items():
                if fault == "banned" and (p[0] in made or p[1] in made):
                    continue
                c[p] += n * f
        return c

    counts = recount()
    kept: Counter = Counter()  # with KEPT_PAIR: each merged pair's count when it was taken
    lost = None
    for _ in range(num_merges):
        live = {p: n for p, n in counts.items() if n > 0}
        if fault == "lost-pair" and len(merges) + 1 >= LOST_STEP:
            lost = lost or _pick(Counter(live), fault, first, merges)
            live.pop(lost, None)
        if fault == SPECIAL_BAN:  # every substring of the special token, so that no merge rebuilds it
            parts = {EOT.encode()[i:j] for i in range(len(EOT)) for j in range(i + 1, len(EOT) + 1)}
            live = {p: n for p, n in live.items() if p[0] + p[1] not in parts}
        if not live:
            break
        a, b = _pick(Counter(live), tie or fault, first, merges)
        taken = counts[(a, b)]
        merges.append((a, b))
        made.add(a + b)
        if fault in ("stale-neighbours", "skip-first-neighbour"):  # the pair's count dropped first
            del counts[(a, b)]
        changed = []
        for w, f in words.items():
            old = splits[w]
            if not _positions(old, a, b):
                continue
            new = _merged(old, a, b, fault)
            changed.append(w)
            splits[w] = new
            if fault == "frozen":
                continue
            if fault in ("left-symbol", "adjacent", "overlap-twice") or fault in DICT_ORDER_TIES:
                _incremental(counts, old, new, a, b, f, fault)
            elif fault == "assigned":
                _assigned(counts, old, new, a, b, f)
            elif fault == "overlap-index":
                _by_index_arithmetic(counts, old, a, b, f)
            elif fault == "overlap-subtract":
                _by_positions(counts, old, a, b, f)
            elif fault == "stale-neighbours":
                _old_neighbours(counts, old, a, b, f)
            elif fault == "skip-first-neighbour":
                _neighbours_from_position_two(counts, old, a, b, f)
            elif fault == "stale-left":
                _left_pair_from_old_word(counts, old, a, b, f)
            elif fault == STALE_KEPT:  # each occurrence's count subtracted, never the whole pair deleted
                _old_neighbours(counts, old, a, b, f)
                counts[(a, b)] -= f * len(_positions(old, a, b))
        if fault == "frozen":
            del counts[(a, b)]
        elif fault == "only-merged":
            counts = recount(only=set(changed))
        elif fault == "overlap-subtract":
            del counts[(a, b)]
        elif fault not in (
            "left-symbol", "adjacent", "overlap-twice", "stale-neighbours", "skip-first-neighbour", "assigned",
            "overlap-index", "stale-left", STALE_KEPT, *DICT_ORDER_TIES,
        ):  # fmt: skip
            counts = recount()
        if fault == KEPT_PAIR:  # the update for the merged pair itself is commented out: its count stays
            kept[(a, b)] = taken
            counts.update(kept)
    return _vocab(merges)


def _vocab(merges) -> tuple[dict[int, bytes], list[tuple[bytes, bytes]]]:
    vocab = {0: EOT.encode()} | {i + 1: bytes([i]) for i in range(256)}
    for a, b in merges:
        vocab[len(vocab)] = a + b
    return vocab, merges


def _by_positions(counts: Counter, old, a, b, f) -> None:
    """The student's update by positions: the pairs of positions beside every place where a is followed by b
    (overlapping ones too, as in "aaa") subtracted once each, then the pairs beside each new token added."""
    gone = set()
    for i in range(len(old) - 1):
        if (old[i], old[i + 1]) == (a, b):
            gone.update((j, j + 1) for j in (i - 1, i, i + 1) if 0 <= j and j + 1 < len(old))
    for i, j in gone:
        counts[(old[i], old[j])] -= f
    new, made, i = [], [], 0
    while i < len(old):
        if i + 1 < len(old) and (old[i], old[i + 1]) == (a, b):
            made.append(len(new))
            new.append(a + b)
            i += 2
        else:
            new.append(old[i])
            i += 1
    come = {(j, j + 1) for m in made for j in (m - 1, m) if 0 <= j and j + 1 < len(new)}
    for i, j in come:
        counts[(new[i], new[j])] += f


def _assigned(counts: Counter, old, new, a, b, f) -> None:
    """The student's update: the word's old pairs out, its new pairs in, but a pair with the new token is set to
    the word's count (``=`` where ``+=`` is meant), so it holds only the last word's count."""
    counts.subtract({p: n * f for p, n in _pairs(old).items()})
    for p, n in _pairs(new).items():
        if a + b in p:
            counts[p] = f
        else:
            counts[p] += n * f


def _by_index_arithmetic(counts: Counter, old, a, b, f) -> None:
    """The student's update by indexes: every start of (a, b), overlapping ones too; the pairs at and beside each
    start subtracted once, and the pairs beside each new token added once, the new token's index taken as its
    start less the number of starts before it."""
    starts = [i for i in range(len(old) - 1) if old[i] == a and old[i + 1] == b]
    removed = set()
    for s in starts:
        if s > 0:
            removed.add(s - 1)
        removed.add(s)
        if s + 2 < len(old):
            removed.add(s + 1)
    for i in removed:
        counts[(old[i], old[i + 1])] -= f
    new = _merged(old, a, b)
    added = set()
    for s in starts:
        k = s - sum(1 for t in starts if t < s)
        if k > 0:
            added.add(k - 1)
        if k + 1 < len(new):
            added.add(k)
    for i in added:
        counts[(new[i], new[i + 1])] += f


def _train_with_removal_heap(words: Counter, num_merges: int) -> list[tuple[bytes, bytes]]:
    """1611Dhruv's loop: a max-heap of (count, pair) updated in place, a rise sifted up and a drop sifted down; a
    pair whose count drops to 0 is swapped with the last entry, which is then only sifted down, never up, so it can
    sit below a smaller parent and the top is not always the greatest. The top is merged occurrence by occurrence,
    the pair itself and its neighbours moved by one update each."""
    heap: list = []
    where: dict = {}

    def swap(i, j):
        heap[i], heap[j] = heap[j], heap[i]
        where[heap[i][1]], where[heap[j][1]] = i, j

    def up(i):
        while i > 0 and heap[(i - 1) // 2] < heap[i]:
            swap(i, (i - 1) // 2)
            i = (i - 1) // 2

    def down(i):
        while True:
            kids = [c for c in (2 * i + 1, 2 * i + 2) if c < len(heap) and heap[c] > heap[i]]
            if not kids:
                return
            big = max(kids, key=lambda c: heap[c])
            swap(i, big)
            i = big

    def change(by, pair):
        if pair not in where:
            if by > 0:
                heap.append((by, pair))
                where[pair] = len(heap) - 1
                up(len(heap) - 1)
            return
        i = where[pair]
        heap[i] = (heap[i][0] + by, pair)
        if by > 0:
            up(i)
        elif heap[i][0] > 0:
            down(i)
        else:  # the fault: the last entry moved into the hole is sifted down only
            if i != len(heap) - 1:
                swap(i, len(heap) - 1)
                down(i)
            heap.pop()
            del where[pair]

    splits = {w: list(w) for w in words}
    for w, f in words.items():
        for p in zip(w, w[1:]):
            change(f, p)
    merges: list[tuple[bytes, bytes]] = []
    while heap and len(merges) < num_merges:
        a, b = pair = heap[0][1]
        merges.append(pair)
        for w, f in words.items():
            s, i = splits[w], 0
            while i + 1 < len(s):
                if (s[i], s[i + 1]) == pair:
                    change(-f, pair)
                    if i > 0:
                        change(-f, (s[i - 1], a))
                        change(f, (s[i - 1], a + b))
                    if i + 2 < len(s):
                        change(-f, (b, s[i + 2]))
                        change(f, (a + b, s[i + 2]))
                    s[i : i + 2] = [a + b]
                i += 1
    return merges


def _train_on_offset_tuples(words: Counter, num_merges: int) -> list[tuple[bytes, bytes]]:
    """salzhu's loop: the distinct words numbered in order, each a list of token ids, one per byte (a token's id at
    each of its bytes); each pair of ids with a set of (word, byte offset, True); a merge loops over that set, skips
    an entry marked False or one whose start already holds the new id, and marks the neighbour pair it replaces
    (word, offset, False) instead of removing it."""
    vocab = {i: bytes([i]) for i in range(256)}
    items = list(words.items())
    ids = [list(w[0] for w in word) for word, _ in items]  # one id per byte: the byte's value
    freq = [f for _, f in items]
    pairs: dict = {}
    counts: dict = {}
    for t, word in enumerate(ids):
        for s in range(len(word) - 1):
            key = (word[s], word[s + 1])
            pairs.setdefault(key, set()).add((t, s, True))
            counts[key] = counts.get(key, 0) + freq[t]
    merges: list[tuple[bytes, bytes]] = []
    while len(merges) < num_merges and counts and max(counts.values()) > 0:
        top = max(counts.values())
        a, b = max((vocab[x], vocab[y]) for (x, y), n in counts.items() if n == top)
        left = next(i for i, v in vocab.items() if v == a)
        right = next(i for i, v in vocab.items() if v == b)
        new = len(vocab)
        vocab[new] = a + b
        merges.append((a, b))
        for t, s, live in pairs[(left, right)]:
            word = ids[t]
            if not live or word[s] == new:
                continue
            if s > 0:
                before = word[s - 1]
                at = s - len(vocab[before])
                pairs.setdefault((before, new), set()).add((t, at, True))
                counts[(before, new)] = counts.get((before, new), 0) + freq[t]
                if (t, at, True) in pairs[(before, left)]:
                    pairs[(before, left)].remove((t, at, True))
                    pairs[(before, left)].add((t, at, False))
                counts[(before, left)] -= freq[t]
            end = s + len(a) + len(b)
            if end < len(word):
                after = word[end]
                pairs.setdefault((new, after), set()).add((t, s, True))
                counts[(new, after)] = counts.get((new, after), 0) + freq[t]
                if (t, s + len(a), True) in pairs[(right, after)]:
                    pairs[(right, after)].remove((t, s + len(a), True))
                    pairs[(right, after)].add((t, s + len(a), False))
                counts[(right, after)] -= freq[t]
            word[s:end] = [new] * (end - s)
        pairs[(left, right)] = set()
        counts[(left, right)] = 0
    return merges


def _train_on_linked_positions(text: str, num_merges: int) -> list[tuple[bytes, bytes]]:
    """Ethan-a2's loop: every pre-token of the text (in order, those of one byte left out) in one linked list of
    positions numbered from 1, each pair with the set of positions where it starts; a merge visits
    ``list(starts[pair])``, the set's order, and moves the pairs beside each occurrence it can still merge."""
    sym, left, right, starts, counts = {}, {}, {}, {}, Counter()
    n = 0
    for doc in text.split(EOT):
        for w in regex.findall(GPT2_PAT, doc):
            data = w.encode("utf-8")
            if len(data) < 2:
                continue
            for j, byte in enumerate(data):
                n += 1
                sym[n], left[n], right[n] = (
                    bytes([byte]),
                    (n - 1 if j else None),
                    (n + 1 if j < len(data) - 1 else None),
                )
                if j < len(data) - 1:
                    counts[(bytes([byte]), bytes([data[j + 1]]))] += 1
                    starts.setdefault((bytes([byte]), bytes([data[j + 1]])), set()).add(n)

    def change(pair, by, at):
        counts[pair] += by
        if counts[pair] <= 0:
            del counts[pair]
            starts.pop(pair, None)
        elif by > 0:
            starts.setdefault(pair, set()).add(at)
        else:
            starts.setdefault(pair, set()).discard(at)

    merges: list[tuple[bytes, bytes]] = []
    while len(merges) < num_merges and counts:
        a, b = max(counts, key=lambda p: (counts[p], p))
        merges.append((a, b))
        for i in list(starts.get((a, b), set())):
            j = right[i]
            if j is None or sym[i] != a or sym[j] != b:
                continue
            k, h = left[i], right[j]
            if k is not None:
                change((sym[k], a), -1, k)
                change((sym[k], a + b), 1, k)
            if h is not None:
                left[h] = i
                change((b, sym[h]), -1, j)
                change((a + b, sym[h]), 1, i)
            sym[i], right[i] = a + b, h
            sym[j] = left[j] = right[j] = None
        counts.pop((a, b), None)
        starts.pop((a, b), None)
    return merges


def _train_losing_the_last_symbol(words: Counter, num_merges: int) -> list[tuple[bytes, bytes]]:
    """A loop that deletes the chosen pair's count, then rebuilds each word by a scan that moves the pairs beside
    each occurrence as it goes, and after the scan appends the word's last symbol only when the last two symbols are
    not the pair: in 'aaa' merging (a, a) the scan stops after 'aa' and the last 'a' is lost, though (aa, a) was
    counted."""
    counts: Counter = Counter()
    for w, f in words.items():
        for p in zip(w, w[1:]):
            counts[p] += f
    held = dict(words)
    merges: list[tuple[bytes, bytes]] = []
    for _ in range(num_merges):
        if not counts or max(counts.values()) <= 0:
            break
        best = max(counts.items(), key=lambda item: (item[1], item[0]))[0]
        del counts[best]
        merges.append(best)
        after: Counter = Counter()
        for w, f in held.items():
            out, i = [], 0
            while i < len(w) - 1:
                if (w[i], w[i + 1]) == best:
                    out.append(best[0] + best[1])
                    if i > 0:
                        counts[(out[-2], w[i])] -= f
                        counts[(out[-2], out[-1])] += f
                    if i + 2 < len(w):
                        counts[(w[i + 1], w[i + 2])] -= f
                        counts[(out[-1], w[i + 2])] += f
                    i += 2
                else:
                    out.append(w[i])
                    i += 1
            if len(w) > 1 and (w[-2], w[-1]) != best:
                out.append(w[-1])
            after[tuple(out)] += f
        held = after
    return merges


def _train_listing_per_word(words: Counter, num_merges: int) -> tuple[dict[int, bytes], list[tuple[bytes, bytes]]]:
    """A correct loop, the counts taken afresh each step, that appends the merge to its list inside the loop over the
    words it changes (once per word), while the vocabulary gains the new token once: the run ends by the vocabulary's
    size, with the list longer than it."""
    splits = {w: list(w) for w in words}
    vocab = {0: EOT.encode()} | {i + 1: bytes([i]) for i in range(256)}
    merges: list[tuple[bytes, bytes]] = []
    while len(vocab) < 257 + num_merges:
        counts: Counter = Counter()
        for w, f in words.items():
            for p in zip(splits[w], splits[w][1:]):
                counts[p] += f
        if not counts:
            break
        a, b = max(counts.items(), key=lambda item: (item[1], item[0]))[0]
        for w in words:
            tokens = splits[w]
            if not any(p == (a, b) for p in zip(tokens, tokens[1:])):
                continue
            out, i = [], 0
            while i < len(tokens):
                if i + 1 < len(tokens) and (tokens[i], tokens[i + 1]) == (a, b):
                    out.append(a + b)
                    i += 2
                else:
                    out.append(tokens[i])
                    i += 1
            splits[w] = out
            merges.append((a, b))
        vocab[len(vocab)] = a + b
    return vocab, merges


def _train_with_old_left_and_guarded_right(words: Counter, num_merges: int) -> list[tuple[bytes, bytes]]:
    """tangguochuan's loop: each word rebuilt left to right from its old tokens; at each occurrence the left pair is
    moved from (old[i-1], a) to (old[i-1], ab), the old word's symbol, and the right pair from (b, old[i+2]) to
    (ab, old[i+2]) unless (old[i+1], old[i+2]) is the merged pair itself; the merged pair's count set to 0."""
    tokens = {w: list(w) for w in words}
    counts: Counter = Counter()
    for w, f in words.items():
        for p in zip(w, w[1:]):
            counts[p] += f
    merges: list[tuple[bytes, bytes]] = []
    while len(merges) < num_merges:
        live = {p: n for p, n in counts.items() if n > 0}
        if not live:
            break
        best = max(live.items(), key=lambda item: (item[1], item[0]))[0]
        merges.append(best)
        new_token = best[0] + best[1]
        for w, f in words.items():
            old, out, i = tokens[w], [], 0
            while i < len(old):
                if i < len(old) - 1 and (old[i], old[i + 1]) == best:
                    out.append(new_token)
                    if i > 0:
                        counts[(old[i - 1], old[i])] -= f
                        counts[(old[i - 1], new_token)] += f
                    if i < len(old) - 2 and (old[i + 1], old[i + 2]) != best:
                        counts[(old[i + 1], old[i + 2])] -= f
                        counts[(new_token, old[i + 2])] += f
                    i += 2
                else:
                    out.append(old[i])
                    i += 1
            tokens[w] = out
        counts[best] = 0
    return merges


def _train_recounting_a_reordered_dict(words: Counter, num_merges: int) -> list[tuple[bytes, bytes]]:
    """joshbcohen's loop: the pair counts taken afresh each step over a dict of words, ``max(counts, key=counts.get)``
    (the first of equal counts in the order the count met them), and each merged word deleted from the dict and added
    again at its end."""
    held = {tuple(w): f for w, f in words.items()}
    merges: list[tuple[bytes, bytes]] = []
    while len(merges) < num_merges:
        counts: dict = {}
        for word, f in held.items():
            for i in range(len(word) - 1):
                counts[(word[i], word[i + 1])] = counts.get((word[i], word[i + 1]), 0) + f
        if not counts:
            break
        best = max(counts, key=counts.get)
        merges.append(best)
        gone, made = [], {}
        for word in held:
            out, i = [], 0
            while i < len(word):
                if i + 1 < len(word) and (word[i], word[i + 1]) == best:
                    out.append(best[0] + best[1])
                    i += 2
                else:
                    out.append(word[i])
                    i += 1
            if tuple(out) != word:
                made[tuple(out)] = held[word]
                gone.append(word)
        for word in gone:
            del held[word]
        held.update(made)
    return merges


def _train_merging_in_place(words: Counter, num_merges: int) -> list[tuple[bytes, bytes]]:
    """A loop over the words holding the chosen pair that merges each occurrence in place, moving the pairs beside it
    in the counts, and then adds two to its index: the word is one symbol shorter, so the index passes the symbol
    after the new token and an occurrence starting there is left. The chosen pair's count is deleted."""
    words_list = list(words)
    tokens = [tuple(w) for w in words_list]
    counts: Counter = Counter()
    for w, t in zip(words_list, tokens):
        for p in zip(t, t[1:]):
            counts[p] += words[w]
    merges: list[tuple[bytes, bytes]] = []
    while len(merges) < num_merges:
        live = {p: n for p, n in counts.items() if n > 0}
        if not live:
            break
        best = max(live.items(), key=lambda item: (item[1], item[0]))[0]
        merges.append(best)
        new = best[0] + best[1]
        for k, w in enumerate(words_list):
            word, f = tokens[k], words[w]
            idx = 0
            while idx < len(word) - 1:
                if (word[idx], word[idx + 1]) == best:
                    if idx > 0:
                        counts[(word[idx - 1], word[idx])] -= f
                        counts[(word[idx - 1], new)] += f
                    if idx < len(word) - 2:
                        counts[(word[idx + 1], word[idx + 2])] -= f
                        counts[(new, word[idx + 2])] += f
                    word = word[:idx] + (new,) + word[idx + 2 :]
                    idx += 1
                idx += 1
            tokens[k] = word
        del counts[best]
    return merges


def _train_removing_while_iterating(words: Counter, num_merges: int) -> list[tuple[bytes, bytes]]:
    """A loop with, for each pair, a list of the words holding it (a word once per occurrence): the chosen pair's
    count is deleted, then ``for w in where[best]`` merges one occurrence in each word and removes the word from
    that same list, so the iteration steps over the entry after it and every second word is never merged."""
    splits = {w: list(w) for w in words}
    counts: Counter = Counter()
    where: dict = {}
    for w, f in words.items():
        for p in zip(w, w[1:]):
            counts[p] += f
            where.setdefault(p, []).append(w)
    merges: list[tuple[bytes, bytes]] = []
    while len(merges) < num_merges and counts and max(counts.values()) > 0:
        best = max(counts.items(), key=lambda item: (item[1], item[0]))[0]
        a, b = best
        del counts[best]
        merges.append(best)
        listed = where.setdefault(best, [])
        for w in listed:
            listed.remove(w)
            tokens, f = splits[w], words[w]
            i = next((i for i in range(len(tokens) - 1) if (tokens[i], tokens[i + 1]) == best), None)
            if i is None:
                continue
            if i > 0:
                counts[(tokens[i - 1], a)] -= f
                where[(tokens[i - 1], a)].remove(w)
                counts[(tokens[i - 1], a + b)] += f
                where.setdefault((tokens[i - 1], a + b), []).append(w)
            if i + 2 < len(tokens):
                counts[(b, tokens[i + 2])] -= f
                where[(b, tokens[i + 2])].remove(w)
                counts[(a + b, tokens[i + 2])] += f
                where.setdefault((a + b, tokens[i + 2]), []).append(w)
            tokens[i : i + 2] = [a + b]
    return merges


def _train_on_ints(words: Counter, num_merges: int) -> list[tuple[bytes, bytes]]:
    """A loop over words kept as ``tuple(word.encode())``: ints, so ``best[0] + best[1]`` adds two byte values where
    it means to join two tokens; the merges are saved as ``bytes(n)``, n zero bytes, as the student's vocabulary is."""
    held = Counter()
    for w, f in words.items():
        held[tuple(b[0] for b in w)] += f
    merges: list[tuple[int, int]] = []
    for _ in range(num_merges):
        pairs: Counter = Counter()
        for w, f in held.items():
            for p in zip(w, w[1:]):
                pairs[p] += f
        if not pairs:
            break
        best = max(pairs.items(), key=lambda item: (item[1], item[0]))[0]
        merges.append(best)
        after: Counter = Counter()
        for w, f in held.items():
            out, i = [], 0
            while i < len(w):
                if i + 1 < len(w) and (w[i], w[i + 1]) == best:
                    out.append(best[0] + best[1])
                    i += 2
                else:
                    out.append(w[i])
                    i += 1
            after[tuple(out)] += f
        held = after
    return [(bytes(a), bytes(b)) for a, b in merges]


def _train_with_word_index(words: Counter, num_merges: int) -> list[tuple[bytes, bytes]]:
    """A loop with an index of the words holding each pair, so a merge visits only those words; a word joins a
    pair's set with ``union``, whose result is thrown away, so only the word that first makes a pair is ever
    added to it; the merged pair's count is deleted."""
    splits = {w: list(w) for w in words}
    counts: Counter = Counter()
    index: dict = {}
    for w, f in words.items():
        for p in zip(w, w[1:]):
            counts[p] += f
            index.setdefault(p, set()).add(w)
    merges: list[tuple[bytes, bytes]] = []
    for _ in range(num_merges):
        live = {p: n for p, n in counts.items() if n > 0}
        if not live:
            break
        top = max(live.values())
        a, b = max(p for p, n in live.items() if n == top)
        merges.append((a, b))
        for w in [w for w in words if w in index.get((a, b), ())]:
            old, f = splits[w], words[w]
            new = _merged(old, a, b)
            counts.subtract({p: n * f for p, n in _pairs(old).items()})
            counts.update({p: n * f for p, n in _pairs(new).items()})
            before, after = set(zip(old, old[1:])), set(zip(new, new[1:]))
            for p in before - after:
                index[p].discard(w)
            for p in after - before:
                if p not in index:
                    index[p] = {w}
                else:
                    index[p].union({w})  # the fault: union makes a new set and leaves index[p] as it was
            splits[w] = new
        del counts[(a, b)]
    return merges


def _old_neighbours(counts: Counter, old, a, b, f) -> None:
    """The student's update read off the unmerged word: at each merged pair, the pair with the symbol before
    it moves from a to ab, the pair with the symbol after it from b to ab, whatever that symbol became."""
    i = 0
    while i + 1 < len(old):
        if (old[i], old[i + 1]) != (a, b):
            i += 1
            continue
        if i > 0:
            counts[(old[i - 1], a)] -= f
            counts[(old[i - 1], a + b)] += f
        if i + 2 < len(old):
            counts[(b, old[i + 2])] -= f
            counts[(a + b, old[i + 2])] += f
        i += 2


def _left_pair_from_old_word(counts: Counter, old, a, b, f) -> None:
    """The student's update while the merged word is built: at each (a, b), the pair on its left and on its right
    and the pair itself subtracted, the left one read from the old word (old[i - 1], old[i]); then the new left pair
    from the word being built and the new right pair added. A count that drops to 0 or below is deleted."""

    def less(pair) -> None:
        counts[pair] -= f
        if counts[pair] <= 0:
            del counts[pair]

    new, i = [], 0
    while i < len(old):
        if i + 1 < len(old) and (old[i], old[i + 1]) == (a, b):
            if i > 0:
                less((old[i - 1], old[i]))
            if i + 2 < len(old):
                less((old[i + 1], old[i + 2]))
            less((a, b))
            new.append(a + b)
            if len(new) > 1:
                counts[(new[-2], new[-1])] += f
            if i + 2 < len(old):
                counts[(a + b, old[i + 2])] += f
            i += 2
        else:
            new.append(old[i])
            i += 1


def _neighbours_from_position_two(counts: Counter, old, a, b, f) -> None:
    """The student's update, one occurrence at a time as the word is merged: the pairs beside it move to the new
    token, but the left one only where ``pos - 1 > 0``, so an occurrence at position 1 keeps its left pair."""
    tokens, pos = list(old), 0
    while pos + 1 < len(tokens):
        if (tokens[pos], tokens[pos + 1]) == (a, b):
            if pos - 1 > 0:
                counts[(tokens[pos - 1], a)] -= f
                counts[(tokens[pos - 1], a + b)] += f
            if pos + 2 < len(tokens):
                counts[(b, tokens[pos + 2])] -= f
                counts[(a + b, tokens[pos + 2])] += f
            tokens[pos : pos + 2] = [a + b]
        pos += 1


def _train_on_offsets(words: Counter, num_merges: int) -> list[tuple[bytes, bytes]]:
    """A loop keeping, per word, each pair's set of byte offsets: after merging (a, b) at offsets M, a pair
    (b, y) at offset o with o - len(a) in M goes to (ab, y) at o - len(a); then a pair (x, a) at o with
    o + len(x) in M goes to (x, ab) at o, unless it already moved."""
    index: dict = {}
    for w in words:
        o = 0
        for x, y in zip(w, w[1:]):
            index.setdefault((x, y), {}).setdefault(w, set()).add(o)
            o += len(x)
    merges: list[tuple[bytes, bytes]] = []
    for _ in range(num_merges):
        total = Counter({p: sum(len(o) * words[w] for w, o in by.items()) for p, by in index.items()})
        total = Counter({p: n for p, n in total.items() if n > 0})
        if not total:
            break
        top = max(total.values())
        a, b = max(p for p, n in total.items() if n == top)
        merges.append((a, b))
        merged = index.pop((a, b))
        for (x, y), by in list(index.items()):
            for w, offsets in by.items():
                here = merged.get(w, set())
                if x == b:
                    for o in [o for o in offsets if o - len(a) in here]:
                        offsets.discard(o)
                        index.setdefault((a + b, y), {}).setdefault(w, set()).add(o - len(a))
                if y == a:
                    for o in [o for o in offsets if o + len(x) in here]:
                        offsets.discard(o)
                        index.setdefault((x, a + b), {}).setdefault(w, set()).add(o)
    return merges


def _train_on_pair_counts(words: Counter, num_merges: int) -> list[tuple[bytes, bytes]]:
    """A loop keeping, per word, a list of its pairs and never its split: after merging (a, b), a pair (x, a)
    becomes (x, ab) when the bytes x+a+b occur in the word, and (b, y) becomes (ab, y) when a+b+y do."""
    held = {w: [(w[i], w[i + 1]) for i in range(len(w) - 1)] for w in words}
    merges: list[tuple[bytes, bytes]] = []
    for _ in range(num_merges):
        total: Counter = Counter()
        for w, pairs in held.items():
            for p in pairs:
                total[p] += words[w]
        if not total:
            break
        top = max(total.values())
        a, b = max(p for p, n in total.items() if n == top)
        merges.append((a, b))
        for w, pairs in held.items():
            text = b"".join(w)
            kept = []
            for x, y in pairs:
                if (x, y) == (a, b):
                    continue
                left = y == a and x + a + b in text
                right = x == b and a + b + y in text
                kept += [(x, a + b)] * left + [(a + b, y)] * right or [(x, y)]
            held[w] = kept
    return merges


def _incremental(counts: Counter, old, new, a, b, f, fault) -> None:
    """The student's incremental update: the word's old pairs out, its new pairs in, and the fault."""
    counts.subtract({p: n * f for p, n in _pairs(old).items()})
    counts.update({p: n * f for p, n in _pairs(new).items()})
    starts = _positions(old, a, b)
    if fault == "left-symbol":  # every a, not only those followed by b
        for i, s in enumerate(old):
            if s == a and i not in starts and i - 1 not in starts:
                if i > 0:
                    counts[(old[i - 1], a)] -= f
                if i + 1 < len(old):
                    counts[(a, old[i + 1])] -= f
    elif fault == "adjacent":  # each of two new tokens side by side adds their pair
        for i in range(len(new) - 1):
            if new[i] == new[i + 1] == a + b and a + b not in old:
                counts[(a + b, a + b)] += f
    elif fault == "overlap-twice" and a == b:  # the loop steps by one, so "aaa" is merged at 0 and at 1
        for i in range(1, len(old) - 1):
            if i - 1 in starts and i not in starts and old[i] == old[i + 1] == a:
                counts[(old[i - 1], a + b)] += f
                if i + 2 < len(old):
                    counts[(a + b, old[i + 2])] += f


class _MaxHeap:
    """A student's max-heap of pairs over a dict of counts, ordered by (count, pair). ``update`` is called after
    the count changed, so it cannot tell a rise from a drop: it only sifts down."""

    def __init__(self, counts: dict) -> None:
        self.counts, self.items, self.where = counts, [], {}

    def _bigger(self, i, j) -> bool:
        return (self.counts[self.items[i]], self.items[i]) > (self.counts[self.items[j]], self.items[j])

    def _swap(self, i, j) -> None:
        self.items[i], self.items[j] = self.items[j], self.items[i]
        self.where[self.items[i]], self.where[self.items[j]] = i, j

    def _sift_up(self, i) -> None:
        while i > 0 and self._bigger(i, (i - 1) // 2):
            self._swap(i, (i - 1) // 2)
            i = (i - 1) // 2

    def _sift_down(self, i) -> None:
        while True:
            best = i
            for child in (2 * i + 1, 2 * i + 2):
                if child < len(self.items) and self._bigger(child, best):
                    best = child
            if best == i:
                return
            self._swap(i, best)
            i = best

    def push(self, pair) -> None:
        self.items.append(pair)
        self.where[pair] = len(self.items) - 1
        self._sift_up(len(self.items) - 1)

    def remove(self, pair) -> None:
        i = self.where.pop(pair)
        last = self.items.pop()
        if i < len(self.items):
            self.items[i] = last
            self.where[last] = i
            self._sift_up(i)
            self._sift_down(self.where[last])

    def update(self, pair) -> None:
        if pair in self.where:
            self._sift_down(self.where[pair])


def _train_with_heap(words: Counter, num_merges: int, skip_first: bool) -> list[tuple[bytes, bytes]]:
    """A loop over a heap of pairs, each pair with the list of words holding it: pop the top, merge it in each
    of its words one occurrence at a time, and move the pairs beside it to the new token; ``skip_first``: the
    left neighbour is moved only when ``pos - 1 > 0``."""
    splits = {w: list(w) for w in words}
    counts: dict = {}
    holders: dict = {}
    for w, f in words.items():
        for pair in zip(w, w[1:]):
            counts[pair] = counts.get(pair, 0) + f
            holders.setdefault(pair, []).append(w)
    heap = _MaxHeap(counts)
    for pair in counts:
        heap.push(pair)

    def drop(pair, f) -> None:
        if pair not in counts:
            return
        counts[pair] -= f
        if counts[pair] == 0:
            if pair in heap.where:
                heap.remove(pair)
            del counts[pair]
        else:
            heap.update(pair)

    def add(pair, w, f) -> None:
        if pair in counts:
            counts[pair] += f
            if w not in holders[pair]:
                holders[pair].append(w)
            heap.update(pair)
        else:
            counts[pair] = f
            holders[pair] = [w]
            heap.push(pair)

    merges: list[tuple[bytes, bytes]] = []
    while len(merges) < num_merges and heap.items:
        a, b = best = heap.items[0]
        heap.remove(best)
        merges.append(best)
        for w in holders[best]:
            tokens, f = splits[w], words[w]
            pos = 0
            while pos + 1 < len(tokens):
                if (tokens[pos], tokens[pos + 1]) == best:
                    if best in counts:
                        counts[best] -= f
                        if counts[best] == 0:
                            del counts[best]
                    if pos - 1 > 0 or (pos == 1 and not skip_first):
                        drop((tokens[pos - 1], a), f)
                        add((tokens[pos - 1], a + b), w, f)
                    if pos + 2 < len(tokens):
                        drop((b, tokens[pos + 2]), f)
                        add((a + b, tokens[pos + 2]), w, f)
                    tokens[pos : pos + 2] = [a + b]
                pos += 1
    return merges


def _best(counts: dict) -> tuple[bytes, bytes] | None:
    """The pair of the highest count above 0, ties to the greatest pair of bytes (CS336's max)."""
    live = [(n, p) for p, n in counts.items() if n > 0]
    return max(live)[1] if live else None


def merge_left_to_right(word: tuple, a: bytes, b: bytes) -> tuple:
    out, i = [], 0
    while i < len(word):
        if i + 1 < len(word) and word[i] == a and word[i + 1] == b:
            out.append(a + b)
            i += 2
        else:
            out.append(word[i])
            i += 1
    return tuple(out)


def _train_adding_the_right_pair(words: Counter, num_merges: int, every_start: bool) -> list[tuple[bytes, bytes]]:
    """no6rainer's and qufy6's updates: each occurrence's neighbours read from the word before the merge.
    ``every_start`` false (no6rainer): the old pair on the right added (``+=``) where it should be subtracted;
    true (qufy6): the neighbours moved at every index where the pair occurs, overlapping ones too (``aaaa`` merging
    ``(a, a)`` at 0, 1 and 2). The merged pair's count is deleted."""
    tokens = {w: tuple(w) for w in words}
    counts: Counter = Counter()
    for w, f in words.items():
        for p in zip(w, w[1:]):
            counts[p] += f
    merges: list[tuple[bytes, bytes]] = []
    while len(merges) < num_merges:
        best = _best(counts)
        if best is None:
            break
        merges.append(best)
        a, b = best
        new = a + b
        for w, f in words.items():
            old = tokens[w]
            if every_start:
                starts = [i for i in range(len(old) - 1) if (old[i], old[i + 1]) == best]
            else:  # the scan moves on by two after a match
                starts, j = [], 0
                while j < len(old) - 1:
                    if (old[j], old[j + 1]) == best:
                        starts.append(j)
                        j += 2
                    else:
                        j += 1
            if not starts:
                continue
            for i in starts:
                if i > 0:
                    counts[(old[i - 1], a)] -= f
                    counts[(old[i - 1], new)] += f
                if i + 2 < len(old):
                    counts[(b, old[i + 2])] += -f if every_start else f
                    counts[(new, old[i + 2])] += f
            tokens[w] = merge_left_to_right(old, a, b)
        del counts[best]
        for p in [p for p, n in counts.items() if n <= 0]:
            del counts[p]
    return merges


def _train_marking_every_start(words: Counter, num_merges: int, collapse: bool) -> list[tuple[bytes, bytes]]:
    """YVSemlani's and hashemelezabi's merges, which take every index where the pair occurs, overlapping ones too.
    ``collapse`` (YVSemlani): the new token written at each index, then the symbol after each popped (from the end),
    so ``aaaa`` merging ``(a, a)`` becomes ``aa``; the word's old pairs subtracted and its new ones added. Else
    (hashemelezabi): a new token appended for each index and the symbols between copied, so ``aaaa`` becomes
    ``aa aa aa``; the pairs counted afresh each step."""
    tokens = {w: list(w) for w in words}
    merges: list[tuple[bytes, bytes]] = []
    while len(merges) < num_merges:
        counts: Counter = Counter()
        for w, f in words.items():
            for p in zip(tokens[w], tokens[w][1:]):
                counts[p] += f
        best = _best(counts)
        if best is None:
            break
        merges.append(best)
        for w in words:
            word = tokens[w]
            found = [i for i in range(len(word) - 1) if (word[i], word[i + 1]) == best]
            if not found:
                continue
            if collapse:
                modified = list(word)
                for i in found:
                    modified[i] = best[0] + best[1]
                for i in reversed([i + 1 for i in found]):
                    modified.pop(i)
            else:
                modified, start = [], 0
                for i in found:
                    modified += word[start:i] + [best[0] + best[1]]
                    start = i + 2
                modified += word[start:]
            tokens[w] = modified
    return merges


def _train_recounting_pairs_beside(words: Counter, num_merges: int) -> list[tuple[bytes, bytes]]:
    """SplashCloud's update: after merging ``(a, b)`` in the words, every counted pair sharing a symbol with it
    (``(x, a)``, ``(b, y)``) is deleted and counted again in the words that held it: as itself where it still occurs,
    as ``(ab, y)`` where the new token stands before ``y``, as ``(x, ab)`` where ``x`` stands before it. A pair of two
    new tokens, ``(ab, ab)``, comes from no such pair and is never counted."""
    tokens = {w: tuple(w) for w in words}
    counts: dict = {}
    holders: dict = {}
    for w, f in words.items():
        for p in zip(w, w[1:]):
            counts[p] = counts.get(p, 0) + f
            if w not in holders.setdefault(p, []):
                holders[p].append(w)
    merges: list[tuple[bytes, bytes]] = []
    while len(merges) < num_merges and counts:
        best = max(counts.items(), key=lambda item: (item[1], item[0]))[0]
        merges.append(best)
        a, b = best
        new = a + b
        for w in holders.pop(best):
            tokens[w] = merge_left_to_right(tokens[w], a, b)
        del counts[best]
        for bp in list(counts):
            if not (bp[0] == b or bp[1] == a):
                continue
            old_holders = holders.pop(bp)
            del counts[bp]
            for w in old_holders:
                t = tokens[w]
                for i in range(len(t) - 1):
                    if (t[i], t[i + 1]) == bp:
                        made = bp
                    elif t[i] == new and b == bp[0] and t[i + 1] == bp[1]:
                        made = (new, bp[1])
                    elif t[i] == bp[0] and t[i + 1] == new and a == bp[1]:
                        made = (bp[0], new)
                    else:
                        continue
                    counts[made] = counts.get(made, 0) + words[w]
                    if w not in holders.setdefault(made, []):
                        holders[made].append(w)
    return merges


def _train_with_a_leftover_index(words: Counter, num_merges: int) -> list[tuple[bytes, bytes]]:
    """Thinkin999's loop: the loop over the words holding the chosen pair names each word ``index``, but its body
    uses ``i``, left over from the loop that counted the pairs (the last word's index): the pairs beside each
    occurrence move by the last word's count, and the merged word is stored over the last word."""
    bytes_list = [list(w) for w in words]
    bytes_counts = list(words.values())
    pairs: dict = {}
    where: dict = {}
    for i, word in enumerate(bytes_list):
        for j in range(len(word) - 1):
            pairs[(word[j], word[j + 1])] = pairs.get((word[j], word[j + 1]), 0) + bytes_counts[i]
            where.setdefault((word[j], word[j + 1]), set()).add(i)
    merges: list[tuple[bytes, bytes]] = []
    for _ in range(num_merges):
        if not pairs:
            break
        best = max(pairs.items(), key=lambda x: (x[1], x[0]))[0]
        if pairs[best] <= 0:
            break
        merges.append(best)
        pairs[best] = 0
        for index in sorted(where.get(best, ())):
            cur = bytes_list[index]
            new_word, j = [], 0
            while j < len(cur):
                if j < len(cur) - 1 and (cur[j], cur[j + 1]) == best:
                    joined = cur[j] + cur[j + 1]
                    new_word.append(joined)
                    for gone, made in (
                        ((cur[j - 1], cur[j]), (cur[j - 1], joined)) if j > 0 else (None, None),
                        ((cur[j + 1], cur[j + 2]), (joined, cur[j + 2])) if j < len(cur) - 2 else (None, None),
                    ):
                        if gone is None:
                            continue
                        pairs[gone] = pairs.get(gone, 0) - bytes_counts[i]  # i: the last word's index
                        where.setdefault(gone, set()).discard(index)
                        pairs[made] = pairs.get(made, 0) + bytes_counts[i]
                        where.setdefault(made, set()).add(index)
                    j += 2
                else:
                    new_word.append(cur[j])
                    j += 1
            bytes_list[i] = new_word
    return merges


def _train_moving_both_sides(words: Counter, num_merges: int) -> list[tuple[bytes, bytes]]:
    """KleistvonLiu's update, made from the merged word at each new token: the old pair on each side subtracted (taken
    as ``(b, a)`` where the neighbour is another new token) and the new one added, so ``ab ab`` adds ``(ab, ab)`` once
    from each side and subtracts ``(b, a)`` twice; a count that drops to 0 or below is removed (and no longer
    subtracted from), and the merged pair loses one count per occurrence, so what the update left there stays."""
    tokens = {w: tuple(w) for w in words}
    counts: Counter = Counter()
    for w, f in words.items():
        for p in zip(w, w[1:]):
            counts[p] += f

    def less(pair, f):
        if pair in counts:
            counts[pair] -= f
            if counts[pair] <= 0:
                del counts[pair]

    merges: list[tuple[bytes, bytes]] = []
    while len(merges) < num_merges and counts:
        best = max(counts.items(), key=lambda item: (item[1], item[0]))[0]
        merges.append(best)
        a, b = best
        new = a + b
        total = 0
        for w, f in words.items():
            old, merged, spots, i = tokens[w], [], [], 0
            while i < len(old):  # the merge, with the places of the new tokens in the merged word
                if i + 1 < len(old) and (old[i], old[i + 1]) == best:
                    spots.append(len(merged))
                    merged.append(new)
                    i += 2
                else:
                    merged.append(old[i])
                    i += 1
            if not spots:
                continue
            tokens[w] = tuple(merged)
            total += len(spots) * f
            for k in spots:
                if k > 0:
                    left = merged[k - 1]
                    less((b, a) if k - 1 in spots else (left, a), f)
                    counts[(left, new)] += f
                if k + 1 < len(merged):
                    right = merged[k + 1]
                    less((b, a) if k + 1 in spots else (b, right), f)
                    counts[(new, right)] += f
        counts[best] -= total
        if counts[best] <= 0:
            del counts[best]
    return merges


def _train_with_old_neighbours_at_every_place(words: Counter, num_merges: int) -> list[tuple[bytes, bytes]]:
    """MatthewZhang473's loop: the merged pair's count deleted, then, word by word, at every i where the pair occurs
    (``for i in range(len(token) - 1)``, no skip after a match) the pair on the left moved from (old[i-1], a) to
    (old[i-1], ab) and the one on the right from (b, old[i+2]) to (ab, old[i+2]), read off the old word; a word's
    changes added at once, and a count that drops to 0 or below deleted. The words merged left to right."""
    tokens = {tuple(w): f for w, f in words.items()}
    counts: dict = {}
    for token, f in tokens.items():
        for p in zip(token, token[1:]):
            counts[p] = counts.get(p, 0) + f
    merges = []
    for _ in range(num_merges):
        if not counts:
            break
        pair = max(counts.items(), key=lambda x: (x[1], x[0]))[0]
        a, b = pair
        joined = a + b
        merges.append(pair)
        del counts[pair]
        updates = {}
        for token, f in tokens.items():
            local: Counter = Counter()
            found = False
            for i in range(len(token) - 1):
                if (token[i], token[i + 1]) == pair:
                    found = True
                    if i >= 1:
                        local[(token[i - 1], token[i])] -= f
                        local[(token[i - 1], joined)] += f
                    if i < len(token) - 2:
                        local[(token[i + 1], token[i + 2])] -= f
                        local[(joined, token[i + 2])] += f
            if found:
                for p, v in local.items():
                    counts[p] = counts.get(p, 0) + v
                    if counts[p] <= 0:
                        del counts[p]
                out, i = [], 0
                while i < len(token):
                    if i + 1 < len(token) and (token[i], token[i + 1]) == pair:
                        out.append(joined)
                        i += 2
                    else:
                        out.append(token[i])
                        i += 1
                updates[token] = (tuple(out), f)
        for old, (new, f) in updates.items():
            del tokens[old]
            tokens[new] = f
    return merges


def _train_on_ids_recording_sums(
    words: Counter, num_merges: int, meant: bool = False
) -> tuple[dict[int, bytes], list[tuple[bytes, bytes]]]:
    """chenhr56's loop: the words as token ids, the pairs counted afresh each step, the pair of the highest count and
    then the smallest ids taken (a heap of (-count, (a, b))), each merge given the next id; the new token's entry in the
    vocabulary is ``a + b`` over the ids, an int, and the merge recorded as ``(vocab[a], vocab[b])``: bytes for a byte,
    the int for a merged token, saved as ``bytes(n)``. ``meant``: the vocabulary's entry ``vocab[a] + vocab[b]``."""
    vocab: dict[int, bytes | int] = {i: bytes([i]) for i in range(256)} | {256: EOT.encode()}
    held = Counter()
    for w, f in words.items():
        held[tuple(b[0] for b in w)] += f
    merges = []
    for _ in range(num_merges):
        pairs: Counter = Counter()
        for w, f in held.items():
            for p in zip(w, w[1:]):
                pairs[p] += f
        if not pairs:
            break
        a, b = min(pairs, key=lambda p: (-pairs[p], p))
        new = len(vocab)
        vocab[new] = vocab[a] + vocab[b] if meant else a + b
        merges.append(tuple(t if isinstance(t, bytes) else bytes(t) for t in (vocab[a], vocab[b])))
        merged = Counter()
        for w, f in held.items():
            out, i = [], 0
            while i < len(w):
                if i + 1 < len(w) and (w[i], w[i + 1]) == (a, b):
                    out.append(new)
                    i += 2
                else:
                    out.append(w[i])
                    i += 1
            merged[tuple(out)] += f
        held = merged
    return {i: t if isinstance(t, bytes) else bytes(t) for i, t in vocab.items()}, merges


def _train_first_position(text: str, num_merges: int) -> list[tuple[bytes, bytes]]:
    """OnlyHero5's loop: the pre-tokens of each document in the text's order (not counted as words), the pairs counted
    afresh each step with the position where each is first met, and of the pairs of the highest count the one met
    first taken; each merge applied to every pre-token."""
    sequences = [
        [bytes([b]) for b in w.encode("utf-8")] for doc in text.split(EOT) for w in regex.findall(GPT2_PAT, doc)
    ]
    merges = []
    for _ in range(num_merges):
        counts: dict = {}
        first: dict = {}
        position = 0
        for seq in sequences:
            for pair in zip(seq, seq[1:]):
                if pair not in counts:
                    first[pair] = position
                    counts[pair] = 0
                counts[pair] += 1
                position += 1
        if not counts:
            break
        top = max(counts.values())
        a, b = min((p for p, n in counts.items() if n == top), key=lambda p: first[p])
        merges.append((a, b))
        for k, seq in enumerate(sequences):
            out, i = [], 0
            while i < len(seq):
                if i + 1 < len(seq) and (seq[i], seq[i + 1]) == (a, b):
                    out.append(a + b)
                    i += 2
                else:
                    out.append(seq[i])
                    i += 1
            sequences[k] = out
    return merges


def _train_collapsing_runs(words: Counter, num_merges: int) -> list[tuple[bytes, bytes]]:
    """Verma001manik's loop: for each word holding the pair, every index i where it occurs (overlapping ones too) is
    set to the new token and every i + 1 popped in reverse; the word's old pairs subtracted and its new pairs added;
    the pair of the highest count, then the greatest pair, taken."""
    tokens = {tuple(w): f for w, f in words.items()}
    counts: Counter = Counter()
    for token, f in tokens.items():
        for p in zip(token, token[1:]):
            counts[p] += f
    merges = []
    for _ in range(num_merges):
        if not counts:
            break
        pair, _ = max(counts.items(), key=lambda kv: (kv[1], kv[0]))
        merges.append(pair)
        merged = {}
        for token, f in tokens.items():
            found = [i for i in range(len(token) - 1) if (token[i], token[i + 1]) == pair]
            if not found:
                merged[token] = merged.get(token, 0) + f
                continue
            out = list(token)
            for i in found:
                out[i] = pair[0] + pair[1]
            for i in reversed([i + 1 for i in found]):
                out.pop(i)
            for p in zip(token, token[1:]):
                counts[p] -= f
            for p in zip(out, out[1:]):
                counts[p] += f
            merged[tuple(out)] = merged.get(tuple(out), 0) + f
        tokens = merged
    return merges


def _train_subtracting_the_merged_left(words: Counter, num_merges: int) -> list[tuple[bytes, bytes]]:
    """teddiw's loop: the greatest pair of the highest count taken; each word holding it scanned left to right and
    merged in place, at each occurrence the pair on its left (of the word as merged so far) subtracted if the counts
    hold that key at all, the pair on its right subtracted; after the scan every pair of the merged word holding the
    new token added; the merged pair's key deleted at the end of the step."""
    tokens = {tuple(w): f for w, f in words.items()}
    counts: dict = {}
    for token, f in tokens.items():
        for p in zip(token, token[1:]):
            counts[p] = counts.get(p, 0) + f
    merges = []
    for _ in range(num_merges):
        if not counts:
            break
        top = max(counts.values())
        pair = max(p for p, n in counts.items() if n == top)
        joined = pair[0] + pair[1]
        merges.append(pair)
        for token in list(tokens):
            if not any(p == pair for p in zip(token, token[1:])):
                continue
            f = tokens.pop(token)
            word, i = token, 0
            while i < len(word) - 1:
                if word[i : i + 2] == pair:
                    if i > 0 and word[i - 1 : i + 1] in counts:
                        counts[word[i - 1 : i + 1]] -= f
                    if i < len(word) - 2:
                        counts[word[i + 1 : i + 3]] -= f
                    word = word[:i] + (joined,) + word[i + 2 :]
                i += 1
            for p in zip(word, word[1:]):
                if joined in p:
                    counts[p] = counts.get(p, 0) + f
            tokens[word] = tokens.get(word, 0) + f
        del counts[pair]
    return merges


def _train_on_recorded_positions(words: Counter, num_merges: int) -> list[tuple[bytes, bytes]]:
    """antonfefilov's loop: pair2pos[pair] a set of (word_id, i) filled once from the words, freq_pairs their counts;
    the greatest pair of the highest count taken, its places sorted from the last back, each checked
    (tokens[i:i + 2] == [a, b], else skipped), merged in place, the pairs beside it discarded at their places and
    the new ones added at theirs; no other place is ever moved."""
    tokens = [list(w) for w in words]
    freq = [f for f in words.values()]
    where: dict = {}
    counts: Counter = Counter()
    for w, word in enumerate(tokens):
        for i in range(len(word) - 1):
            where.setdefault((word[i], word[i + 1]), set()).add((w, i))
            counts[(word[i], word[i + 1])] += freq[w]
    merges = []
    while len(merges) < num_merges and counts:
        top = max(counts.values())
        a, b = max(p for p, n in counts.items() if n == top)
        ab = a + b
        for w, i in sorted(where.get((a, b), set()), reverse=True):
            word = tokens[w]
            if i >= len(word) - 1 or word[i] != a or word[i + 1] != b:
                continue
            if i > 0:
                where.get((word[i - 1], a), set()).discard((w, i - 1))
                counts[(word[i - 1], a)] -= freq[w]
                where.setdefault((word[i - 1], ab), set()).add((w, i - 1))
                counts[(word[i - 1], ab)] += freq[w]
            if i < len(word) - 2:
                where.get((b, word[i + 2]), set()).discard((w, i + 1))
                counts[(b, word[i + 2])] -= freq[w]
                where.setdefault((ab, word[i + 2]), set()).add((w, i))
                counts[(ab, word[i + 2])] += freq[w]
            word[i : i + 2] = [ab]
        where.pop((a, b), None)
        counts.pop((a, b), None)
        counts = Counter({p: n for p, n in counts.items() if n != 0})
        merges.append((a, b))
    return merges


def _train_on_sets_of_pairs(words: Counter, num_merges: int) -> list[tuple[bytes, bytes]]:
    """chengkai-dai's loop: each pass counts the pairs afresh, each word's pairs taken by ``get_pairs`` as a set (so a
    pair twice in a word adds the word's count once), the greatest pair of the highest count taken and every word
    merged left to right."""

    def get_pairs(word):
        return {(word[i], word[i + 1]) for i in range(len(word) - 1)}

    merges = []
    for _ in range(num_merges):
        pair_counts: Counter = Counter()
        for word, count in words.items():
            for pair in get_pairs(word):
                pair_counts[pair] += count
        if not pair_counts:
            break
        best = max(pair_counts.items(), key=lambda x: (x[1], x[0]))[0]
        merges.append(best)
        new_words: Counter = Counter()
        for word, count in words.items():
            new_words[merge_left_to_right(word, *best)] += count
        words = new_words
    return merges


def _train_recounting_the_cut_word(words: Counter, num_merges: int) -> list[tuple[bytes, bytes]]:
    """she-is-automatic's loop: for each word holding the pair, all its pairs subtracted, the word merged by a scan
    that appends the last symbol only when ``word[-2:] != best_pair``, and all the merged word's pairs added."""
    word_freqs: Counter = Counter(words)
    pair_freqs: Counter = Counter()
    for word, freq in word_freqs.items():
        for i in range(len(word) - 1):
            pair_freqs[word[i], word[i + 1]] += freq
    merges = []
    while len(merges) < num_merges and pair_freqs:
        top = max(pair_freqs.values())
        best = max(p for p, f in pair_freqs.items() if f == top)
        merges.append(best)
        affected = [(w, f) for w, f in word_freqs.items() if any(w[i : i + 2] == best for i in range(len(w) - 1))]
        for word, freq in affected:
            for i in range(len(word) - 1):
                pair_freqs[word[i], word[i + 1]] -= freq
                if pair_freqs[word[i], word[i + 1]] <= 0:
                    del pair_freqs[word[i], word[i + 1]]
            new, i = [], 0
            while i < len(word) - 1:
                if word[i : i + 2] == best:
                    new.append(best[0] + best[1])
                    i += 2
                else:
                    new.append(word[i])
                    i += 1
            if word[-2:] != best:
                new.append(word[-1])
            for i in range(len(new) - 1):
                pair_freqs[new[i], new[i + 1]] += freq
            del word_freqs[word]
            word_freqs[tuple(new)] += freq
    return merges


def _train_never_resetting(words: Counter, num_merges: int) -> list[tuple[bytes, bytes]]:
    """kanda-mashiro's loop: ``counts`` made before the loop; each pass adds every word's pairs to it, takes the
    greatest pair of the highest count and merges every word left to right; ``counts`` is never emptied."""
    splits = {w: list(w) for w in words}
    counts: Counter = Counter()
    merges = []
    for _ in range(num_merges):
        for w, f in words.items():
            for pair in zip(splits[w], splits[w][1:]):
                counts[pair] += f
        if not counts:
            break
        best = max(counts.items(), key=lambda x: (x[1], x[0]))[0]
        merges.append(best)
        for w in words:
            splits[w] = list(merge_left_to_right(tuple(splits[w]), *best))
    return merges


def _train_with_lazy_heap(words: Counter, num_merges: int) -> list[tuple[bytes, bytes]]:
    """DAMI211's loop: a ``heapq`` of (-count, pair) over ``pair_freq``; an entry whose count is not the pair's is
    skipped when popped; at each occurrence the pairs beside it move to the new token and only the new pair is pushed
    (the old one, whose count fell, is not), so a pair whose count fell has no entry until it rises again."""
    seqs = [(list(w), f) for w, f in words.items()]
    pair_freq: Counter = Counter()
    for seq, f in seqs:
        for i in range(len(seq) - 1):
            pair_freq[(seq[i], seq[i + 1])] += f
    heap = [(-f, p) for p, f in pair_freq.items()]
    heapq.heapify(heap)
    merges = []
    for _ in range(num_merges):
        best = None
        while heap:
            neg, candidate = heapq.heappop(heap)
            if pair_freq.get(candidate, 0) == -neg and -neg > 0:
                best = candidate
                break
        if best is None:
            break
        merges.append(best)
        a, b = best
        new_token = a + b
        for k, (seq, f) in enumerate(seqs):
            if a not in seq:
                continue
            new_seq: list[bytes] = []
            i = 0
            while i < len(seq):
                if i < len(seq) - 1 and seq[i] == a and seq[i + 1] == b:
                    if new_seq:
                        left = new_seq[-1]
                        pair_freq[(left, a)] -= f
                        pair_freq[(left, new_token)] += f
                        heapq.heappush(heap, (-pair_freq[(left, new_token)], (left, new_token)))
                    if i + 2 < len(seq):
                        right = seq[i + 2]
                        pair_freq[(b, right)] -= f
                        pair_freq[(new_token, right)] += f
                        heapq.heappush(heap, (-pair_freq[(new_token, right)], (new_token, right)))
                    new_seq.append(new_token)
                    i += 2
                else:
                    new_seq.append(seq[i])
                    i += 1
            seqs[k] = (new_seq, f)
        del pair_freq[best]
    return merges


def _train_moving_left_pairs_first(words: Counter, num_merges: int) -> list[tuple[bytes, bytes]]:
    """pikaxinge's loop: bpe_cache the pair counts, index the set of sequence ids holding each pair (never shrunk); the
    greatest pair of the highest count taken and popped; each sequence on its index merged in place (the index not
    advanced after a merge), recording (new_seq[i - 1], new_seq[i]) and (new_seq[i + 1], new_seq[i + 2]) before each
    merge; then each recorded left pair moved to the new token, then each right one, an old pair subtracted only if
    still in bpe_cache (popped at 0)."""
    sequences = [tuple(w) for w in words]
    count_of = list(words.values())
    cache: dict = {}
    index: dict = {}
    for seq_id, seq in enumerate(sequences):
        for i in range(len(seq) - 1):
            cache[(seq[i], seq[i + 1])] = cache.get((seq[i], seq[i + 1]), 0) + count_of[seq_id]
            index.setdefault((seq[i], seq[i + 1]), set()).add(seq_id)
    merges = []
    while len(merges) < num_merges and cache:
        pair, top = max(cache.items(), key=lambda x: (x[1], x[0]))
        if top <= 0:
            break
        merges.append(pair)
        new_token = pair[0] + pair[1]
        affected = index.get(pair, set()).copy()
        cache.pop(pair, None)
        index.pop(pair, None)
        for seq_id in affected:
            count = count_of[seq_id]
            prefix, suffix = [], []
            new_seq = list(sequences[seq_id])
            i = 0
            while i < len(new_seq) - 1:
                if new_seq[i] == pair[0] and new_seq[i + 1] == pair[1]:
                    if i > 0:
                        prefix.append((new_seq[i - 1], new_seq[i]))
                    if i < len(new_seq) - 2:
                        suffix.append((new_seq[i + 1], new_seq[i + 2]))
                    new_seq[i : i + 2] = [new_token]
                else:
                    i += 1
            sequences[seq_id] = tuple(new_seq)
            for old, new in [(p, (p[0], new_token)) for p in prefix] + [(p, (new_token, p[1])) for p in suffix]:
                if old in cache:
                    cache[old] -= count
                    if cache[old] <= 0:
                        cache.pop(old, None)
                cache[new] = cache.get(new, 0) + count
                index.setdefault(new, set()).add(seq_id)
    return merges


def _train_on_substring_counts(words: Counter, num_merges: int) -> list[tuple[bytes, bytes]]:
    """Jingxu-Li's loop: pair_freq_cache from the words, substring_freq_cache the count of every substring
    ``b''.join(token[i:j])`` of every word (times its count), both made once; perform_merge takes the greatest pair of
    the highest count and builds a new dict: the merged pair skipped, a pair (y, c) with y the merged pair's right
    symbol replaced by (xy, c) with the substring count of xy + c (kept as it was where that is 0), a pair (c, x)
    likewise, any other pair kept; token_freq is never changed."""
    pair_freq: dict = {}
    for token, freq in words.items():
        for i in range(len(token) - 1):
            pair_freq[(token[i], token[i + 1])] = pair_freq.get((token[i], token[i + 1]), 0) + freq
    substring: dict = {}
    for token, freq in words.items():
        for i in range(len(token)):
            for j in range(i + 1, len(token) + 1):
                key = b"".join(token[i:j])
                substring[key] = substring.get(key, 0) + freq
    merges = []
    while len(merges) < num_merges and pair_freq:
        best = max(pair_freq.items(), key=lambda x: (x[1], x[0]))[0]
        merges.append(best)
        merged = best[0] + best[1]
        new_freq: dict = {}
        for pair, freq in pair_freq.items():
            if pair == best:
                continue
            if pair[0] == best[1]:
                new_pair = (merged, pair[1])
            elif pair[1] == best[0]:
                new_pair = (pair[0], merged)
            else:
                new_freq[pair] = freq
                continue
            found = substring.get(b"".join(new_pair), 0)
            if found > 0:
                new_freq[new_pair] = found
            else:
                new_freq[pair] = freq
        pair_freq = new_freq
    return merges


RELABELLED = (
    "ids-shifted",
    "loop-variable",
    "chr-vocab",
)  # a vocabulary that does not map the ids to the bytes counted


def _relabelled_run(text: str, num_merges: int, fault: str) -> tuple[dict[int, bytes], list[tuple[bytes, bytes]]]:
    """A loop on token ids, right on the ids it counts (a byte's id its value, each merge the next id from 257), whose
    merges are written through a vocabulary that maps the ids to other bytes (:data:`RELABELLED`)."""
    words = Counter({tuple(b[0] for b in w): n for w, n in word_counts(text).items()})  # bytes as their values
    splits = {w: list(w) for w in words}
    merged: list[tuple[int, int]] = []
    i = 0
    for i in range(num_merges):  # noqa: B007 (i is read after the loop, as the student reads it)
        counts: Counter = Counter()
        for w, f in words.items():
            for p in zip(splits[w], splits[w][1:]):
                counts[p] += f
        if not counts:
            break
        ids = {k: bytes([k]) for k in range(256)}
        for k, (a, b) in enumerate(merged):
            ids[257 + k] = ids[a] + ids[b]
        best = max(counts, key=lambda p: (counts[p], ids[p[0]], ids[p[1]]))
        new = 257 + len(merged)
        merged.append(best)
        for w in words:
            word, out, j = splits[w], [], 0
            while j < len(word):
                if j + 1 < len(word) and (word[j], word[j + 1]) == best:
                    out.append(new)
                    j += 2
                else:
                    out.append(word[j])
                    j += 1
            splits[w] = out
    if fault == "ids-shifted":  # the special token first: byte b at id b + 1, but the text counted as b
        vocab = {0: EOT.encode()} | {b + 1: bytes([b]) for b in range(256)}
    elif fault == "loop-variable":  # rebuilt after training: i is the merge loop's, not this loop's
        vocab = {0: EOT.encode()}
        for _ in range(256):
            vocab[len(vocab)] = bytes([i])
    else:
        vocab = {b: chr(b).encode("utf-8") for b in range(256)} | {256: EOT.encode()}
    for k, (a, b) in enumerate(merged):
        vocab[257 + k] = vocab.get(a, b"") + vocab.get(b, b"")
    return vocab, [(vocab.get(a, b""), vocab.get(b, b"")) for a, b in merged]


ONLY_ADDED = (
    "never-subtracted",
    "never-subtracted-own-right",
)  # the update adds the new pairs, never takes old ones off


def _train_only_adding(words: Counter, num_merges: int, own_right: bool) -> list[tuple[bytes, bytes]]:
    """A loop counting the pairs once, then after each merge adding only the pairs the new token makes (its left
    neighbour and its right one, read off the word before the merge; with ``own_right`` the right one built from
    ``tokens[i + 1]``), the merged pair's count deleted; the pairs the merge destroyed keep their counts."""
    splits = {w: list(w) for w in words}
    counts: Counter = Counter()
    for w, f in words.items():
        for p in zip(w, w[1:]):
            counts[p] += f
    merges: list[tuple[bytes, bytes]] = []
    while len(merges) < num_merges and counts:
        best = max(counts, key=lambda p: (counts[p], p))
        merges.append(best)
        new = best[0] + best[1]
        for w, f in words.items():
            tokens, out, i = splits[w], [], 0
            while i < len(tokens):
                if i < len(tokens) - 1 and (tokens[i], tokens[i + 1]) == best:
                    out.append(new)
                    if i > 0:
                        counts[(tokens[i - 1], new)] += f
                    if i < len(tokens) - 2:
                        counts[(new, tokens[i + 1] if own_right else tokens[i + 2])] += f
                    i += 2
                else:
                    out.append(tokens[i])
                    i += 1
            splits[w] = out
        del counts[best]
    return merges


WORD_HEAP = "lazy-heap-words"  # a heap of (-count, id, id) pushed as each merged word's pairs are added back


def _train_with_a_word_heap(words: Counter, num_merges: int) -> list[tuple[bytes, bytes]]:
    """A loop on token ids (a byte's id its value, each merge 256 + its index) with a min-heap of (-count, pair of
    ids): a popped entry whose count is not the pair's is skipped; for each word holding the chosen pair, all its
    pairs are subtracted, the word merged, and its new pairs added and pushed with their counts at that moment."""
    seqs = [[b[0] for b in w] for w in words]
    freqs = list(words.values())
    vocab = {i: bytes([i]) for i in range(256)}
    counts: Counter = Counter()
    where: dict = {}
    for k, seq in enumerate(seqs):
        for p in zip(seq, seq[1:]):
            counts[p] += freqs[k]
            where.setdefault(p, set()).add(k)
    heap = [(-n, p) for p, n in counts.items()]
    heapq.heapify(heap)
    merges: list[tuple[bytes, bytes]] = []
    for step in range(num_merges):
        while heap:
            n, best = heapq.heappop(heap)
            if counts.get(best, 0) == -n:
                break
        else:
            break
        new = 256 + step
        vocab[new] = vocab[best[0]] + vocab[best[1]]
        merges.append((vocab[best[0]], vocab[best[1]]))
        for k in sorted(where.get(best, set())):
            seq, f = seqs[k], freqs[k]
            for p in zip(seq, seq[1:]):
                counts[p] -= f
                where[p].discard(k)
            out, i = [], 0
            while i < len(seq):
                if i + 1 < len(seq) and (seq[i], seq[i + 1]) == best:
                    out.append(new)
                    i += 2
                else:
                    out.append(seq[i])
                    i += 1
            seqs[k] = out
            for p in zip(out, out[1:]):
                counts[p] += f
                where.setdefault(p, set()).add(k)
                heapq.heappush(heap, (-counts[p], p))
        counts.pop(best, None)
        where.pop(best, None)
    return merges
