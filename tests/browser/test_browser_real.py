"""Real tokenizer files in a real browser: the uploader takes a .tiktoken rank file (the browser filters by
extension), the pattern choice appears, and the chips show tiktoken's tokens."""

from __future__ import annotations

import pytest
import tiktoken
from browser_support import wait_for_app
from playwright.sync_api import expect
from tokenizer_files import rank_file

from bpe import pre_tokenizers as pt
from bpe.formats.rank_files import PATTERNS

pytestmark = pytest.mark.browser


def small_ranks() -> dict[bytes, int]:
    ranks = {bytes([b]): b for b in range(256)}
    for token in (b"in", b"th", b"the", b" the", b"er", b" t", b"on", b" tok", b"en", b" token", b"s", b"12", b"123"):
        for i in range(2, len(token) + 1):
            ranks.setdefault(token[:i], len(ranks))
    return ranks


def test_a_tiktoken_file_uploaded_in_the_browser(app_server, page):
    ranks = small_ranks()
    data = rank_file(ranks).encode()
    page.goto(f"{app_server}/encode?preset=course")
    expect(page.locator(".bpe-tokens").first).to_be_visible(timeout=60_000)
    wait_for_app(page)
    page.get_by_text("Uploaded file", exact=True).click()
    wait_for_app(page)
    page.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(
        files=[{"name": "tiny.tiktoken", "mimeType": "application/octet-stream", "buffer": data}]
    )
    expect(page.get_by_text("Split pattern of the .tiktoken file")).to_be_visible(timeout=60_000)
    expect(page.get_by_text("tiktoken cl100k")).to_be_visible(timeout=60_000)
    wait_for_app(page)
    text = "the token 12345"
    area = page.get_by_label("Text to tokenize (up to 100 KB)")
    area.fill(text)
    area.press("Control+Enter")
    enc = tiktoken.Encoding(name="tiny", pat_str=PATTERNS["cl100k"], mergeable_ranks=ranks, special_tokens={})
    expected = "".join(pt.bytes_to_symbols(enc.decode_single_token_bytes(i)) for i in enc.encode(text))
    expect(page.locator(".bpe-tokens").first).to_have_text(expected, timeout=60_000)
    wait_for_app(page)
    chips = page.locator(".bpe-tokens").first.locator(".tok").count()
    assert chips == len(enc.encode(text))
    assert page.locator('[data-testid="stException"]').count() == 0
