"""The stub's ``beacon`` commands: ``beacon stub-mcp``, ``beacon stub-llm``.

``register`` is the ``stub`` entry point of the ``beacon.commands`` group
(pyproject.toml): ``beacon.cli.main`` calls it with its typer app at start, so
the product never imports the stub. ``beacon up`` and ``beacon demo`` start
these commands as child processes, by name.
"""

from __future__ import annotations

from typing import Annotated

import typer

from stub_server.scenarios import available_scenarios

# The choices are listed in `--help`; a name not among them is a one-line usage error.
ScenarioOpt = Annotated[
    str,
    typer.Option(
        help="stub scenario for this process, one of: " + ", ".join(available_scenarios())
    ),
]


def stub_mcp(port: Annotated[int, typer.Option()], scenario: ScenarioOpt = "default") -> None:
    """Run the stub MCP upstream (streamable HTTP at /mcp, dev endpoints beside it)."""
    from stub_server.mcp_app import serve as serve_mcp
    from stub_server.scenarios import UnknownScenario, load_scenario

    try:
        load_scenario(scenario)
    except UnknownScenario as exc:
        typer.echo(
            f"beacon stub-mcp: {exc} (choose from: {', '.join(available_scenarios())})",
            err=True,
        )
        raise typer.Exit(2) from exc
    serve_mcp(port=port, scenario=scenario)


def stub_llm(port: Annotated[int, typer.Option()]) -> None:
    """Run the stub OpenAI-compatible model server (base URL ends in /v1)."""
    from stub_server.llm_app import serve as serve_llm

    serve_llm(port=port)


def register(app: typer.Typer) -> None:
    app.command("stub-mcp")(stub_mcp)
    app.command("stub-llm")(stub_llm)
