"""BPE Explorer: learn how byte-pair-encoding tokenizers are trained and how they cut text.

This file is only the router: it sets the page config once and lists the pages.
The pages live in `pages/`, the modules they are built from in `ui/`. Each page script calls
`ui.routing.through_router` first, so even on a fresh server, where Streamlit 1.67 may still run a page script
alone, `/encode` and `/train?step=7` are drawn by this router.
`streamlit run app.py` opens the training walkthrough with the course's hug example.
"""

from pathlib import Path

import altair  # noqa: F401  (imported before the heap is frozen, see server/heap.py)
import pandas  # noqa: F401
import streamlit as st

from server import session_end, startup
from ui import routing
from ui.assets import PAGE_CSS, RESTORE_JS

# The tab icon is a file of ours, served by the app: a Material icon there is fetched from Google's font site.
st.set_page_config(page_title="BPE Explorer", page_icon=str(Path(__file__).parent / "ui" / "icon.svg"), layout="wide")

# Train is the default page, which Streamlit serves at "/" (its own url_path is reserved but unknown to the browser:
# a later /train?step=7 drew "the page ... does not seem to exist" before running it). Shared links say /train, so
# a hidden page there sends them on to Train with their parameters.
train = st.Page("pages/train.py", title="Train", icon=":material/model_training:", url_path="home", default=True)


def _train_link() -> None:
    st.switch_page(train, query_params=st.query_params.to_dict())


pages = [
    train,
    st.Page(_train_link, title="Train", url_path="train", visibility="hidden"),
    st.Page("pages/encode.py", title="Encode", icon=":material/text_fields:", url_path="encode"),
    st.Page("pages/check.py", title="Check", icon=":material/fact_check:", url_path="check"),
    # Reached from the Train page's "Printable worksheet" link, not from the menu.
    st.Page("pages/worksheet.py", title="Worksheet", url_path="worksheet", visibility="hidden"),
]
startup.start_once()
session_end.watch_this_run()  # emptied when Streamlit ends the session (server/session_end.py)
st.html(PAGE_CSS)  # styles of the pages' HTML blocks (a style-only block takes no space)
# Typed text kept in this browser across a server restart, and our sentence while it is away (ui/restore.js).
st.html(RESTORE_JS, unsafe_allow_javascript=True)  # our own constant script, no user text
with routing.running_page():
    st.navigation(pages).run()
