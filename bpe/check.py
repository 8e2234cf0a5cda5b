"""Check a student's BPE run against ours: the first merge where the runs part, and the likely cause.

Students who write their own BPE (the Hugging Face course's loop, minbpe, Stanford CS336's assignment
1) get merges that differ somewhere from the expected ones. :func:`compare` trains our run on the same
corpus, compares merge by merge as byte pairs (so a run on characters and a run on bytes compare
alike), and at the first difference reads both pairs' counts in our run at that step. The cause is
told in one sentence, tried in this order:

1. both pairs have the same count: a tie broken by another rule (the rule that picks the student's
   pair is found by training with it);
2. our corpus never has the student's pair at that step: whitespace kept on words, special tokens
   not split out of the text, characters instead of a 256-byte base, or another pre-tokenizer;
3. the student's pair has a smaller count: the text lowercased, overlapping pairs counted once
   (``aaa`` holds ``(a, a)`` twice), special tokens not split out, or words cut differently (the words
   that count differently are listed);
4. the same merges but another vocabulary size: special tokens or the base alphabet counted
   differently.

:func:`best_settings` tries our settings (tie rule x pre-tokenizer x byte base) and ranks them by how
many of the student's merges each reproduces, within a time budget.

Our side splits special tokens out of the text before pre-tokenizing, as CS336 asks.

Left out: reading the student's files (:mod:`bpe.formats.student_runs`) and drawing the result.
"""

from __future__ import annotations

import re
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from . import pre_tokenizers as pt
from .config import BYTE_LEVEL, PRE_TOKENIZERS, TIE_RULE_SENTENCES, TIE_RULES
from .formats.cs336 import BytePair
from .formats.student_runs import END_OF_WORD, StudentRun
from .history import History
from .pre_tokenizers import Corpus
from .tie_order import token_bytes
from .trainer import run_training

MAX_SEARCH_CHARS = 200_000  # corpora larger than this are not searched over settings
SEARCH_SECONDS = 4.0


@dataclass(frozen=True)
class Setup:
    """Our settings for a run: the tie rule, how text is cut into words, and whether words start as
    bytes (GPT-2's byte characters, a 256-byte base) or as characters."""

    tie_break: str = "first"
    pre_tokenizer: str = "whitespace"
    byte_base: bool = False

    def describe(self) -> str:
        base = "bytes" if self.byte_base else "characters"
        return f"tie rule {self.tie_break}, pre-tokenizer {self.pre_tokenizer}, {base}"


def raw_word_counts(corpus: Corpus, pre_tokenizer: str, special_tokens: Sequence[str] = ()) -> dict[str, int]:
    """Word counts of the text as typed (not byte-mapped): special tokens split out first, then the text
    cut by ``pre_tokenizer``; word counts are taken as given."""
    if isinstance(corpus, Mapping):
        return pt.check_word_counts(corpus)
    texts = [corpus] if isinstance(corpus, str) else list(corpus)
    if special_tokens:
        pattern = re.compile("|".join(re.escape(s) for s in sorted(special_tokens, key=len, reverse=True)))
        texts = [part for text in texts for part in pattern.split(text)]
    cut = "whitespace" if pre_tokenizer == "sennrich" else pre_tokenizer
    counts: dict[str, int] = {}
    for word, n in pt.count_words(texts, cut).items():
        if cut in BYTE_LEVEL:
            word = pt.symbols_to_bytes(word).decode("utf-8")
        counts[word] = counts.get(word, 0) + n
    if not counts:
        raise ValueError("The corpus is empty: paste some text or word counts, or pick a preset.")
    return counts


def _scheme(setup: Setup) -> str:
    if setup.byte_base:
        return "gpt2"  # word counts given to a byte-level scheme are byte-mapped, whatever cut them
    return "sennrich" if setup.pre_tokenizer == "sennrich" else "whitespace"


def train_setup(
    corpus: Corpus, setup: Setup, num_merges: int, special_tokens: Sequence[str] = (), end_of_word: bool = False
) -> History:
    """Our run with ``setup`` for ``num_merges`` merges. ``end_of_word``: words split as subword-nmt splits
    them (the last character carries ``</w>``)."""
    counts = raw_word_counts(corpus, setup.pre_tokenizer, special_tokens)
    scheme = _scheme(setup)
    words: Mapping = counts
    if end_of_word:
        words = {(*w[:-1], w[-1] + END_OF_WORD): n for w, n in counts.items()}
        scheme = "whitespace"
    return run_training(
        words, pre_tokenizer=scheme, num_merges=num_merges, tie_break=setup.tie_break, special_tokens=special_tokens
    )


def history_bytes(history: History) -> list[BytePair]:
    """A run's merges as byte pairs."""
    scheme = history.config.pre_tokenizer
    return [
        (token_bytes(a, scheme), token_bytes(b, scheme))
        for a, b in (history.pair_str((m[0], m[1])) for m in history.merges)
    ]


def agreed(ours: Sequence[BytePair], theirs: Sequence[BytePair]) -> int:
    """How many merges two runs share before they part."""
    n = 0
    for a, b in zip(ours, theirs):
        if a != b:
            break
        n += 1
    return n


def show_bytes(token: bytes) -> str:
    """A token as a student reads it: its text where it is UTF-8, else Python's bytes notation."""
    try:
        text = token.decode("utf-8")
    except UnicodeDecodeError:
        return repr(token)
    return text.replace(" ", "␣").replace("\n", "↵").replace("\t", "→")


def show_pair(pair: BytePair) -> str:
    return f"({show_bytes(pair[0])}, {show_bytes(pair[1])})"


@dataclass(frozen=True)
class Comparison:
    """Where a student's run leaves ours and why.

    ``step`` is the first merge that differs (None when every merge agrees); ``ours``/``theirs`` the two
    pairs there, ``our_count``/``their_count`` both pairs' counts in our run before that merge; ``kind``
    names the cause (``tie``, ``case``, ``overlap``, ``count``, ``whitespace``, ``specials``, ``byte-base``,
    ``missing``, ``vocab-size``, ``shorter``, ``same``), ``cause`` says it in one sentence, ``rule`` is the
    tie rule that reproduces the student's choice, ``words`` the words that count differently
    (word, our count, the student's count).
    """

    agreed: int
    step: int | None
    ours: BytePair | None
    theirs: BytePair | None
    our_count: int
    their_count: int
    kind: str
    cause: str
    history: History
    setup: Setup
    rule: str | None = None
    words: tuple[tuple[str, int, int], ...] = ()
    our_merges: tuple[BytePair, ...] = ()

    def around(self, student: StudentRun, before: int = 2, after: int = 2) -> list[tuple[int, str, str]]:
        """(step, our merge, the student's merge) around the first difference, as text."""
        if self.step is None:
            return []
        rows = []
        for k in range(max(1, self.step - before), self.step + after + 1):
            ours = self.our_merges[k - 1] if k <= len(self.our_merges) else None
            theirs = student.merges[k - 1] if k <= len(student.merges) else None
            if ours is None and theirs is None:
                break
            rows.append((k, show_pair(ours) if ours else "", show_pair(theirs) if theirs else ""))
        return rows


def _to_ours(pair: BytePair, history: History) -> tuple[str, str] | None:
    """The student's byte pair as our token strings (None if our symbols cannot spell it)."""
    if history.config.pre_tokenizer in BYTE_LEVEL:
        return (pt.bytes_to_symbols(pair[0]), pt.bytes_to_symbols(pair[1]))
    try:
        return (pair[0].decode("utf-8"), pair[1].decode("utf-8"))
    except UnicodeDecodeError:
        return None


def _occurrences(split: Sequence[str], pair: tuple[str, str], overlap: bool = True) -> int:
    n, i = 0, 0
    while i < len(split) - 1:
        if split[i] == pair[0] and split[i + 1] == pair[1]:
            n += 1
            i += 1 if overlap else 2
        else:
            i += 1
    return n


def _pair_words(history: History, step: int, pair: tuple[str, str] | None, overlap: bool = True) -> dict[str, int]:
    """Word (as typed) -> the pair's count in it (occurrences x frequency) after ``step`` merges."""
    if pair is None:
        return {}
    scheme = history.config.pre_tokenizer
    out = {}
    for word, split in history.splits_at(step).items():
        n = _occurrences(split, pair, overlap)
        if n:
            text = pt.symbols_to_bytes(word).decode("utf-8", "replace") if scheme in BYTE_LEVEL else word
            out[text.replace(" ", "␣")] = n * history.freqs[history.word_index[word]]
    return out


def _words_that_differ(ours: dict[str, int], theirs: dict[str, int], limit: int = 8) -> tuple:
    rows = [(w, ours.get(w, 0), theirs.get(w, 0)) for w in dict.fromkeys([*ours, *theirs])]
    rows = [r for r in rows if r[1] != r[2]]
    rows.sort(key=lambda r: -abs(r[1] - r[2]))
    return tuple(rows[:limit])


def _tie_rule(corpus, student, setup, specials, step) -> str | None:
    """Of our other tie rules, the one that reproduces the most of the student's merges, at least the
    first ``step``."""
    best, best_n = None, step - 1
    for rule in TIE_RULES:
        if rule == setup.tie_break:
            continue
        other = Setup(rule, setup.pre_tokenizer, setup.byte_base)
        run = history_bytes(train_setup(corpus, other, len(student.merges), specials, student.end_of_word))
        n = agreed(run, student.merges)
        if n > best_n:
            best, best_n = rule, n
    return best


def compare(
    corpus: Corpus,
    student: StudentRun,
    setup: Setup,
    special_tokens: Sequence[str] = (),
    alternative: Setup | None = None,
) -> Comparison:
    """Compare ``student`` with our run on ``corpus`` with ``setup``. ``alternative``: settings that
    reproduce more of the student's run (from :func:`best_settings`), used to list the words that count
    differently."""
    specials = tuple(special_tokens)
    history = train_setup(corpus, setup, len(student.merges), specials, student.end_of_word)
    ours = history_bytes(history)
    n = agreed(ours, student.merges)
    base = dict(history=history, setup=setup, agreed=n, our_merges=tuple(ours))
    if n == len(student.merges):
        return _same_merges(history, student, base, specials)
    step = n + 1
    theirs = student.merges[n]
    if n == len(ours):
        return Comparison(
            step=step, ours=None, theirs=theirs, our_count=0, their_count=0, kind="shorter",
            cause=f"Our run stops after {n} merges ({history.stop_sentence() or 'no pair left'}) while the student's "
            f"goes on with {show_pair(theirs)}: their corpus is bigger or cut into other words.",
            **base,
        )  # fmt: skip
    counts = history.pair_counts_after(n)
    our_pair = history.pair_str(history.merges[n][:2])
    their_pair = _to_ours(theirs, history)
    our_count = counts.get(our_pair, 0)
    their_count = counts.get(their_pair, 0) if their_pair is not None else 0
    head = f"At step {step} we merge {show_pair(ours[n])} ({our_count}) and the student {show_pair(theirs)}"
    fields = dict(step=step, ours=ours[n], theirs=theirs, our_count=our_count, their_count=their_count, **base)
    words: tuple = ()
    if alternative is not None:
        alt = train_setup(corpus, alternative, step, specials, student.end_of_word)
        words = _words_that_differ(_pair_words(history, n, their_pair), _pair_words(alt, n, _to_ours(theirs, alt)))
    if their_count == our_count:
        rule = _tie_rule(corpus, student, setup, specials, step)
        if rule is None:
            cause = f"{head} ({their_count}): a tie, broken by a rule none of ours follows."
        else:
            cause = (
                f"{head} ({their_count}): a tie broken by another rule. Ours is '{setup.tie_break}'; the "
                f"'{rule}' rule ({TIE_RULE_SENTENCES[rule]}) reproduces the student's choice."
            )
        return Comparison(kind="tie", cause=cause, rule=rule, **fields)
    if their_count < our_count and _lowercase_reproduces(corpus, student, setup, specials, n):
        cause = (
            f"{head} ({their_count} here): a count that differs, from case. The student's run lowercases the text "
            "first: on the lowercased corpus our run makes this merge too, since words that differ only in case "
            "count together."
        )
        return Comparison(kind="case", cause=cause, words=words, **fields)
    if their_count == 0:
        kind, cause = _missing(head, theirs, student, setup, specials, corpus)
        return Comparison(kind=kind, cause=cause, words=words, **fields)
    if our_pair[0] == our_pair[1]:
        per_word = _pair_words(history, n, our_pair)
        once = _pair_words(history, n, our_pair, overlap=False)
        if sum(once.values()) < our_count and sum(once.values()) <= their_count:
            rows = _words_that_differ(per_word, once)
            cause = (
                f"{head} ({their_count}): a count that differs, from overlapping pairs. In words like "
                f"'{rows[0][0]}' the pair {show_pair(ours[n])} occurs overlapping; we count every adjacent pair "
                f"({our_count}), the student's count ({sum(once.values())} without overlaps) lets their pair win."
            )
            return Comparison(kind="overlap", cause=cause, **{**fields, "words": rows})
    special = _inside_special(theirs[0] + theirs[1], specials, student, corpus)
    if special:
        cause = (
            f"{head} ({their_count} here): a count that differs. The pair also occurs inside the special token "
            f"{special}, which we split out of the text before counting: the student's run did not split special "
            "tokens out."
        )
        return Comparison(kind="specials", cause=cause, words=words, **fields)
    cause = (
        f"{head} ({their_count} here): a count that differs, so the student's words are cut or counted "
        "differently (pre-tokenization, whitespace kept on words, case, special tokens not split out)."
    )
    return Comparison(kind="count", cause=cause, words=words, **fields)


def _lowercase_reproduces(corpus, student, setup, specials, n: int) -> bool:
    """True if our run on the lowercased corpus makes more of the student's merges than ``n``."""
    if isinstance(corpus, Mapping):
        lowered: Corpus = {}
        for word, count in corpus.items():
            lowered[word.lower()] = lowered.get(word.lower(), 0) + count  # type: ignore[index, union-attr]
    elif isinstance(corpus, str):
        lowered = corpus.lower()
    else:
        lowered = [text.lower() for text in corpus]
    if lowered == corpus:
        return False
    run = history_bytes(train_setup(lowered, setup, n + 1, specials, student.end_of_word))
    return agreed(run, student.merges) > n


def _inside_special(joined: bytes, specials, student, corpus) -> str | None:
    """The special token of the text that holds ``joined``, if any."""
    text = corpus if isinstance(corpus, str) else " ".join(corpus) if not isinstance(corpus, Mapping) else ""
    for special in (*specials, *student.special_tokens):
        if joined.decode("utf-8", "replace") in special and special in text:
            return special
    return None


def _missing(head, theirs, student, setup, specials, corpus) -> tuple[str, str]:
    """Why our corpus never has the student's pair at this step."""
    joined = theirs[0] + theirs[1]
    if any(c in joined for c in b" \t\n\r"):
        return "whitespace", (
            f"{head}, a pair our corpus never has: it holds whitespace, which our '{setup.pre_tokenizer}' "
            "pre-tokenizer never keeps on a word like that. The student's words keep their whitespace "
            "(another pre-tokenizer, or none)."
        )
    special = _inside_special(joined, specials, student, corpus)
    if special:
        return "specials", (
            f"{head}, a pair our corpus never has: it is part of the special token {special}, which we split "
            "out of the text before counting. The student's run did not split special tokens out."
        )
    chars = [p.decode("utf-8", "strict") if _is_utf8(p) else None for p in theirs]
    if setup.byte_base and any(c is not None and len(c) < len(p) for c, p in zip(chars, theirs)):
        return "byte-base", (
            f"{head}, a pair our corpus never has: the student's run treats a character of several bytes as one "
            "symbol, so it starts from characters, not from the 256 bytes as ours does."
        )
    if not setup.byte_base and any(c is None for c in chars):
        return "byte-base", (
            f"{head}, a pair our corpus never has: the student's pair cuts a character's bytes apart, so their run "
            "starts from the 256 bytes and ours from characters."
        )
    if student.byte_level != setup.byte_base:
        theirs_base = "bytes (a 256-byte base)" if student.byte_level else "characters, not bytes"
        return "byte-base", (
            f"{head}, a pair our corpus never has: the student's run starts from {theirs_base}, ours from "
            f"{'bytes' if setup.byte_base else 'characters'}, so a character of several bytes is one symbol on "
            "one side and several on the other."
        )
    return "missing", (f"{head}, a pair our corpus never has at this step: a different byte base or pre-tokenizer.")


def _is_utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _same_merges(history, student, base, specials) -> Comparison:
    """Every merge agrees: compare the vocabulary sizes."""
    n = len(student.merges)
    new = {a + b for a, b in history_bytes(history)}
    alphabet = 256 if student.byte_level else history.num_base - len(specials)
    ours = alphabet + len(specials) + len(new)
    fields = dict(step=None, ours=None, theirs=None, our_count=0, their_count=0, **base)
    if student.vocab_size is None or student.vocab_size == ours:
        return Comparison(kind="same", cause=f"All {n} merges agree with ours.", **fields)
    diff = student.vocab_size - ours
    if diff == -len(specials):
        why = f"the student's vocabulary leaves out the {len(specials)} special token{'s' if len(specials) > 1 else ''}"
    elif diff == len(specials) or diff > 0 and diff <= len(student.special_tokens):
        why = "the student's vocabulary counts special tokens that ours does not"
    elif student.byte_level and student.vocab_size - len(new) < 256:
        why = "the student's base alphabet is smaller than the 256 bytes"
    else:
        why = "special tokens or the base alphabet are counted differently"
    return Comparison(
        kind="vocab-size",
        cause=f"All {n} merges agree, but the student's vocabulary has {student.vocab_size} tokens and ours "
        f"{ours} ({alphabet} base + {len(specials)} special + {len(new)} merged): {why}.",
        **fields,
    )


def best_settings(
    corpus: Corpus, student: StudentRun, special_tokens: Sequence[str] = (), seconds: float = SEARCH_SECONDS
) -> list[tuple[Setup, int]]:
    """Our settings ranked by how many of the student's merges they reproduce, best first (ties in trying
    order). Stops at the time budget, or when one reproduces every merge; empty for large corpora."""
    size = sum(map(len, corpus)) if not isinstance(corpus, str) else len(corpus)
    if size > MAX_SEARCH_CHARS:
        return []
    deadline = time.monotonic() + seconds
    results: list[tuple[Setup, int]] = []
    bases = (True, False)
    cuts = PRE_TOKENIZERS if not isinstance(corpus, Mapping) else ("whitespace",)
    for byte_base in bases:
        for cut in cuts:
            if cut == "sennrich" and (byte_base or not student.end_of_word):
                continue
            for rule in TIE_RULES:
                setup = Setup(rule, cut, byte_base)
                try:
                    run = history_bytes(
                        train_setup(corpus, setup, len(student.merges), special_tokens, student.end_of_word)
                    )
                except ValueError:
                    continue
                results.append((setup, agreed(run, student.merges)))
                if results[-1][1] == len(student.merges) or time.monotonic() > deadline:
                    return sorted(results, key=lambda r: -r[1])
    return sorted(results, key=lambda r: -r[1])
