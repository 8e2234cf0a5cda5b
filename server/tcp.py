"""Small websocket messages sent at once: ``TCP_NODELAY`` on the server's sockets.

A click on Next comes back as about twenty small websocket messages. Streamlit 1.67 binds its
listening socket with ``socket.socket(family)``, whose ``proto`` is 0, and asyncio only turns
Nagle's algorithm off for sockets whose ``proto`` is TCP; so the accepted connections keep it on.
Then a small message waits for the acknowledgement of the one before, which the receiver delays by
tens of milliseconds (delayed ACK), which a class of stepping sessions feels on some clicks (figures in
``docs/benchmarks.md``). A browser delays its acknowledgements too.

:func:`no_delay` sets ``TCP_NODELAY`` on every TCP socket this process holds, the listening one
included; on Linux an accepted connection inherits it from the listening socket, so it is set once,
at start-up (``server.startup.start_once``). Linux only (``/proc/self/fd``); elsewhere it does
nothing.
"""

from __future__ import annotations

import os
import socket
import stat


def no_delay() -> int:
    """Turn Nagle's algorithm off on this process's TCP sockets; returns how many."""
    try:
        fds = [int(name) for name in os.listdir("/proc/self/fd")]
    except OSError:
        return 0
    done = 0
    for fd in fds:
        try:
            if not stat.S_ISSOCK(os.fstat(fd).st_mode):
                continue
            handle = os.dup(fd)  # a second handle, closed below: the server's own stays open
        except OSError:
            continue
        try:
            sock = socket.socket(fileno=handle)  # family and type read from the socket
        except OSError:
            os.close(handle)
            continue
        with sock:
            if sock.family in (socket.AF_INET, socket.AF_INET6) and sock.type == socket.SOCK_STREAM:
                try:
                    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                    done += 1
                except OSError:
                    pass
    return done
