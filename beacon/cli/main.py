"""``beacon`` commands: up, serve, token, ask, demo, and those the installed packages add.

The product's own commands are defined here. The stub (stub-mcp, stub-llm),
the harness (sweep, boundaries, check-executed, audit, probe) and the gates
(gate observe, gate promote) add theirs through the ``beacon.commands``
entry-point group: each entry point names a function that takes this typer
app and registers its commands on it. Nothing in ``beacon`` imports them.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterable
from importlib.metadata import EntryPoint, entry_points
from typing import Annotated, cast

import typer

from beacon.cli.ask import AskError, describe, final_answer, mint_token, run_turn
from beacon.cli.up import DevStack, UpError, print_urls, serve_until_signal

COMMAND_GROUP = "beacon.commands"
# `up` and `demo` start the stub servers as `beacon stub-mcp` / `beacon stub-llm` processes.
STUB_COMMANDS: tuple[str, ...] = ("stub-mcp", "stub-llm")

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="``beacon`` commands: up, serve, token, ask, demo, and those the stub, the harness "
    "and the gates install (stub-mcp, stub-llm, sweep, gate, …).",
)

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
    _require_stub_commands("up")
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
    _require_stub_commands("demo")
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


def command_names(typer_app: typer.Typer) -> set[str]:
    """The names of the top-level commands and command groups registered on ``typer_app``."""
    names = {
        c.name or (c.callback.__name__.replace("_", "-") if c.callback else "")
        for c in typer_app.registered_commands
    }
    return names | {g.name or "" for g in typer_app.registered_groups}


def _require_stub_commands(command: str) -> None:
    missing = [name for name in STUB_COMMANDS if name not in command_names(app)]
    if missing:
        typer.echo(
            f"beacon {command}: the stub's commands are not installed ({', '.join(missing)}; "
            f"the stub registers them through the {COMMAND_GROUP!r} entry points)",
            err=True,
        )
        raise typer.Exit(1)


Register = Callable[[typer.Typer], None]


def load_commands(typer_app: typer.Typer, found: Iterable[EntryPoint] | None = None) -> list[str]:
    """Let every installed ``beacon.commands`` entry point add its commands; returns their names.

    An entry point that fails to load is reported on stderr and skipped: the
    product's own commands keep working without the stub or the harness.
    """
    loaded = []
    points = entry_points(group=COMMAND_GROUP) if found is None else found
    for point in sorted(points, key=lambda p: p.name):
        try:
            register = cast(Register, point.load())
            register(typer_app)
        except Exception as exc:  # a broken plugin must not take the product's commands down
            print(
                f"beacon: the {point.name!r} commands ({point.value}) did not load: {exc!r}",
                file=sys.stderr,
            )
            continue
        loaded.append(point.name)
    return loaded


load_commands(app)


def main() -> None:
    app(prog_name="beacon")


if __name__ == "__main__":
    main()
