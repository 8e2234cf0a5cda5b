"""Presenter mode's Share popover (ui/share.py): what it says for a long link, and escaping."""

from __future__ import annotations

from ui import share


def test_a_link_too_long_for_a_readable_qr_code_gets_a_sentence_and_keeps_copy_link():
    link = "http://localhost:8501/?step=7&text=" + "Straße+" * 200
    body = share.share_html(link)
    assert "<img" not in body
    assert f"This link is {len(link):,} characters long, too long for a QR code" in body
    assert 'class="bpe-copy"' in body


def test_a_short_link_gets_its_qr_code_and_the_link_is_escaped():
    link = 'http://localhost:8501/?step=1&text="><script>alert(1)</script>'
    body = share.share_html(link)
    assert body.count("<img") == 1 and "<script>" not in body
    assert "&quot;&gt;&lt;script&gt;" in body
