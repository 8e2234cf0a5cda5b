"""BPE Explorer: learn how byte-pair-encoding tokenizers are trained and how they cut text.

This file is only the router: it sets the page config once and lists the pages.
`streamlit run app.py` opens the training walkthrough with the course's hug example.
"""

import streamlit as st

st.set_page_config(page_title="BPE Explorer", page_icon=":material/extension:", layout="wide")

pages = [
    st.Page("pages/train.py", title="Train", icon=":material/model_training:", url_path="train", default=True),
    st.Page("pages/encode.py", title="Encode", icon=":material/text_fields:", url_path="encode"),
]
st.navigation(pages).run()
