"""Word counts from a file or a paste: ``word count`` lines, TSV, or CSV, with or without a header.

A spreadsheet's export (``word,count`` with a header row), a tab-separated block copied from one, and
the ``hug 10`` lines :func:`~bpe.pre_tokenizers.parse_word_counts` reads all become those lines, so
the rest of the program knows one form. The separator is the first data line's: a tab, else a comma
(read with the :mod:`csv` module, so a quoted ``"hug",10`` works), else spaces. A first row whose
count is not a number but names its columns (``word``/``token`` and ``count``/``frequency``…) is a
header; the header may put the count first. Every bad row raises a ValueError naming its line and
what is wrong.

Left out: counting the words of a text (:func:`bpe.count_words`) and checking a word-count corpus's
size (the server's limits).

>>> table_to_lines("word,count\\nhug,10\\npug,5")
'hug 10\\npug 5'
"""

from __future__ import annotations

import csv

from .pre_tokenizers import parse_word_counts

WORD_NAMES = {"word", "words", "token", "tokens", "text", "string", "piece", "type"}
COUNT_NAMES = {"count", "counts", "frequency", "freq", "n", "occurrences", "number", "times", "total"}


def _rows(text: str) -> tuple[str, list[tuple[int, list[str]]]]:
    """The separator's name and the non-blank rows (line number, fields)."""
    lines = [(n, line) for n, line in enumerate(text.splitlines(), start=1) if line.strip()]
    if not lines:
        return "lines", []
    first = lines[0][1]
    if "\t" in first:
        return "TSV", [(n, [f.strip() for f in line.split("\t")]) for n, line in lines]
    if "," in first:
        return "CSV", [(n, [f.strip() for f in next(csv.reader([line]))]) for n, line in lines]
    return "lines", [(n, line.split()) for n, line in lines]


def _is_number(field: str) -> bool:
    return field.replace(",", "").replace("_", "").lstrip("+").isdigit()


def _header(fields: list[str]) -> tuple[int, int] | None:
    """(word column, count column) if ``fields`` is a header row naming them, else None."""
    names = [f.strip().strip('"').lower() for f in fields]
    if len(names) != 2 or any(_is_number(n) for n in names):
        return None
    if names[0] in COUNT_NAMES and names[1] in WORD_NAMES:
        return 1, 0
    if names[0] in WORD_NAMES or names[1] in COUNT_NAMES:
        return 0, 1
    return None


def table_to_lines(text: str, name: str = "") -> str:
    """``word count`` lines from a word-count table (see the module docstring), or a ValueError naming
    the line (``name``: the file's, for the sentence) and what is wrong with it."""
    text = text.lstrip("\ufeff")  # a spreadsheet's UTF-8 byte-order mark
    where = f" of {name}" if name else ""
    kind, rows = _rows(text)
    if not rows:
        raise ValueError(f"No word counts found{where}: give one word and its count per line, like 'hug 10'.")
    columns = _header(rows[0][1])
    if columns is not None:
        rows = rows[1:]
    word_at, count_at = columns or (0, 1)
    lines = []
    for number, fields in rows:
        shown = ("\t" if kind == "TSV" else "," if kind == "CSV" else " ").join(fields)[:80]
        if len(fields) != 2:
            if kind == "lines" and len(fields) > 2:
                why = "a word cannot hold a space; give one word and its count, like 'hug 10'"
            else:
                why = f"it has {len(fields)} column{'s' if len(fields) != 1 else ''}; give a word and its count"
            raise ValueError(f"Line {number}{where} ({shown!r}): {why}.")
        word, count = fields[word_at], fields[count_at]
        if not word:
            raise ValueError(f"Line {number}{where} ({shown!r}): the word is empty.")
        if any(c.isspace() for c in word):
            raise ValueError(
                f"Line {number}{where} ({shown!r}): the word {word[:40]!r} holds a space; a word-count row is one "
                "word without spaces."
            )
        try:
            parse_word_counts(f"{word} {count}", line_name="Line")
        except ValueError as exc:  # its sentence names "Line 1 ('word count')": put this row's line back
            detail = str(exc).split(": ", 1)[-1]
            if number == rows[0][0] and columns is None and not _is_number(count):
                detail = (
                    f"the count {count[:40]!r} is not a whole number (a header row names its columns, like "
                    "'word,count')"
                )
            raise ValueError(f"Line {number}{where} ({shown!r}): {detail}") from None
        lines.append(f"{word} {count}")
    if not lines:
        raise ValueError(f"No word counts found{where}: only a header row.")
    return "\n".join(lines)


HEAD_CHARS = 65_536  # how much of a text is read first to tell a corpus from a table


def looks_like_word_counts(text: str) -> bool:
    """Whether a text meant as a corpus is really a word-count table: two rows or more, each a word and
    a number (training on it would make "10" and "5" words).

    A corpus is told apart on its first lines: its first :data:`HEAD_CHARS` characters (whole lines, two rows
    or more) are read as a table first, and only a head that reads as one has the whole text read. Splitting
    every line of a 5 MB paste into fields took a second of the serving process on each new corpus."""
    if len(text) > 5_000_000 or text.count("\n") < 1:
        return False
    cut = text.rfind("\n", 0, HEAD_CHARS) + 1
    head = text[:cut] if 0 < cut < len(text) else ""
    if sum(1 for line in head.splitlines() if line.strip()) >= 2:
        # The same separator, header and rows as the whole text's first ones: a bad row here is bad there.
        try:
            table_to_lines(head)
        except ValueError:
            return False
    try:
        return table_to_lines(text).count("\n") >= 1
    except ValueError:
        return False
