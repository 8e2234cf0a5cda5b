"""An uploaded text file read a chunk at a time (server/corpus_upload.py): stored in either store with its text
held once (a memory bound, by tracemalloc), under the digest the same text pasted gets, and a byte that is not
UTF-8 named by its position in the file wherever the chunks are cut."""

from __future__ import annotations

import dataclasses
import hashlib
import random
import sqlite3
import sys
import tracemalloc

import pytest
from redis_support import corpus_store_of

from server import corpus_form, corpus_upload, limits, redis_store, run_keys, sqlite_store
from server.corpus_form import digest
from server.corpus_store import StoreUnavailable

WORDS = "naïve café jumps over the lazy dog 世界\n  indented line\r\n"


@pytest.fixture(params=["sqlite", "redis"])
def any_store(request, tmp_path):
    with corpus_store_of(request.param, tmp_path) as store:
        yield store


def words(size: int, line_text: str = WORDS) -> bytes:
    """About ``size`` bytes of varied UTF-8 text (lines with a random number, so it does not compress to nothing)."""
    rng = random.Random(size)
    lines, n, i = [], 0, 0
    while n < size:
        line = f"{rng.getrandbits(64):x} {line_text}".encode()
        lines.append(line)
        n, i = n + len(line), i + 1
    return b"".join(lines)


@pytest.mark.parametrize("line", ["ASCII", "wider"])
def test_storing_an_upload_holds_its_text_once_plus_a_few_chunks(any_store, line):
    data = words(12 * corpus_upload.CHUNK, "the quick brown fox\n" if line == "ASCII" else WORDS)
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        read = corpus_upload.read(data, "big.txt", any_store)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert read.store_failure is None and any_store.has(read.key)
    # CPython decodes a text with a character past ASCII into a draft it then widens, holding both for a moment
    # (the file's size more), whoever decodes it; the rest is looked at a chunk at a time
    draft = 0 if line == "ASCII" else len(data)
    assert peak <= sys.getsizeof(read.text) + draft + 8 * corpus_upload.CHUNK, (peak, sys.getsizeof(read.text))
    assert any_store.get(read.key) == ("text", data.decode())


@pytest.mark.parametrize("bom", [b"", b"\xef\xbb\xbf"], ids=["plain", "byte-order mark"])
def test_an_upload_and_the_same_text_pasted_have_one_digest(any_store, tmp_path, bom, monkeypatch):
    monkeypatch.setattr(corpus_upload, "CHUNK", 1000)
    data = bom + words(5_500)
    read = corpus_upload.read(data, "notes.en", any_store)
    text = data.decode("utf-8-sig")
    assert read.text == text and read.key == digest("text", text) == any_store.put("text", text)
    assert (read.nbytes, read.lines) == (len(text.encode()), text.count("\n") + 1)
    assert any_store.get(read.key) == ("text", text)
    with corpus_store_of("sqlite", tmp_path / "pasted") as pasted:  # a link from a paste finds the upload's text
        assert pasted.put("text", text) == read.key


@pytest.mark.parametrize("text", ["hug pug", "Straße 世界 😀 \ud800 lone" * 3000, "a" * 2500])
def test_digests_read_a_chunk_at_a_time_are_those_of_the_whole_text(monkeypatch, text):
    """A link made before the store read texts in chunks still names the same corpus, and a run the same run."""
    monkeypatch.setattr(corpus_form, "CHUNK", 1000)
    whole = text.encode("utf-8", "surrogatepass")
    assert digest("text", text) == hashlib.sha256(b"bpe-explorer corpus v1\ntext\n" + whole).hexdigest()

    @dataclasses.dataclass(frozen=True)
    class Options:
        text: str
        limit: int = 10

    expected = hashlib.sha256(f"text:{len(whole)}:".encode() + whole + b"limit:2:10").hexdigest()
    assert run_keys.settings_digest(Options(text)) == expected


def test_a_corpus_of_the_size_limit_is_stored_once_a_minute_per_client():
    quota = sqlite_store.SqliteStore("unused.sqlite3").quota  # the default store's quota, as the server makes it
    assert quota.refuse("a browser", limits.MAX_CORPUS_BYTES) is None
    assert "wait a minute" in quota.refuse("a browser", limits.MAX_CORPUS_BYTES)
    assert quota.refuse("another", limits.MAX_CORPUS_BYTES) is None


@pytest.mark.parametrize("cut", [0, 1, 2, 3, 6, 7])
@pytest.mark.parametrize("bad", [b"\xff", b"\xc3(", b"\xe2\x82", b"\xed\xa0\x80", b"\xf0\x9f\x98"])
def test_the_first_bad_byte_is_named_by_its_position_wherever_the_chunks_are_cut(monkeypatch, cut, bad):
    monkeypatch.setattr(corpus_upload, "CHUNK", 7)
    data = "é".encode() * 5 + b"x" * cut + bad + b"tail"
    position = len("é".encode() * 5) + cut
    with pytest.raises(UnicodeDecodeError) as whole:
        data.decode()
    assert whole.value.start == position
    with pytest.raises(ValueError, match=rf"byte {position} \(0x{data[position]:02x}\) cannot be decoded"):
        corpus_upload.read(data, "latin.txt", store=_Unused())
    with pytest.raises(ValueError, match=rf"byte {position} "):  # cut short in the middle of the character
        corpus_upload.read(data[: position + len(bad) - 1] if len(bad) > 1 else data[: position + 1], "t", _Unused())


def test_a_nul_byte_near_the_start_is_a_binary_file(monkeypatch, tmp_path):
    monkeypatch.setattr(corpus_upload, "CHUNK", 5)
    with pytest.raises(ValueError, match="looks like a binary file"):
        corpus_upload.read(b"abcdefgh\x00ij", "model.bin", store=_Unused())
    late = b"a" * (corpus_upload.NUL_LOOKED_AT + 10) + b"\x00"
    store = sqlite_store.SqliteStore(tmp_path / "c.sqlite3")
    assert corpus_upload.read(late, "t.txt", store).text.endswith("\x00")  # only the start is looked at


def test_a_corpus_stored_already_is_not_written_again(any_store, monkeypatch):
    data = words(50_000)
    key = any_store.put("text", data.decode())
    monkeypatch.setattr(corpus_form, "compressed", lambda *a: pytest.fail("compressed again"))
    assert corpus_upload.read(data, "again.txt", any_store).key == key


def test_a_store_that_fails_mid_upload_keeps_the_text_and_leaves_nothing_half_written(any_store, monkeypatch):
    monkeypatch.setattr(corpus_form, "CHUNK", 1000)
    monkeypatch.setattr(corpus_upload, "CHUNK", 1000)
    data = words(400_000)
    pieces = []
    real = corpus_form.compressed

    def failing(kind, key, chunks):
        for piece in real(kind, key, chunks):
            pieces.append(piece)
            if len(pieces) == 2:
                raise StoreUnavailable("The corpus store is full.")
            yield piece

    monkeypatch.setattr(corpus_form, "compressed", failing)
    read = corpus_upload.read(data, "big.txt", any_store)
    assert len(pieces) == 2  # one piece was written before the store failed
    assert read.store_failure == "The corpus store is full." and read.text == data.decode()
    assert not any_store.has(read.key)
    if isinstance(any_store, sqlite_store.SqliteStore):
        with sqlite3.connect(any_store.path) as db:
            assert db.execute("SELECT COUNT(*) FROM corpus_parts").fetchone()[0] == 0
    else:
        assert list(any_store.client.scan_iter(redis_store.REDIS_PREFIX + "pending:*")) == []


def test_the_embedded_store_evicts_a_chunked_corpus_with_its_parts(tmp_path, monkeypatch):
    monkeypatch.setattr(corpus_form, "CHUNK", 1000)
    store = sqlite_store.SqliteStore(tmp_path / "c.sqlite3", budget=60_000)
    monkeypatch.setattr(corpus_upload, "CHUNK", 1000)
    first = corpus_upload.read(words(300_000), "a.txt", store)  # 48 KB compressed each
    second = corpus_upload.read(words(300_001), "b.txt", store)
    assert not store.has(first.key) and store.get(second.key) == ("text", second.text)
    with sqlite3.connect(store.path) as db:
        assert {d for (d,) in db.execute("SELECT DISTINCT digest FROM corpus_parts")} == {second.key}


def test_parts_left_by_a_writer_that_died_are_removed_when_the_store_opens(tmp_path):
    store = sqlite_store.SqliteStore(tmp_path / "c.sqlite3")
    key = corpus_upload.read(words(10_000), "a.txt", store).key
    with sqlite3.connect(store.path) as db:
        db.execute("INSERT INTO corpus_parts VALUES (?, 0, ?)", ("f" * 64, b"half a corpus"))
    again = sqlite_store.SqliteStore(tmp_path / "c.sqlite3")
    assert again.get(key) is not None and not again.has("f" * 64)
    with sqlite3.connect(store.path) as db:
        assert db.execute("SELECT COUNT(*) FROM corpus_parts WHERE digest = ?", ("f" * 64,)).fetchone()[0] == 0


def test_a_damaged_part_is_not_returned(tmp_path, monkeypatch):
    monkeypatch.setattr(corpus_form, "CHUNK", 1000)
    store = sqlite_store.SqliteStore(tmp_path / "c.sqlite3")
    key = store.put("text", words(400_000).decode())
    with sqlite3.connect(store.path) as db:
        assert db.execute("SELECT COUNT(*) FROM corpus_parts WHERE digest = ?", (key,)).fetchone()[0] > 1
        db.execute("UPDATE corpus_parts SET data = ? WHERE digest = ? AND seq = 1", (b"not zlib", key))
    assert store.get(key) is None


class _Unused:
    def put_chunks(self, *args, **kwargs):
        raise AssertionError("a file that is not a corpus must not be stored")
