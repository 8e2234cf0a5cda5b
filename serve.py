"""BPE Explorer served with its corpus upload route: ``app.py``'s pages, plus ``POST /corpus-upload`` beside them.

``streamlit run serve.py`` serves the same pages as ``streamlit run app.py`` (the router, its query parameters,
``.streamlit/config.toml``), through Streamlit's ``st.App``, and adds the route that streams a big text file into
the corpus store (``server/corpus_route.py``): the Train page's "Send a big file" uses it. ``app.py`` stays the
page router, which AppTest runs. The websocket's messages reach Streamlit through ``server/ws_pacing.py``, so
no one client's reruns or pastes hold the other sessions' clicks.
"""

import streamlit as st
from starlette.middleware import Middleware

from server import corpus_route
from server.ws_pacing import WebsocketPacing

app = st.App("app.py", routes=corpus_route.routes(), middleware=[Middleware(WebsocketPacing)])
