"""A model's ``tokenizer.json`` from the Hugging Face Hub, by repo id (``openai-community/gpt2``).

Kept in ``huggingface_hub``'s usual cache (``HF_HUB_CACHE``, by default ``~/.cache/huggingface/hub``,
laid out as it lays it out), so a second request, or a machine that is offline (``HF_HUB_OFFLINE=1``)
but has the file cached, reads it from there. Every failure becomes a ValueError with one sentence
saying what to do.

The app is open to a class, so a download is bounded, whoever made the file. Its size is asked first
(``get_hf_file_metadata``), and a file announced over ``MAX_BYTES`` is refused before any of it is
fetched. The body is then streamed here rather than by ``hf_hub_download``, which reads in 10 MB chunks
with only a per-read timeout, so a server sending a byte a second would keep it busy for minutes and a
file of any size would be downloaded whole. The stream stops as soon as the bytes received pass ``MAX_BYTES`` or the
whole fetch passes ``DEADLINE_S``, and the partial file is removed. One fetch per name at a time: a
second request for the same name waits at most ``LOCK_WAIT_S``, then hears that it is still being
fetched. Left out: resuming a broken download (a tokenizer.json is small; asking again starts over), other
files of a repo (``vocab.json``, ``.model``), private repos and tokens, and uploading.
"""

from __future__ import annotations

import contextlib
import os
import re
import socket
import threading
import time
import uuid
from urllib.parse import urlsplit

from .formats.tokenizer_json import from_tokenizer_json
from .tokenizer import Tokenizer

EXAMPLES = ("openai-community/gpt2", "Xenova/gpt-4o")
MAX_BYTES = 60_000_000  # the largest tokenizer.json read (Llama 3's is 9 MB; Gemma's 34 MB)
DEADLINE_S = 60.0  # the whole fetch of one name: asking its size, then downloading it
LOCK_WAIT_S = 10.0  # how long a second request for a name being fetched waits before it is told so
_FILENAME = "tokenizer.json"
_REPO_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,95}(/[A-Za-z0-9][A-Za-z0-9._-]{0,95})?$")
_locks: dict[str, threading.Lock] = {}  # one per name ever fetched (a few bytes each)
_locks_lock = threading.Lock()


class HubUnavailable(ValueError):
    """The Hub cannot be reached (or is switched off) and the file is not in the local cache."""


def tokenizer_json_path(repo_id: str, *, revision: str | None = None, cache_dir: str | None = None) -> str:
    """The local path of ``repo_id``'s ``tokenizer.json``, downloaded into the Hub cache if needed."""
    if not isinstance(repo_id, str) or not _REPO_ID.match(repo_id.strip()) or "--" in repo_id or ".." in repo_id:
        raise ValueError(f"{repo_id!r} is not a Hub model name; write it as owner/name, like {EXAMPLES[0]}.")
    repo_id = repo_id.strip()
    from huggingface_hub import constants, hf_hub_download
    from huggingface_hub import errors as hub_errors
    from huggingface_hub import utils as hub_utils

    # Without a network, huggingface_hub retries for about 23 s before giving up; one quick connection
    # first tells an unreachable Hub at once, and the cache is then read without trying the network.
    unreachable = not constants.HF_HUB_OFFLINE and not hub_reachable(constants.ENDPOINT)
    try:
        if constants.HF_HUB_OFFLINE or unreachable:
            return hf_hub_download(repo_id, _FILENAME, revision=revision, cache_dir=cache_dir, local_files_only=True)
        with _fetching(repo_id):
            return _bounded_download(repo_id, revision, cache_dir, time.monotonic() + DEADLINE_S)
    except (hub_errors.OfflineModeIsEnabled, hub_errors.LocalEntryNotFoundError):
        if constants.HF_HUB_OFFLINE:
            raise HubUnavailable(
                f"{repo_id}'s tokenizer.json is not in this machine's Hugging Face cache, and the Hub "
                "is switched off (HF_HUB_OFFLINE is set): download it on a connected machine first, or "
                "upload the file instead."
            ) from None
        raise HubUnavailable(
            f"Could not reach the Hugging Face Hub for {repo_id} (is this machine offline?), and its "
            "tokenizer.json is not in the local cache: upload the file instead."
        ) from None
    except hub_errors.GatedRepoError:
        raise ValueError(
            f"{repo_id} is gated on the Hub: accept its terms and log in with a token, or upload "
            "its tokenizer.json instead."
        ) from None
    except hub_errors.RepositoryNotFoundError:
        raise ValueError(
            f"There is no public model named {repo_id} on the Hugging Face Hub; check the spelling "
            f"(like {EXAMPLES[0]})."
        ) from None
    except hub_errors.RevisionNotFoundError:
        raise ValueError(f"{repo_id} has no revision {revision!r} on the Hub.") from None
    except hub_errors.EntryNotFoundError:
        raise ValueError(
            f"{repo_id} has no tokenizer.json (it may ship only a SentencePiece tokenizer.model); "
            "BPE Explorer reads tokenizer.json files."
        ) from None
    except hub_errors.HFValidationError:
        raise ValueError(f"{repo_id!r} is not a Hub model name; write it as owner/name, like {EXAMPLES[0]}.") from None
    except (hub_errors.HfHubHTTPError, OSError, hub_utils.httpx.HTTPError) as exc:
        raise ValueError(
            f"Could not download {repo_id}'s tokenizer.json from the Hugging Face Hub "
            f"({type(exc).__name__}); try again, or upload the file."
        ) from None


@contextlib.contextmanager
def _fetching(repo_id: str):
    """Hold ``repo_id``'s lock while it is fetched. A request that cannot have it within LOCK_WAIT_S is
    refused with a sentence (the fetch holding it ends by DEADLINE_S at the latest)."""
    with _locks_lock:
        lock = _locks.setdefault(repo_id.lower(), threading.Lock())
    if not lock.acquire(timeout=LOCK_WAIT_S):
        raise ValueError(
            f"{repo_id}'s tokenizer.json is still being fetched for another session (for up to "
            f"{DEADLINE_S:.0f} s); try again in a minute."
        )
    try:
        yield
    finally:
        lock.release()


def _too_big(repo_id: str) -> ValueError:
    return ValueError(f"{repo_id}'s tokenizer.json is over {MAX_BYTES // 1_000_000} MB, more than BPE Explorer reads.")


def _too_slow(repo_id: str) -> ValueError:
    return ValueError(
        f"{repo_id}'s tokenizer.json took longer than {DEADLINE_S:.0f} s to download, BPE Explorer's limit; "
        "try again later, or upload the file."
    )


def _bounded_download(repo_id: str, revision: str | None, cache_dir: str | None, deadline: float) -> str:
    """The cached path of ``repo_id``'s tokenizer.json, downloaded within MAX_BYTES and ``deadline`` if
    the cache does not have this revision yet."""
    from huggingface_hub import constants, get_hf_file_metadata, hf_hub_download, hf_hub_url, try_to_load_from_cache
    from huggingface_hub.file_download import repo_folder_name
    from huggingface_hub.utils import build_hf_headers, get_session, hf_raise_for_status, httpx

    def seconds(most: float) -> float:  # a timeout for one step: never past the deadline
        return max(0.1, min(most, deadline - time.monotonic()))

    revision = revision or constants.DEFAULT_REVISION
    try:
        meta = get_hf_file_metadata(hf_hub_url(repo_id, _FILENAME, revision=revision), timeout=seconds(10))
    except httpx.TransportError:  # the Hub did not answer in time: the cache, or "could not reach"
        return hf_hub_download(repo_id, _FILENAME, revision=revision, cache_dir=cache_dir, local_files_only=True)
    if meta.size is not None and meta.size > MAX_BYTES:
        raise _too_big(repo_id)
    if not meta.commit_hash or not meta.etag:
        raise ValueError(f"The Hub's answer for {repo_id} names no revision of its tokenizer.json; try again later.")
    cached = try_to_load_from_cache(repo_id, _FILENAME, cache_dir=cache_dir, revision=meta.commit_hash)
    storage = os.path.join(cache_dir or constants.HF_HUB_CACHE, repo_folder_name(repo_id=repo_id, repo_type="model"))
    pointer = os.path.join(storage, "snapshots", meta.commit_hash, _FILENAME)
    blob = os.path.join(storage, "blobs", meta.etag)
    if not isinstance(cached, str) and not os.path.exists(blob):
        os.makedirs(os.path.dirname(blob), exist_ok=True)
        partial = f"{blob}.{uuid.uuid4().hex[:8]}.incomplete"
        # The pinned commit, so these are the bytes whose size was asked; redirects to the file's storage
        # are followed (httpx sends no token to another host). Uncompressed, so the count is the size.
        url = hf_hub_url(repo_id, _FILENAME, revision=meta.commit_hash)
        headers = {**build_hf_headers(), "Accept-Encoding": "identity"}
        try:
            with (
                get_session().stream(
                    "GET",
                    url,
                    headers=headers,
                    timeout=seconds(constants.HF_HUB_DOWNLOAD_TIMEOUT),
                    follow_redirects=True,
                ) as response,
                open(partial, "wb") as out,
            ):
                hf_raise_for_status(response)
                announced = response.headers.get("Content-Length", "")
                if announced.isdigit() and int(announced) > MAX_BYTES:
                    raise _too_big(repo_id)
                received = 0
                for chunk in response.iter_bytes():  # each piece as it arrives (decoded, if it came compressed)
                    received += len(chunk)
                    if received > MAX_BYTES:
                        raise _too_big(repo_id)
                    if time.monotonic() > deadline:
                        raise _too_slow(repo_id)
                    out.write(chunk)
            os.replace(partial, blob)
        except httpx.TimeoutException:
            raise _too_slow(repo_id) from None
        finally:
            with contextlib.suppress(FileNotFoundError):
                os.remove(partial)
    if not isinstance(cached, str):
        os.makedirs(os.path.dirname(pointer), exist_ok=True)
        with contextlib.suppress(FileExistsError):
            os.symlink(os.path.relpath(blob, os.path.dirname(pointer)), pointer)
    if revision != meta.commit_hash:  # refs/main names the commit, so an offline machine finds it later
        ref = os.path.join(storage, "refs", revision)
        os.makedirs(os.path.dirname(ref), exist_ok=True)
        with open(ref, "w") as f:
            f.write(meta.commit_hash)
    return cached if isinstance(cached, str) else pointer


def hub_reachable(endpoint: str, timeout: float = 3.0) -> bool:
    """True when a TCP connection to the Hub's host opens within ``timeout`` seconds."""
    url = urlsplit(endpoint)
    try:
        socket.create_connection((url.hostname or "huggingface.co", url.port or 443), timeout=timeout).close()
    except OSError:
        return False
    return True


def from_hub(repo_id: str, *, revision: str | None = None, cache_dir: str | None = None) -> Tokenizer:
    """The :class:`~bpe.Tokenizer` of a Hub model's ``tokenizer.json``."""
    return read_tokenizer_json(repo_id, tokenizer_json_path(repo_id, revision=revision, cache_dir=cache_dir))


def read_tokenizer_json(repo_id: str, path: str) -> Tokenizer:
    """The :class:`~bpe.Tokenizer` of ``repo_id``'s ``tokenizer.json`` at ``path`` (from :func:`tokenizer_json_path`)."""
    with open(path, "rb") as f:
        data = f.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        raise _too_big(repo_id)
    try:
        return from_tokenizer_json(data)
    except ValueError as exc:
        raise ValueError(f"{repo_id}'s tokenizer.json: {exc}") from None
