"""The gates' `beacon` commands: `beacon gate observe`, `promote`, `history`.

`register` is the `gates` entry point of the `beacon.commands` group
(pyproject.toml). observe and promote take typed options (so `-h` is typer's, and
exits 0) and hand them to each gate's own `main` (argparse), whose return value is
the exit code (the table in ``harness.gate_exits``, shown in ``--help``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

import typer

from harness.gate_exits import exit_codes_line

gate_app = typer.Typer(no_args_is_help=True, help=f"Gates: {exit_codes_line()}.")
RootOpt = Annotated[Path, typer.Option(help="the checkout the gate decides for")]
JunitOpt = Annotated[
    Path | None, typer.Option(help="the run's JUnit XML (default: the one under reports/)")
]
BypassOpt = Annotated[
    str | None,
    typer.Option(
        metavar="REASON", help="override a stale sweep, and nothing else; the reason is stamped"
    ),
]


def _argv(root: Path, junit: Path | None, bypass: str | None) -> list[str]:
    return (
        ["--root", str(root)]
        + (["--junit", str(junit)] if junit else [])
        + (["--bypass", bypass] if bypass is not None else [])
    )


@gate_app.command("observe", epilog=exit_codes_line())
def _observe(root: RootOpt = Path("."), junit: JunitOpt = None, bypass: BypassOpt = None) -> None:
    """May a change be called done? Reads the JUnit record whole and the latest sweep."""
    from gates.observe import main

    raise typer.Exit(main(_argv(root, junit, bypass)))


@gate_app.command("promote", epilog=exit_codes_line())
def _promote(
    source: Annotated[
        Literal["dev", "qa"], typer.Option("--from", help="the channel promoted from")
    ],
    target: Annotated[Literal["qa", "prod"], typer.Option("--to", help="the channel promoted to")],
    root: RootOpt = Path("."),
    junit: JunitOpt = None,
    bypass: BypassOpt = None,
) -> None:
    """Promote dev → qa → prod: builds the wheel once, tests it installed, records its sha256."""
    from gates.promote import main

    raise typer.Exit(main(["--from", source, "--to", target, *_argv(root, junit, bypass)]))


@gate_app.command("history")
def _history(root: Annotated[Path, typer.Option(help="the checkout")] = Path(".")) -> None:
    """The promotion ledger, oldest first: channel, wheel digest, commit, time."""
    from harness.artifact import LEDGER, ledger

    lines = ledger(root.resolve())
    if not lines:
        typer.echo(f"no promotion yet ({root / LEDGER} is empty or missing)")
        return
    for line in lines:
        swept = line.get("swept") or {}
        commit = str(swept.get("commit") or "?")[:12]
        typer.echo(
            f"{line.get('at')}  {line.get('from')} → {line.get('to')}  "
            f"sha256 {str(line.get('digest'))[:16]}…  {line.get('wheel')}  commit {commit}"
            + (f"  bypass: {line['bypass']}" if line.get("bypass") else "")
        )


def register(app: typer.Typer) -> None:
    app.add_typer(gate_app, name="gate")
