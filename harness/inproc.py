"""Serve an ASGI app with uvicorn on a free loopback port, in a thread.

For contract tests that need a real socket but not a whole stack. The app is
made from its own origin, since some apps (the stub MCP) print absolute URLs.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import uvicorn

from beacon.cli.up import HOST, free_port

STARTUP_TIMEOUT_S = 20.0
_POLL_S = 0.02


@contextmanager
def serving(make_app: Callable[[str], Any]) -> Iterator[str]:
    """Yields the origin, ``http://127.0.0.1:PORT``; stops the server on exit."""
    port = free_port()
    origin = f"http://{HOST}:{port}"
    config = uvicorn.Config(make_app(origin), host=HOST, port=port, log_level="warning")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    waited = threading.Event()  # never set: its wait() is a bounded, interruptible pause
    for _ in range(int(STARTUP_TIMEOUT_S / _POLL_S)):  # uvicorn has no startup event
        if server.started or not thread.is_alive():
            break
        waited.wait(_POLL_S)
    if not server.started:
        server.should_exit = True
        raise RuntimeError(f"uvicorn did not start on {origin}")
    try:
        yield origin
    finally:
        server.should_exit = True
        thread.join(timeout=10)
