"""``beacon token``, ``beacon ask`` and ``beacon demo``: a dev token, one turn over
HTTP with its frames as they arrive, and the demo's three sample questions."""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Annotated, Literal, NoReturn

import typer

from beacon.auth.families import SCOPES
from beacon.cli.commands import (
    McpOpt,
    ScenarioOpt,
    TierOpt,
    check_known_scenario,
    require_stub_commands,
)
from beacon.cli.errors import Exit, fail
from beacon.lexicon.locales import Locale

if TYPE_CHECKING:
    from beacon.cli.ask import AskError
    from beacon.wire.sse import SseEvent

# The HTTP client, the console and the dev stack are imported by the commands that
# use them: every `beacon` command loads this module at start (beacon/lazy.py).

DEMO_QUESTIONS = (
    "How many open safety findings are on level 3 of Harbor Tower?",
    "List all panoramas in Harbor Tower",
    "Photos of missing hard hats in Harbor Tower",
)


def _mcp_origin(mcp: str | None) -> str:
    url = mcp or os.environ.get("BEACON_MCP_URL")
    if not url:
        typer.echo(
            "give --mcp URL (the `mcp:` line of `beacon up`) or set BEACON_MCP_URL", err=True
        )
        raise typer.Exit(2)
    return url.removesuffix("/mcp")


def _ask_failed(command: str, exc: AskError) -> NoReturn:
    from beacon.cli.ask import TokenRefused, UnknownScenario, Unreachable

    code = (
        Exit.UNREACHABLE
        if isinstance(exc, Unreachable)
        else Exit.TOKEN_REFUSED
        if isinstance(exc, TokenRefused)
        else Exit.USAGE
        if isinstance(exc, UnknownScenario)
        else Exit.FAILED
    )
    fail(command, str(exc), code, exc)


def token(
    tier: TierOpt = "enterprise_ai",
    sub: Annotated[
        str | None,
        typer.Option(help="the token's subject: the user id (dev-user) or service (dev-service)"),
    ] = None,
    mcp: McpOpt = None,
    questions_per_day: Annotated[
        int | None,
        typer.Option(
            "--quota",
            min=0,
            metavar="N",
            help="questions a UTC day (a claim; default: the server's quota)",
        ),
    ] = None,
    service: Annotated[
        bool, typer.Option("--service", help="a service token: scopes, no user's data")
    ] = False,
    scope: Annotated[
        list[str] | None,
        typer.Option(help=f"a service token's scope, repeatable: {', '.join(sorted(SCOPES))}"),
    ] = None,
) -> None:
    """Print a dev token minted by the stub MCP server (valid for one hour): a user's,
    or with --service a service token (README "Identity")."""
    from beacon.cli.ask import AskError, mint_service_token, mint_token

    scopes = scope or []
    if scopes and not service:
        fail("token", "--scope is for service tokens: add --service", Exit.USAGE)
    unknown = sorted(set(scopes) - SCOPES)
    if service and (unknown or not scopes):
        known = ", ".join(sorted(SCOPES))
        fail("token", f"a service token needs --scope, each one of: {known}", Exit.USAGE)
    try:
        origin = _mcp_origin(mcp)
        if service:
            typer.echo(mint_service_token(origin, scopes=scopes, sub=sub or "dev-service"))
        else:
            user = sub or "dev-user"
            typer.echo(mint_token(origin, tier=tier, sub=user, questions_per_day=questions_per_day))
    except AskError as exc:
        _ask_failed("token", exc)


def _ask_and_print(
    chat: str,
    question: str,
    bearer: str,
    mode: str,
    scenario: str | None,
    locale: str | None = None,
) -> bool:
    """One turn, its frames as they arrive, then the question and its answer (or its error)."""
    from rich.console import Console

    from beacon.cli.ask import describe, final_answer, run_turn, turn_error

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


def ask(
    question: Annotated[str, typer.Argument(help="the question, quoted")],
    chat: Annotated[
        str | None,
        typer.Option(
            help="the chat server URL (the `chat:` line of `beacon up`; or BEACON_CHAT_URL)"
        ),
    ] = None,
    mcp: McpOpt = None,
    bearer: Annotated[
        str | None,
        typer.Option(
            "--token", help="a bearer the chat server accepts (default: minted via --mcp)"
        ),
    ] = None,
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
    from beacon.cli.ask import AskError, check_scenario, mint_token

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
        _ask_failed("ask", exc)
    raise typer.Exit(0 if ok else 1)


def demo(scenario: ScenarioOpt = "default") -> None:
    """Start everything, answer three sample questions, print the panel URL, keep serving.

    With DEMO_ONCE=1 it exits after the questions (exit 1 if any turn failed), and
    prints no panel URL: its servers are gone by then.
    """
    from beacon.cli.ask import AskError, mint_token
    from beacon.cli.up import DevStack, UpError, print_urls, serve_until_signal

    require_stub_commands("demo")
    check_known_scenario("demo", scenario)
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
        _print_path_hint()
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


def _print_path_hint() -> None:
    """The README's commands say `beacon …`: say how to get it on PATH when it is not."""
    bindir = os.path.dirname(sys.executable)
    if bindir not in os.environ.get("PATH", "").split(os.pathsep):
        activate = os.path.join(os.path.relpath(bindir), "activate")
        typer.echo(f"(`beacon` is {bindir}/beacon: `. {activate}` puts it on your PATH)")
