"""Streamlit's floor for a polling fragment (benchmarks/bench_live_class.py --floor): one that draws nothing.

    .venv/bin/streamlit run benchmarks/bare_poll_app.py

Every run of it is what any ``st.fragment(run_every=...)`` costs the server at least, whatever it does.
"""

import streamlit as st


@st.fragment(run_every=1.0)
def poll() -> None:
    """Nothing: a following student's poll draws nothing either until the teacher moves."""


poll()
