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
from typing import Annotated, Literal, cast, get_args

import typer
from rich.console import Console

from beacon.cli.ask import (
    AskError,
    check_scenario,
    describe,
    final_answer,
    mint_token,
    run_turn,
    turn_error,
)
from beacon.cli.up import DevStack, UpError, print_urls, serve_until_signal
from beacon.extras import extra_for, install_hint, missing_extra
from beacon.store.backends import is_postgres
from beacon.wire.sse import SseEvent
from beacon.wire.turns import Locale

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
ScenarioOpt = Annotated[
    str,
    typer.Option(help="stub scenario for this process (`beacon stub-mcp --help` lists them)"),
]
# The licence tiers (beacon.policy.capabilities.TIERS; a unit test holds them equal).
Tier = Literal["essentials", "professional", "enterprise", "enterprise_ai"]
TIER_NAMES: tuple[str, ...] = get_args(Tier)
TierOpt = Annotated[Tier, typer.Option(help="the licence tier the token carries")]
WorkersOpt = Annotated[
    int, typer.Option(min=1, max=32, help="chat server processes on one port (PostgreSQL store)")
]


@app.command()
def up(
    scenario: ScenarioOpt = "default",
    chat_port: Annotated[int, typer.Option(help="0 picks a free port")] = 0,
    workers: WorkersOpt = 1,
    db: Annotated[
        str | None,
        typer.Option(
            help="the chat server's store: a postgresql:// URL (needed for --workers > 1); "
            "default: a fresh SQLite file for this run"
        ),
    ] = None,
) -> None:
    """Start stub MCP, stub LLM and the chat server on loopback; Ctrl-C stops all three."""
    _require_stub_commands("up")
    _check_workers("up", workers, db)
    stack = DevStack(scenario, chat_port, workers=workers, db=db)
    try:
        stack.start()
    except (UpError, OSError) as exc:
        stack.shutdown()
        typer.echo(f"beacon up failed: {exc}", err=True)
        raise typer.Exit(1) from exc
    except KeyboardInterrupt:
        stack.shutdown()
        raise typer.Exit(130) from None
    print_urls(stack.urls)
    print("ready", flush=True)
    raise typer.Exit(serve_until_signal(stack))


@app.command()
def serve(
    port: Annotated[int, typer.Option()], host: str = "127.0.0.1", workers: WorkersOpt = 1
) -> None:
    """Run the chat server (settings from BEACON_* environment variables)."""
    import uvicorn

    from beacon.server.limits import LimitedH11Protocol, connection_limits
    from beacon.server.settings import SettingsError, settings_from_env

    try:
        settings = settings_from_env()
        connection_limits(settings)  # a cap the fd limit cannot serve refuses the start
    except SettingsError as exc:
        typer.echo(f"beacon serve: {exc}", err=True)
        raise typer.Exit(2) from exc
    _check_workers("serve", workers, settings.db)
    # Several workers share one port (uvicorn's supervisor); each builds its own app
    # from the same environment, and they meet in the store.
    uvicorn.run(
        "beacon.server.app:app_from_env",
        factory=True,
        workers=workers,
        host=host,
        port=port,
        log_level="warning",
        # h11, not httptools: h11 refuses a request head (line and headers) over
        # its cap, where httptools took a 60 MB header whole. The body's cap is
        # the app's (beacon/server/guard.py), checked before the body is read.
        # The protocol adds the connection cap, the head deadline and the head cap
        # on a head complete in one read (beacon/server/limits.py); each worker
        # imports the class and reads the same limits from the environment.
        http=LimitedH11Protocol,
        h11_max_incomplete_event_size=settings.max_header_bytes,
        timeout_keep_alive=settings.keep_alive_s,
    )


def _check_workers(command: str, workers: int, db: str | None) -> None:
    """More than one process needs the shared store: SQLite has one writer; a
    PostgreSQL store needs its driver (the ``postgres`` extra)."""
    if is_postgres(db or "") and (hint := missing_extra("postgres")):
        typer.echo(f"beacon {command}: a PostgreSQL store {hint}", err=True)
        raise typer.Exit(2)
    if workers > 1 and not is_postgres(db or ""):
        typer.echo(
            f"beacon {command}: --workers {workers} needs a PostgreSQL store "
            "(BEACON_DB / --db postgresql://…); SQLite is written by one process",
            err=True,
        )
        raise typer.Exit(2)


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
    tier: TierOpt = "enterprise_ai",
    sub: str = "dev-user",
    mcp: str | None = None,
) -> None:
    """Print a dev token minted by the stub MCP server (valid for one hour)."""
    try:
        typer.echo(mint_token(_mcp_origin(mcp), tier=tier, sub=sub))
    except AskError as exc:
        typer.echo(f"beacon token: {exc}", err=True)
        raise typer.Exit(1) from exc


def _ask_and_print(
    chat: str,
    question: str,
    bearer: str,
    mode: str,
    scenario: str | None,
    locale: str | None = None,
) -> bool:
    """One turn, its frames as they arrive, then the question and its answer (or its error)."""
    body = {"mode": mode, "message": question} | ({"locale": locale} if locale else {})
    console = Console(highlight=False, soft_wrap=True)
    if not console.is_terminal:  # piped or captured: the frames as plain lines
        events = run_turn(
            chat, body, token=bearer, scenario=scenario, on_event=lambda e: typer.echo(describe(e))
        )
    else:  # a terminal: a spinner below the frames says what the turn is waiting for
        with console.status(f"asking: {question}") as status:

            def show(event: SseEvent) -> None:
                console.print(describe(event), markup=False)
                status.update(f"asking: {question} (last frame: {event.event})")

            events = run_turn(chat, body, token=bearer, scenario=scenario, on_event=show)
    ok = bool(events) and events[-1].event == "done"
    typer.echo(f"\nquestion: {question}")
    if ok:
        typer.echo(f"answer: {final_answer(events)}\n")
    else:
        typer.echo(f"answer: none: {turn_error(events)}\n")
    return ok


@app.command()
def ask(
    question: str,
    chat: str | None = None,
    mcp: str | None = None,
    bearer: Annotated[str | None, typer.Option("--token")] = None,
    mode: Annotated[
        Literal["single", "chat"], typer.Option(help="chat keeps a transcript")
    ] = "single",
    scenario: Annotated[
        str | None,
        typer.Option(help="a stub scenario for this turn (`beacon stub-mcp --help` lists them)"),
    ] = None,
    locale: Annotated[
        Locale | None,
        typer.Option(help="the answer's language (default: the question's own)"),
    ] = None,
) -> None:
    """Run one turn over HTTP and print its frames and the final answer."""
    chat_url = chat or os.environ.get("BEACON_CHAT_URL")
    if not chat_url:
        typer.echo(
            "give --chat URL (the `chat:` line of `beacon up`) or set BEACON_CHAT_URL", err=True
        )
        raise typer.Exit(2)
    try:
        mcp_url = mcp or os.environ.get("BEACON_MCP_URL")
        bearer = bearer or mint_token(_mcp_origin(mcp), tier="enterprise_ai")
        if scenario and mcp_url:
            check_scenario(mcp_url, scenario, bearer)
        ok = _ask_and_print(chat_url, question, bearer, mode, scenario, locale)
    except AskError as exc:
        typer.echo(f"beacon ask: {exc}", err=True)
        raise typer.Exit(1) from exc
    raise typer.Exit(0 if ok else 1)


@app.command()
def demo(scenario: ScenarioOpt = "default") -> None:
    """Start everything, answer three sample questions, print the panel URL, keep serving.

    With DEMO_ONCE=1 it exits after the questions (exit 1 if any turn failed), and
    prints no panel URL: its servers are gone by then.
    """
    _require_stub_commands("demo")
    stack = DevStack(scenario)
    # Every process the demo started is stopped on every way out but one: serving on.
    serving = False
    try:
        stack.start()
        print_urls(stack.urls)
        bearer = mint_token(stack.urls.mcp_origin, tier="enterprise_ai")
        results = [
            _ask_and_print(stack.urls.chat, q, bearer, "single", None) for q in DEMO_QUESTIONS
        ]
        if os.environ.get("DEMO_ONCE") == "1":
            # The servers stop as this returns: a panel URL now would lead nowhere.
            typer.echo(
                "DEMO_ONCE=1: the servers stop now (no panel URL; without it they keep serving)"
            )
            failed = results.count(False)
            if failed:
                typer.echo(f"beacon demo: {failed} of {len(results)} turns failed", err=True)
            raise typer.Exit(0 if not failed else 1)
        typer.echo(f"panel: {stack.urls.chat}/panel/?token={bearer}")
        typer.echo(
            f"(the token lasts one hour; `beacon token --mcp {stack.urls.mcp}` mints a new one)"
        )
        print("ready (Ctrl-C stops)", flush=True)
        serving = True
    except (UpError, AskError, OSError) as exc:
        typer.echo(f"beacon demo failed: {exc}", err=True)
        raise typer.Exit(1) from exc
    except KeyboardInterrupt:
        raise typer.Exit(130) from None
    except typer.Exit:
        raise
    except Exception as exc:  # a turn that broke in an unforeseen way: one line, no trace
        typer.echo(f"beacon demo failed: {type(exc).__name__}: {exc}", err=True)
        raise typer.Exit(1) from exc
    finally:
        if not serving:
            stack.shutdown()
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
    try:
        app(prog_name="beacon")
    except ModuleNotFoundError as exc:
        # A command of the harness or the PostgreSQL tooling run without its extra.
        extra = extra_for(exc)
        if extra is None:
            raise
        command = " ".join(arg for arg in sys.argv[1:3] if not arg.startswith("-"))
        print(f"beacon {command}: {install_hint(extra, exc.name or extra)}", file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    main()
