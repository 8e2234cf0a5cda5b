"""A tokenizer built from parts: a text side and a model, composed as the ``tokenizers`` library composes them.

A :class:`Tokenizer` is one model (:mod:`bpe.models`: BPE by merges, BPE by ranks, WordPiece) and one
text side that cuts text into the words the model reads, maps the tokens back to offsets and decodes:
our own training schemes (:class:`~bpe.scheme_text.SchemeText`: special tokens, a pre-tokenizer
scheme) or a real file's components (:class:`~bpe.pipeline.encoder.PipelineText`: normaliser,
pre-tokenizer, added tokens, offset trimming, decoder). Trained tokenizers and real files are the
same class with different parts: ``Tokenizer(vocab, merges, ...)`` builds a trained one,
:meth:`Tokenizer.from_parts` any other.

BPE words are encoded the way GPT-2 and the ``tokenizers`` library do it: start from single symbols,
then repeatedly merge the adjacent pair with the lowest merge rank, leftmost first, until no learned
pair is left; for merges learned by training this gives the same result as replaying the merges in
order, the course's way. A character outside the vocabulary becomes the unknown token (``[UNK]`` by
default) in character-level tokenizers. Byte-level tokenizers whose alphabet holds all 256 byte symbols
never need it, and ``decode(encode(t)) == t``. Each part keeps its last 10,000 words of up to 256
characters in a cache, and a tokenizer pickles without them (``__getstate__`` in each part).

How each word was built (:meth:`Tokenizer.trace`, :meth:`Tokenizer.merge_tree`) is replayed by
:mod:`bpe.replay`. Left out: files (:mod:`bpe.formats`: a tokenizer has no ``save`` or ``load``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from . import pre_tokenizers as pt
from .config import Pair
from .encoding import Encoding
from .models import BPE, Model, RankBPE, WordPiece
from .models.wordpiece import WORDPIECE_MAX_CHARS, check_max_input_chars
from .replay import TRACE_BUDGET, TraceStep, WordTrace
from .scheme_text import SchemeText
from .units import WORD_CACHE_MAX_CHARS, WORD_CACHE_SIZE, unit_to_char

__all__ = [
    "Encoding",
    "Tokenizer",
    "TraceStep",
    "WordTrace",
    "TRACE_BUDGET",
    "WORD_CACHE_MAX_CHARS",
    "WORD_CACHE_SIZE",
    "WORDPIECE_MAX_CHARS",
    "unit_to_char",
]


class Tokenizer:
    """A BPE or WordPiece tokenizer: a model (vocabulary and merges in rank order) and a text side.

    >>> tok = Tokenizer(["b", "g", "h", "n", "p", "s", "u", "ug", "un", "hug"],
    ...                 [("u", "g"), ("u", "n"), ("h", "ug")])
    >>> tok.tokenize("bug mug thug")
    ['b', 'ug', '[UNK]', 'ug', '[UNK]', 'hug']
    """

    def __init__(
        self,
        vocab: Sequence[str] | dict[str, int],
        merges: Iterable[Pair],
        *,
        pre_tokenizer: str = "whitespace",
        special_tokens: Iterable[str] = (),
        unk_token: str | None = "[UNK]",
        algorithm: str = "bpe",
        max_input_chars_per_word: int = WORDPIECE_MAX_CHARS,
        notes: Iterable[str] = (),
    ) -> None:
        """A tokenizer of one of our schemes (what training gives): ``vocab`` in id order (or token -> id),
        ``merges`` in rank order."""
        pt.check_pre_tokenizer(pre_tokenizer)
        if algorithm not in ("bpe", "wordpiece"):
            raise ValueError(f"Unknown algorithm {algorithm!r}; choose 'bpe' or 'wordpiece'.")
        check_max_input_chars(max_input_chars_per_word)
        vocab = _scheme_vocab(vocab, pre_tokenizer, unk_token, algorithm)
        if algorithm == "wordpiece":
            model: Model = WordPiece(
                vocab,
                merges,
                unk_token=unk_token,
                scheme=pre_tokenizer,
                max_input_chars_per_word=max_input_chars_per_word,
            )
        else:
            model = BPE(vocab, merges, unk_token=unk_token, scheme=pre_tokenizer)
        self._compose(model, SchemeText(pre_tokenizer, special_tokens), special_tokens, notes)

    @classmethod
    def from_parts(cls, model: Model, text, *, special_tokens: Iterable[str] = (), notes: Iterable[str] = ()):
        """A tokenizer of ``model`` behind the text side ``text`` (a :class:`~bpe.scheme_text.SchemeText`
        or a :class:`~bpe.pipeline.encoder.PipelineText`); ``notes``: sentences a page shows about how a
        file was read."""
        tok = cls.__new__(cls)
        tok._compose(model, text, special_tokens, notes)
        return tok

    def _compose(self, model: Model, text, special_tokens: Iterable[str], notes: Iterable[str]) -> None:
        self.model = model
        self.text = text.over(model)
        self.special_tokens: tuple[str, ...] = tuple(dict.fromkeys(special_tokens))
        self._notes = tuple(notes)

    def clear_caches(self) -> None:
        """Empty every word cache of the model and the text side (a cold start, for tests and benchmarks)."""
        self.model.clear_cache()
        self.text.clear_caches()

    @classmethod
    def from_state(cls, state, unk_token: str | None = "[UNK]") -> Tokenizer:
        """The tokenizer a training state defines: its vocabulary and merges so far."""
        cfg = state.history.config
        return cls(
            list(state.vocab),
            state.merges,
            pre_tokenizer=cfg.pre_tokenizer,
            special_tokens=cfg.special_tokens,
            unk_token=unk_token,
            algorithm=cfg.algorithm,
        )

    def with_merges(self, k: int) -> Tokenizer:
        """The same tokenizer using only its first ``k`` merges (ids unchanged).

        WordPiece encodes from its vocabulary alone (longest match first), so the tokens the later
        merges created leave the vocabulary too; BPE keeps them, since only its merges build tokens. A BPE
        view shares the vocabulary, the id map and the merge table, so moving the Encode page's k slider
        costs each session almost nothing; its word caches start empty.
        """
        if isinstance(k, bool) or not isinstance(k, int) or not 0 <= k <= len(self.merges):
            raise ValueError(f"k must be between 0 and {len(self.merges)}, not {k}.")
        return type(self).from_parts(
            self.model.with_merges(k), self.text, special_tokens=self.special_tokens, notes=self._notes
        )

    # -- what the parts hold, under the names the pages and formats read --------------------------
    @property
    def vocab(self) -> dict[str, int]:
        return self.model.vocab

    @vocab.setter
    def vocab(self, value: dict[str, int]) -> None:
        self.model.vocab = value

    @property
    def id_to_token(self) -> dict[int, str]:
        return self.model.id_to_token

    @property
    def merges(self) -> list[Pair]:
        return self.model.merges

    @property
    def algorithm(self) -> str:
        return self.model.kind

    @property
    def unk_token(self) -> str | None:
        return self.model.unk_token

    @property
    def model_vocab(self) -> dict[str, int]:
        """What the model may output (a file's added tokens outside its model are not)."""
        return self.model.model_vocab

    @property
    def max_input_chars_per_word(self) -> int:
        return self.model.max_input_chars_per_word if isinstance(self.model, WordPiece) else WORDPIECE_MAX_CHARS

    @property
    def byte_fallback(self) -> bool:
        return self.model.byte_fallback

    @property
    def fuse_unk(self) -> bool:
        return self.model.fuse_unk

    @property
    def continuing_subword_prefix(self) -> str | None:
        return self.model.continuing_subword_prefix

    @property
    def end_of_word_suffix(self) -> str | None:
        return self.model.end_of_word_suffix

    @property
    def ignore_merges(self) -> bool:
        return self.model.ignore_merges

    @property
    def merge_by_rank(self) -> bool:
        """Whether the model encodes by rank, as tiktoken does (a ``.tiktoken`` file)."""
        return isinstance(self.model, RankBPE)

    @property
    def derived(self) -> bool:
        """Whether a rank file's merges have been derived (reading :attr:`merges` or :attr:`notes` does)."""
        return not isinstance(self.model, RankBPE) or self.model.derived

    @property
    def pipeline(self):
        """A real file's text components (:class:`~bpe.pipeline.Pipeline`), or None for our schemes."""
        return self.text.pipeline

    @property
    def pre_tokenizer(self) -> str:
        """Our scheme's name, or a description of a file's pipeline."""
        return self.text.name

    @property
    def byte_level(self) -> bool:
        return self.text.byte_level

    @property
    def notes(self) -> tuple[str, ...]:
        """Sentences a page shows about how a file was read (a rank file's derive its merges first)."""
        return self._notes + self.model.notes

    @property
    def ranks(self) -> dict[Pair, int]:
        """pair -> its merge rank (the first, if a pair is listed twice)."""
        return self.model.ranks

    @property
    def vocab_size(self) -> int:
        return len(self.vocab)

    def token_rank(self, token: str) -> int | None:
        """The rank of the merge that created ``token`` (None for base symbols and specials)."""
        return self.model.created_rank().get(token)

    def unreachable(self, token: str) -> bool:
        """Whether ``token`` is a rank file's token that no merge of lower ranks builds (tiktoken makes it
        by rank, from whichever two tokens join into it): its merge tree is the token whole.

        >>> from bpe.formats import from_tiktoken
        >>> import base64
        >>> lines = [f"{base64.b64encode(bytes([b])).decode()} {b}" for b in range(256)]
        >>> tok = from_tiktoken("\\n".join(lines + ["YWJj 256", "YWI= 257"]), "gpt2")  # "abc" ranks below "ab"
        >>> tok.unreachable("abc"), tok.unreachable("ab"), tok.encode("abc")
        (True, False, [256])
        """
        return isinstance(self.model, RankBPE) and self.model.unreachable(token)

    # -- encoding --------------------------------------------------------------------------------
    def encode_full(self, text: str) -> Encoding:
        """Tokens, ids, character offsets and word ids of ``text``."""
        if not isinstance(text, str):
            raise ValueError(f"Expected text (str), got {type(text).__name__}.")
        return self.text.encode_full(text)

    def tokenize(self, text: str) -> list[str]:
        """The tokens of ``text``.

        >>> Tokenizer(["a", "b", "ab"], [("a", "b")]).tokenize("abab b")
        ['ab', 'ab', 'b']
        """
        return list(self.encode_full(text).tokens)

    def encode(self, text: str) -> list[int]:
        """The token ids of ``text``."""
        if not isinstance(text, str):
            raise ValueError(f"Expected text (str), got {type(text).__name__}.")
        return self.text.encode(text)

    def decode(self, ids: Iterable[int]) -> str:
        """Text from ids: with a file's own decoder; for our schemes exact for byte-level tokenizers,
        otherwise word boundaries rebuilt from the scheme's markers (``Ġ``, ``</w>``, ``##``, kept spaces)
        and, for plain ``whitespace`` BPE, a space between tokens (as ``tokenizers`` does)."""
        ids = list(ids)
        for i in ids:
            if isinstance(i, bool) or not isinstance(i, int) or i not in self.id_to_token:
                raise ValueError(f"{i!r} is not a token id of this tokenizer (ids go from 0 to {len(self.vocab) - 1}).")
        return self.text.decode(ids)

    def token_bytes(self, token: str) -> bytes:
        """The raw bytes of a token (UTF-8 of its text for character-level tokenizers; the byte
        of a byte-fallback token such as ``<0x41>``)."""
        if self.byte_level and token not in self.special_tokens and token != self.unk_token:
            try:
                return pt.symbols_to_bytes(token)
            except ValueError:
                pass
        if self.byte_fallback and len(token) == 6 and token.startswith("<0x") and token.endswith(">"):
            try:
                return bytes([int(token[3:5], 16)])
            except ValueError:
                pass
        return token.encode("utf-8")

    # -- explaining ------------------------------------------------------------------------------
    def trace(self, text: str, budget: int = TRACE_BUDGET) -> list[WordTrace]:
        """For every word of ``text``: its initial symbols and each merge applied, in order.

        Merges of one rank applied one after another form one step (the course's "every
        occurrence, left to right"). A word's steps hold at most ``budget`` symbols in all; the
        steps beyond are counted in ``omitted`` and ``final`` still holds the complete result.
        """
        out = []
        for word, span, special in self.text.words(text):
            if special:
                out.append(WordTrace(word, span, (word,), ()))
                continue
            parts, steps, omitted, final = self.model.trace(word, budget)
            initial = tuple(t for t, _ in parts)
            out.append(WordTrace(word, span, initial, tuple(steps), omitted, tuple(t for t, _ in final)))
        return out

    def merge_tree(self, token: str) -> tuple | str:
        """Break a token into the pairs it came from: ``"hug"`` -> ``("h", ("u", "g"))`` (see
        :func:`bpe.replay.merge_tree`)."""
        return self.model.merge_tree(token)


def _scheme_vocab(
    vocab: Sequence[str] | dict[str, int], pre_tokenizer: str, unk_token: str | None, algorithm: str
) -> dict[str, int]:
    """A trained tokenizer's vocabulary: token -> id, then the tokens every such tokenizer needs appended."""
    if isinstance(vocab, dict):
        out: dict[str, int] = dict(vocab)
    else:
        out = {}
        for token in vocab:
            out.setdefault(token, len(out))
    ids = set(out.values())
    if len(ids) != len(out):
        raise ValueError("Two tokens in the vocabulary share an id; every token needs its own id.")

    def append(token: str) -> None:
        if token not in out:
            out[token] = max(ids, default=-1) + 1
            ids.add(out[token])

    if algorithm == "wordpiece" and unk_token is not None:
        # WordPiece marks a whole word it cannot cover as unknown, byte-level or not.
        append(unk_token)
    if pre_tokenizer in pt.BYTE_LEVEL:
        # A byte-level vocabulary holds all 256 byte symbols by definition. Training may have seen only
        # some of them (the course's alphabet has 30); the rest are appended after the learned tokens, so
        # trained ids do not move and no text ever needs [UNK].
        for symbol in pt.bytes_to_unicode().values():
            append(symbol)
    elif unk_token is not None:
        # A character-level tokenizer needs an id for unknown characters; it goes at the end.
        append(unk_token)
    return out
