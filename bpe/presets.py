"""The example corpora the app offers, each with the settings that reproduce its source.

Every preset names its source and what it reproduces, so a student can check the
app against the text they are reading. The large one is built at run time from
the Python documentation that ships with CPython (see :mod:`bpe.corpora`).

Left out: training (a preset only names a corpus and options: :mod:`bpe.trainer` runs them).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .config import Pair


@dataclass(frozen=True)
class Preset:
    """A corpus plus the training options that reproduce its source."""

    key: str
    title: str
    source: str
    reproduces: str
    word_counts: str | None = None  # "word count" lines
    texts: tuple[str, ...] | None = None
    corpus_bytes: int | None = None  # built by bpe.corpora.english_corpus
    options: dict = field(default_factory=dict)
    forced_merges: dict[int, Pair] = field(default_factory=dict)

    def corpus(self):
        """The corpus in the form ``train_steps`` takes (word counts or a list of texts)."""
        from .corpora import corpus_lines
        from .pre_tokenizers import parse_word_counts

        if self.word_counts is not None:
            return parse_word_counts(self.word_counts)
        if self.corpus_bytes is not None:
            return corpus_lines(self.corpus_bytes)
        return list(self.texts or ())


HUG_COUNTS = "hug 10\npug 5\npun 12\nbun 4\nhugs 5"
COURSE_SENTENCES = (
    "This is the Hugging Face Course.",
    "This chapter is about tokenization.",
    "This section shows several tokenizer algorithms.",
    "Hopefully, you will be able to understand how they are trained and generate tokens.",
)
NOTEBOOK_SENTENCES = (
    "This is the world's first item.",
    "This is about ancient history.",
    "This section shows several ancient items and scripts.",
    "Hopefully, you will be able to understand how they are formed and generated in old times.",
)
MULTILINGUAL = (
    "Tokenizers meet many scripts: café, naïve, Ünïcödé.",
    "日本語のテキストもトークンになります。中文也一样。",
    "Emoji are bytes too: 🙂🙂 🚀 👩‍💻 and 🇫🇷.",
    "Русский текст и ελληνικά γράμματα, עברית ועربية.",
    "A character-level vocabulary would need every one of these characters; bytes need only 256.",
)

# Stanford CS336's handout splits this on whitespace only, to keep its example about the merges.
CS336_TEXT = "low low low low low lower lower widest widest widest newest newest newest newest newest newest"

# The course's GPT-2 run, also used by the notebook that reworks it with other sentences.
COURSE_OPTIONS = {"pre_tokenizer": "gpt2", "vocab_size": 50, "special_tokens": ("<|endoftext|>",)}

PRESETS: dict[str, Preset] = {
    p.key: p
    for p in [
        Preset(
            "hug",
            "hug, pug, pun, bun, hugs (the course)",
            "Hugging Face NLP course, chapter 6.5 'Byte-Pair Encoding tokenization'",
            "merges ug (20), un (16), hug (15) with the splits and vocabulary the course prints",
            word_counts=HUG_COUNTS,
            options={"pre_tokenizer": "whitespace"},
        ),
        Preset(
            "course",
            "The course's four sentences (GPT-2 pre-tokenization)",
            "Hugging Face NLP course, chapter 6.5, 'Implementing BPE'",
            "its 19 merges, final vocabulary of 50 and tokenize('This is not a token.')",
            texts=COURSE_SENTENCES,
            options=COURSE_OPTIONS,
        ),
        Preset(
            "notebook",
            "Another four sentences, ('Ġ', 't') forced first",
            "BPE/WordPiece notebook (seed 003), which forces ('Ġ', 't') as its first merge by hand",
            "its 22 merges and tokenize('This is not a token.'), with step 1 as a what-if",
            texts=NOTEBOOK_SENTENCES,
            options=COURSE_OPTIONS,
            forced_merges={1: ("Ġ", "t")},
        ),
        Preset(
            "aa-abc",
            "aa abc abc (How BPE works)",
            "'How BPE works - the tokenization algorithm used by large language models', worked example",
            "merges ab, abc, aa, 'aa ' (the streaming version's output)",
            texts=("aa abc abc",),
            options={"pre_tokenizer": "space-suffix", "num_merges": 4},
        ),
        Preset(
            "sennrich",
            "low, lower, newest, widest (Sennrich et al.)",
            "Sennrich, Haddow & Birch 2016, 'Neural Machine Translation of Rare Words with Subword Units'",
            "the paper's example with the end-of-word symbol </w>: es, est, est</w>, lo, low, ...",
            word_counts="low 5\nlower 2\nnewest 6\nwidest 3",
            options={"pre_tokenizer": "sennrich", "num_merges": 10},
        ),
        Preset(
            "cs336",
            "low, lower, widest, newest (Stanford CS336)",
            "Stanford CS336 (Language Modeling from Scratch), assignment 1, section 2.4's BPE training example",
            "the handout's 12 merges, ties broken by the greatest pair as bytes: s t, e st, o w, l ow, w est, n e, "
            "ne west, w i, wi d, wid est, low e, lowe r",
            texts=(CS336_TEXT,),
            options={
                "pre_tokenizer": "whitespace",
                "num_merges": 12,
                "tie_break": "greatest-bytes",
                "special_tokens": ("<|endoftext|>",),
            },
        ),
        Preset(
            "minbpe",
            "aaabdaaabac (Wikipedia, minbpe)",
            "Wikipedia 'Byte pair encoding' and karpathy/minbpe's test string",
            "minbpe's 3 merges (aa, aaa, aaab) with the 'first' rule; the 'lexicographic' rule gives "
            "Wikipedia's Z=aa, Y=ab, X=ZY",
            texts=("aaabdaaabac",),
            options={"pre_tokenizer": "whitespace", "num_merges": 3},
        ),
        Preset(
            "multilingual",
            "Many scripts and emoji (why byte-level BPE exists)",
            "written for BPE Explorer",
            "a byte-level run where every character, emoji included, is made of byte symbols",
            texts=MULTILINGUAL,
            options={"pre_tokenizer": "gpt2", "num_merges": 60},
        ),
        Preset(
            "python-docs",
            "Python documentation, 1 MB (a realistic run)",
            "the pydoc topics and standard-library docstrings shipped with CPython",
            "a real-English corpus trained to 5,000 merges with the tokenizers library's tie rule",
            corpus_bytes=1_000_000,
            options={"pre_tokenizer": "gpt2", "num_merges": 5000, "tie_break": "hf"},
        ),
    ]
}
DEFAULT_PRESET = "hug"
