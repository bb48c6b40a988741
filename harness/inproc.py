"""Serve an ASGI app with uvicorn on a free loopback port, in a thread.

For contract tests that need a real socket but not a whole stack.
"""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import uvicorn

STARTUP_TIMEOUT_S = 20.0


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def serving(app: Any) -> Iterator[str]:
    """Yields the origin, ``http://127.0.0.1:PORT``; stops the server on exit."""
    port = _free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    started = threading.Event()

    def watch() -> None:
        while not server.started and thread.is_alive():
            started.wait(0.02)
        started.set()

    threading.Thread(target=watch, daemon=True).start()
    if not started.wait(STARTUP_TIMEOUT_S) or not server.started:
        server.should_exit = True
        raise RuntimeError(f"uvicorn did not start on port {port}")
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
