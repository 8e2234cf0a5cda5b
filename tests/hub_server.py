"""The Hugging Face Hub without the network: a local cache laid out as ``huggingface_hub`` lays it out, and a
stand-in server on localhost for testing downloads.

:func:`lay_out_cache` writes ``models--org--name/snapshots/<rev>/tokenizer.json`` and ``refs/main``. The server
answers ``HEAD`` and ``GET`` on ``/<owner>/<name>/resolve/<revision>/tokenizer.json`` with the headers
``huggingface_hub`` needs (``X-Repo-Commit``, ``ETag``, ``Content-Length``). Repos:

- ``test/small``: a real (small) tokenizer.json, given to :func:`serve`;
- ``test/big``: announced at 300 MB, its body made up as it is sent (never held in memory);
- ``test/unannounced``: the same 300 MB without a ``Content-Length`` (the body ends when the connection closes);
- ``test/trickle``: announced at 600 bytes, sent one byte a second.

Anything else is a 404 the way the Hub says it (``X-Error-Code: RepoNotFound``). The server keeps the
method and repo of every request it was sent (``server.requests``), so a test can tell a file refused
from its size alone (a ``HEAD``) from one whose body was asked for (a ``GET``).
"""

from __future__ import annotations

import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

REV = "0123456789abcdef0123456789abcdef01234567"
BIG = 300_000_000
TRICKLE = 600


def lay_out_cache(cache: Path, repo_id: str, text: str) -> None:
    """``text`` as ``repo_id``'s tokenizer.json in the Hub cache ``cache``, as a download would leave it."""
    repo = cache / ("models--" + repo_id.replace("/", "--"))
    (repo / "snapshots" / REV).mkdir(parents=True)
    (repo / "refs").mkdir()
    (repo / "refs" / "main").write_text(REV)
    (repo / "snapshots" / REV / "tokenizer.json").write_text(text, encoding="utf-8")


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    small: bytes = b""
    requests: list[tuple[str, str]]  # (method, repo) in the order they came

    def log_message(self, *args) -> None:  # quiet
        pass

    def _repo(self) -> str | None:
        parts = self.path.split("?")[0].strip("/").split("/")
        if len(parts) == 5 and parts[2] == "resolve" and parts[4] == "tokenizer.json":
            return f"{parts[0]}/{parts[1]}"
        return None

    def _head(self, repo: str) -> int | None:
        """Send the status and headers; the body's size, or None for a body ended by closing."""
        sizes = {"test/small": len(self.small), "test/big": BIG, "test/trickle": TRICKLE, "test/unannounced": None}
        if repo not in sizes:
            self.send_response(404)
            self.send_header("X-Error-Code", "RepoNotFound")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return 0
        size = sizes[repo]
        self.send_response(200)
        self.send_header("X-Repo-Commit", REV)
        self.send_header("ETag", f'"etag-{repo.replace("/", "-")}"')
        self.send_header("Content-Type", "application/json")
        if size is None:
            self.send_header("Connection", "close")
            self.close_connection = True
        else:
            self.send_header("Content-Length", str(size))
        self.end_headers()
        return size

    def do_HEAD(self) -> None:
        self.requests.append(("HEAD", self._repo() or ""))
        self._head(self._repo() or "")

    def do_GET(self) -> None:
        repo = self._repo() or ""
        self.requests.append(("GET", repo))
        size = self._head(repo)
        try:
            if repo == "test/small":
                self.wfile.write(self.small)
            elif repo in ("test/big", "test/unannounced"):
                block = b" " * 65536
                for start in range(0, BIG, len(block)):
                    self.wfile.write(block[: BIG - start])
            elif repo == "test/trickle":
                for _ in range(size or 0):
                    self.wfile.write(b" ")
                    self.wfile.flush()
                    time.sleep(1)
        except (BrokenPipeError, ConnectionResetError):
            pass


def serve(small: bytes) -> tuple[ThreadingHTTPServer, str]:
    """Start the server on a free port in a daemon thread; returns it and its endpoint URL."""
    handler = type("Handler", (_Handler,), {"small": small, "requests": []})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.requests = handler.requests
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"


if __name__ == "__main__":  # python tests/hub_server.py: serve until killed, printing the endpoint
    _server, _url = serve(b"{}")
    print(_url, flush=True)
    threading.Event().wait()
