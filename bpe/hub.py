"""A model's ``tokenizer.json`` from the Hugging Face Hub, by repo id (``openai-community/gpt2``).

Downloaded with ``huggingface_hub`` into its usual cache (``HF_HUB_CACHE``, by default
``~/.cache/huggingface/hub``), so a second request, or a machine that is offline
(``HF_HUB_OFFLINE=1``) but has the file cached, reads it from there. Every failure becomes a
ValueError with one sentence saying what to do.

Left out: other files of a repo (``vocab.json``, ``.model``), private repos and tokens, and
uploading.
"""

from __future__ import annotations

import re
import socket
from urllib.parse import urlsplit

from .formats.tokenizer_json import from_tokenizer_json
from .tokenizer import Tokenizer

EXAMPLES = ("openai-community/gpt2", "Xenova/gpt-4o")
MAX_BYTES = 60_000_000  # the largest tokenizer.json read (Llama 3's is 9 MB; Gemma's 34 MB)
_REPO_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,95}(/[A-Za-z0-9][A-Za-z0-9._-]{0,95})?$")


def tokenizer_json_path(repo_id: str, *, revision: str | None = None, cache_dir: str | None = None) -> str:
    """The local path of ``repo_id``'s ``tokenizer.json``, downloaded into the Hub cache if needed."""
    if not isinstance(repo_id, str) or not _REPO_ID.match(repo_id.strip()) or "--" in repo_id or ".." in repo_id:
        raise ValueError(f"{repo_id!r} is not a Hub model name; write it as owner/name, like {EXAMPLES[0]}.")
    repo_id = repo_id.strip()
    from huggingface_hub import constants, hf_hub_download
    from huggingface_hub import errors as hub_errors

    # Without a network, huggingface_hub retries for about 23 s before giving up; one quick connection
    # first tells an unreachable Hub at once, and the cache is then read without trying the network.
    unreachable = not constants.HF_HUB_OFFLINE and not hub_reachable(constants.ENDPOINT)
    try:
        return hf_hub_download(
            repo_id, "tokenizer.json", revision=revision, cache_dir=cache_dir, local_files_only=unreachable
        )
    except (hub_errors.OfflineModeIsEnabled, hub_errors.LocalEntryNotFoundError):
        if constants.HF_HUB_OFFLINE:
            raise ValueError(
                f"{repo_id}'s tokenizer.json is not in this machine's Hugging Face cache, and the Hub "
                "is switched off (HF_HUB_OFFLINE is set): download it on a connected machine first, or "
                "upload the file instead."
            ) from None
        raise ValueError(
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
    except (hub_errors.HfHubHTTPError, OSError) as exc:
        raise ValueError(
            f"Could not download {repo_id}'s tokenizer.json from the Hugging Face Hub "
            f"({type(exc).__name__}); try again, or upload the file."
        ) from None


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
    path = tokenizer_json_path(repo_id, revision=revision, cache_dir=cache_dir)
    with open(path, "rb") as f:
        data = f.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        raise ValueError(
            f"{repo_id}'s tokenizer.json is over {MAX_BYTES // 1_000_000} MB, more than BPE Explorer reads."
        )
    try:
        return from_tokenizer_json(data)
    except ValueError as exc:
        raise ValueError(f"{repo_id}'s tokenizer.json: {exc}") from None
