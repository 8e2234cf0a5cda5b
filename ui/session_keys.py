"""The names of the session's state that more than one page module reads: one place to look them up.

Two kinds of name: widget keys in ``st.session_state`` (a widget's ``key=`` and whoever reads its value),
and keys of the app's own namespaced dict (``ui/session.py``'s :func:`~ui.session.app_state`). A
module that reads or writes one of these uses the constant here, so a rename is one edit and a reader finds
every user with one search. Keys only one module uses stay where they are used.

Left out: what the values are and when they change (each owning page says so).
"""

from __future__ import annotations

# -- widget keys (st.session_state) ---------------------------------------------------------------
STEP = "step"  # the step number box of the Train page (also kept in the app state)
BYTE_TEXT = "byte_text"  # the "Bytes as text" toggle
PRESET = "preset"  # the sidebar's preset corpus
COUNTS_TEXT = "counts_text"  # the word counts box
SOURCE = "source"  # where the corpus comes from (text, counts, preset, a run file)
PLAY = "play"  # the Train page's play/pause
SPEED = "speed"  # the Train page's play speed
PRESENT = "present"  # presenter mode
WHAT_IF = "what_if"  # the what-if panel's toggle
PREDICT = "predict"  # the predict-the-next-merge toggle
SPLIT_SEARCH = "split_search"  # the splits table's search box
ENCODE_SOURCE = "encode_source"  # which tokenizer the Encode page uses
POPULAR_PICK = "popular_pick"  # the popular tokenizer picked on the Encode page

# -- keys of the app state (ui.session.app_state()) ---------------------------------------------
SETTINGS = "settings"  # the Settings the Train page last trained with
STORED = "stored"  # values kept for the widgets across a visit to another page (session.keep_widgets)
RERUN_APP = "rerun_app"  # a callback asked for a rerun of the whole page
LINK_NOTES = "link_notes"  # what the opening link could not restore
PASTE_REFUSED = "paste_refused"  # the sentence for the text in the corpus box the budget of texts sent refused
COUNTS_REFUSED = "counts_paste_refused"  # the same for the word counts' paste box
CHECK_REFUSED = "chk_paste_refused"  # the same for the Check page's corpus box
