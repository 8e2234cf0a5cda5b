"""Hugging Face ``tokenizer.json``: ours, and real ones from the Hub or the ``tokenizers`` library.

Writing (:func:`to_tokenizer_json`, :func:`save`) makes a file that the ``tokenizers`` library, loading
it with ``Tokenizer.from_file``, cuts into the same tokens and ids as :meth:`bpe.Tokenizer.encode`:

=================  =======================================================  ================
our pre-tokenizer  tokenizer.json pre-tokenizer                             decoder
=================  =======================================================  ================
``gpt2``           ``ByteLevel`` (its own GPT-2 regex)                      ``ByteLevel``
``gpt4``           ``Split`` (cl100k regex, isolated), ``ByteLevel``        ``ByteLevel``
``whitespace``     ``WhitespaceSplit``                                      none (spaces)
``space-suffix``   ``Split`` (``\\S+\\s*|\\s+``, isolated)                     ``Fuse``
``sennrich``       cannot be written (see below)
=================  =======================================================  ================

Special tokens become ``added_tokens`` with ``special: true``; the unknown token is
the model's ``unk_token`` (byte-level vocabularies need none). WordPiece tokenizers
are written as a ``WordPiece`` model (``##`` prefix, the tokenizer's
``max_input_chars_per_word``, 100 unless set, ``WordPiece`` decoder without clean-up); that format
has no merges, so a WordPiece tokenizer loaded back has none (its tokens are unchanged: WordPiece
only needs the vocabulary).

Why ``sennrich`` cannot be written: our words end in a *separate* symbol ``</w>``
(``l o w </w>``), as in Sennrich et al.'s Algorithm 1. The ``tokenizers`` library's
``end_of_word_suffix`` glues the marker onto the last character instead
(``l o w</w>``), so it would cut words differently (``</w>`` alone could never be a
token). Rather than write a file that silently disagrees, :func:`to_tokenizer_json`
raises a ValueError; ``vocab.json`` + ``merges.txt`` hold such a tokenizer exactly.

Reading (:func:`from_tokenizer_json`, :func:`load`) checks the model once, then builds one of two
tokenizers. A file BPE Explorer's own schemes cut exactly like ``tokenizers``
(:func:`~bpe.formats.schemes.own_scheme`: our own files, and plain GPT-2 / ``BpeTrainer`` ones)
becomes a tokenizer with that scheme's name, so the Train page's explanations apply. Any other
BPE (or WordPiece) file is read with its own components (:mod:`bpe.pipeline`): normalisers,
pre-tokenizers, added tokens with ``lstrip``/``rstrip``/``single_word``/``normalized``, ByteLevel
offset trimming, the decoder, and the model's ``byte_fallback``, ``fuse_unk``, ``unk_token``,
``continuing_subword_prefix``, ``end_of_word_suffix`` and ``ignore_merges``; it then encodes as
``tokenizers`` 0.23 does (ids, tokens, offsets, decode; tested family by family), and saves back with
the same components. Merges may be ``["a", "b"]`` pairs or old-style ``"a b"`` strings.

Left out, refused with a ValueError that names the component: other models (Unigram, WordLevel),
dropout, and normalisers, pre-tokenizers, decoders or post-processors :mod:`bpe.pipeline` does not
list. Post-processor templates (``<s> ... </s>``) are kept but not applied: compare with
``add_special_tokens=False``. A file's ``truncation`` and ``padding`` settings are left out on purpose:
the page shows every token of the whole text.
"""

from __future__ import annotations

from typing import Any

from .. import pre_tokenizers as pt
from ..config import MAX_TOKEN_ID, WORDPIECE_PREFIX, Pair, check_nesting, shown
from ..models import BPE, WordPiece
from ..pipeline import Pipeline, PipelineText
from ..tokenizer import Tokenizer
from .fields import (
    PathLike,
    check_utf8,
    decode_text,
    format_json,
    parse_json,
    read_merges,
    read_vocab,
    without_gc,
)
from .schemes import byte_level_json, own_scheme, pre_tokenizer_json


# -- writing ---------------------------------------------------------------------------------------
def _tokenizer_dict(tok: Tokenizer) -> dict[str, Any]:
    if not isinstance(tok, Tokenizer):
        raise ValueError(f"Expected a bpe.Tokenizer to save, got {type(tok).__name__}.")
    if tok.pipeline is not None:
        return _file_tokenizer_dict(tok)
    pre_tokenizer = pre_tokenizer_json(tok.pre_tokenizer)
    added = []
    for token in tok.special_tokens:
        if token not in tok.vocab:
            raise ValueError(f"The special token {shown(token)} has no id in the vocabulary, so it cannot be saved.")
        added.append(
            {
                "id": tok.vocab[token],
                "content": token,
                "single_word": False,
                "lstrip": False,
                "rstrip": False,
                "normalized": False,
                "special": True,
            }
        )
    added.sort(key=lambda t: t["id"])
    vocab = dict(sorted(tok.vocab.items(), key=lambda item: item[1]))
    unk = tok.unk_token if tok.unk_token is not None and tok.unk_token in tok.vocab else None

    if tok.algorithm == "wordpiece":
        model: dict[str, Any] = {
            "type": "WordPiece",
            "unk_token": tok.unk_token or "[UNK]",
            "continuing_subword_prefix": WORDPIECE_PREFIX,
            "max_input_chars_per_word": tok.max_input_chars_per_word,
            "vocab": vocab,
        }
        decoder: dict[str, Any] | None = {"type": "WordPiece", "prefix": WORDPIECE_PREFIX, "cleanup": False}
    else:
        model = {
            "type": "BPE",
            "dropout": None,
            "unk_token": unk,
            "continuing_subword_prefix": None,
            "end_of_word_suffix": None,
            "fuse_unk": False,
            "byte_fallback": False,
            "ignore_merges": False,
            "vocab": vocab,
            "merges": [list(pair) for pair in checked_merges(tok)],
        }
        if tok.byte_level:
            decoder = byte_level_json(True)
        elif tok.pre_tokenizer == "space-suffix":
            decoder = {"type": "Fuse"}  # tokens keep their spaces: join them as they are
        else:
            decoder = None  # the tokenizers library then joins tokens with a space, as we do
    # The ByteLevel post-processor only adjusts offsets; with trim_offsets false they include
    # the leading space (Ġ), as ours do.
    post = {**byte_level_json(True), "trim_offsets": False} if tok.byte_level else None
    return {
        "version": "1.0",
        "truncation": None,
        "padding": None,
        "added_tokens": added,
        "normalizer": None,
        "pre_tokenizer": pre_tokenizer,
        "post_processor": post,
        "decoder": decoder,
        "model": model,
    }


def _file_tokenizer_dict(tok: Tokenizer) -> dict[str, Any]:
    """A tokenizer read from a real file, written back with the file's own components (normaliser,
    pre-tokenizer, post-processor, decoder, added tokens) and its model (merges as ``[a, b]``)."""
    src = tok.pipeline.source
    vocab = dict(sorted(tok.vocab.items(), key=lambda item: item[1]))
    outside = tok.pipeline.outside_model
    model_vocab = {t: i for t, i in vocab.items() if t not in outside}
    added_tokens = [{k: v for k, v in a.items() if k != "_outside_model"} for a in src["added_tokens"]]
    if tok.algorithm == "wordpiece":
        model: dict[str, Any] = {
            "type": "WordPiece",
            "unk_token": tok.unk_token,
            "continuing_subword_prefix": WORDPIECE_PREFIX,
            "max_input_chars_per_word": tok.max_input_chars_per_word,
            "vocab": model_vocab,
        }
    else:
        model = {
            "type": "BPE",
            "dropout": None,
            "unk_token": tok.unk_token,
            "continuing_subword_prefix": tok.continuing_subword_prefix,
            "end_of_word_suffix": tok.end_of_word_suffix,
            "fuse_unk": tok.fuse_unk,
            "byte_fallback": tok.byte_fallback,
            "ignore_merges": tok.ignore_merges,
            "vocab": model_vocab,
            "merges": [list(pair) for pair in tok.merges],
        }
    return {
        "version": "1.0",
        "truncation": None,
        "padding": None,
        "added_tokens": added_tokens,
        "normalizer": src["normalizer"],
        "pre_tokenizer": src["pre_tokenizer"],
        "post_processor": src["post_processor"],
        "decoder": src["decoder"],
        "model": model,
    }


def checked_merges(tok: Tokenizer) -> list[Pair]:
    """The merges in rank order, each checked against the vocabulary; a repeated pair is written
    once (its first rank, the one our tokenizer uses: the tokenizers library would keep the last)."""
    out, seen = [], set()
    for rank, (a, b) in enumerate(tok.merges, start=1):
        for part in (a, b, a + b):
            if part not in tok.vocab:
                raise ValueError(
                    f"Merge {rank} ({shown(a)}, {shown(b)}) uses {shown(part)}, which is not in the vocabulary."
                )
        if (a, b) not in seen:
            seen.add((a, b))
            out.append((a, b))
    return out


def to_tokenizer_json(tok: Tokenizer) -> str:
    """The text of a Hugging Face ``tokenizer.json`` file for ``tok``.

    >>> import json
    >>> model = json.loads(to_tokenizer_json(Tokenizer(["a", "b", "ab"], [("a", "b")])))["model"]
    >>> model["type"], model["unk_token"], model["vocab"], model["merges"]
    ('BPE', '[UNK]', {'a': 0, 'b': 1, 'ab': 2, '[UNK]': 3}, [['a', 'b']])
    """
    return check_utf8(format_json(_tokenizer_dict(tok)) + "\n")


def save(tok: Tokenizer, path: PathLike) -> None:
    """Write ``tok`` to ``path`` as a ``tokenizer.json`` file (UTF-8)."""
    text = to_tokenizer_json(tok)
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)


# -- reading ---------------------------------------------------------------------------------------
def _model_kind(data: Any, where: str) -> tuple[dict, str]:
    """The model section and its type, BPE or WordPiece (anything else is refused)."""
    if not isinstance(data, dict):
        raise ValueError(f"The {where} should hold a JSON object, not {type(data).__name__}.")
    model = data.get("model")
    if not isinstance(model, dict):
        raise ValueError(f'The {where} has no "model" section, so it is not a tokenizer.json file.')
    kind = model.get("type")
    if kind is None and "merges" in model:
        kind = "BPE"  # very old files left the type out
    if kind is None and "vocab" in model and "max_input_chars_per_word" in model:
        kind = "WordPiece"
    if kind is None and isinstance(model.get("vocab"), list):
        kind = "Unigram"  # [piece, score] pairs: only Unigram models hold them (T5's file has no "type")
    if kind not in ("BPE", "WordPiece"):
        named = (
            f"a {kind if len(kind) <= 40 else shown(kind)} model"
            if isinstance(kind, str)
            else "a model of unknown type"
        )
        raise ValueError(f"This file is {named}; BPE Explorer reads BPE models only (and WordPiece).")
    return model, kind


def _read_model_vocab(model: dict, where: str) -> tuple[dict[str, int], str | None]:
    """The model's vocabulary and its unknown token (None if it has none)."""
    if "vocab" not in model:
        raise ValueError(f'The model in the {where} has no "vocab".')
    vocab = read_vocab(model["vocab"], f"the {where}")
    unk = model.get("unk_token")
    if unk is not None and not isinstance(unk, str):
        raise ValueError(f"The model's unk_token should be text or null, not {shown(unk)}.")
    return vocab, unk


def _read_wordpiece_limit(model: dict) -> int:
    """A WordPiece model's ``max_input_chars_per_word`` (its ``##`` prefix checked too)."""
    prefix = model.get("continuing_subword_prefix", WORDPIECE_PREFIX)
    if prefix != WORDPIECE_PREFIX:
        raise ValueError(
            f"This WordPiece model marks word-inner pieces with {shown(prefix)}; BPE Explorer uses {shown(WORDPIECE_PREFIX)}."
        )
    limit = model.get("max_input_chars_per_word", 100)
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
        raise ValueError(
            f"The WordPiece model's max_input_chars_per_word should be a whole number of 1 or more, not {shown(limit)}."
        )
    return limit


def _read_bpe_options(model: dict) -> dict[str, Any]:
    """A BPE model's options (dropout refused): prefix and suffix (None when unset), the switches."""
    if model.get("dropout") not in (None, 0, 0.0):
        raise ValueError(
            "This file's BPE model uses dropout (it skips merges at random), which BPE Explorer leaves out."
        )
    options = {}
    for key in ("continuing_subword_prefix", "end_of_word_suffix"):
        value = model.get(key)
        if value is not None and not isinstance(value, str):
            raise ValueError(f"The model's {key} should be text or null, not {shown(value)}.")
        options[key] = value or None
    for key in ("byte_fallback", "fuse_unk", "ignore_merges"):
        value = model.get(key, False)
        if value is not None and not isinstance(value, bool):
            raise ValueError(f"The model's {key} should be true or false, not {shown(value)}.")
        options[key] = bool(value)
    return options


def _read_added_entries(added: Any, vocab: dict[str, int], renumbered: list | None = None) -> list[dict]:
    """The added tokens as checked dicts (content, id, options), each given its id in ``vocab``; each
    one ``tokenizers`` would renumber is appended to ``renumbered`` as (content, file's id, its id)."""
    if renumbered is None:
        renumbered = []
    if added is None:
        return []
    if not isinstance(added, list):
        raise ValueError("The file's added_tokens should be a list.")
    out = []
    ids: dict[int, str] | None = None  # id -> token, built only if a token is outside the vocabulary
    # tokenizers gives a token outside the model the next free id (its model's size, or one past the
    # highest added id), whatever the file says, and only logs a warning: those ids are noted here.
    model_size, highest = len(vocab), -1
    for entry in added:
        if not isinstance(entry, dict) or not isinstance(entry.get("content"), str) or not entry["content"]:
            raise ValueError(f"An entry of added_tokens ({shown(entry)}) has no 'content' text.")
        content, i = entry["content"], entry.get("id")
        if isinstance(i, int) and not isinstance(i, bool) and i > MAX_TOKEN_ID:
            raise ValueError(
                f"The added token {shown(content)} has the id {shown(i)}; ids are whole numbers from 0 to "
                f"{MAX_TOKEN_ID:,}."
            )
        if isinstance(i, bool) or not isinstance(i, int) or i < 0:
            if content not in vocab:
                raise ValueError(f"The added token {shown(content)} has no valid id ({shown(i)}).")
            i = vocab[content]
        outside = content not in vocab
        theirs = i if not outside else max(model_size, highest + 1)
        highest = max(highest, theirs)
        if theirs != i:
            renumbered.append((content, i, theirs))
        if outside and ids is None:
            ids = {i: t for t, i in vocab.items()}
        if outside:
            if i in ids:
                raise ValueError(
                    f"The added token {shown(content)} has the id {i}, which already belongs to {shown(ids[i])}."
                )
            vocab[content] = i
            ids[i] = content
        out.append({**entry, "id": i, "_outside_model": outside})
    return out


def _tokenizer_from_dict(data: Any, where: str) -> Tokenizer:
    """One path for every file: the model checked once, then our scheme's tokenizer when the file is one
    of ours (:func:`~bpe.formats.schemes.own_scheme`), else one with the file's own components."""
    model, kind = _model_kind(data, where)
    for key, value in data.items():  # vocab and merges are read flat (their entries are checked one by one)
        if key != "model":
            check_nesting(value, str(key)[:40])
    for key, value in model.items():
        if key not in ("vocab", "merges"):
            check_nesting(value, f"model's {str(key)[:40]}")
    scheme = own_scheme(data, model)
    vocab, unk = _read_model_vocab(model, where)
    pipeline = None
    renumbered: list[tuple[str, int, int]] = []
    if scheme is None:
        # A file's added tokens may stand outside its model's vocabulary: they get their ids first.
        added = _read_added_entries(data.get("added_tokens"), vocab, renumbered)
        pipeline = Pipeline(
            normalizer=data.get("normalizer"),
            pre_tokenizer=data.get("pre_tokenizer"),
            decoder=data.get("decoder"),
            post_processor=data.get("post_processor"),
            added_tokens=added,
            outside_model=frozenset(a["content"] for a in added if a.get("_outside_model")),
        )
    if kind == "WordPiece":
        merges: list[Pair] = []
        options: dict[str, Any] = {"max_input_chars_per_word": _read_wordpiece_limit(model)}
        algorithm = "wordpiece"
    else:
        options = _read_bpe_options(model)  # our schemes' files hold the defaults (own_scheme checked)
        if "merges" not in model:
            raise ValueError(f'The BPE model in the {where} has no "merges".')
        merges = read_merges(model["merges"], vocab, f"the {where}", prefix=options["continuing_subword_prefix"])
        algorithm = "bpe"
    if pipeline is not None:
        specials = [a["content"] for a in added]
        if algorithm == "wordpiece":
            model: BPE | WordPiece = WordPiece(vocab, merges, unk_token=unk, outside=pipeline.outside_model, **options)
        else:
            model = BPE(vocab, merges, unk_token=unk, outside=pipeline.outside_model, **options)
        return Tokenizer.from_parts(
            model, PipelineText(pipeline), special_tokens=specials, notes=_renumbered_note(renumbered)
        )
    specials = [a["content"] for a in _read_added_entries(data.get("added_tokens"), vocab, renumbered)]
    if unk is not None and unk not in vocab:
        if scheme in pt.BYTE_LEVEL:
            unk = None  # never needed: every byte has a token
        else:
            raise ValueError(f"The model's unknown token {shown(unk)} is not in the vocabulary.")
    return Tokenizer(
        vocab,
        merges,
        pre_tokenizer=scheme,
        special_tokens=specials,
        unk_token=unk,
        algorithm=algorithm,
        notes=_renumbered_note(renumbered),
        **({"max_input_chars_per_word": options["max_input_chars_per_word"]} if kind == "WordPiece" else {}),
    )


def _renumbered_note(renumbered: list[tuple[str, int, int]]) -> tuple[str, ...]:
    """One sentence when ``tokenizers`` would give added tokens other ids than the file's (GPT-4o's
    199999 and 200018 become 199998 and 199999 there)."""
    if not renumbered:
        return ()
    shown_ids = ", ".join(f"{shown(c)} {a:,} → {b:,}" for c, a, b in renumbered[:3])
    more = f" and {len(renumbered) - 3:,} more" if len(renumbered) > 3 else ""
    return (
        f"The file's added tokens leave a gap in the ids: the tokenizers library would renumber "
        f"{len(renumbered):,} of them to the next free ids ({shown_ids}{more}); BPE Explorer keeps the file's "
        "ids, which are the model's (and tiktoken's).",
    )


def from_tokenizer_json(text: str | bytes) -> Tokenizer:
    """A :class:`~bpe.Tokenizer` from the text (or UTF-8 bytes) of a ``tokenizer.json`` file."""
    with without_gc():
        data = parse_json(decode_text(text, "tokenizer.json file"), "tokenizer.json file")
        return _tokenizer_from_dict(data, "tokenizer.json file")


def load(path: PathLike) -> Tokenizer:
    """Read a ``tokenizer.json`` file: one saved by BPE Explorer or a BPE model's from elsewhere."""
    with open(path, "rb") as f:
        return from_tokenizer_json(f.read())
