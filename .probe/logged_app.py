import sys, time, os
from pathlib import Path
import streamlit as st
REPO = Path("/work/main")
LOG = open("/tmp/probe/server_times.log", "a", buffering=1)
if not getattr(st, "_probe_patched", False):
    st._probe_patched = True
    from streamlit.web.server.starlette import starlette_websocket as sw
    real = sw.StarletteSessionClient.write_forward_msg
    def write(self, msg):
        kind = msg.WhichOneof("type")
        if kind == "delta":
            d = msg.delta; kind += ":" + (d.new_element.WhichOneof("type") if d.WhichOneof("type") == "new_element" else d.WhichOneof("type"))
        LOG.write(f"{time.time()*1000:.1f} send {kind}\n")
        return real(self, msg)
    sw.StarletteSessionClient.write_forward_msg = write
    from streamlit.runtime import runtime as rt
    realb = rt.Runtime.handle_backmsg
    def hb(self, sid, msg, *a, **k):
        LOG.write(f"{time.time()*1000:.1f} recv {msg.WhichOneof('type')}\n")
        return realb(self, sid, msg, *a, **k)
    rt.Runtime.handle_backmsg = hb
    sys.path.insert(0, str(REPO))
    real_page = st.Page
    st.Page = lambda page, **kw: real_page(str(REPO / page) if isinstance(page, str) else page, **kw)
app = REPO / os.environ.get("PROBE_SCRIPT", "app.py")
exec(compile(app.read_text(), str(app), "exec"), {"__name__": "__main__", "__file__": str(app)})
