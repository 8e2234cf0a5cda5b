"""Nagle's algorithm off on the server's sockets (server/tcp.py): Streamlit 1.67 binds its listening socket
with proto 0, so asyncio leaves Nagle on for every connection, and a click's twenty small websocket
messages could wait 40 ms for a delayed acknowledgement."""

from __future__ import annotations

import re
import socket

from browser_support import on_new_server
from st_client import Session

from server import tcp


def nodelay(sock: socket.socket) -> int:
    return sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)


def test_no_delay_reaches_open_connections_and_the_ones_accepted_later():
    listener = socket.socket(socket.AF_INET)  # as Streamlit 1.67 binds it: proto 0
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    client = socket.create_connection(listener.getsockname())
    before, _ = listener.accept()
    try:
        assert listener.proto == 0 and nodelay(before) == 0
        assert tcp.no_delay() >= 3  # the listener, the accepted connection and the client's socket
        later_client = socket.create_connection(listener.getsockname())
        later, _ = listener.accept()
        assert nodelay(before) == 1
        assert nodelay(later) == 1  # inherited from the listening socket
        later.close()
        later_client.close()
    finally:
        for s in (before, client, listener):
            s.close()


def test_the_server_sets_it_at_start_up():
    async def open_page(url: str) -> None:
        session = Session(url, "preset=hug")
        try:
            await session.open()
        finally:
            await session.close()

    _, log = on_new_server(open_page)
    m = re.search(r"TCP_NODELAY set on (\d+) server sockets", log)
    assert m and int(m.group(1)) >= 1, log[-2000:]
