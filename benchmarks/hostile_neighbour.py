"""The classroom's hostile neighbour (issue 22): one more session that, while the class steps,

(a) uploads a ~20 KB tokenizer.json whose normalizer replaces the empty regex with 1,000 characters
    (each character of the text becomes 1,001) on the Encode page, then types a long text (by default
    99,000 characters, under the page's 100 KB limit): the page must answer with a sentence, not run
    the server out of memory. The pattern is ``{"Regex": ""}``: the app reads an empty ``{"String": ""}``
    as matching nothing (``tokenizers`` expands both);
(b) uploads a ~60 MB tokenizer.json (a valid byte-level BPE file with about 2.5 million merges, built in a
    temporary folder), just under the 60 MB upload cap;
(c) starts a big run (a 5 MB paste to a vocabulary of 20,000, as the classroom's fresh-run phase does)
    and abandons it (closes its websocket).

Then a new small run (the ``course`` preset with a setting no one asked for before) must begin training
and finish within 5 s, measured from its request to its step view. Used by ``bench_classroom.py --hostile``;
the builders are used by ``tests/server/test_st_client_upload.py`` too.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import pickle
import re
import time
from dataclasses import replace
from pathlib import Path

from st_client import Session

import bpe
from bpe.formats import student_runs
from server.jobs import MAX_CORPUS_BYTES
from ui.settings import corpus_of, preset_settings

LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
EXPANDING_NORMALIZER = {"type": "Replace", "pattern": {"Regex": ""}, "content": "~" * 1000}
BIG_BYTES = 59_500_000  # the file; hub.MAX_BYTES (the page's cap) is 60,000,000


def byte_alphabet() -> list[str]:
    """GPT-2's printable stand-ins for the 256 bytes (``bytes_to_unicode``), in byte order."""
    keep = [*range(ord("!"), ord("~") + 1), *range(ord("¡"), ord("¬") + 1), *range(ord("®"), ord("ÿ") + 1)]
    extra = iter(range(256, 512))
    return [chr(b) if b in keep else chr(next(extra)) for b in range(256)]


def _merges():
    """The tokens made by merges, in rank order: all two-letter words, then all three-letter words, ...
    (52**4 = 7.3 million four-letter ones: more than any file here needs); each is its first letters
    (made before) joined with its last."""
    for n in itertools.count(2):
        for letters in itertools.product(LETTERS, repeat=n):
            yield "".join(letters)


def write_tokenizer_json(out, target_bytes: int, normalizer: dict | None = None) -> int:
    """Write a valid byte-level BPE tokenizer.json of exactly ``target_bytes`` bytes (merges as many as
    fit, then spaces) to the binary file ``out``; returns the number of merges."""

    def dump(value) -> str:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))

    byte_level = {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": True}
    head = (
        '{"version":"1.0","truncation":null,"padding":null,"added_tokens":[],'
        f'"normalizer":{dump(normalizer)},"pre_tokenizer":{dump(byte_level)},"post_processor":null,'
        f'"decoder":{dump(byte_level)},"model":{{"type":"BPE","dropout":null,"unk_token":null,'
        '"continuing_subword_prefix":null,"end_of_word_suffix":null,"fuse_unk":false,"byte_fallback":false,'
        '"ignore_merges":false,"vocab":{' + ",".join(f"{dump(c)}:{i}" for i, c in enumerate(byte_alphabet()))
    )
    middle, tail = '},"merges":[', "]}}"
    size = len((head + middle + tail).encode())
    count = 0
    # Letters only, so no JSON escapes: a vocab entry ',"abc":1234' and a merge entry '["ab","c"]' (and a comma).
    for count, token in enumerate(_merges()):  # noqa: B007 - count is the result
        more = 2 * len(token) + len(str(256 + count)) + 12 - (count == 0)
        if size + more > target_bytes:
            break
        size += more
    out.write(head.encode())
    entries = (f',"{t}":{i}' for i, t in enumerate(itertools.islice(_merges(), count), 256))
    while chunk := list(itertools.islice(entries, 100_000)):
        out.write("".join(chunk).encode())
    out.write(middle.encode())
    entries = (f'["{t[:-1]}","{t[-1]}"]' for t in itertools.islice(_merges(), count))
    sep = ""
    while chunk := list(itertools.islice(entries, 100_000)):
        out.write((sep + ",".join(chunk)).encode())
        sep = ","
    out.write(b" " * (target_bytes - size) + tail.encode())
    return count


def tokenizer_json(target_bytes: int, normalizer: dict | None = None) -> bytes:
    import io

    out = io.BytesIO()
    write_tokenizer_json(out, target_bytes, normalizer)
    return out.getvalue()


def expanding_tokenizer_json() -> bytes:
    """The issue's file: ~20 KB, a normalizer that puts 1,000 characters between every two characters."""
    return tokenizer_json(20_000, EXPANDING_NORMALIZER)


def big_tokenizer_json(folder: Path, target_bytes: int = BIG_BYTES) -> bytes:
    path = folder / "big-tokenizer.json"
    with path.open("wb") as out:
        write_tokenizer_json(out, target_bytes)
    return path.read_bytes()


async def start_paste_run(s: Session, nonce: int) -> None:
    """On the Train page, paste 5 MB of text (the 1 MB corpus five times, made fresh by ``nonce``) to a
    vocabulary of 20,000: a run nobody trained yet. Returns when the page shows it waiting or ready."""
    # A radio's state is its label; this run draws the text box and the vocabulary size box (the text is
    # still empty, so nothing is trained yet).
    await s._rerun(timeout=300, **{s.ids["source"]: "Paste or upload text", s.ids["limit"]: "Vocabulary size"})
    text = "\n".join(corpus_of(preset_settings("python-docs")))
    text = (f"run {nonce}\n" + text * 5)[: MAX_CORPUS_BYTES - 100]
    while len(text.encode("utf-8")) > MAX_CORPUS_BYTES:
        text = text[:-1000]
    await s._rerun(
        timeout=300,
        **{
            s.ids["source"]: "Paste or upload text",
            s.ids["corpus_text"]: text,
            s.ids["limit"]: "Vocabulary size",
            s.ids["limit_value"]: 20_000.0,
        },
    )


def answer(s: Session) -> str:
    """What the page said: its alerts (plain text), else the tokenizer in use and the token count."""
    alerts = [" ".join(re.sub("<[^>]+>", " ", h).split()) for h in s.html if 'class="bpe-alert' in h]
    if alerts:
        return " / ".join(alerts)
    using = next((re.sub(r"\\(.)", r"\1", t) for t in s.texts if t.startswith("Using ")), "no tokenizer")
    return "; ".join([using.split(" pre-tokenizer")[0], *(t for t in s.texts if t.startswith("Tokens: "))])


async def hostile(url: str, nonce: int, big: bytes, text_chars: int, out: dict, errors: list):
    """The neighbour's three acts, then the small run; figures into ``out``, failures into ``errors``."""
    s = Session(url, "", page="encode")
    try:
        await s.open(timeout=300)
        await s._rerun(timeout=300, **{s.ids["encode_source"]: "Uploaded file"})
        # (a) the expanding normalizer: uploaded (the page encodes its sample text), then a long text.
        seconds = await s.upload("encode_files", [("tokenizer.json", expanding_tokenizer_json())], timeout=600)
        out["expanding upload"] = (seconds, answer(s))
        text = ("This is not a token. " * (text_chars // 21 + 1))[:text_chars]
        started = time.perf_counter()
        await s._rerun(timeout=600, **{s.ids["encode_text"]: text})
        out[f"expanding, {len(text):,} chars"] = (time.perf_counter() - started, answer(s))
        if not any('class="bpe-alert' in h for h in s.html):
            errors.append("hostile: the expanding normalizer's text got no sentence (no alert)")
        # (b) a ~60 MB file, in place of the first.
        # ``big`` was built before the phase began: building 60 MB of JSON here, in a thread of this process,
        # held the interpreter that timestamps the class's clicks (seconds of made-up latency).
        data = big
        seconds = await s.upload("encode_files", [("big-tokenizer.json", data)], timeout=600)
        out[f"{len(data) / 1e6:.1f} MB upload"] = (seconds, answer(s))
        del data
        if s.exceptions:
            errors.append(f"hostile: traceback on Encode {s.exceptions[-1][:100]}")
        # (c) a big run, started on the Train page, then the tab is closed.
        s.page, s.query = "", "step=0"
        started = time.perf_counter()
        await s._rerun(timeout=300)  # the Train page, as a click on its name in the sidebar
        await start_paste_run(s, nonce + 1)  # not the fresh-run phase's paste (nonce): nobody's run yet
        if not s.waiting:
            errors.append("hostile: the big paste did not start a run (no progress shown)")
        else:
            await asyncio.sleep(s.poll_every)  # one poll, as a browser would, so the run is under way
            await s._rerun(fragment=s.poll_fragment, auto=True, timeout=300)
        out["big run, then closed"] = (time.perf_counter() - started, "waiting" if s.waiting else "not waiting")
    except Exception as exc:  # noqa: BLE001 - every failure is counted
        errors.append(f"hostile: {type(exc).__name__} {exc}"[:160])
    finally:
        await s.close()
    await small_run(url, nonce, out, errors)


async def small_run(url: str, nonce: int, out: dict, errors: list) -> None:
    """The course preset with a setting nobody asked for: from the request to its step view."""
    limit_value = 60 + nonce % 400
    settings = replace(preset_settings("course"), tie_break="lexicographic", limit_value=limit_value)
    expected = bpe.run_training(corpus_of(settings), **settings.options())
    s = Session(url, f"preset=course&tie_break=lexicographic&limit_value={limit_value}")
    started = time.perf_counter()
    try:
        await s.open(timeout=600)
        seconds = time.perf_counter() - started
        shown = any('class="bpe-step-title"' in h for h in s.html)
        out["small run"] = (seconds, f"{s.last} merges" if shown else "no step view")
        if not shown or s.last != expected.num_merges:
            errors.append(f"hostile: the small run shows {s.last} merges, not {expected.num_merges}")
    except Exception as exc:  # noqa: BLE001
        errors.append(f"hostile: small run {type(exc).__name__} {exc}"[:160])
    finally:
        await s.close()


async def watch_rss(rss, stop: asyncio.Event, out: dict, cap_mib: float, kill) -> None:
    """Sample ``rss()`` (server and workers, MiB) every 0.25 s into ``out["peak"]``; past ``cap_mib``, call
    ``kill()`` so that a regression cannot take the machine down."""
    out.setdefault("peak", 0.0)
    while not stop.is_set():
        try:
            now = rss()
        except OSError:  # a worker ended between listing and reading
            now = out["peak"]
        out["peak"] = max(out["peak"], now)
        if now > cap_mib:
            out["killed"] = now
            kill()
            return
        try:
            await asyncio.wait_for(stop.wait(), 0.25)
        except TimeoutError:
            pass


# -- the greedy neighbour (issue 28 #4, #5): a paste storm and a long run, while the teacher works ----------
# The greedy client connects from another loopback address, so the server sees another browser (its budgets
# are per address): the teacher and the class connect from 127.0.0.1.
GREEDY_ADDRESS = "127.0.0.66"


def paste_text(nonce: int, chars: int = 5_000_000) -> str:
    """A corpus nobody pasted before: the 1 MB python-docs text, repeated to ``chars``, under a nonce line."""
    base = "\n".join(corpus_of(preset_settings("python-docs")))
    text = (f"paste {nonce}\n" + base * (chars // len(base) + 1))[:chars]
    while len(text.encode("utf-8")) > chars:  # a few characters take more than one byte
        text = text[: -1000 - (len(text.encode("utf-8")) - chars)]
    return text


async def paste(s: Session, text: str, merges: int, timeout: float = 600) -> None:
    """Paste ``text`` as the corpus, to ``merges`` merges (the box commits: the page stores it, then trains)."""
    values = {s.ids["source"]: "Paste or upload text", s.ids["limit"]: "Number of merges"}
    if "corpus_text" not in s.ids or "limit_value" not in s.ids:
        await s._rerun(timeout=timeout, **values)  # draws the text box and the number box
    await s._rerun(timeout=timeout, **values, **{s.ids["corpus_text"]: text, s.ids["limit_value"]: float(merges)})


def past_budget(s: Session) -> bool:
    """The page refused the last paste: this client sent its minute's budget of texts (``quota.pastes``)."""
    return any("may send at most" in h for h in s.html)


async def paste_within_budget(s: Session, text: str, merges: int, timeout: float = 600, patience: float = 300) -> float:
    """Paste ``text``; while the budget refuses it, press "Use the text in the box" every 5 s (for at most
    ``patience`` seconds), as a student who read the sentence would. Returns the seconds waited for the budget."""
    await paste(s, text, merges, timeout)
    started = time.perf_counter()
    while past_budget(s) and time.perf_counter() - started < patience:
        await asyncio.sleep(5)
        await s._rerun(s.widgets["corpus_retry"][0], timeout=timeout)
    return time.perf_counter() - started


def corpus_gone(s: Session) -> bool:
    return any("no longer on the server" in h for h in s.html)


async def teacher_corpus(url: str, nonce: int, out: dict, errors: list) -> str:
    """The teacher pastes a 1 MB corpus and a student opens its link; the link's query."""
    s = Session(url, "step=0")
    try:
        await s.open(timeout=300)
        await paste(s, paste_text(nonce, 1_000_000), 200)
        await s.settle(timeout=300)
        if "corpus=" not in s.query or "corpus=text" in s.query:
            errors.append(f"greedy: the teacher's corpus was not stored ({answer(s)[:100]})")
        student = Session(url, s.query)
        await student.open(timeout=300)
        await student.close()
        return s.query
    finally:
        await s.close()


async def upload_burst(
    s: Session, files: int, mb: float, out: dict, errors: list, phase_s: float = float("inf")
) -> None:
    """Upload ``files`` files of ``mb`` MB to the corpus uploader one after another, never deleting the one before
    (as a script can): the server holds at most ``upload_limits.MAX_FILES`` files and twice ``maxUploadSize``
    bytes for one session, and answers the others 413. No new file is started after ``phase_s`` seconds (the
    server paces a session's upload bytes: ``server/upload_pacing.py``)."""
    data = b"a burst of uploads " * int(mb * 1e6 / 19)
    started, taken, refused = time.perf_counter(), 0, 0
    for i in range(files):
        if time.perf_counter() - started > phase_s:
            break
        try:
            await s.upload("corpus_file", [(f"burst-{i}.txt", data)], timeout=600)
            taken += 1
        except OSError as exc:  # urllib's HTTPError: the server refused the file
            if getattr(exc, "code", None) != 413:
                errors.append(f"greedy: upload {i}: {type(exc).__name__} {exc}"[:160])
                return
            refused += 1
    sent = "" if taken + refused == files else f"; {taken + refused} of {files} sent in the phase's {phase_s:g} s"
    out[f"{files} uploads of {mb:g} MB"] = (
        time.perf_counter() - started,
        f"{taken} taken, {refused} refused (413){sent}",
    )


def hostile_check_files() -> list[tuple[str, bytes]]:
    """Issue 28's Check-page pickles: 60 levels of lists holding two references to the next (738 bytes), 200,000
    references to one 1 MB bytes object, 3,000 merges sharing one list of 100,000 ints."""
    levels: list = []
    for _ in range(60):
        levels = [levels, levels]
    big = b"x" * 2**20
    shared = [i % 256 for i in range(100_000)]
    return [
        ("levels.pkl", pickle.dumps(levels, protocol=4)),
        ("shared-bytes.pkl", pickle.dumps([(big, big) for _ in range(100_000)], protocol=4)),
        ("shared-list.pkl", pickle.dumps([(shared, shared) for _ in range(3_000)], protocol=4)),
    ]


def big_literal() -> str:
    """A pasted Python literal of tuples just under the Check page's 2,000,000-character limit."""
    pair = "(b'a', b'b'), "
    return "[" + pair * ((student_runs.MAX_PASTE_CHARS - 2) // len(pair)) + "]"


async def check_files(url: str, out: dict, errors: list, source: str | None = GREEDY_ADDRESS) -> None:
    """On the Check page, upload each hostile pickle in turn, then paste the 2 MB literal: each must get a sentence."""
    s = Session(url, "", page="check", source=source)
    started = time.perf_counter()
    try:
        await s.open(timeout=300)
        for name, data in hostile_check_files():
            await s.upload("chk_files", [(name, data)], timeout=600)
            if not any('class="bpe-alert' in h for h in s.html) and not s.texts:
                errors.append(f"greedy: the Check page said nothing of {name}")
        await s.upload("chk_files", [], timeout=600)
        await s._rerun(timeout=600, **{s.ids["chk_paste"]: big_literal()})
        if s.exceptions:
            errors.append(f"greedy: traceback on the Check page {s.exceptions[-1][:100]}")
        out["Check: 3 pickles, a 2 MB literal"] = (time.perf_counter() - started, answer(s)[:100])
    finally:
        await s.close()


async def rerun_storm(s: Session, reruns: int, out: dict) -> None:
    """Send ``reruns`` reruns at once, then read until the session's runs have stopped (bench_rerun_storm.py)."""
    from bench_rerun_storm import storm

    counts: dict = {}
    await storm(s, reruns, asyncio.Event(), counts)
    out[f"{reruns:,} reruns"] = (
        counts["drained_s"],
        f"{counts['finished']} runs finished, {counts['cut short']} cut short",
    )


async def greedy(
    url: str,
    nonce: int,
    pastes: int,
    out: dict,
    errors: list,
    uploads: int = 0,
    upload_mb: float = 59.0,
    reruns: int = 0,
    check: bool = False,
    phase_s: float = float("inf"),
) -> None:
    """One client uploads the Check page's hostile files (with ``check``), pastes ``pastes`` distinct 5 MB corpora, uploads ``uploads`` files of ``upload_mb`` MB and
    sends ``reruns`` reruns at once, then trains a 5 MB paste to 100,000 merges and stays (no new paste or upload
    is started after ``phase_s`` seconds of pasting or of uploading: the server paces a connection's big messages
    and a session's upload bytes, so a storm takes longer than the class's phase); meanwhile the
    teacher's fresh 1 MB run must reach its first step within 10 s, and the teacher's corpus, stored before
    the storm, must still open from its link. ``out["marks"]``: (``time.monotonic()``, what began), so the
    class's clicks can be put beside the action they waited behind."""
    marks = out.setdefault("marks", [])

    def mark(what: str) -> None:
        marks.append((time.monotonic(), what))

    mark("the teacher stores a corpus")
    teacher_link = await teacher_corpus(url, nonce, out, errors)
    if check:
        mark("Check files")
        await check_files(url, out, errors)
    mark("pastes")
    s = Session(url, "step=0", source=GREEDY_ADDRESS)
    try:
        await s.open(timeout=300)
        started, refused, unsent, texts = (
            time.perf_counter(),
            0,
            0,
            (paste_text(nonce * 1000 + i) for i in range(pastes)),
        )
        sent = 0
        for i, text in enumerate(texts):
            if time.perf_counter() - started > phase_s:
                break
            await paste(s, text, 1)
            sent += 1
            refused += any("may store at most" in h for h in s.html)
            unsent += past_budget(s)
            if s.exceptions:
                errors.append(f"greedy: traceback after paste {i}: {s.exceptions[-1][:100]}")
                break
        out[f"{pastes} pastes of 5 MB"] = (
            time.perf_counter() - started,
            f"{unsent} refused by the budget of texts sent, {refused} by the store's quota"
            + ("" if sent == pastes else f"; {sent} of {pastes} sent in the phase's {phase_s:g} s"),
        )
        if past_budget(s):  # the refused text stays in the box: empty it, so the storm is one of reruns, not of 5 MB
            await s._rerun(timeout=600, **{s.ids["corpus_text"]: ""})
        if uploads:
            mark("uploads")
            await upload_burst(s, uploads, upload_mb, out, errors, phase_s)
        if reruns:
            mark("reruns")
            await rerun_storm(s, reruns, out)
        mark("the long run's paste (budget retries)")
        started = time.perf_counter()
        waited = await paste_within_budget(s, paste_text(nonce * 1000 + pastes), 100_000)
        out["  of which waiting for the budget"] = (waited, "")
        if not s.waiting:
            errors.append(f"greedy: the 100,000-merge run is not training ({answer(s)[:100]})")
        out["5 MB to 100,000 merges"] = (time.perf_counter() - started, "training" if s.waiting else "not training")
        # The teacher's fresh 1 MB run, while the long one trains: from the paste to its first step.
        mark("the teacher's fresh run")
        teacher = Session(url, "step=0")
        try:
            await teacher.open(timeout=300)
            started = time.perf_counter()
            out["teacher's paste sent at"] = time.time()  # beside the server's BPE_RUN_TIMES lines
            await paste(teacher, paste_text(nonce * 1000 + pastes + 1, 1_000_000), 1_000)
            await teacher.settle(timeout=900)
            seconds = time.perf_counter() - started
            shown = any('class="bpe-step-title"' in h for h in teacher.html)
            out["teacher's fresh 1 MB run"] = (seconds, f"{teacher.last} merges" if shown else "no step view")
            if not shown:
                errors.append("greedy: the teacher's fresh run shows no step")
        finally:
            await teacher.close()
        await s._rerun(fragment=s.poll_fragment, auto=True, timeout=300)  # the long run is still the greedy one's
        out["long run still training"] = (0.0, "yes" if s.waiting else "no")
    except Exception as exc:  # noqa: BLE001 - every failure is counted
        errors.append(f"greedy: {type(exc).__name__} {exc}"[:160])
    finally:
        await s.close()
    mark("the teacher's link opened")
    student = Session(url, teacher_link)
    try:
        started = time.perf_counter()
        await student.open(timeout=300)
        out["teacher's corpus by link"] = (time.perf_counter() - started, "GONE" if corpus_gone(student) else "opens")
    finally:
        await student.close()
