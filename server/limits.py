"""How much corpus the pages take: one set of limits for the Train and Check pages, and the sentences that say so.

A pasted or uploaded text (Train page or Check page) may be up to MAX_CORPUS_BYTES of UTF-8; a word-count
table up to MAX_COUNTS_BYTES (it is edited as a table in the page). The file uploaders let through files
up to UPLOAD_WIDGET_MB, so that a file a little over our limit reaches the page and gets our sentence
(Streamlit's own refusal is a tooltip on a red mark); ``.streamlit/config.toml``'s ``maxUploadSize`` is at
least that. What a text of the limit costs to train is in ``docs/benchmarks.md`` (the corpus limit).
What this leaves out: reading a file (``server/corpus_upload.py``) and training (``server/jobs.py``).
"""

from __future__ import annotations

MAX_CORPUS_BYTES = 100_000_000  # a pasted or uploaded text, on the Train page and the Check page
MAX_COUNTS_BYTES = 5_000_000  # a word-count table (the page edits it as a table)
UPLOAD_WIDGET_MB = 500  # files up to this reach the page and are refused there with a sentence
# The text box's copy in the browser's localStorage (ui/restore.js), kept for a server restart: a longer
# paste is not copied (saving 20 MB there held the page for minutes); it is in the corpus store anyway.
BROWSER_SAVE_CHARS = 1_000_000
LIMIT_TEXT = f"{MAX_CORPUS_BYTES // 1_000_000} MB"
COUNTS_LIMIT_TEXT = f"{MAX_COUNTS_BYTES // 1_000_000} MB"


def upload_refusal(name: str, size: int, limit: int = MAX_CORPUS_BYTES) -> str | None:
    """The sentence refusing an uploaded file of ``size`` bytes, or None if it is within ``limit``.

    >>> upload_refusal("big.txt", 123_456_789)
    "The file 'big.txt' is 123.5 MB; the limit is 100 MB of text. Upload a part of it, or train it with the command line."
    """
    if size <= limit:
        return None
    return (
        f"The file {name!r} is {size / 1_000_000:,.1f} MB; the limit is {limit // 1_000_000} MB of text. "
        "Upload a part of it, or train it with the command line."
    )
