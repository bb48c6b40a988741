"""The stub's `beacon` commands: `beacon stub-mcp`, `beacon stub-llm`.

`register` is the `stub` entry point of the `beacon.commands` group
(pyproject.toml): `beacon.cli.main` calls it with its typer app at start, so
the product never imports the stub. `beacon up` and `beacon demo` start these
commands as child processes, by name, and read the scenario choices from the
registered `stub-mcp` command to refuse an unknown one before starting anything.

Each prints `listening on http://127.0.0.1:PORT` once it accepts connections and,
with `--access-log`, one line per request (method, path, status, ms, turn id).
The stub may not import `beacon.cli` (an import-linter contract), so the few lines
that do this live here too, beside the chat server's `beacon/cli/access_log.py`.
"""

from __future__ import annotations

import socket
import time
from typing import Annotated, Any

import typer
import uvicorn
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from beacon.wire.headers import TURN_HEADER
from stub_server.scenarios import available_scenarios

HOST = "127.0.0.1"
_TURN = TURN_HEADER.lower().encode()

# `--help` lists them; a name not among them is one line and exit 2 (a click Choice
# would print all 46 names in a box).
ScenarioOpt = Annotated[
    str,
    typer.Option(help="the scenario this stub plays, one of: " + ", ".join(available_scenarios())),
]
PortOpt = Annotated[int, typer.Option(help="the port to listen on (loopback)")]
AccessLogOpt = Annotated[
    bool,
    typer.Option(
        "--access-log",
        help="one line per request: method, path, status, ms, turn id (never bodies or queries)",
    ),
]


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


def _run(app: ASGIApp, port: int, access_log: bool) -> None:
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


def stub_mcp(
    port: PortOpt, scenario: ScenarioOpt = "default", access_log: AccessLogOpt = False
) -> None:
    """Run the stub MCP upstream (streamable HTTP at /mcp, dev endpoints beside it)."""
    from stub_server.mcp_app import create_app
    from stub_server.scenarios import UnknownScenario, load_scenario

    try:
        load_scenario(scenario)
    except UnknownScenario as exc:
        typer.echo(f"beacon stub-mcp: {exc} (`beacon stub-mcp -h` lists them)", err=True)
        raise typer.Exit(2) from exc
    _run(create_app(scenario=scenario, public_origin=f"http://{HOST}:{port}"), port, access_log)


# `beacon up`/`demo` read this from the registered command to refuse a typo before
# they start anything (the product does not import the stub).
setattr(stub_mcp, "scenario_choices", available_scenarios())  # noqa: B010


def stub_llm(port: PortOpt, access_log: AccessLogOpt = False) -> None:
    """Run the stub OpenAI-compatible model server (base URL ends in /v1)."""
    from stub_server.llm_app import create_app

    _run(create_app(), port, access_log)


def register(app: typer.Typer) -> None:
    app.command("stub-mcp")(stub_mcp)
    app.command("stub-llm")(stub_llm)
