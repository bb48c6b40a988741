"""The stub's `beacon` commands: `beacon stub-mcp`, `beacon stub-llm`.

`register` is the `stub` entry point of the `beacon.commands` group
(pyproject.toml): `beacon.cli.main` calls it with its typer app at start, so
the product never imports the stub. `beacon up` and `beacon demo` start these
commands as child processes, by name, and read the scenario choices from the
registered `stub-mcp` command to refuse an unknown one before starting anything.

Each prints `listening on http://127.0.0.1:PORT` once it accepts connections and,
with `--access-log`, one line per request (method, path, status, ms, turn id):
`stub_server/listening.py`, imported when a stub command runs. Every `beacon`
command loads this module at start, so it imports only typer and the scenarios'
names (beacon/lazy.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from stub_server.scenarios import available_scenarios

if TYPE_CHECKING:
    from stub_server.pace import Pace

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


def stub_mcp(
    port: PortOpt, scenario: ScenarioOpt = "default", access_log: AccessLogOpt = False
) -> None:
    """Run the stub MCP upstream (streamable HTTP at /mcp, dev endpoints beside it)."""
    from stub_server.listening import HOST, run
    from stub_server.mcp_app import create_app
    from stub_server.scenarios import UnknownScenario, load_scenario

    try:
        load_scenario(scenario)
    except UnknownScenario as exc:
        typer.echo(f"beacon stub-mcp: {exc} (`beacon stub-mcp -h` lists them)", err=True)
        raise typer.Exit(2) from exc
    pace = _pace("stub-mcp")
    origin = f"http://{HOST}:{port}"
    run(create_app(scenario=scenario, public_origin=origin, pace=pace), port, access_log)


# `beacon up`/`demo` read this from the registered command to refuse a typo before
# they start anything (the product does not import the stub).
setattr(stub_mcp, "scenario_choices", available_scenarios())  # noqa: B010


def stub_llm(port: PortOpt, access_log: AccessLogOpt = False) -> None:
    """Run the stub OpenAI-compatible model server (base URL ends in /v1)."""
    from stub_server.listening import run
    from stub_server.llm_app import create_app

    run(create_app(pace=_pace("stub-llm")), port, access_log)


def _pace(command: str) -> Pace:
    """The pace the environment sets (``stub_server.pace``); a bad value is one line."""
    from stub_server.pace import PaceError, pace_from_env

    try:
        return pace_from_env()
    except PaceError as exc:
        typer.echo(f"beacon {command}: {exc}", err=True)
        raise typer.Exit(2) from exc


def register(app: typer.Typer) -> None:
    app.command("stub-mcp")(stub_mcp)
    app.command("stub-llm")(stub_llm)
