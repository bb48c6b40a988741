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
import tempfile
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from importlib.metadata import EntryPoint, PackageNotFoundError, entry_points, version
from typing import Annotated, Literal, NoReturn, cast, get_args

import typer
from rich.console import Console

from beacon.cli.ask import (
    AskError,
    TokenRefused,
    UnknownScenario,
    Unreachable,
    check_scenario,
    describe,
    final_answer,
    mint_token,
    run_turn,
    turn_error,
)
from beacon.cli.errors import FLAGS, Exit, check_database, check_port_free, fail
from beacon.cli.report import report as report_command
from beacon.cli.store_cmd import show_retention, store_app
from beacon.cli.up import DevStack, Fronted, UpError, print_urls, serve_until_signal
from beacon.cli.upstream import check_upstream, contract_or_fail, hand_to_workers
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
    # Inherited by every sub-command and group (click passes it down the contexts).
    context_settings={"help_option_names": ["-h", "--help"]},
    pretty_exceptions_enable=False,
    help="beacon commands: up, serve, token, ask, demo, and those the stub, the harness "
    "and the gates install (stub-mcp, stub-llm, sweep, gate, …).",
)


def _package_version() -> str:
    try:
        return version("beacon")
    except PackageNotFoundError:  # a checkout run without installing it
        return "unknown (not installed)"


def _print_version(given: bool) -> None:
    if given:
        typer.echo(f"beacon {_package_version()}")
        raise typer.Exit(0)


@app.callback()
def _root(
    _version: Annotated[
        bool,
        typer.Option(
            "--version",
            is_eager=True,
            callback=_print_version,
            help="print the installed version and exit",
        ),
    ] = False,
    debug: Annotated[
        bool,
        typer.Option(
            "--debug", help="on an expected failure, print the traceback before its one line"
        ),
    ] = False,
) -> None:
    FLAGS.debug = debug


DEMO_QUESTIONS = (
    "How many open safety findings are on level 3 of Harbor Tower?",
    "List all panoramas in Harbor Tower",
    "Photos of missing hard hats in Harbor Tower",
)
ScenarioOpt = Annotated[
    str,
    typer.Option(help="the stub's scenario (`beacon stub-mcp --help` lists them)"),
]
# The licence tiers (beacon.policy.capabilities.TIERS; a unit test holds them equal).
Tier = Literal["essentials", "professional", "enterprise", "enterprise_ai"]
TIER_NAMES: tuple[str, ...] = get_args(Tier)
TierOpt = Annotated[Tier, typer.Option(help="the licence tier the token carries")]
WorkersOpt = Annotated[
    int, typer.Option(min=1, max=32, help="chat server processes on one port (PostgreSQL store)")
]
HostOpt = Annotated[str, typer.Option(help="the address to listen on (loopback by default)")]
AllowDriftOpt = Annotated[
    bool,
    typer.Option(
        "--allow-drift",
        help="start even if the upstream no longer matches its contract, without the "
        "drifted tools (named on stderr)",
    ),
]
AccessLogOpt = Annotated[
    bool,
    typer.Option(
        "--access-log",
        help="one line per request: method, path, status, ms, turn id (never bodies or queries)",
    ),
]


def stub_scenarios() -> tuple[str, ...] | None:
    """The scenarios the installed stub accepts: its registered `stub-mcp` command's
    `scenario_choices` (the product does not import the stub); None if it names none."""
    for command in app.registered_commands:
        if command.name == "stub-mcp" and command.callback is not None:
            choices = getattr(command.callback, "scenario_choices", None)
            return tuple(str(c) for c in choices) if choices is not None else None
    return None


def _check_scenario(command: str, scenario: str) -> None:
    """An unknown scenario is refused before any process starts."""
    known = stub_scenarios()
    if known is not None and scenario not in known:
        fail(
            command, f"unknown scenario {scenario!r} (`beacon stub-mcp -h` lists them)", Exit.USAGE
        )


@app.command()
def up(
    scenario: ScenarioOpt = "default",
    chat_port: Annotated[int, typer.Option(help="the chat server's port; 0 picks a free one")] = 0,
    workers: WorkersOpt = 1,
    db: Annotated[
        str | None,
        typer.Option(
            help="the chat server's store: a postgresql:// URL (needed for --workers > 1); "
            "default: a fresh SQLite file for this run"
        ),
    ] = None,
    upstream_mcp: Annotated[
        str | None,
        typer.Option(
            help="front this MCP server (streamable HTTP URL) instead of the stub's tools; "
            "needs --upstream-contract"
        ),
    ] = None,
    upstream_contract: Annotated[
        str | None,
        typer.Option(
            help="the upstream's declared contract (YAML; `beacon audit-upstream "
            "--contract-out` writes one to complete)"
        ),
    ] = None,
    upstream_token: Annotated[
        str | None, typer.Option(help="the bearer the upstream is sent (default: none)")
    ] = None,
    allow_drift: AllowDriftOpt = False,
) -> None:
    """Start stub MCP, stub LLM and the chat server on loopback; Ctrl-C stops all three.
    The stub MCP server issues the dev tokens; with --upstream-mcp the chat fronts that
    server's tools through its contract instead of the stub's."""
    _require_stub_commands("up")
    # Everything that can be refused is refused before the first process starts.
    _check_scenario("up", scenario)
    _check_workers("up", workers, db)
    check_port_free("up", "127.0.0.1", chat_port, "--chat-port")
    if db and is_postgres(db):
        check_database("up", db)
    upstream = None
    if (upstream_mcp is None) != (upstream_contract is None):
        fail("up", "--upstream-mcp and --upstream-contract go together", Exit.USAGE)
    if upstream_mcp is not None and upstream_contract is not None:
        contract = contract_or_fail("up", upstream_contract)
        check_upstream("up", contract, upstream_mcp, token=upstream_token, allow_drift=allow_drift)
        upstream = Fronted(upstream_mcp, upstream_contract, upstream_token, allow_drift)
    stack = DevStack(scenario, chat_port, workers=workers, db=db, upstream=upstream)
    try:
        stack.start()
    except (UpError, OSError) as exc:
        stack.shutdown()
        fail("up", f"{exc} (its own error is above)", Exit.FAILED, exc)
    except KeyboardInterrupt:
        stack.shutdown()
        raise typer.Exit(130) from None
    print_urls(stack.urls, upstream)
    print("ready", flush=True)
    raise typer.Exit(serve_until_signal(stack))


@app.command()
def serve(
    port: Annotated[int, typer.Option(help="the port to listen on")],
    host: HostOpt = "127.0.0.1",
    workers: WorkersOpt = 1,
    access_log: AccessLogOpt = False,
    allow_drift: AllowDriftOpt = False,
) -> None:
    """Run the chat server (settings from BEACON_* environment variables); prints
    `listening on http://HOST:PORT` once it accepts connections. With
    BEACON_UPSTREAM_CONTRACT it fronts that MCP server, checked against its contract first."""
    import uvicorn

    from beacon.cli.access_log import APP_FACTORY, LOGGED_APP_FACTORY, run_listening
    from beacon.server.limits import LimitedH11Protocol, connection_limits
    from beacon.server.settings import SettingsError, settings_from_env
    from beacon.telemetry.metrics import MetricsSettingError, metrics_setting

    try:
        settings = settings_from_env()
        connection_limits(settings)  # a cap the fd limit cannot serve refuses the start
        exposition = metrics_setting()
    except (SettingsError, MetricsSettingError) as exc:
        fail("serve", str(exc), Exit.USAGE, exc)
    _check_workers("serve", workers, settings.db)
    show_retention("serve")
    check_port_free("serve", host, port, "--port")
    if exposition.port is not None:
        check_port_free("serve", exposition.host, exposition.port, "BEACON_METRICS")
    if is_postgres(settings.db):
        check_database("serve", settings.db)
    if settings.upstream_contract is not None:
        hand_to_workers(
            check_upstream(
                "serve",
                settings.upstream_contract,
                settings.mcp_url,
                token=settings.upstream_token,
                allow_drift=allow_drift,
                timeout_s=settings.mcp_timeout_s,
            )
        )
    # Several workers share one port (uvicorn's supervisor); each builds its own app
    # from the same environment, and they meet in the store.
    config = uvicorn.Config(
        LOGGED_APP_FACTORY if access_log else APP_FACTORY,
        factory=True,
        workers=workers,
        host=host,
        port=port,
        log_level="warning",
        access_log=False,  # uvicorn's own line carries the query string: ours does not
        # h11, not httptools: h11 refuses a request head (line and headers) over
        # its cap, where httptools took a 60 MB header whole. The body's cap is
        # the app's (beacon/server/edge.py), checked before the body is read.
        # The protocol adds the connection cap, the head deadline and the head cap
        # on a head complete in one read (beacon/server/limits.py); each worker
        # imports the class and reads the same limits from the environment.
        http=LimitedH11Protocol,
        h11_max_incomplete_event_size=settings.max_header_bytes,
        timeout_keep_alive=settings.keep_alive_s,
    )
    with _metrics_dir(workers):
        # BEACON_METRICS=PORT with several workers: this supervisor serves their sum.
        scrape = None
        if exposition.port is not None and workers > 1:
            from beacon.telemetry.metrics import serve_port

            scrape = serve_port(exposition)
        try:
            run_listening(config)
        finally:
            if scrape is not None:
                scrape.shutdown()


@contextmanager
def _metrics_dir(workers: int) -> Iterator[None]:
    """Several workers write their series into one fresh directory (prometheus_client's
    multiprocess mode, ``PROMETHEUS_MULTIPROC_DIR``), which is removed when they stop.
    One already set is the operator's: used as it is, and kept."""
    if workers <= 1 or os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        yield
        return
    with tempfile.TemporaryDirectory(prefix="beacon-metrics-") as path:
        os.environ["PROMETHEUS_MULTIPROC_DIR"] = path
        try:
            yield
        finally:
            os.environ.pop("PROMETHEUS_MULTIPROC_DIR", None)


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


McpOpt = Annotated[
    str | None,
    typer.Option(help="the stub MCP URL (the `mcp:` line of `beacon up`; or BEACON_MCP_URL)"),
]


def _ask_failed(command: str, exc: AskError) -> NoReturn:
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


@app.command()
def token(
    tier: TierOpt = "enterprise_ai",
    sub: Annotated[str, typer.Option(help="the token's subject (the user id)")] = "dev-user",
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
) -> None:
    """Print a dev token minted by the stub MCP server (valid for one hour)."""
    try:
        origin = _mcp_origin(mcp)
        typer.echo(mint_token(origin, tier=tier, sub=sub, questions_per_day=questions_per_day))
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


@app.command()
def demo(scenario: ScenarioOpt = "default") -> None:
    """Start everything, answer three sample questions, print the panel URL, keep serving.

    With DEMO_ONCE=1 it exits after the questions (exit 1 if any turn failed), and
    prints no panel URL: its servers are gone by then.
    """
    _require_stub_commands("demo")
    _check_scenario("demo", scenario)
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


app.command("report")(report_command)
app.add_typer(store_app, name="store")
load_commands(app)


def main() -> None:
    try:
        app(prog_name="beacon")
    except ModuleNotFoundError as exc:
        # A command of the harness or the PostgreSQL tooling run without its extra.
        extra = extra_for(exc)
        if extra is None or FLAGS.debug:
            raise
        command = " ".join(arg for arg in sys.argv[1:3] if not arg.startswith("-"))
        print(f"beacon {command}: {install_hint(extra, exc.name or extra)}", file=sys.stderr)
        sys.exit(2)
    except Exception as exc:  # unforeseen: one line; --debug shows where it came from
        if FLAGS.debug:
            raise
        print(
            f"beacon: unexpected {type(exc).__name__}: {' '.join(str(exc).split())[:300]} "
            "(run again with `beacon --debug …` for the traceback)",
            file=sys.stderr,
        )
        sys.exit(1)


if __name__ == "__main__":
    main()
