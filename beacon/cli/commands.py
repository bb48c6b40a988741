"""The ``beacon`` command table: the typer app, its root options, the options the
product's commands share, and the commands the installed packages add.

The stub (stub-mcp, stub-llm), the harness (sweep, boundaries, check-executed,
audit, probe) and the gates (gate observe, gate promote) add theirs through the
``beacon.commands`` entry-point group: each entry point names a function that
takes this typer app and registers its commands on it. Nothing in ``beacon``
imports them. ``main.py`` registers the product's own commands on this app.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable
from importlib.metadata import EntryPoint, PackageNotFoundError, entry_points, version
from typing import Annotated, Literal, cast, get_args

import typer

from beacon.cli.errors import FLAGS, Exit, fail

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
McpOpt = Annotated[
    str | None,
    typer.Option(help="the stub MCP URL (the `mcp:` line of `beacon up`; or BEACON_MCP_URL)"),
]


def stub_scenarios() -> tuple[str, ...] | None:
    """The scenarios the installed stub accepts: its registered `stub-mcp` command's
    `scenario_choices` (the product does not import the stub); None if it names none."""
    for command in app.registered_commands:
        if command.name == "stub-mcp" and command.callback is not None:
            choices = getattr(command.callback, "scenario_choices", None)
            return tuple(str(c) for c in choices) if choices is not None else None
    return None


def check_known_scenario(command: str, scenario: str) -> None:
    """An unknown scenario is refused before any process starts."""
    known = stub_scenarios()
    if known is not None and scenario not in known:
        fail(
            command, f"unknown scenario {scenario!r} (`beacon stub-mcp -h` lists them)", Exit.USAGE
        )


def command_names(typer_app: typer.Typer) -> set[str]:
    """The names of the top-level commands and command groups registered on ``typer_app``."""
    names = {
        c.name or (c.callback.__name__.replace("_", "-") if c.callback else "")
        for c in typer_app.registered_commands
    }
    return names | {g.name or "" for g in typer_app.registered_groups}


def require_stub_commands(command: str) -> None:
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
