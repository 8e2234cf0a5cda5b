"""Words marked otherwise than with ``</w>``: another end-of-word symbol (``_``, ``$``) or a space symbol before
each word, found in a student's run and compared as if our words were marked so.

Course assignments that follow BPE for translation mark each word's end with ``_`` or ``$`` instead of ``</w>``, or
start it with a ``' '`` symbol of its own (Hacettepe's AIN442: ``' ' + word + '_'``). No setting of ours makes those
symbols, so such a run parts from ours at its first merge holding one and reads as "not from this corpus".
:func:`find_marks` takes the marks the run's tokens carry (a symbol that ends tokens, a space that starts them), marks
our whitespace-split words so (the text with ``'_'`` after each word; word counts, each word as
``' ' + word + '_'``, where a space starts each) and keeps the marking when our run on
those words follows the student's further than on our own words, or when the mark is a symbol our text never holds
and the run only ever holds it at a token's end (or start); :func:`marks_told` says it at the step where the runs
part, with the verdict on the marked words after it.

Left out: the comparison itself (:mod:`bpe.check`) and a run with ``</w>`` itself (:mod:`bpe.check_missing`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from .check_notation import show_pair
from .check_result import Comparison
from .check_setup import Setup, history_bytes, raw_word_counts, setup_agreed, train_setup
from .check_work import MergeCost, Work
from .formats.student_runs import StudentRun
from .pre_tokenizers import MARK_ALIASES, Corpus
from .text_cleanings import cleaned, cleaning_sentence, cleanings_for, covers
from .text_filters import FILTERS, extra_letters, extra_marks, filtered, kept_sentence

END_MARKS = (
    "_",
    "$",
    "#",
    "@",
    "~",
    ">",
    "|",
    "%",
    "&",
    "-",
    "\u2581",
)  # end-of-word symbols seen in students' code, and kin ("▁" as SentencePiece writes it)
SPACE_END = " "  # a space character ending every word but a line's last (split(' ') on each line, word + ' ')
START_MARKS = (" ", "_", "\u2581", "<")  # a symbol put before each word's first character ('▁' as SentencePiece)
# an end-of-word symbol written as a tag: '</end>', '<w/>', '<eow>', '<\\w>', or with its '>' left off ('</w')
TAG = re.compile(r"<[/\\\w]{1,8}/?>$|</\w{1,8}$")
_START_TAG = re.compile(r"</?\w{1,8}>")  # a word-start symbol written as a tag: '<w>', '<s>', '<bow>', even '</w>'
FILTERED = (("a-z",), ("A-Za-z",))  # the filters tried with the marks (:mod:`bpe.text_filters`), lowercasing first
ALIAS = MARK_ALIASES  # a mark of several characters as one character in our words and the run, told back as the mark
NUMBER_WORDS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight"}


@dataclass(frozen=True)
class Marks:
    """The marks a run's words carry (``''``: none), our words marked so, and how far our run on them follows.
    ``run``: the student's run as compared on those words (a mark of several characters written as one);
    ``cleaning``: how the text was cleaned before it was marked (:mod:`bpe.text_cleanings`), if at all."""

    end: str
    start: str
    counts: Corpus  # the text with each word marked, or word counts where a space starts each word
    setup: Setup
    agreed: int
    run: StudentRun | None = None
    cleaning: tuple[str, ...] = ()


def _texts(corpus: Corpus) -> list[str]:
    if isinstance(corpus, Mapping):
        return list(corpus)
    return [corpus] if isinstance(corpus, str) else list(corpus)


class Spelled(str):
    """A mark of several characters put after each word as those characters (``list(word + '</w>')``), not as one
    symbol: the student's first merges join them back, so it stands in our words as written."""


def spells(merges: Sequence[tuple[bytes, bytes]], tokens: set[str], mark: str, text: str) -> bool:
    """Whether the run's words end in ``mark`` written as its characters: a token ends in it, the text never holds
    it, and a merge joins the start of it from two pieces ('<' and '/' of '</w>')."""
    if len(mark) < 2 or mark in text or not any(t.endswith(mark) for t in tokens):
        return False
    return any(a and b and mark.startswith((a + b).decode("utf-8", "replace")) for a, b in merges)


def _start_tags(merges: Sequence[tuple[bytes, bytes]], tokens: set[str], text: str) -> list[str]:
    """The tags starting tokens (``'<w>'``) that the text never holds and that mark words' starts: a base symbol no
    merge makes, merged with two symbols or more after it (a special token kept as a word, ``'<s>'``, is made from
    its characters and merged with ``'</w>'`` alone)."""
    made = {(a + b).decode("utf-8", "replace") for a, b in merges}
    found = []
    # our own '</w>' starts words only where nothing ends in it ('</w> ' + ' '.join(word), the mark put first): no
    # merge takes it as its right symbol, no merged token ends in it (words run together, each still ending in it)
    ours = (
        {"</w>"}
        if any(b == b"</w>" for _, b in merges) or any(t.endswith("</w>") and t != "</w>" for t in made)
        else set()
    )
    for tag in sorted({m.group() for t in tokens if (m := _START_TAG.match(t)) and m.group() not in text} - ours):
        after = {b for a, b in merges if a.decode("utf-8", "replace") == tag}
        if tag not in made and len(after) >= 2:
            found.append(tag)
    return found


def _aliased_mark(mark: str, which: str) -> bool:
    """Whether the mark stands in our words as a character the text never holds: a mark of several characters (but
    one spelled out), or a space ending words (a text split on whitespace would lose it)."""
    return not isinstance(mark, Spelled) and len(mark) > 1 or which == "end" and mark == SPACE_END


def _symbol(mark: str, which: str) -> str:
    """The one character a mark stands as in our words."""
    return ALIAS[which] if _aliased_mark(mark, which) else mark


def _marked(corpus: Corpus, start: str, end: str, specials: Sequence[str] = ()) -> Corpus:
    """Our words marked: the corpus with ``start`` before and ``end`` after each whitespace-split word (still a
    text, so the causes read from a text, faulty readers and classes of wrong counts, are tried on it too); with a
    space to start each, word counts (a space cannot start a word of a text split on whitespace); a space to end
    each, on every word of a line but its last."""
    if end == SPACE_END and not start and not isinstance(corpus, Mapping):
        end = _symbol(end, "end")
        mark = lambda text: re.sub(r"\S+(?=[^\S\n]+\S)", lambda m: m.group() + end, text)  # noqa: E731
        return mark(corpus) if isinstance(corpus, str) else [mark(t) for t in corpus]
    start, end = _symbol(start, "start"), _symbol(end, "end")
    if start == " " or isinstance(corpus, Mapping):
        return {f"{start}{w}{end}": n for w, n in raw_word_counts(corpus, "whitespace", specials).items()}
    mark = lambda text: re.sub(r"\S+", lambda m: start + m.group() + end, text)  # noqa: E731
    return mark(corpus) if isinstance(corpus, str) else [mark(t) for t in corpus]


def _aliased(student: StudentRun, start: str, end: str) -> StudentRun:
    """The student's run with a mark of several characters written as the one character it stands as."""
    swaps = [(m.encode(), _symbol(m, w).encode()) for m, w in ((start, "start"), (end, "end")) if _aliased_mark(m, w)]
    if not swaps:
        return student

    def alias(token: bytes) -> bytes:
        for old, new in swaps:
            token = token.replace(old, new)
        return token

    return replace(student, merges=tuple((alias(a), alias(b)) for a, b in student.merges))


def told_back(text: str, marks: Marks) -> str:
    """A sentence about the aliased words with each mark written as itself."""
    for which, mark in (("start", marks.start), ("end", marks.end)):
        if _aliased_mark(mark, which):
            text = text.replace(ALIAS[which], mark)
    return text


def _only_at(tokens: set[str], mark: str, end: bool, start: bool = False) -> bool:
    """True if every token holding ``mark`` holds it once at its end (``end``) or start (``start``), or at both when
    the mark is both (``'_' + word + '_'``), and nowhere else."""
    holding = [t for t in tokens if mark in t]

    def only(t: str) -> bool:
        rest = t[len(mark) :] if start and t.startswith(mark) else t
        rest = rest[: -len(mark)] if end and rest.endswith(mark) else rest
        return mark not in rest and rest != t

    return bool(holding) and all(only(t) for t in holding)


def find_marks(corpus: Corpus, student: StudentRun, setup: Setup, specials: Sequence[str] = ()) -> Marks | None:
    """The marking of our words that the student's words carry, or None: a run on bytes, a run with ``</w>`` or
    without another mark, or a marking that explains nothing. Each marking tried is one training on our words,
    spent from the allowance ``marks`` (:mod:`bpe.check_work`)."""
    # a run of characters compared on bytes, or a run of bytes, may still mark its words (a course's byte trainer
    # that starts each word with a symbol of its own): its marks are compared on characters
    if student.end_of_word or not student.merges:
        return None
    if setup.pre_tokenizer == "none":  # a run compared with no words at all: its symbols mark no word
        return None
    try:
        tokens = {t.decode("utf-8") for pair in student.merges for t in pair}
    except UnicodeDecodeError:
        return None
    text = "".join(_texts(corpus))
    tags = sorted({m.group() for t in tokens if (m := TAG.search(t)) and m.group() not in text})
    spelled = [Spelled(m) for m in {*tags, "</w>"} if spells(student.merges, tokens, m, text)]
    if student.byte_level and (tags or spelled):
        return None  # a tag in a run of bytes is written into the text as its characters (bpe.check_stream)
    # a tag starting tokens ('<w>' before each word's first character), which the text never holds
    start_tags = _start_tags(student.merges, tokens, text)
    if any("</w>" in t for t in tokens) and not spelled:
        if not start_tags:
            return None
        # our own end symbol, with a start tag of the student's before each word (or '</w>' itself put first)
        ends = [] if "</w>" in start_tags else ["</w>"]
    else:
        ends = [*tags, *(m for m in END_MARKS if any(t.endswith(m) for t in tokens))] if not spelled else spelled
    # a space ending words, on a text cut at whitespace: the cut that keeps each word's whitespace must not do as well
    spaced = setup.pre_tokenizer in ("whitespace", "sennrich") and not isinstance(corpus, Mapping)
    if spaced and any(t.endswith(SPACE_END) and t.strip() for t in tokens):
        ends.append(SPACE_END)
    # a start mark starts a merged token ('_t', a pair (_, t)): a '_' only ever merged after a symbol ends words; a tag
    # starts with '<' but marks no start
    joined = {(a + b).decode("utf-8") for a, b in student.merges}
    joined = {t for t in joined if not any(t.endswith(m) or m.startswith(t) for m in tags)}
    starts = [*start_tags, *(m for m in START_MARKS if any(t.startswith(m) for t in joined))]
    if setup.pre_tokenizer not in ("whitespace", "sennrich"):  # a space starts words of other cuts by itself
        starts = [m for m in starts if m != " "]
    if student.byte_level:  # a run of bytes is looked at for a start mark or a space ending words only: a token
        ends = [
            m for m in ends if m == SPACE_END
        ]  # ending in '>' or '_' there is a special token's bytes or the text's
    if not ends and not starts:
        return None
    plain = _plain_agreed(corpus, student, setup, specials)
    if plain >= len(student.merges):  # the run is ours as compared: no marking to look for (a correct run costs none)
        return None
    # the marks are tried on the lowercased text too: so is the plain run, which lowercasing alone may make (a
    # special token glued to a word, '<|endoftext|>', ends tokens in '>', which is no mark then)
    lowered = cleaned(corpus, ("lower",))
    if lowered is not None and _texts(lowered) != _texts(corpus):
        plain = max(plain, _plain_agreed(lowered, student, setup, specials))
        if plain >= len(student.merges):
            return None
    marked = Setup(setup.tie_break, "whitespace", False)
    suffix = _suffix_agreed(corpus, setup, student, specials) if SPACE_END in ends else 0
    work = Work("marks")
    best: Marks | None = None
    best_only = False
    # the marks may show only on a text the student cleaned too: lowercased, kept to a-z (named after the marks, on
    # the marked words); then, for the marking found, the ways of bpe.text_cleanings (said with the marks, which go
    # on the cleaned words)
    for end in (*ends, ""):
        for start in (*starts, ""):
            # one symbol at both ends of a word ('_' + word + '_') only where the run holds it nowhere else
            both = end == start and _only_at(tokens, end, True, True)
            if not end and not start or end == start and not both or work.spent() or end == SPACE_END and start:
                continue
            run = _aliased(student, start, end)
            # a-z with the letters and punctuation marks the run's tokens hold, as a course's own filter keeps them
            marks = extra_marks(tokens, end + start)
            kept = (("a-z", extra_letters(tokens) + marks),) if marks else ()
            filters = (*FILTERED, *kept)
            basic = ((), ("lower",), *filters, ("lower", "strip-ends"))  # the last as notebooks clean
            reach = {c: _marked_agreed(c, start, end, specials, marked, run, work, corpus) for c in basic}
            agreed = max(reach.values())
            if end == SPACE_END and agreed <= suffix:
                continue  # each word keeps all its whitespace: a cut of ours
            # said with the marks (see below), the commoner cleaning where a filter keeping marks goes as far
            edges = reach[basic[-1]] > max(reach[c] for c in basic[:-1] if c not in kept)
            edges = edges and all(reach[basic[-1]] >= reach[c] for c in kept)
            only = all(_only_at(tokens, m, m == end, m == start) for m in (end, start) if m)
            clean = only and all(m not in text for m in (end, start) if m)
            # on equal reach, marks the run holds only at a token's end (or start) go first
            if (agreed > plain or clean) and (best is None or (agreed, only) > (best.agreed, best_only)):
                best, best_only = Marks(end, start, _marked(corpus, start, end, specials), marked, agreed, run), only
                if edges:  # the comparison on the marked words finds lowercasing, not the ends stripped
                    words = _marked(cleaned(corpus, ("strip-ends",)), start, end, specials)
                    best = replace(best, counts=words, cleaning=("strip-ends",))
                elif max(reach[f] for f in filters) > max(reach[()], reach[("lower",)]):  # nor a filter (marks too)
                    chosen = max(filters, key=lambda f: reach[f])  # on equal reach the first
                    words = _marked(_filtered(corpus, chosen), start, end, specials)
                    best = replace(best, counts=words, cleaning=chosen)
    if best is None:  # the marks may explain nothing until the text is cleaned too (punctuation cut off first)
        for end in ends:
            run = _aliased(student, "", end)
            plain_marks = Marks(end, "", _marked(corpus, "", end, specials), marked, plain, run)
            found = _cleaned_marks(corpus, student, specials, plain_marks, work)
            if found.agreed > (plain if end != SPACE_END else max(plain, suffix)) and (
                best is None or found.agreed > best.agreed
            ):
                best = found
        return best
    if best.agreed >= len(student.merges):
        return best
    return _cleaned_marks(corpus, student, specials, best, work)


def _plain_agreed(corpus: Corpus, student: StudentRun, setup: Setup, specials: Sequence[str]) -> int:
    """How many of the run's merges ours makes on our words unmarked (on characters too: marks are compared so)."""
    plain = setup_agreed(corpus, setup, student.merges, specials)
    if setup.byte_base and plain < len(student.merges):
        plain = max(plain, setup_agreed(corpus, replace(setup, byte_base=False), student.merges, specials))
    return plain


def _suffix_agreed(corpus: Corpus, setup: Setup, student: StudentRun, specials: Sequence[str]) -> int:
    """How many of the run's merges ours makes with words cut keeping the whitespace after each (on characters)."""
    return setup_agreed(corpus, Setup(setup.tie_break, "space-suffix", False), student.merges, specials)


def _cleaned_marks(corpus, student, specials, best: Marks, work: Work) -> Marks:
    """``best`` on the text cleaned in the way of :mod:`bpe.text_cleanings` that lets our run on the marked words
    follow the student's furthest, if one goes further."""
    how, most = (), best.agreed
    for names in (*cleanings_for("whitespace", False, ()), (FIRST_LINE,)):
        if work.spent():
            break
        n = _marked_agreed(names, best.start, best.end, specials, best.setup, best.run, work, corpus)
        if n > most:
            how, most = names, n
    said = tuple(n for n in how if n != "lower")  # lowercasing is found on the marked words
    if not said:
        return best
    return replace(best, counts=_marked(_cleaned(corpus, said), best.start, best.end, specials), agreed=most,
                   cleaning=said)  # fmt: skip


FIRST_LINE = "first-line"  # only the text's first line read (input(), f.readline()), then marked
_FIRST_LINE_SAID = (
    "reads only the first line of the text (input() or f.readline() reads one line, not the file), so the words of "
    "every later line are never counted"
)


def _cleaned(corpus: Corpus, names: tuple[str, ...]) -> Corpus | None:
    """The corpus cleaned by ``names`` (:func:`bpe.text_cleanings.cleaned`), or only its first line read."""
    if names != (FIRST_LINE,):
        return cleaned(corpus, names)
    texts = _texts(corpus)
    return texts[0].split("\n", 1)[0] if texts and not isinstance(corpus, Mapping) else None


def _filtered(corpus: Corpus, names: tuple[str, ...]) -> Corpus | None:
    """The corpus through the filter ``names[0]``, with the characters ``names[1]`` kept besides a-z if given."""
    return filtered(corpus, names[0], names[1] if names[0] == "a-z" and len(names) > 1 else "")


def _cleaning_said(names: tuple[str, ...]) -> str:
    if names and names[0] == "a-z" and len(names) > 1:
        return kept_sentence(names[1])
    if names and names[0] in FILTERS:
        return FILTERS[names[0]][0]
    return _FIRST_LINE_SAID if names == (FIRST_LINE,) else cleaning_sentence(names)


def _marked_agreed(names, start, end, specials, marked, run, work, corpus) -> int:
    """How many of the run's merges our run makes on the text cleaned by ``names`` and marked so (spent from
    ``work``)."""
    if work.spent():
        return 0
    clean = corpus if not names else _filtered(corpus, names) if names[0] in FILTERS else _cleaned(corpus, names)
    if clean is None:
        return 0
    tokens = [t for pair in run.merges for t in pair]
    if names not in ((), ("lower",), (FIRST_LINE,)) and not covers(
        clean, tokens, start + end + "".join(ALIAS.values())
    ):
        return 0  # it drops a character the student merges
    try:
        words = raw_word_counts(_marked(clean, start, end, specials), "whitespace")
    except ValueError:
        return 0
    n = setup_agreed(words, marked, run.merges)
    work.spend(MergeCost([tuple(c.encode() for c in w) for w in words], run.merges).replayed(n))
    return n


def marks_sentence(marks: Marks) -> str:
    """What the student's words carry (and how the text was cleaned first, if it was), said to the student."""
    if marks.start == " ":
        start = (
            f"start with a space symbol of their own ('{marks.start}' before each word's first character, as when "
            "each word keeps the space before it)"
        )
    else:
        start = f"start with the symbol '{marks.start}' (a word-start symbol before each word's first character)"
    end = f"end in the symbol '{marks.end}' where ours end in '</w>' (another end-of-word symbol)"
    if marks.end == "</w>":
        end = "end in '</w>' as ours do"
    if isinstance(marks.end, Spelled):
        chars = ", ".join(f"'{c}'" for c in marks.end)
        end = (
            f"end in '{marks.end}' split into its {NUMBER_WORDS.get(len(marks.end), len(marks.end))} characters ({chars}), "
            f"not one symbol (list(word + '{marks.end}') splits it so), and your first merges join them back"
        )
    if marks.end == SPACE_END:
        end = (
            "end in a space character where ours end in '</w>' (each line cut at single spaces, split(' '), and "
            "each word kept with the space after it), and a line's last word in none"
        )
    said = (
        f"your words {start} and {end}" if marks.start and marks.end else f"your words {start if marks.start else end}"
    )
    if marks.start and not marks.end:
        said += ", with no end-of-word symbol"
    if marks.start == "</w>":
        said += " ('</w>' marks a word's end: put it after the word's last character, not before its first)"
    return said


def _unaliased(result: Comparison, marks: Marks) -> Comparison:
    """``result`` on the aliased words, with each mark of several characters written as itself."""
    if marks.run is None or not _aliased_mark(marks.start, "start") and not _aliased_mark(marks.end, "end"):
        return result
    swaps = [
        (ALIAS[w].encode(), m.encode()) for w, m in (("start", marks.start), ("end", marks.end)) if _aliased_mark(m, w)
    ]

    def back(pair):
        if pair is None:
            return None
        out = []
        for token in pair:
            for new, old in swaps:
                token = token.replace(new, old)
            out.append(token)
        return tuple(out)

    return replace(result, cause=told_back(result.cause, marks), ours=back(result.ours), theirs=back(result.theirs),
                   our_merges=tuple(back(p) for p in result.our_merges))  # fmt: skip


def _collision_told(marks: Marks, n: int) -> str:
    """Where a mark is one character the text holds inside its words too (``'_'`` in ``count_pairs``), the step
    where our run on words marked so first parts from our run on words marked by a symbol of its own: from there the
    two are one symbol in the student's words, and counted together; '' where they never part in ``n`` merges."""
    if isinstance(marks.counts, Mapping):  # word counts: a space starts each word, no plain character
        return ""
    found = None
    for which, mark in (("start", marks.start), ("end", marks.end)):
        if not mark or isinstance(mark, Spelled) or _aliased_mark(mark, which) or mark == SPACE_END:
            continue
        word = next((w for w in raw_word_counts(marks.counts, "whitespace") if mark in w.strip(mark)), None)
        if word is not None:
            found = which, mark, word
            break
    if found is None:
        return ""
    which, mark, word = found
    start, end = (ALIAS["start"], marks.end) if which == "start" else (marks.start, ALIAS["end"])
    apart = history_bytes(train_setup(_unmarked_as(marks, start, end), marks.setup, n))
    alias = ALIAS[which].encode()
    apart = [(a.replace(alias, mark.encode()), b.replace(alias, mark.encode())) for a, b in apart]
    together = history_bytes(train_setup(marks.counts, marks.setup, n))
    step = next((k for k, (a, b) in enumerate(zip(together, apart), start=1) if a != b), None)
    if step is None:
        return ""
    return (
        f" Your mark '{mark}' is also a character of the text (as in '{word.strip(mark)}'), and in your words the two "
        f"are one symbol, counted together: with the mark a symbol of its own, our run on your words parts from "
        f"this one at step {step} ({show_pair(together[step - 1])} where {show_pair(apart[step - 1])}). Write the "
        "mark as a symbol no text holds, such as '</w>'."
    )


def _unmarked_as(marks: Marks, start: str, end: str) -> Corpus:
    """The text the marks were put on, marked with ``start`` and ``end`` instead."""
    texts = marks.counts if not isinstance(marks.counts, str) else [marks.counts]
    out = [re.sub(r"\S+", lambda m: _remark(m.group(), marks, start, end), t) for t in texts]
    return out[0] if isinstance(marks.counts, str) else out


def _remark(word: str, marks: Marks, start: str, end: str) -> str:
    """One marked word marked with ``start`` and ``end`` instead."""
    if marks.start and word.startswith(marks.start):
        word = start + word[len(marks.start) :]
    if marks.end and word.endswith(marks.end):
        word = word[: -len(marks.end)] + end
    return word


def marks_told(
    corpus: Corpus, student: StudentRun, setup: Setup, specials: Sequence[str], marks: Marks, inner: Comparison
) -> Comparison:
    """The verdict on a run whose words carry other marks: where the runs part, the marks said there when the
    student's pair holds one, then ``inner``'s verdict on our words marked so; else ``inner``'s, the marks after it."""
    inner = _unaliased(inner, marks)
    plain = _plain_agreed(corpus, student, setup, specials)
    step = plain + 1
    theirs = student.merges[plain] if plain < len(student.merges) else None
    said = marks_sentence(marks)
    held = theirs is not None and any(
        (marks.end and t.decode("utf-8", "replace").endswith(marks.end))
        or (isinstance(marks.end, Spelled) and t.decode("utf-8", "replace") in marks.end)
        or (marks.start and t.decode("utf-8", "replace").startswith(marks.start))
        for t in theirs
    )
    if theirs is None:  # the run is ours under the settings compared
        return inner
    # where the runs part at the same step on the marked words, the marks are no cause there; where they part later
    # on them, the marks made the step's choice though the pair holds none (a count they changed)
    if not held and inner.step is not None and inner.step <= step:
        return replace(inner, cause=f"{inner.cause} Compared on our words marked as yours: {said}.")
    history = train_setup(corpus, setup, step, specials)
    ours_run = history_bytes(history)
    ours = ours_run[plain] if plain < len(ours_run) else None
    head = (
        f"At step {step} we merge {show_pair(ours)} and you {show_pair(theirs)}"
        if ours is not None
        else f"At step {step} our run has no pair left to merge and you merge {show_pair(theirs)}"
    )
    then = (
        f"on our words marked so, your run equals ours: all {len(student.merges)} merges agree"
        if inner.step is None
        else f"on our words marked so, {inner.cause[0].lower()}{inner.cause[1:]}"
    )
    cleaning = f"; and your run {_cleaning_said(marks.cleaning)}" if marks.cleaning else ""
    cause = f"{head}: {said}, a marking no setting of ours makes{cleaning}. Compared {then}"
    cause = cause if cause.endswith(".") else cause + "."
    cause += _collision_told(marks, len(student.merges))
    return Comparison(
        agreed=plain, step=step, ours=ours, theirs=theirs, our_count=0, their_count=0, kind="word-marks",
        cause=cause, history=history, setup=setup, our_merges=tuple(ours_run),
        later_kind=inner.kind if inner.step is not None else None, later_step=inner.step,
    )  # fmt: skip
