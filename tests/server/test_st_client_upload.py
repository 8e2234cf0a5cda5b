"""The benchmark's protocol client uploads files as the browser does (benchmarks/st_client.py
``Session.upload``: file URLs, an HTTP PUT with the XSRF cookie, a rerun listing the file): a small
tokenizer.json put in the Encode page's uploader of a real server makes the page cut the text with it."""

from __future__ import annotations

import ast
import html
import re

import tokenizers
from browser_support import run_protocol
from hostile_neighbour import tokenizer_json
from st_client import Session

TEXT = "This is not a token"


def chip_tokens(blocks: list[str]) -> list[str]:
    """The tokens the chips carry in their tooltips (id N · 'token' · bytes ...)."""
    block = next(h for h in blocks if 'class="bpe-tokens' in h)
    return [ast.literal_eval(html.unescape(t)) for t in re.findall(r'title="id \d+ · (.*?) · bytes', block)]


async def upload_and_encode(url: str, data: bytes):
    s = Session(url, "", page="encode")
    await s.open()
    await s._rerun(**{s.ids["encode_source"]: "Uploaded file"})
    before = list(s.texts)
    await s.upload("encode_files", [("small-tokenizer.json", data)])
    await s._rerun(**{s.ids["encode_text"]: TEXT})
    await s.close()
    return before, s.texts, s.html, s.exceptions


def test_a_tokenizer_json_uploaded_by_the_protocol_client_cuts_the_text(app_server):
    data = tokenizer_json(20_000)
    before, texts, blocks, exceptions = run_protocol(lambda url: upload_and_encode(url, data), app_server)
    assert "Upload a tokenizer file to tokenize with it." in before  # no file yet: the page asked for one
    assert not exceptions
    assert any(re.sub(r"\\(.)", r"\1", t).startswith("Using small-tokenizer.json:") for t in texts)  # Markdown
    expected = tokenizers.Tokenizer.from_str(data.decode()).encode(TEXT).tokens
    assert expected == ["T", "hi", "s", "Ġ", "is", "Ġ", "no", "t", "Ġ", "a", "Ġ", "t", "ok", "en"]
    assert chip_tokens(blocks) == expected
