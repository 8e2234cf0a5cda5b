"""GPT-2's two-file format: ``vocab.json`` (token -> id) and ``merges.txt`` (one merge a line).

:func:`to_vocab_merges` writes a BPE tokenizer's two texts, :func:`from_vocab_merges` reads them back
(the files do not say how text is cut into words: the pre-tokenizer is named by the caller), and
:func:`vocab_byte_level_hint` warns when a vocabulary does not look like the pre-tokenizer chosen.
:func:`export_problems` says which of the formats can hold a tokenizer before any file is built.

Left out: WordPiece (this format has merges only) and tokens holding whitespace (``merges.txt``
separates a merge's two tokens with a space): both are refused, naming tokenizer.json instead.
"""

from __future__ import annotations

from collections.abc import Iterable

from .. import pre_tokenizers as pt
from ..config import Pair, shown
from ..tokenizer import Tokenizer
from .fields import check_merge, check_utf8, decode_text, format_json, parse_json, read_vocab
from .schemes import pre_tokenizer_json
from .tokenizer_json import checked_merges

MERGES_HEADER = "#version: 0.2"


def to_vocab_merges(tok: Tokenizer) -> tuple[str, str]:
    """The texts of ``vocab.json`` and ``merges.txt`` (GPT-2's two-file format) for a BPE tokenizer.

    ``merges.txt`` starts with ``#version: 0.2`` and has one merge per line, ``u g``. It
    cannot hold a token that contains whitespace (the ``space-suffix`` scheme's
    ``"abc "``); such tokenizers raise a ValueError: save them as tokenizer.json.
    Special tokens appear only in ``vocab.json``; name them again when loading.

    >>> vocab, merges = to_vocab_merges(Tokenizer(["a", "b", "ab"], [("a", "b")]))
    >>> merges
    '#version: 0.2\\na b\\n'
    """
    if not isinstance(tok, Tokenizer):
        raise ValueError(f"Expected a bpe.Tokenizer, got {type(tok).__name__}.")
    if tok.algorithm != "bpe":
        raise ValueError("vocab.json + merges.txt is a BPE format; save a WordPiece tokenizer as tokenizer.json.")
    lines = [MERGES_HEADER]
    for a, b in checked_merges(tok):
        for part in (a, b):
            if any(c.isspace() for c in part):
                raise ValueError(
                    f"merges.txt cannot hold the token {shown(part)}: it contains whitespace, and merges.txt separates "
                    "the two tokens of a merge with a space. Save this tokenizer as tokenizer.json instead."
                )
        lines.append(f"{a} {b}")
    vocab = dict(sorted(tok.vocab.items(), key=lambda item: item[1]))
    return check_utf8(format_json(vocab) + "\n"), check_utf8("\n".join(lines) + "\n")


def from_vocab_merges(
    vocab_text: str | bytes,
    merges_text: str | bytes,
    pre_tokenizer: str = "gpt2",
    *,
    special_tokens: Iterable[str] = (),
    unk_token: str | None = "[UNK]",
) -> Tokenizer:
    """A BPE :class:`~bpe.Tokenizer` from the texts of ``vocab.json`` and ``merges.txt``.

    These files do not say how text is cut into words, so name the pre-tokenizer
    (GPT-2's files: ``"gpt2"``, the default). Lines starting with ``#version`` and blank
    lines in ``merges.txt`` are skipped. Special tokens must be in the vocabulary.
    """
    pt.check_pre_tokenizer(pre_tokenizer)
    if isinstance(special_tokens, str):
        raise ValueError("special_tokens must be a list of strings, not a single string.")
    vocab = read_vocab(parse_json(decode_text(vocab_text, "vocab.json file"), "vocab.json file"), "vocab.json")
    merges: list[Pair] = []
    lines = decode_text(merges_text, "merges.txt file").splitlines()
    for number, line in enumerate(lines, start=1):
        if line.startswith("#version") or not line.strip():
            continue
        parts = line.split(" ")
        if len(parts) != 2 or not all(parts):
            raise ValueError(
                f"Line {number} of merges.txt ({shown(line)}) should be two tokens separated by one space, like 'u g'."
            )
        merges.append(check_merge(f"Line {number} of merges.txt", parts[0], parts[1], vocab))
    specials = list(dict.fromkeys(special_tokens))
    for token in specials:
        if token not in vocab:
            raise ValueError(f"The special token {shown(token)} is not in vocab.json.")
    return Tokenizer(vocab, merges, pre_tokenizer=pre_tokenizer, special_tokens=specials, unk_token=unk_token)


def vocab_byte_level_hint(vocab_text: str | bytes, pre_tokenizer: str) -> str | None:
    """A sentence when ``vocab.json`` and the chosen pre-tokenizer do not seem to match, else None.

    The files do not say their pre-tokenizer. A byte-level vocabulary trained on text with spaces
    has ``Ġ`` (GPT-2's symbol for the space byte); one without it was most likely trained on
    characters, and reading it byte-level quietly adds 256 byte symbols it never had.

    >>> vocab_byte_level_hint('{"h": 0, "u": 1, "g": 2, "hug": 3}', "gpt2") is not None
    True
    >>> vocab_byte_level_hint('{"h": 0, "Ġ": 1, "Ġh": 2}', "gpt2") is None
    True
    """
    vocab = read_vocab(parse_json(decode_text(vocab_text, "vocab.json file"), "vocab.json file"), "vocab.json")
    space = pt.bytes_to_unicode()[ord(" ")]
    if pre_tokenizer in pt.BYTE_LEVEL and space not in vocab:
        return (
            f"This vocab.json has no {space} (the space byte of a byte-level vocabulary), so it was probably not "
            f"trained byte-level: if its tokenizer cut words another way, pick that pre-tokenizer above "
            f"(read as {pre_tokenizer}, every text becomes bytes, and its {len(vocab):,} tokens gain the 256 "
            "byte symbols)."
        )
    return None


def export_problems(tok: Tokenizer) -> dict[str, str | None]:
    """Which formats can hold this tokenizer, checked cheaply before any file is built:
    ``{"tokenizer.json": None, "vocab.json + merges.txt": "why not"}`` (None means fine)."""
    problems: dict[str, str | None] = {"tokenizer.json": None, "vocab.json + merges.txt": None}
    if tok.algorithm == "bpe":
        try:
            pre_tokenizer_json(tok.pre_tokenizer)
        except ValueError as exc:
            problems["tokenizer.json"] = str(exc)
    if tok.algorithm != "bpe":
        problems["vocab.json + merges.txt"] = "vocab.json + merges.txt is a BPE format; use tokenizer.json."
    elif any(c.isspace() for a, b in tok.merges for c in a + b):
        problems["vocab.json + merges.txt"] = (
            "merges.txt cannot hold tokens that contain whitespace (this scheme keeps spaces in its tokens); "
            "use tokenizer.json."
        )
    return problems
