"""Links phones can open (ui/share.py, ui/classroom.py): BPE_PUBLIC_URL when set, and a note beside the QR
code when a link names this computer, which no phone can reach."""

from __future__ import annotations

import pytest

from ui import classroom, share


@pytest.mark.parametrize(
    "link",
    [
        "http://localhost:8501/?class=K7P3QX",
        "http://127.0.0.1:8501/?step=3",
        "http://[::1]:8501/",
        "http://app.localhost/",
    ],
)
def test_a_link_to_this_computer_says_so_with_what_to_do(link):
    note = share.local_note(link)
    assert "phones cannot open it" in note and "--server.address 0.0.0.0" in note and "BPE_PUBLIC_URL" in note
    assert "phones cannot open it" in share.share_html(link)


@pytest.mark.parametrize("link", ["http://192.168.1.20:8501/?class=K7P3QX", "https://bpe.example.org/?step=3"])
def test_a_link_phones_can_reach_has_no_note(link):
    assert share.local_note(link) == "" and "phones cannot" not in share.share_html(link)


@pytest.mark.parametrize(
    ("public", "expected"),
    [
        ("http://192.168.1.20:8501", "http://192.168.1.20:8501/?class=K7P3QX"),
        ("192.168.1.20:8501/", "http://192.168.1.20:8501/?class=K7P3QX"),
        ("https://example.org/bpe/", "https://example.org/bpe/?class=K7P3QX"),
    ],
)
def test_the_class_link_uses_the_public_url_and_carries_the_code_only(monkeypatch, public, expected):
    monkeypatch.setenv("BPE_PUBLIC_URL", public)
    assert classroom.class_link("K7P3QX") == expected
