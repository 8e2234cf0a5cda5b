"""BPE Explorer served with its own routes: ``app.py``'s pages, plus ``POST /corpus-upload`` and ``GET /class-state``.

``streamlit run serve.py`` serves the same pages as ``streamlit run app.py`` (the router, its query parameters,
``.streamlit/config.toml``), through Streamlit's ``st.App``, and adds the route that streams a big text file into
the corpus store (``server/corpus_route.py``: the Train page's "Send a big file" uses it) and the one a live
class's phones poll for the teacher's moves (``server/class_route.py``). ``app.py`` stays the page router, which
AppTest runs. The websocket's messages reach Streamlit through ``server/ws_pacing.py`` and upload bodies through
``server/upload_pacing.py``, so no one client's reruns, pastes or uploads hold the other sessions' clicks.
"""

import streamlit as st
from starlette.middleware import Middleware

from server import class_route, corpus_route
from server.upload_pacing import UploadPacing
from server.ws_pacing import WebsocketPacing

app = st.App(
    "app.py",
    routes=corpus_route.routes() + class_route.routes(),
    middleware=[Middleware(WebsocketPacing), Middleware(UploadPacing)],
)
