"""How a stub command listens: uvicorn on loopback, ``listening on URL`` once it
accepts connections, and with ``--access-log`` one line per request (method, path,
status, ms, turn id). The stub may not import ``beacon.cli`` (an import-linter
contract), so these few lines live here, beside the chat server's
``beacon/cli/access_log.py``; ``stub_server.cli`` imports this module when a stub
command runs, not when ``beacon`` starts (uvicorn is a tenth of a second of it).
"""

from __future__ import annotations

import socket
import time
from typing import Any

import typer
import uvicorn
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from beacon.wire.headers import TURN_HEADER

HOST = "127.0.0.1"
_TURN = TURN_HEADER.lower().encode()


def _access_log(app: ASGIApp) -> ASGIApp:
    """Pure ASGI: reads the response start, never a body; the path without its query."""

    async def logged(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await app(scope, receive, send)
            return
        started = time.perf_counter()
        seen: dict[str, Any] = {"status": 0, "turn": None}

        async def watch(message: Message) -> None:
            if message["type"] == "http.response.start":
                seen["status"] = message["status"]
                headers = message.get("headers", ())
                seen["turn"] = next((v.decode() for k, v in headers if k == _TURN), None)
            await send(message)

        try:
            await app(scope, receive, watch)
        finally:
            ms = (time.perf_counter() - started) * 1000
            turn = f" turn={seen['turn']}" if seen["turn"] else ""
            line = f"{scope['method']} {scope['path']} {seen['status'] or '-'} {ms:.1f}ms{turn}"
            print(line, flush=True)

    return logged


class _AnnouncingServer(uvicorn.Server):
    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)
        if self.started:
            host, port = self.servers[0].sockets[0].getsockname()[:2]
            print(f"listening on http://{host}:{port}", flush=True)


def run(app: ASGIApp, port: int, access_log: bool) -> None:
    config = uvicorn.Config(
        _access_log(app) if access_log else app,
        host=HOST,
        port=port,
        log_level="warning",
        access_log=False,
    )
    server = _AnnouncingServer(config)
    server.run()
    if not server.started:
        raise typer.Exit(3)  # uvicorn's start-up failure, as uvicorn.run exits
