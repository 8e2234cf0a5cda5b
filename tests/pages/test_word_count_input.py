"""Word counts from a file or a paste: `word count` lines, TSV and CSV with a header fill the
word-count table; a bad row is named with what is wrong; a tab-separated paste fills both columns; a
counts file uploaded as text is recognised and offered as counts instead of training "10" as a word."""

from __future__ import annotations

import pytest
from apptest_support import alerts, ok, settle, start

import bpe
from bpe import word_count_tables

HUG = "hug 10\npug 5\npun 12\nbun 4\nhugs 5"


@pytest.mark.parametrize(
    "table",
    [
        "hug 10\npug 5\npun 12\nbun 4\nhugs 5\n",
        "word\tcount\nhug\t10\npug\t5\npun\t12\nbun\t4\nhugs\t5\n",
        "hug\t10\npug\t5\npun\t12\nbun\t4\nhugs\t5",
        '\ufeffword,count\r\nhug,10\r\npug,5\r\n"pun",12\r\nbun,4\r\nhugs,5\r\n',
        "count,token\n10,hug\n5,pug\n12,pun\n4,bun\n5,hugs\n",
    ],
    ids=["lines", "tsv-header", "tsv", "csv-excel", "csv-count-first"],
)
def test_every_table_form_reads_as_the_same_word_counts(table):
    assert bpe.table_to_lines(table) == HUG


@pytest.mark.parametrize(
    ("table", "sentence"),
    [
        ("word,count\nhug,10\npug,ten", "Line 3 of 'c.csv' ('pug,ten'): the count 'ten' is not a whole number"),
        ("word,count\nhug,10,3", "Line 2 of 'c.csv' ('hug,10,3'): it has 3 columns; give a word and its count."),
        ("hug 10\nnew york 5", "Line 2 of 'c.csv' ('new york 5'): a word cannot hold a space"),
        ("word\tcount\nnew york\t5", "Line 2 of 'c.csv' ('new york\\t5'): the word 'new york' holds a space"),
        ("hug,0", "Line 1 of 'c.csv' ('hug,0'): a count must be 1 or more, not 0."),
        ("hug,lots\npug,5", "(a header row names its columns, like 'word,count')"),
        ("word,count\n", "No word counts found of 'c.csv': only a header row."),
    ],
)
def test_a_bad_row_is_named_with_what_is_wrong(table, sentence):
    with pytest.raises(ValueError) as caught:
        bpe.table_to_lines(table, "'c.csv'")
    assert sentence in str(caught.value)


def test_only_a_table_of_words_and_numbers_looks_like_word_counts():
    assert bpe.looks_like_word_counts("hug 10\npug 5\n")
    assert bpe.looks_like_word_counts("word,count\nhug,10\npug,5")
    assert not bpe.looks_like_word_counts("the cat sat\non the mat")
    assert not bpe.looks_like_word_counts("hug 10")  # one line: a text could say that
    assert not bpe.looks_like_word_counts("chapter 1\nthe cat sat on the mat")


def test_a_long_corpus_is_told_from_a_table_by_its_first_lines(monkeypatch):
    """A 5 MB paste had every line split into fields (in the serving process) before its first line said it was
    not a table."""
    read: list[int] = []
    rows = word_count_tables._rows
    monkeypatch.setattr(word_count_tables, "_rows", lambda text: read.append(len(text)) or rows(text))
    corpus = "the cat sat on the mat\n" * 200_000
    assert not bpe.looks_like_word_counts(corpus)
    assert read and max(read) <= word_count_tables.HEAD_CHARS


def test_a_long_table_is_read_whole():
    table = "".join(f"w{i} {i + 1}\n" for i in range(20_000))
    assert len(table) > word_count_tables.HEAD_CHARS
    assert bpe.looks_like_word_counts(table)
    assert bpe.looks_like_word_counts("word\tcount\n" + table.replace(" ", "\t"))
    assert not bpe.looks_like_word_counts(table + "the end of it\n")  # a bad row past the first lines


def counts_page():
    at = start()
    at.radio(key="source").set_value("counts").run()
    return ok(settle(at))


def trained_counts(at) -> str:
    return at.session_state["bpe_explorer"]["settings"].counts


FILES = {
    "counts.txt": b"low 5\nlower 2\nnewest 6\nwidest 3\n",
    "counts.tsv": b"word\tcount\nlow\t5\nlower\t2\nnewest\t6\nwidest\t3\n",
    "counts.csv": b"\xef\xbb\xbfword,count\r\nlow,5\r\nlower,2\r\nnewest,6\r\nwidest,3\r\n",
}


@pytest.mark.parametrize("name", list(FILES))
def test_an_uploaded_counts_file_fills_the_table_and_trains(name):
    """Word-count mode had no upload."""
    at = counts_page()
    at.file_uploader(key="counts_file").set_value((name, FILES[name], "text/plain"))
    ok(settle(at.run()))
    assert trained_counts(at) == "low 5\nlower 2\nnewest 6\nwidest 3"
    table = at.session_state["bpe_explorer"]["counts_table"]["frame"]  # what the data editor shows
    assert list(table["word"]) == ["low", "lower", "newest", "widest"] and list(table["count"]) == ["5", "2", "6", "3"]
    assert at.session_state["bpe_explorer"]["settings"].source == "counts"


def test_an_uploaded_file_with_a_bad_row_says_which_and_keeps_the_table():
    at = counts_page()
    at.file_uploader(key="counts_file").set_value(("counts.csv", b"word,count\nlow,5\nlower,two\n", "text/csv"))
    ok(settle(at.run()))
    (error,) = alerts(at, "error")
    assert error == (
        "Line 3 of 'counts.csv' ('lower,two'): the count 'two' is not a whole number; write it like 'hug 10'. "
        "The table keeps what it had."
    )
    assert trained_counts(at) == HUG


def test_a_tab_separated_paste_fills_both_columns():
    """A block copied from a spreadsheet landed in one cell of the table."""
    at = counts_page()
    at.text_area(key="counts_paste").set_value("low\t5\nlower\t2\nnewest\t6\n").run()
    ok(settle(at))
    assert trained_counts(at) == "low 5\nlower 2\nnewest 6"
    assert at.text_area(key="counts_paste").value == ""  # the rows went into the table
    # A bad pasted row stays in the box with its sentence; the table keeps its rows.
    at.text_area(key="counts_paste").set_value("low\t5\nlower\n").run()
    ok(settle(at))
    assert any(a.startswith("Pasted line 2 ('lower'): it has 1 column") for a in alerts(at, "error"))
    assert at.text_area(key="counts_paste").value == "low\t5\nlower\n"
    assert trained_counts(at) == "low 5\nlower 2\nnewest 6"


def test_a_counts_file_uploaded_as_text_is_offered_as_word_counts():
    """It trained "10" and "5" as words without a word."""
    at = start()
    at.radio(key="source").set_value("text").run()
    at.file_uploader(key="corpus_file").set_value(("counts.txt", HUG.encode(), "text/plain"))
    ok(settle(at.run()))
    assert any(a.startswith("This text looks like word counts") for a in alerts(at, "info"))
    at.button(key="read_as_counts").click()
    ok(settle(at.run()))
    assert at.radio(key="source").value == "counts"
    assert trained_counts(at) == HUG
    assert not any(a.startswith("This text looks like word counts") for a in alerts(at))
    # Ordinary text gets no such offer.
    at.radio(key="source").set_value("text").run()
    at.file_uploader(key="corpus_file").set_value(("words.txt", b"hug pug hug\npun bun", "text/plain"))
    ok(settle(at.run()))
    assert not any(a.startswith("This text looks like word counts") for a in alerts(at))
