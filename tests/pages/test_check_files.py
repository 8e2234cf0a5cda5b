"""The Check page's uploader of a student's run files (ui/check_files.py): the files are read once, when they
arrive, and their bytes let go; the page keeps what was read, names the files with their sizes, reads new files
in their place, and forgets them for the pasted merges; a saved run file is read once to disk
(server/run_files.py) and let go too (AppTest; the let-go itself on a real server is
tests/server/test_check_files_let_go.py)."""

from __future__ import annotations

import pickle

from apptest_support import alerts, ok, open_check
from students import cs336_train

import bpe
from bpe.formats import run_file
from bpe.presets import CS336_TEXT
from server import check_jobs, run_files, upload_limits
from ui import check_files, check_saved_input


def reads_counted(monkeypatch) -> list:
    """The files each read of a student's run was given (one entry per read of files or pasted merges)."""
    calls: list = []
    real = check_jobs.read_run

    def counted(files, pasted, max_merges):
        if files or pasted.strip():
            calls.append([name for name, _ in files])
        return real(files, pasted, max_merges)

    monkeypatch.setattr(check_jobs, "read_run", counted)
    return calls


def files_note(at) -> str:
    return " ".join(h.proto.body for h in at.get("html") if "bpe-check-files" in h.proto.body)


def test_the_files_are_read_once_and_let_go_and_their_names_and_sizes_stay_in_view(monkeypatch):
    reads = reads_counted(monkeypatch)
    let_go: list = []
    monkeypatch.setattr(upload_limits, "let_go", lambda session, file_id: let_go.append(file_id) or False)
    vocab, merges = cs336_train(CS336_TEXT, 12, pattern=None, fault="min")
    data = pickle.dumps((vocab, merges))
    at = open_check()
    at.file_uploader(key="chk_files").set_value([("run.pkl", data, "application/octet-stream")])
    ok(at.run())
    assert reads == [["run.pkl"]] and len(let_go) == 1  # read when it arrived, then its bytes let go
    assert at.header[0].value == "With the settings compared here the runs part at step 1"
    assert f"run.pkl ({len(data):,} bytes)" in files_note(at)
    at.number_input(key="chk_target").set_value(300).run()  # other clicks: the run read is kept, not read again
    at.selectbox(key="chk_rule").set_value("first").run()
    assert reads == [["run.pkl"]] and ok(at).header
    held = at.session_state["bpe_explorer"]["check"][check_files.HELD]
    assert held["files"] == (("run.pkl", len(data)),) and held["run"][1] == 12


def test_new_files_replace_the_old_and_paste_merges_instead_forgets_them(monkeypatch):
    reads = reads_counted(monkeypatch)
    at = open_check()
    at.file_uploader(key="chk_files").set_value([("merges.txt", b"s t\ne st\n", "text/plain")])
    ok(at.run())
    assert "Read as merges.txt: 2 merges" in " ".join(c.value for c in at.caption)
    at.file_uploader(key="chk_files").set_value([("other.txt", b"s t\n", "text/plain")])
    ok(at.run())
    assert reads[-1] == ["other.txt"] and "other.txt (4 bytes)" in files_note(at) and "merges.txt" not in files_note(at)
    at.text_area(key="chk_paste").set_value("s t\ne st\no w\n").run()
    at.button(key="chk_files_drop").click().run()
    assert not files_note(ok(at)) and ": 3 merges." in " ".join(c.value for c in at.caption)
    assert reads[-1] == []  # the pasted merges, read without the files


def test_a_file_that_cannot_be_read_keeps_its_sentence_without_being_read_again(monkeypatch):
    reads = reads_counted(monkeypatch)
    at = open_check()
    at.file_uploader(key="chk_files").set_value([("notes.txt", b"hello\nworld\n", "text/plain")])
    ok(at.run())
    (error,) = alerts(at, "error")
    at.number_input(key="chk_target").set_value(300).run()
    assert alerts(ok(at), "error") == [error] and reads == [["notes.txt"]]
    assert "notes.txt (12 bytes)" in files_note(at)


def test_a_saved_run_file_is_read_once_to_disk_and_let_go(monkeypatch):
    let_go: list = []
    monkeypatch.setattr(upload_limits, "let_go", lambda session, file_id: let_go.append(file_id) or False)
    data = run_file.dumps(bpe.run_training([CS336_TEXT], pre_tokenizer="gpt2", num_merges=12))
    at = open_check()
    at.radio(key="chk_source").set_value("saved").run()
    at.file_uploader(key="chk_run_file").set_value([("tiny.bpe", data, "application/octet-stream")])
    at.text_area(key="chk_paste").set_value("s t\ne st\n")
    ok(at.run())
    assert len(let_go) == 1 and at.header  # compared with the run kept on disk
    saved = at.session_state["bpe_explorer"]["check"][check_saved_input.HELD][1]
    assert saved.data == b"" and run_files.read(saved.digest) == data  # the session holds its digest, not its bytes
    note = " ".join(h.proto.body for h in at.get("html") if "bpe-check-run-file" in h.proto.body)
    assert f"tiny.bpe ({len(data):,} bytes)" in note
    (run_files.folder() / f"{saved.digest}.bpe").unlink()  # made room for other files
    at.text_area(key="chk_paste").set_value("s t\n").run()  # a new comparison needs the file again
    assert any("tiny.bpe: the server no longer keeps this run file" in a for a in alerts(ok(at), "error"))
