"""The HTML the hover needs (bpe.display): chips carry their characters' span in UTF-16 units, and the text
block under them holds the text escaped, carriage returns included, so a browser reads it back exactly."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import bpe
from bpe import display

TEXT = "a🙂b <i>x</i>\r\nend"


class TextOf(HTMLParser):
    """The text of the .bpe-source-text block as an HTML parser reads it (a browser's would also turn a literal
    CR LF into LF: hence the character reference)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.inside, self.text = False, ""

    def handle_starttag(self, tag, attrs) -> None:
        self.inside = self.inside or ("class", "bpe-source-text") in attrs

    def handle_data(self, data) -> None:
        if self.inside:
            self.text += data


def test_chips_carry_utf16_spans_of_their_characters():
    tok = bpe.train(["a b end"], pre_tokenizer="gpt2", num_merges=2)
    encoding = tok.encode_full(TEXT)
    html_ = display.encoding_html(tok, encoding, TEXT, hover=True, limit=None)
    spans = [(int(s), int(e)) for s, e in re.findall(r'data-s="(\d+)" data-e="(\d+)"', html_)]
    units = TEXT.encode("utf-16-le")
    assert len(spans) == len(encoding.ids)
    assert [units[2 * s : 2 * e].decode("utf-16-le") for s, e in spans] == [TEXT[s:e] for s, e in encoding.offsets]
    assert ' data-s="' not in display.encoding_html(tok, encoding, TEXT)  # only when asked


def test_the_text_block_reads_back_exactly_and_never_as_html():
    block = display.source_html(TEXT)
    assert "<i>" not in block and "&#13;" in block
    parser = TextOf()
    parser.feed(block)
    assert parser.text == TEXT
