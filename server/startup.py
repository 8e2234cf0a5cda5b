"""What runs once per process when the server starts: :func:`start_once` (the C allocator's settings, socket
options, the training workers, the frozen heap, the per-session upload limits; ``app.py`` calls it at every run).
"""

from __future__ import annotations

import sys

from server import allocator, heap, jobs, tcp, upload_limits

_started = False


def start_once() -> None:
    """At the server's first script run: the allocator set, ``TCP_NODELAY`` on its sockets, the training workers started,
    the heap frozen. Later calls do nothing."""
    global _started
    if not _started:
        _started = True
        allocator.configure()  # before the sessions' threads spread the heap over arenas (server/allocator.py)
        sockets = tcp.no_delay()  # small websocket messages go out at once (server/tcp.py)
        print(f"bpe: TCP_NODELAY set on {sockets} server sockets", file=sys.stderr, flush=True)
        jobs.warm()  # the training workers start with the server, not with the first student
        heap.freeze_heap()
        heap.start_sweeper()  # evicted runs a session still held are freed once it lets go
        upload_limits.install()  # files and bytes per session (server/upload_limits.py)
