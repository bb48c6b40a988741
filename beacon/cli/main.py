"""``beacon`` commands: up, serve, stub-mcp, stub-llm, token, ask, demo."""

from __future__ import annotations

import os
from typing import Annotated

import typer

from beacon.cli.ask import AskError, describe, final_answer, mint_token, run_turn
from beacon.cli.up import DevStack, UpError, print_urls, serve_until_signal

app = typer.Typer(add_completion=False, no_args_is_help=True, help=__doc__)

DEMO_QUESTIONS = (
    "How many open safety findings are on level 3 of Harbor Tower?",
    "List all panoramas in Harbor Tower",
    "Photos of missing hard hats in Harbor Tower",
)
ScenarioOpt = Annotated[str, typer.Option(help="stub scenario for this process (kebab-case)")]


@app.command()
def up(
    scenario: ScenarioOpt = "default",
    chat_port: Annotated[int, typer.Option(help="0 picks a free port")] = 0,
) -> None:
    """Start stub MCP, stub LLM and the chat server on loopback; Ctrl-C stops all three."""
    stack = DevStack(scenario, chat_port)
    try:
        stack.start()
    except UpError as exc:
        stack.shutdown()
        typer.echo(f"beacon up failed: {exc}", err=True)
        raise typer.Exit(1) from exc
    print_urls(stack.urls)
    print("ready", flush=True)
    raise typer.Exit(serve_until_signal(stack))


@app.command()
def serve(port: Annotated[int, typer.Option()], host: str = "127.0.0.1") -> None:
    """Run the chat server (settings from BEACON_* environment variables)."""
    import uvicorn

    from beacon.server.app import create_app
    from beacon.server.settings import SettingsError, settings_from_env

    try:
        settings = settings_from_env()
    except SettingsError as exc:
        typer.echo(f"beacon serve: {exc}", err=True)
        raise typer.Exit(2) from exc
    uvicorn.run(create_app(settings), host=host, port=port, log_level="warning")


@app.command("stub-mcp")
def stub_mcp(port: Annotated[int, typer.Option()], scenario: ScenarioOpt = "default") -> None:
    """Run the stub MCP upstream (streamable HTTP at /mcp, dev endpoints beside it)."""
    from stub_server.mcp_app import serve as serve_mcp
    from stub_server.scenarios import UnknownScenario, load_scenario

    try:
        load_scenario(scenario)
    except UnknownScenario as exc:
        typer.echo(f"beacon stub-mcp: {exc}", err=True)
        raise typer.Exit(2) from exc
    serve_mcp(port=port, scenario=scenario)


@app.command("stub-llm")
def stub_llm(port: Annotated[int, typer.Option()]) -> None:
    """Run the stub OpenAI-compatible model server (base URL ends in /v1)."""
    from stub_server.llm_app import serve as serve_llm

    serve_llm(port=port)


def _mcp_origin(mcp: str | None) -> str:
    url = mcp or os.environ.get("BEACON_MCP_URL")
    if not url:
        typer.echo(
            "give --mcp URL (the `mcp:` line of `beacon up`) or set BEACON_MCP_URL", err=True
        )
        raise typer.Exit(2)
    return url.removesuffix("/mcp")


@app.command()
def token(
    tier: Annotated[str, typer.Option()] = "enterprise_ai",
    sub: str = "dev-user",
    mcp: str | None = None,
) -> None:
    """Print a dev token minted by the stub MCP server."""
    try:
        typer.echo(mint_token(_mcp_origin(mcp), tier=tier, sub=sub))
    except (AskError, OSError) as exc:
        typer.echo(f"beacon token: {exc}", err=True)
        raise typer.Exit(1) from exc


def _ask_and_print(chat: str, question: str, bearer: str, mode: str, scenario: str | None) -> bool:
    body = {"mode": mode, "message": question}
    events = run_turn(
        chat, body, token=bearer, scenario=scenario, on_event=lambda e: typer.echo(describe(e))
    )
    typer.echo(f"\nanswer: {final_answer(events)}\n")
    return bool(events) and events[-1].event == "done"


@app.command()
def ask(
    question: str,
    chat: str | None = None,
    mcp: str | None = None,
    bearer: Annotated[str | None, typer.Option("--token")] = None,
    mode: str = "single",
    scenario: str | None = None,
) -> None:
    """Run one turn over HTTP and print its frames and the final answer."""
    chat_url = chat or os.environ.get("BEACON_CHAT_URL")
    if not chat_url:
        typer.echo(
            "give --chat URL (the `chat:` line of `beacon up`) or set BEACON_CHAT_URL", err=True
        )
        raise typer.Exit(2)
    try:
        bearer = bearer or mint_token(_mcp_origin(mcp), tier="enterprise_ai")
        ok = _ask_and_print(chat_url, question, bearer, mode, scenario)
    except (AskError, OSError) as exc:
        typer.echo(f"beacon ask: {exc}", err=True)
        raise typer.Exit(1) from exc
    raise typer.Exit(0 if ok else 1)


@app.command()
def demo(scenario: ScenarioOpt = "default") -> None:
    """Start everything, answer three sample questions, print the panel URL, keep serving.

    With DEMO_ONCE=1 it exits after the questions (exit 1 if any turn failed).
    """
    stack = DevStack(scenario)
    try:
        stack.start()
        print_urls(stack.urls)
        bearer = mint_token(stack.urls.mcp_origin, tier="enterprise_ai")
        results = [
            _ask_and_print(stack.urls.chat, q, bearer, "single", None) for q in DEMO_QUESTIONS
        ]
    except (UpError, AskError, OSError) as exc:
        stack.shutdown()
        typer.echo(f"beacon demo failed: {exc}", err=True)
        raise typer.Exit(1) from exc
    typer.echo(f"panel: {stack.urls.chat}/panel/?token={bearer}")
    if os.environ.get("DEMO_ONCE") == "1":
        stack.shutdown()
        raise typer.Exit(0 if all(results) else 1)
    print("ready (Ctrl-C stops)", flush=True)
    raise typer.Exit(serve_until_signal(stack))


from beacon.cli.harness import register  # noqa: E402

register(app)


def main() -> None:
    app(prog_name="beacon")


if __name__ == "__main__":
    main()
