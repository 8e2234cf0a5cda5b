"""The corpus upload route: a text file POSTed to ``/corpus-upload`` is read a chunk at a time into the corpus store.

Streamlit's own upload route turns a file's multipart body into one ``bytes`` (the file held about twice in
the server's memory while it arrives, before any page code runs). This route (served beside the pages by ``serve.py``'s
``st.App``) takes the body as it arrives instead: each piece of about CHUNK bytes is checked
(``server/corpus_upload.py``'s :class:`TextCheck`: UTF-8, NUL bytes, lines, digest) and written to a spool
file on disk, then the spool is handed to the store a chunk at a time (``put_chunks``), so the server holds
about one chunk per upload whatever the file's size. The answer is JSON with the corpus's digest and the
Train page's link to it (``?corpus=<digest>``); a refusal is HTTP 4xx (503 when the store or the server
cannot take it now) whose body is one sentence saying what to do.

The same limits as the page's uploader: ``server/limits.py`` (the size, checked from ``Content-Length``
before any byte is read, and again while reading), the budget of texts a client sends a minute
(``quota.pastes``) and the store's quota of new corpora (``put_chunks``), counted for the same client as
the page counts (``quota.client_name``). A POST from another site's page (an ``Origin`` that is not this
server) is refused, so no page elsewhere can make a visitor's browser fill the store; ``curl`` sends none.
The checking and storing run in worker threads (at most MAX_ACTIVE uploads at once), never in the server's
event loop, which the pages' websockets share.

    curl --data-binary @corpus.txt 'http://localhost:8501/corpus-upload?name=corpus.txt'

What this leaves out: the page's side (``ui/corpus_send.py``) and serving (``serve.py``).
"""

from __future__ import annotations

import tempfile
import threading
from urllib.parse import urlsplit

import anyio
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from server import corpus_store, corpus_upload, limits, quota

PATH = "/corpus-upload"
CHUNK = corpus_upload.CHUNK  # bytes checked and spooled at a time
MAX_ACTIVE = 4  # uploads read at once; another is told to come back (each spools up to the size limit to disk)
MAX_NAME_CHARS = 200  # a file name longer than this is cut in the sentences

_active = 0
_served = False  # routes() was asked for: this process serves the route (serve.py)
_active_lock = threading.Lock()
_threads = anyio.CapacityLimiter(MAX_ACTIVE)  # not the default limiter, which serves Streamlit's static files


def refuse(status: int, sentence: str) -> PlainTextResponse:
    return PlainTextResponse(sentence + "\n", status_code=status)


def client_of(request: Request) -> str:
    """The client a quota counts, as the page names it (``quota.client_name``); the machine itself otherwise."""
    host = request.client.host if request.client else None
    return quota.client_name(host, request.headers.get("x-forwarded-for"), "this machine")


def cross_site(request: Request) -> bool:
    """Whether a browser sent this from another site's page: its ``Origin`` names another host than this one."""
    origin = request.headers.get("origin")
    return origin is not None and urlsplit(origin).netloc != request.headers.get("host", "")


def file_name(request: Request) -> str:
    name = request.query_params.get("name") or "upload"
    return name if len(name) <= MAX_NAME_CHARS else name[:MAX_NAME_CHARS] + "…"


def too_big(name: str) -> str:
    return (
        f"The file {name!r} is more than {limits.LIMIT_TEXT}; the limit is {limits.LIMIT_TEXT} of text. "
        "Upload a part of it, or train it with the command line."
    )


async def upload(request: Request) -> Response:
    """Read the POSTed file into the corpus store; its digest and link (JSON), or a sentence (4xx, 503)."""
    global _active
    if cross_site(request):
        return refuse(403, "This upload comes from another site's page: upload from BPE Explorer's own page.")
    name, client = file_name(request), client_of(request)
    size = request.headers.get("content-length")
    size = int(size) if size and size.isdigit() else None
    if size is not None and (refusal := limits.upload_refusal(name, size)):
        return refuse(413, refusal)
    with _active_lock:
        if _active >= MAX_ACTIVE:
            return refuse(503, f"The server is reading {MAX_ACTIVE} uploads already: send the file again in a minute.")
        _active += 1
    try:
        if size is not None and (refusal := quota.pastes().refuse(client, size)):  # before any byte is read
            return refuse(429, f"{refusal} Send the file again then.")
        with tempfile.TemporaryFile(prefix="bpe-upload-") as spool:
            return await _read_and_store(request, name, client, size is None, spool)
    finally:
        with _active_lock:
            _active -= 1


async def _read_and_store(request: Request, name: str, client: str, count_after: bool, spool) -> Response:
    check = corpus_upload.TextCheck(name)

    def take(piece: bytearray) -> None:
        spool.write(check.feed(piece))

    received, held = 0, bytearray()
    try:
        async for piece in request.stream():
            received += len(piece)
            if received > limits.MAX_CORPUS_BYTES:
                return refuse(413, too_big(name))
            held += piece
            if len(held) >= CHUNK:
                held, full = bytearray(), held
                await anyio.to_thread.run_sync(take, full, limiter=_threads)
        await anyio.to_thread.run_sync(take, held, limiter=_threads)
        key, lines = await anyio.to_thread.run_sync(check.finish, limiter=_threads)
    except ValueError as exc:  # not UTF-8, or binary: the sentence naming the byte
        return refuse(422, str(exc))
    except ClientDisconnect:
        return refuse(400, "The upload was cut off before the whole file arrived: send it again.")
    if check.blank:
        return refuse(422, f"The file {name!r} is empty: nothing to train on.")
    if count_after and (refusal := quota.pastes().refuse(client, check.nbytes)):  # a body of no stated length
        return refuse(429, f"{refusal} Send the file again then.")

    def store() -> None:
        spool.seek(0)
        chunks = iter(lambda: spool.read(CHUNK), b"")
        corpus_store.store().put_chunks("text", key, chunks, check.nbytes, client=client)

    try:
        await anyio.to_thread.run_sync(store, limiter=_threads)
    except corpus_store.QuotaRefused as exc:
        return refuse(429, f"{exc} Send the file again then.")
    except corpus_store.StoreUnavailable as exc:
        return refuse(
            503, f"{exc} The file is not kept: upload it with the page's own uploader, which keeps it in your session."
        )
    page = request.url.path[: -len(PATH)] + "/"
    link = str(request.url.replace(path=page, query=f"corpus={key}"))
    return JSONResponse({"digest": key, "link": link, "name": name, "bytes": check.nbytes, "lines": lines})


def routes() -> list[Route]:
    """The routes ``serve.py`` adds to Streamlit's (from then on, :func:`served` is True in this process)."""
    global _served
    _served = True
    return [Route(PATH, upload, methods=["POST"])]


def served() -> bool:
    """Whether this process serves the route (started by ``serve.py``, not ``streamlit run app.py``)."""
    return _served
