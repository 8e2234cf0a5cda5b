"""Text files as corpora on the Train and Check pages (AppTest): any extension read as UTF-8, every refusal a
sentence on the page (never followed by "The corpus is empty"), one limit for both pages, and the Check's
uploaded corpus stored by its digest so that "Go to step k" opens the Train page on it."""

from __future__ import annotations

import pickle
from urllib.parse import parse_qs, urlsplit

from apptest_support import alerts, ok, open_check, settle, start
from streamlit.testing.v1 import AppTest
from students import cs336_train

from server import corpus_form, limits

EOT = "<|endoftext|>"
CODE = "def f(x):\n    if x:\n        return x\n    return 0\n\n\nclass A:\n    pass\n"
TEXT = (CODE + EOT + "The cat sat.\n\nThe dog sat too.\r\n" + EOT) * 20


def upload(at: AppTest, key: str, name: str, data: bytes | None) -> AppTest:
    at.file_uploader(key=key).set_value(None if data is None else (name, data, "application/octet-stream"))
    return ok(settle(at.run()))


def summary(at: AppTest, testid: str = "bpe-corpus-summary") -> str:
    return " ".join(h.proto.body for h in at.get("html") if testid in h.proto.body)


def text_page():
    at = start()
    at.radio(key="source").set_value("text").run()
    return at


def test_a_file_of_any_extension_is_the_corpus_as_written():
    for name in ("corpus.en", "notes.md", "README"):
        at = upload(text_page(), "corpus_file", name, TEXT.encode())
        assert f"Corpus: {len(TEXT):,} characters" in summary(at), name
        assert not alerts(at, "error")
    # the sidebar says the special tokens are split out of the text
    assert any("Special tokens are split out of the text" in c.value for c in at.caption)


def test_a_file_that_is_not_utf8_names_the_first_bad_byte_and_not_an_empty_corpus():
    at = upload(text_page(), "corpus_file", "latin1.txt", "naïve café".encode("latin-1"))
    (error,) = alerts(at, "error")
    assert "'latin1.txt' is not UTF-8 text: byte 2 (0xef) cannot be decoded" in error
    assert "corpus is empty" not in " ".join(alerts(at) + [e.value for e in at.error])


def test_a_file_over_the_limit_gets_its_sentence_and_the_corpus_keeps_what_it_had():
    at = upload(text_page(), "corpus_file", "small.txt", b"hug pug hug")
    at = upload(at, "corpus_file", "big.en", b"a " * (limits.MAX_CORPUS_BYTES // 2 + 1))
    (error,) = alerts(at, "error")
    assert "'big.en' is 100.0 MB; the limit is 100 MB of text" in error and "keeps what it had" in error
    assert "Corpus: 11 characters" in summary(at)


def test_an_empty_file_is_refused_without_the_corpus_is_empty():
    at = upload(text_page(), "corpus_file", "empty.en", b"  \n")
    assert any("'empty.en' is empty" in a for a in alerts(at, "error"))
    assert "corpus is empty" not in " ".join(alerts(at) + [e.value for e in at.error])


def test_the_check_page_refuses_a_file_with_its_sentence_only():
    at = open_check()
    at.radio(key="chk_source").set_value("text").run()
    at.text_area(key="chk_text").set_value("").run()
    upload(at, "chk_corpus_file", "corpus.en", b"\xff\xfe" + "text".encode("utf-16-le"))
    upload(at, "chk_files", "merges.txt", b"s t\n")
    (error,) = alerts(at, "error")
    assert "'corpus.en' is not UTF-8 text: byte 0 (0xff)" in error


def test_the_check_page_takes_a_text_file_and_links_to_the_same_corpus_on_the_train_page():
    """ "Go to step k" names an uploaded corpus by its digest rather than saying it is "too long to fit in a link"."""
    text = (CODE * 40 + EOT + "low lower lowest newest widest\n\n") * 30  # longer than a link can carry
    vocab, merges = cs336_train(text, 30, special_tokens=(EOT,), fault="min")
    at = open_check()
    at.radio(key="chk_source").set_value("text").run()
    upload(at, "chk_corpus_file", "corpus.en", text.encode())
    assert f"{len(text):,} characters" in summary(at, "bpe-check-corpus-summary")
    at.selectbox(key="chk_pre").set_value("gpt2").run()
    at.text_input(key="chk_special").set_value(EOT).run()
    upload(at, "chk_files", "run.pkl", pickle.dumps((vocab, merges)))
    step = int(at.header[0].value.rsplit(" ", 1)[1].replace(",", ""))
    link = at.get("link_button")[0].proto
    assert link.label == f"Go to step {step:,}"
    query = {k: v[0] for k, v in parse_qs(urlsplit(link.url).query).items()}
    assert query["corpus"] == corpus_form.digest("text", text) and query["special"] == EOT
    train = start(**query)  # the link opened in a new tab: a new session
    assert train.radio(key="source").value == "text" and not alerts(train, "error")
    assert f"Corpus: {len(text):,} characters" in summary(train)
    body = " ".join(h.proto.body for h in train.get("html"))
    assert f"Step {step} of {max(len(merges), step)}" in body


def test_a_long_pasted_check_corpus_travels_in_the_link_by_its_digest():
    text = CODE * 40 + "low lower lowest newest widest\n\n"  # over the 1,500 characters a link carries
    vocab, merges = cs336_train(text, 10, special_tokens=(), fault="min")
    at = open_check()
    at.radio(key="chk_source").set_value("text").run()
    at.text_area(key="chk_text").set_value(text).run()
    at.text_input(key="chk_special").set_value("").run()
    upload(at, "chk_files", "run.pkl", pickle.dumps((vocab, merges)))
    query = parse_qs(urlsplit(at.get("link_button")[0].proto.url).query)
    assert query["corpus"] == [corpus_form.digest("text", text)]


def test_the_check_page_lets_go_of_the_files_bytes_once_read_and_keeps_its_text(monkeypatch):
    """A 100 MB corpus file was held twice on the Check page (the uploader's bytes and the text read from them):
    once read, the bytes go, as on the Train page; the text stays the corpus until the file is removed."""
    from server import upload_limits

    let_go = []
    monkeypatch.setattr(upload_limits, "let_go", lambda session, file_id: let_go.append(file_id) or False)
    at = open_check()
    at.radio(key="chk_source").set_value("text").run()
    upload(at, "chk_corpus_file", "corpus.en", TEXT.encode())
    assert let_go == [at.file_uploader(key="chk_corpus_file").value.file_id]
    at = ok(settle(at.run()))  # another run: the text is still the corpus, read once
    assert f"{len(TEXT):,} characters" in summary(at, "bpe-check-corpus-summary") and len(let_go) == 1
    at = upload(at, "chk_corpus_file", "corpus.en", None)  # removed: the box is the corpus again
    assert not summary(at, "bpe-check-corpus-summary") and at.text_area(key="chk_text")


def test_the_check_pages_file_stays_the_corpus_until_the_student_returns_to_the_box():
    """Its bytes let go, the file's text is the corpus also when its uploader comes back empty (another source,
    then back), as the Train page's corpus is; a button returns to the box."""
    at = open_check()
    at.radio(key="chk_source").set_value("text").run()
    upload(at, "chk_corpus_file", "corpus.en", TEXT.encode())
    at.radio(key="chk_source").set_value("preset").run()
    at = ok(settle(at.radio(key="chk_source").set_value("text").run()))
    assert f"{len(TEXT):,} characters" in summary(at, "bpe-check-corpus-summary")
    at = ok(settle(at.button(key="chk_file_drop").click().run()))
    assert not summary(at, "bpe-check-corpus-summary") and at.text_area(key="chk_text")
