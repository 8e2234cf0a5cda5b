"""A short pick-list of popular tokenizers, and where each one's file is found.

Each entry names a public, ungated Hugging Face Hub repo whose ``tokenizer.json`` is fetched through
:mod:`bpe.hub` (its cache, size cap, deadline and per-name lock). GPT-4 (cl100k) and GPT-4o (o200k)
are tiktoken encodings: when tiktoken has already downloaded one on this machine, its cached
``.tiktoken`` file is read instead (no network at all), through :mod:`bpe.formats.rank_files`.
tiktoken keeps its files in ``TIKTOKEN_CACHE_DIR`` (else ``DATA_GYM_CACHE_DIR``, else
``<tmp>/data-gym-cache``), each named by the SHA-1 of its URL; a file whose SHA-256 is not the one
tiktoken publishes for it is ignored, as tiktoken ignores it.

Gated originals are replaced by ungated copies of the same tokenizer file: Llama 3 by
``NousResearch/Meta-Llama-3-8B`` (meta-llama's repos are gated), Mistral by ``unsloth/mistral-7b-v0.3``
(mistralai's are gated). Left out: downloading a tiktoken file (tiktoken is not needed at run time;
the Hub copies ``Xenova/gpt-4`` and ``Xenova/gpt-4o`` are fetched instead), and special tokens of a
rank file beyond those :mod:`bpe.formats.rank_files` knows for its pattern.

>>> [p.label for p in POPULAR][:3]
['GPT-2', 'GPT-4 (cl100k)', 'GPT-4o (o200k)']
>>> os.path.basename(tiktoken_cache_path("cl100k_base", {"TIKTOKEN_CACHE_DIR": "/c"}))
'9b5ad71b2ce5302211f9c61530b329a4922fc6a4'
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass

_BLOBS = "https://openaipublic.blob.core.windows.net/encodings/"
# tiktoken's own table (tiktoken_ext/openai_public.py): the file's URL, its SHA-256, our pattern's name.
TIKTOKEN_FILES: dict[str, tuple[str, str, str]] = {
    "r50k_base": (
        _BLOBS + "r50k_base.tiktoken",
        "306cd27f03c1a714eca7108e03d66b7dc042abe8c258b44c199a7ed9838dd930",
        "gpt2",
    ),
    "cl100k_base": (
        _BLOBS + "cl100k_base.tiktoken",
        "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7",
        "cl100k",
    ),
    "o200k_base": (
        _BLOBS + "o200k_base.tiktoken",
        "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d",
        "o200k",
    ),
}
MAX_TIKTOKEN_BYTES = 20_000_000  # o200k_base.tiktoken is 3.6 MB


@dataclass(frozen=True)
class Popular:
    """One pick: the name people know, the Hub repo holding its tokenizer.json, and the tiktoken
    encoding read from tiktoken's cache first, if it has one."""

    label: str
    repo_id: str
    tiktoken: str | None = None


POPULAR = (
    Popular("GPT-2", "openai-community/gpt2"),
    Popular("GPT-4 (cl100k)", "Xenova/gpt-4", "cl100k_base"),
    Popular("GPT-4o (o200k)", "Xenova/gpt-4o", "o200k_base"),
    Popular("Llama 3", "NousResearch/Meta-Llama-3-8B"),
    Popular("Mistral", "unsloth/mistral-7b-v0.3"),
    Popular("Qwen 2.5", "Qwen/Qwen2.5-0.5B"),
    Popular("Phi-3", "microsoft/Phi-3-mini-4k-instruct"),
    Popular("Whisper", "openai/whisper-small"),
    Popular("BERT", "google-bert/bert-base-uncased"),
)
BY_LABEL = {p.label: p for p in POPULAR}


def tiktoken_cache_path(encoding: str, environ: Mapping[str, str] | None = None) -> str | None:
    """Where tiktoken keeps ``encoding``'s file, or None when its caching is switched off
    (``TIKTOKEN_CACHE_DIR=""``)."""
    environ = os.environ if environ is None else environ
    if "TIKTOKEN_CACHE_DIR" in environ:
        cache_dir = environ["TIKTOKEN_CACHE_DIR"]
    elif "DATA_GYM_CACHE_DIR" in environ:
        cache_dir = environ["DATA_GYM_CACHE_DIR"]
    else:
        cache_dir = os.path.join(tempfile.gettempdir(), "data-gym-cache")
    if not cache_dir:
        return None
    url = TIKTOKEN_FILES[encoding][0]
    return os.path.join(cache_dir, hashlib.sha1(url.encode()).hexdigest())


def tiktoken_cached(encoding: str) -> bytes | None:
    """The bytes of ``encoding``'s ``.tiktoken`` file from tiktoken's cache, or None when it is not
    there (or not the published file: another size or SHA-256)."""
    path = tiktoken_cache_path(encoding)
    if path is None:
        return None
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_TIKTOKEN_BYTES + 1)
    except OSError:
        return None
    if len(data) > MAX_TIKTOKEN_BYTES or hashlib.sha256(data).hexdigest() != TIKTOKEN_FILES[encoding][1]:
        return None
    return data
