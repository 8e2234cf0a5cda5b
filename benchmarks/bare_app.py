"""Streamlit's floor for benchmarks/bench_pages.py: one button (key "next") and a counter.

    .venv/bin/streamlit run benchmarks/bare_app.py

A click reruns this whole (tiny) script; the time from the click to "Count N+1" on screen
is what any Streamlit page costs at least, on this machine and browser.
"""

import streamlit as st

st.set_page_config(page_title="Bare Streamlit page", layout="wide")

if "count" not in st.session_state:
    st.session_state["count"] = 0


def bump() -> None:
    st.session_state["count"] += 1


st.button("Next ▶", key="next", on_click=bump)
with st.container(key="counter"):
    st.markdown(f"Count {st.session_state['count']}")
