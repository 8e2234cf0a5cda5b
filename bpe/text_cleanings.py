"""Texts cleaned before counting in ways other than keeping letters: punctuation cut off or stripped from words,
whitespace collapsed, accents dropped, sentences split, a space written as ``'Ġ'`` in UTF-8, words dropped, the text
uppercased, or the text cut into words by a pattern of the student's own.

People who write BPE "from scratch" often clean the text first, each in a few common ways: ``text.upper()``, ``re.findall(r"\\w+|
[^\\s\\w]+", text)`` (punctuation cut off as words of its own; with ``[^\\w\\s]``, each mark a word of its own),
``re.sub(r"[^\\w\\s-]", "_", text)`` (each mark written ``'_'``), ``word.strip(punctuation)`` (and words left empty dropped; or ``word.strip(string.punctuation)``, ASCII marks only), ``re.sub(r"[^a-z\\s]", "", text)`` (every character
but a-z and whitespace deleted: ``café`` read as ``caf``), ``" ".join(text.split())`` (every run of whitespace one space), ``unicodedata.normalize("NFKD", ...)`` with
the combining marks dropped (``é`` read as ``e``) or kept as symbols of their own (``NFD``), ``re.split(r"[.!?]", text)`` (each sentence trained on its own,
its end mark dropped), ``"Ġ" + word`` encoded as UTF-8 where GPT-2 writes a space byte as ``Ġ`` (so the space is
the two bytes ``C4 A0``), or keep only some words: those seen twice or more (a minimum count), those of a-z only, or
those ``str.isalpha`` holds, or the runs of a-z that are whole words (``re.findall(r'\\b[a-z]+\\b', text)``); with no pre-tokenization, a loop may count only the pairs of two letters a-z
(``az-pairs``: the runs of a-z, each a word), or normalize each line as SentencePiece does (``metaspace``: whitespace
collapsed, the line stripped, each space written ``'▁'`` with one before the line). Some cut the words with a pattern of their own where ours is GPT-2's:
``re.findall(r" ?\\S+", text)`` (a space and a run of non-space characters: punctuation kept in its word,
whitespace never paired), GPT-2's words with every piece of whitespace alone dropped or kept as one symbol,
``re.findall(r"[^\\S\\n]*\\S+|\\n", text)`` (every run of spaces and tabs whole on the next word, each newline a
word of its own); with no pre-tokenization, ``re.split(r"[.:;\\n\\r]", text)`` (the text cut at its separators,
which are deleted). Each changes the counts before any merge, so the run parts from ours at its first merge that
a cleaned word counts differently. :data:`CLEANINGS` holds each with the words that say it; :func:`cleanings_for`
gives the ones that can change a run under a pre-tokenizer (a word-level cleaning only where words are cut at
whitespace), alone and after lowercasing; :func:`cleaned` applies them.

Left out: lowercasing alone and keeping letters (:mod:`bpe.text_filters`), and weighing this cause against the others
(:mod:`bpe.check_cause`).
"""

from __future__ import annotations

import re
import string
import unicodedata
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import regex

from .check_setup import CS336_SPECIALS
from .config import BYTE_LEVEL
from .pre_tokenizers import GPT2_PATTERN, Corpus

_WORD_OR_PUNCT = re.compile(r"\w+|[^\s\w]+")
_WORD_OR_MARK = re.compile(r"\w+|[^\w\s]")
_END_PUNCT = re.compile(r"^\W+|\W+$")
_PUNCT = re.compile(r"[^\w\s]")
_AZ_WORD = re.compile(r"[a-z]+")
_AZ_BOUNDED = re.compile(r"\b[a-z]+\b")
_NOT_WORD_OR_DASH = re.compile(r"[^\w\s-]")
_NOT_AZ_OR_SPACE = re.compile(r"[^a-z\s]")
_NO_PUNCT = str.maketrans("", "", string.punctuation)
_SENTENCE_END = re.compile(r"[.!?]+")
_SPACE_WORD = re.compile(r" ?\S+")
_BEFORE_SPACE = re.compile(r"(?= )")
_WS_PREFIXED = re.compile(r"[^\S\n]*\S+|\n")
_SEPARATOR = re.compile(r"[.:;\n\r]+")
_G = "\u0120"  # 'Ġ', GPT-2's character for the space byte
METASPACE = "\u2581"  # '▁', SentencePiece's character for a space
_GPT2 = regex.compile(GPT2_PATTERN)
_GPT2_UNSPACED = regex.compile(GPT2_PATTERN.replace(" ?", ""))  # no optional space before a word, number or mark
_GPT2_WS_WHOLE = regex.compile(GPT2_PATTERN.replace(r"\s+(?!\S)|\s+", r"\s+"))  # whitespace runs never split
_WS_RUN_WORD = re.compile(r"\S+|\s+")
_WORD_OR_ONE_MARK = re.compile(r" ?\w+| ?[^\w\s]")
_ASCII_WORD_OR_CHAR = re.compile(r"\w+|[^\s\w]", re.ASCII)
_ASCII_RUN = re.compile(r"\w+|\W+", re.ASCII)
_SPECIALS = re.compile("|".join(map(re.escape, CS336_SPECIALS)))


def _strip_accents(text: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


def _strip_ends(text: str) -> str:
    words = (_END_PUNCT.sub("", w) for w in text.split())
    return " ".join(w for w in words if any(c.isalpha() for c in w))


def _metaspace(text: str) -> list[str]:
    lines = (" ".join(line.split()) for line in text.splitlines())
    return [METASPACE + line.replace(" ", METASPACE) for line in lines if line]


def _seen_twice(text: str) -> str:
    words = text.split()
    seen = Counter(words)
    return " ".join(w for w in words if seen[w] > 1)


def _g_words(text: str) -> str:
    words = text.split()
    return " ".join([*words[:1], *(_G + w for w in words[1:])])


@dataclass(frozen=True)
class Cleaning:
    """One way of cleaning a text: what it does, said to the student, and the function. ``words``: it acts on
    whitespace-split words, so it is tried only where our words are cut at whitespace; ``bytes_only``: it shows only
    in a byte-level run; ``splits``: it cuts a text into several (each trained on its own); ``cut``: it cuts the text
    into words of its own, which hold whitespace, so it is tried only where our words may hold it (GPT-2's and
    GPT-4's cuts) and gives word counts."""

    sentence: str
    clean: Callable[[str], str | list[str]]
    words: bool = False
    bytes_only: bool = False
    cut: bool = False


CLEANINGS: dict[str, Cleaning] = {
    "upper": Cleaning("uppercases the text (str.upper), so words that differ only in case count together, in capitals",
                      str.upper),
    "punct-split": Cleaning("cuts punctuation off its words as words of their own (as re.findall(r'\\w+|[^\\s\\w]+') "
                            "does), so 'word,' is counted as 'word' and ','",
                            lambda t: " ".join(_WORD_OR_PUNCT.findall(t)), words=True),
    "strip-ends": Cleaning("strips punctuation from each word's ends and drops the words with no letter left, so "
                           "'word,' is counted as 'word'", _strip_ends, words=True),
    "punct-space": Cleaning("replaces every punctuation mark and other symbol with a space (letters, digits and "
                            "'_' kept, accented letters too)", lambda t: _PUNCT.sub(" ", t)),
    "punct-underscore": Cleaning("writes every punctuation mark and other symbol but '-' as '_' (re.sub(r'[^\\w\\s-]', '_', "
                                 "text)), so 'word,' is counted as 'word_' and every mark as one symbol '_'",
                                 lambda t: _NOT_WORD_OR_DASH.sub("_", t)),
    "punct-delete": Cleaning("deletes every ASCII punctuation mark (text.translate with string.punctuation, or "
                             "replace(mark, '') for each), so 'word,' is counted as 'word' and \"don't\" as 'dont'",
                             lambda t: t.translate(_NO_PUNCT)),
    "punct-chars": Cleaning("cuts each punctuation mark and other symbol off its word as a word of its own, one "
                            "character each (as re.findall(r'\\w+|[^\\w\\s]') does), so 'word,' is counted as 'word' "
                            "and ',', and '...' as three words", lambda t: " ".join(_WORD_OR_MARK.findall(t)), words=True),
    # after the deletions: where they make the same merges (no mark outside ASCII), a deletion is the likelier code
    "strip-ascii": Cleaning("strips ASCII punctuation from each word's ends (word.strip(string.punctuation)), so "
                            "'word,' is counted as 'word' while a mark outside ASCII ('—', '«') stays",
                            lambda t: " ".join(w.strip(string.punctuation) for w in t.split()), words=True),
    "ascii-words-chars": Cleaning("cuts its words as runs of ASCII letters, digits and '_' or ONE other character "
                                  "each (as JavaScript's /\\w+|[^\\s\\w]/g does, whose \\w is ASCII), so a "
                                  "punctuation mark and every letter outside ASCII is a word of its own: 'café' is "
                                  "counted as 'caf' and 'é'", lambda t: " ".join(_ASCII_WORD_OR_CHAR.findall(t)),
                                  words=True),
    "az-delete": Cleaning("deletes every character other than a-z and whitespace (re.sub(r'[^a-z\\s]', '', text)): "
                          "digits, punctuation and letters outside a-z vanish from their words, so 'café' is counted "
                          "as 'caf' (not 'cafe', as NFKD would leave it) and 'word,' as 'word'",
                          lambda t: _NOT_AZ_OR_SPACE.sub("", t)),
    "space-words": Cleaning("cuts its words as a space and a run of non-space characters (re.findall(r' ?\\S+', "
                            "text)), so punctuation stays in its word ('␣vu.' is one word) and whitespace is never "
                            "paired: runs of spaces and newlines are never part of a word",
                            lambda t: _SPACE_WORD.findall(t), cut=True),
    "space-before": Cleaning("cuts the text only before each space (re.split(r'(?= )', text), or a byte loop that "
                             "starts a word at each 0x20), so each word keeps the space before it, a newline or a tab "
                             "stays inside a word ('bytes.\\nHere' is one word) and a run of spaces is words of one "
                             "space each", lambda t: _BEFORE_SPACE.split(t), cut=True),
    "ws-dropped": Cleaning("drops every piece of whitespace alone that GPT-2's pattern cuts (runs of spaces, newlines, "
                           "indentation), or keeps each as one symbol, so no pair of two whitespace characters is ever "
                           "counted: only the one space before a word is part of it",
                           lambda t: [w for w in _GPT2.findall(t) if not w.isspace()], cut=True),
    "ws-prefix": Cleaning("puts every run of spaces and tabs whole onto the word after it and makes each newline a "
                          "word of its own (re.findall(r'[^\\S\\n]*\\S+|\\n', text)), where GPT-2 keeps one "
                          "space on the word and the rest, with a newline's indentation, in a piece of whitespace",
                          lambda t: _WS_PREFIXED.findall(t), cut=True),
    "ws-whole": Cleaning("cuts its words with GPT-2's pattern but writes its whitespace part as \\s+ alone, not "
                         "\\s+(?!\\S)|\\s+, so a run of spaces is one piece and the word after it keeps none of "
                         "them (GPT-2's lookahead leaves the run's last space to the word; a regex engine with no lookahead, "
                         "such as Rust's regex crate or Go's regexp, makes you drop it)",
                         lambda t: _GPT2_WS_WHOLE.findall(t), cut=True),
    "unspaced-pattern": Cleaning("cuts its words with GPT-2's pattern written without its optional spaces (\\p{L}+ "
                                 "where GPT-2 has ' ?\\p{L}+, and so for digits and marks), so no word keeps the "
                                 "space before it: that space is a piece of its own, and a run of spaces before a word "
                                 "is two pieces, all its spaces but the last, then the last",
                                 lambda t: _GPT2_UNSPACED.findall(t), cut=True),
    "ws-words": Cleaning("cuts its words as the runs of non-space characters and the runs of whitespace "
                         "(re.findall(r'\\S+|\\s+', text)), so each run of spaces, newlines or indentation is a word "
                         "of its own whose characters are paired with each other",
                         lambda t: _WS_RUN_WORD.findall(t), cut=True),
    "ascii-runs": Cleaning("cuts its words where the text changes between ASCII letters, digits or '_' and any other "
                           "character (re.findall(r'\\w+|\\W+', text, re.ASCII), or [A-Za-z0-9_]+|[^A-Za-z0-9_]+), "
                           "so each run of spaces, newlines, punctuation and letters outside ASCII is one word whose "
                           "characters are paired with each other: '.  ' and 'é ' are words",
                           lambda t: _ASCII_RUN.findall(t), cut=True),
    "specials-split": Cleaning("cuts the text at each special token ('<|endoftext|>'), which is never counted (each "
                               "document trained apart, as when the token is split out or replaced by a newline)",
                               lambda t: [p for p in _SPECIALS.split(t) if p]),
    "word-or-mark": Cleaning("cuts its words as a space and a run of word characters, or a space and ONE other "
                             "character (re.findall(r' ?\\w+| ?[^\\w\\s]', text)), so a run of punctuation marks or "
                             "emoji is cut into one piece per character, and whitespace alone matches nothing and is "
                             "dropped", lambda t: _WORD_OR_ONE_MARK.findall(t), cut=True),
    "spaces": Cleaning("collapses every run of whitespace to one space (newlines, indentation and double spaces "
                       "gone)", lambda t: " ".join(t.split())),
    "spaces-led": Cleaning("puts a space before every word, the text's first too (' ' + word, or 'Ġ' + word, for each "
                           "whitespace-split word), so each word is counted with a space before it and no run of "
                           "whitespace, newlines and indentation included, is counted at all",
                           lambda t: " " + " ".join(t.split())),
    "accents": Cleaning("drops accents and other diacritics (NFKD with the combining marks removed: 'é' read as 'e')",
                        _strip_accents),
    "decomposed": Cleaning("decomposes each accented character into its letter and a combining mark "
                           "(unicodedata.normalize('NFD', text), or NFKD, keeping the marks: 'é' read as 'e' and "
                           "U+0301), so the letter and the mark are a pair of their own",
                           lambda t: unicodedata.normalize("NFD", t)),
    "sentences": Cleaning("cuts the text into sentences at '.', '!' and '?', drops those marks and trains on each "
                          "sentence on its own", lambda t: [s.strip() for s in _SENTENCE_END.split(t) if s.strip()]),
    "space-split": Cleaning("cuts its words at single spaces only (split(' ')), so a newline or a tab stays inside a "
                            "word ('bytes.\\nHere' is one word)", lambda t: t, words=True),
    "space-skip": Cleaning("never merges a space with anything: your loop skips every pair that holds the space "
                           "symbol (as if the text were cut at single spaces, split(' '), while newlines still merge)",
                           lambda t: t),
    "g-utf8": Cleaning("writes the space before each word as the character 'Ġ' encoded in UTF-8 (the two bytes "
                       "C4 A0) where GPT-2 writes the space byte 0x20 as 'Ġ', so your first merge joins those two "
                       "bytes", _g_words, words=True, bytes_only=True),
    "rare-words": Cleaning("drops the words seen only once (a minimum word count of 2), so their pairs are never "
                           "counted", _seen_twice, words=True),
    "az-words": Cleaning("drops every word that holds a character outside a-z (a capital, digit, punctuation mark or "
                         "accented letter), so 'word,' and 'café' are never counted",
                         lambda t: " ".join(w for w in t.split() if _AZ_WORD.fullmatch(w)), words=True),
    "az-bounded": Cleaning("keeps only the runs of a-z that are whole words (re.findall(r'\\b[a-z]+\\b', text)): a word "
                           "holding a digit, '_' or a letter outside a-z ('café', 'x2') is dropped whole, while 'word,' "
                           "is counted as 'word'", lambda t: " ".join(_AZ_BOUNDED.findall(t)), words=True),
    "alpha-words": Cleaning("keeps only the words made of letters alone (str.isalpha), so a word with a digit or a "
                            "punctuation mark, 'word,' or 'x2', is never counted",
                            lambda t: " ".join(w for w in t.split() if w.isalpha()), words=True),
    "az-pairs": Cleaning("counts only the pairs of two letters a-z (or of tokens merged from them): a pair that holds "
                         "a space, a punctuation mark or any other character is never counted or merged",
                         lambda t: " ".join(_AZ_WORD.findall(t))),
    "separators": Cleaning("deletes each '.', ':', ';' and line break and cuts the text there, so no pair crosses "
                           "them (re.split(r'[.:;\\n\\r]', text)), the spaces staying inside the pieces",
                           lambda t: [p for p in _SEPARATOR.split(t) if p]),
    "dot-split": Cleaning("cuts the text at each '.' (text.split('.')) and drops it, so a word before a full stop "
                          "ends there and no pair holds a '.'", lambda t: [p for p in t.split(".") if p.strip()]),
    "metaspace": Cleaning("normalizes each line as SentencePiece does by default: every run of whitespace becomes one "
                          "space, the line is stripped, each space is written '▁' and one '▁' is put before the line "
                          "(its dummy prefix), and each line is trained on as one sequence, so the indentation and "
                          "blank lines are gone and no pair crosses a line break", _metaspace),
    "newline-end": Cleaning("reads the file with a newline added after its last line (each line written back with "
                            "'\\n' after it, or print(..., file=out)), so the text ends in a line break the file does "
                            "not hold and its last character pairs with it", lambda t: t + "\n"),
    "space-underscore": Cleaning("writes every space of the text as '_' (text.replace(' ', '_')) and trains on the "
                                 "whole text as one sequence, not cut into words, so '_' stands where we have a space",
                                 lambda t: t.replace(" ", "_")),
    "space-hash": Cleaning("writes every space of the text as '#' ('#' + word for each word after the first) and trains "
                           "on the whole text as one sequence, not cut into words, so '#' stands where we have a space",
                           lambda t: t.replace(" ", "#")),
}  # fmt: skip

WORD_CUTS = ("whitespace", "sennrich")  # pre-tokenizers that cut words at whitespace only


def cleaned(corpus: Corpus, names: Sequence[str]) -> Corpus | None:
    """The corpus cleaned by each of ``names`` in turn (``"lower"``: lowercased), or None for word counts."""
    if isinstance(corpus, Mapping):
        return None
    texts = [corpus] if isinstance(corpus, str) else list(corpus)
    if names and names[-1] in (
        "space-split",
        "space-skip",
        "az-pairs",
    ):  # words that hold whitespace: word counts, not a text
        words: dict[str, int] = {}
        for text in cleaned(texts, names[:-1]) or ():
            for w in (CLEANINGS[names[-1]].clean(text) if names[-1] == "az-pairs" else text).split(" "):
                if w:
                    words[w] = words.get(w, 0) + 1
        return words or None
    if names and names[-1] in CLEANINGS and CLEANINGS[names[-1]].cut:  # the student's own words, counted
        counted: Counter[str] = Counter()
        for text in cleaned(texts, names[:-1]) or ():
            counted.update(w for w in CLEANINGS[names[-1]].clean(text) if w)
        return dict(counted) or None
    for name in names:
        out: list[str] = []
        for text in texts:
            done = text.lower() if name == "lower" else CLEANINGS[name].clean(text)
            out.extend([done] if isinstance(done, str) else done)
        texts = [t for t in out if t]
    return texts[0] if isinstance(corpus, str) and len(texts) == 1 else tuple(texts)  # a tuple: made once a check


def cleanings_for(
    pre_tokenizer: str, byte_level: bool, tokens: Sequence[bytes], specials_held: bool = False
) -> list[tuple[str, ...]]:
    """The cleanings worth trying on a run under ``pre_tokenizer``, each alone and after lowercasing: the word-level
    ones only where words are cut at whitespace (another cut makes its own words), ``g-utf8`` only where the run's
    tokens hold the bytes C4 A0; with ``specials_held`` (the text holds a special token the settings compared keep
    in it), each cut of the student's own also on the text cut at the special tokens first."""
    found = []
    for name, c in CLEANINGS.items():
        if name == "specials-split":
            continue  # alone, it is a setting of ours (the special tokens split out)
        if c.words and pre_tokenizer not in WORD_CUTS:
            continue
        if name == "g-utf8" and not (byte_level and any(b"\xc4\xa0" in t for t in tokens)):
            continue
        if name in ("spaces", "spaces-led") and pre_tokenizer in WORD_CUTS:
            continue  # words cut at whitespace never see it
        if name == "newline-end" and (pre_tokenizer in WORD_CUTS or not any(b"\n" in t for t in tokens)):
            continue  # only a run that merges a line break, on words that can hold one
        if name == "metaspace" and (pre_tokenizer != "none" or not any(METASPACE.encode() in t for t in tokens)):
            continue  # only a whole-text run whose tokens hold '▁'
        if name == "space-underscore" and (pre_tokenizer != "none" or not any(b"_" in t for t in tokens)):
            continue  # only a whole-text run whose tokens hold '_'
        if name == "space-hash" and (pre_tokenizer != "none" or not any(b"#" in t for t in tokens)):
            continue  # only a whole-text run whose tokens hold '#'
        if name in ("ws-words", "ascii-runs") and pre_tokenizer in WORD_CUTS:
            pass  # whitespace runs as words of their own, beside words cut at whitespace as ours are
        elif c.cut and pre_tokenizer not in BYTE_LEVEL:
            continue  # words of the student's own cut that keep whitespace: compared with GPT-2's or GPT-4's
        if name == "separators" and pre_tokenizer != "none":
            continue  # the text cut only at its separators: compared with no pre-tokenization
        if name in ("space-skip", "az-pairs") and pre_tokenizer != "none":
            continue  # a run with no pre-tokenization whose spaces never merge (words cut at spaces say it otherwise)
        if name == "upper":
            found.append((name,))  # lowercased first, it is the same text
            continue
        found += [(name,), ("lower", name)]
    if specials_held:  # a reader that drops the documents' separator (or makes it a newline) before its own cut
        found += [("specials-split", *names) for names in found if CLEANINGS[names[-1]].cut]
    return found


def covers(corpus: Corpus | None, tokens: Sequence[bytes], marks: str = "") -> bool:
    """True if every character of the run's tokens (but ``marks``, ``</w>`` and ``'\ufffd'``, which stands for what
    could not be printed, as half a UTF-16 pair) is in the cleaned corpus: a cleaning that drops a character the
    student merges is not theirs."""
    if corpus is None:
        return False
    texts = corpus.keys() if isinstance(corpus, Mapping) else [corpus] if isinstance(corpus, str) else corpus
    held = set().union(*map(set, texts))
    wanted = {c for t in tokens for c in t.replace(b"</w>", b"").decode("utf-8", "ignore")} - set(marks) - {"\ufffd"}
    return wanted <= held


def cleaning_sentence(names: Sequence[str]) -> str:
    """What the cleanings ``names`` do, said to the student: 'lowercases the text and cuts punctuation ...'."""
    said = [("lowercases the text" if n == "lower" else CLEANINGS[n].sentence) for n in names]
    return " and ".join(said)


UNSPACED_GPT2 = (
    "or, if you cut with GPT-2's pattern, each word loses its leading space (a word stored as ' '.join(word) and "
    "split() back, or stripped), which leaves the same words here"
)


def unspaced_gpt2(corpus: Corpus) -> Corpus | None:
    """GPT-2's words with their whitespace lost, one a line (words cut at whitespace find them again); None for word
    counts."""
    if isinstance(corpus, Mapping):
        return None

    def unspaced(text: str) -> str:
        return "\n".join(w for w in ("".join(w.split()) for w in _GPT2.findall(text)) if w)

    return unspaced(corpus) if isinstance(corpus, str) else tuple(unspaced(t) for t in corpus)
