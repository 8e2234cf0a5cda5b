"""A corpus file the page refuses is let go of at once, as a read one is: its bytes would otherwise be deep-copied
into every later run of that session (Streamlit returns a widget's value as a copy), and its sentence stays on the
page for as long as the uploader shows the file (AppTest)."""

from __future__ import annotations

from apptest_support import alerts, ok, settle, start

from server import upload_limits
from ui import corpus_box


def test_a_refused_file_is_let_go_and_its_sentence_stays_until_the_file_is_removed(monkeypatch):
    let_go: list[str] = []
    monkeypatch.setattr(upload_limits, "let_go", lambda session, file_id: let_go.append(file_id) or True)
    # Its copies are closed on a server (tests/server/test_upload_limits.py); AppTest sends the file's bytes again
    # with every run, from the widget state's copy, so here the closing is only noted.
    closed: list[str] = []
    monkeypatch.setattr(corpus_box, "_close_copies", lambda key, upload: closed.append(upload.file_id))
    at = start()
    at.radio(key="source").set_value("text").run()
    at.file_uploader(key="corpus_file").set_value(("latin1.txt", "naïve café".encode("latin-1"), "text/plain"))
    at = ok(settle(at.run()))
    file_id = at.file_uploader(key="corpus_file").value.file_id
    assert let_go == [file_id] and closed == [file_id]
    (error,) = alerts(at, "error")
    assert "'latin1.txt' is not UTF-8 text" in error
    at = ok(settle(at.run()))  # a later run: the same file, not read or let go again, its sentence still there
    assert let_go == [file_id] and alerts(at, "error") == [error]
    at.file_uploader(key="corpus_file").set_value(None)
    at = ok(settle(at.run()))
    assert not any("latin1.txt" in e for e in alerts(at, "error"))  # removed: its sentence went with it
