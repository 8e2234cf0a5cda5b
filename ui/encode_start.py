"""The Encode page's start: with only the Train page's toy example trained, offer tokenizers that cut real text.

The session starts on the course's hug corpus, whose seven merges know five words: most other text is
``[UNK]``. While that is the tokenizer in use, one line says so and offers the presets that train a
byte-level tokenizer in a moment (picking one trains it, and the Train page follows) and the popular
tokenizers whose files are on this machine; with none of those here it names the other ways in one line.
What this leaves out: the sources themselves (``encode_sources``, ``encode_popular``).
"""

from __future__ import annotations

import streamlit as st

from bpe.presets import PRESETS
from ui import encode_popular
from ui import session_keys as keys
from ui.encode_sources import POPULAR, TRAINED
from ui.settings import Settings, preset_settings

TOY_PRESETS = ("hug", "aa-abc", "sennrich", "cs336", "minbpe")  # word lists, not text: real text is [UNK]
QUICK_PRESETS = ("course", "multilingual")  # byte level, trained in well under a second
PRESET_NAMES = {"course": "The course's GPT-2-style tokenizer", "multilingual": "Byte level, many scripts"}


def _pick(state: dict, enc: dict) -> None:
    choice = st.session_state.get("encode_start")
    if choice in QUICK_PRESETS:
        state[keys.SETTINGS], state[keys.STEP] = preset_settings(choice), 0  # the Train page shows it too
    elif choice:
        st.session_state[keys.ENCODE_SOURCE] = enc["encode_source"] = POPULAR
        st.session_state[keys.POPULAR_PICK] = enc["popular_pick"] = choice
    st.session_state["encode_start"] = None


def offer(source: str, settings: Settings, state: dict, enc: dict) -> None:
    """The line and the choices, when the tokenizer in use is a toy example's."""
    if source != TRAINED or settings.source != "preset" or settings.preset not in TOY_PRESETS:
        return
    here = [label for label in encode_popular.LABELS if encode_popular.available(label)]
    st.pills(
        f"This is the Train page's toy tokenizer ({PRESETS[settings.preset].title}): other text comes out "
        "mostly as [UNK]. Try one that cuts any text:",
        [*QUICK_PRESETS, *here],
        format_func=lambda k: PRESET_NAMES.get(k) or f"{k} (on this machine)",
        key="encode_start",
        on_change=_pick,
        args=(state, enc),
    )
    if not here:
        st.caption(
            "Real models' tokenizers: pick one under Popular tokenizer (it needs the network the first time), "
            "or upload a tokenizer.json."
        )
