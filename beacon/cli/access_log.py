"""`beacon serve`'s start line and its access log.

`listening on http://HOST:PORT` is printed (flushed, on stdout) once the socket
accepts connections. With `--access-log`, one line per request: method, path,
status, milliseconds and the turn id from the `X-Beacon-Turn` response header.
uvicorn's own access line is off: it carries the query string, and no timing.
"""

from __future__ import annotations

import contextlib
import socket
import sys
import time
from collections.abc import Sequence
from typing import Any

import uvicorn
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from uvicorn.supervisors import Multiprocess

from beacon.wire.headers import TURN_HEADER

APP_FACTORY = "beacon.server.app:app_from_env"
LOGGED_APP_FACTORY = "beacon.cli.access_log:logged_app_from_env"
_TURN = TURN_HEADER.lower().encode()


class AccessLog:
    """Pure ASGI: reads the response start, never a body; the path without its query."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        seen: dict[str, Any] = {"status": 0, "turn": None}

        async def watch(message: Message) -> None:
            if message["type"] == "http.response.start":
                seen["status"] = message["status"]
                seen["turn"] = next(
                    (v.decode("latin-1") for k, v in message.get("headers", ()) if k == _TURN),
                    None,
                )
            await send(message)

        try:
            await self.app(scope, receive, watch)
        finally:
            ms = (time.perf_counter() - started) * 1000
            turn = f" turn={seen['turn']}" if seen["turn"] else ""
            print(
                f"{scope['method']} {scope['path']} {seen['status'] or '-'} {ms:.1f}ms{turn}",
                flush=True,
            )


def logged_app_from_env() -> ASGIApp:
    """uvicorn factory: the chat server's app behind the access log."""
    from beacon.server.app import app_from_env

    return AccessLog(app_from_env())


def listening_line(sockets: Sequence[socket.socket]) -> str:
    host, port = sockets[0].getsockname()[:2]
    netloc = f"[{host}]" if ":" in host else host
    return f"listening on http://{netloc}:{port}"


class _AnnouncingServer(uvicorn.Server):
    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)
        if self.started and sockets is None:
            print(listening_line([s for srv in self.servers for s in srv.sockets]), flush=True)


def run_listening(config: uvicorn.Config) -> None:
    """``uvicorn.run`` for a built config, announcing the address once it listens.

    With several workers the supervisor binds the socket before it forks them:
    connections queue in the backlog until a worker accepts them, so the line is
    printed then.
    """
    if config.workers > 1:
        sock = config.bind_socket()
        print(listening_line([sock]), flush=True)
        Multiprocess(config, sockets=[sock]).run()
        return
    server = _AnnouncingServer(config)
    with contextlib.suppress(KeyboardInterrupt):
        server.run()
    if not server.started:
        sys.exit(3)  # uvicorn's STARTUP_FAILURE, as uvicorn.run exits
