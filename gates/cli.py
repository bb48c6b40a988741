"""The gates' ``beacon`` commands: ``beacon gate observe``, ``promote``, ``history``.

``register`` is the ``gates`` entry point of the ``beacon.commands`` group
(pyproject.toml). The arguments pass through to each gate's own ``main``
(argparse), whose return value is the exit code: 0 open, 1 failing evidence,
2 usage, 5 stale sweep.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

gate_app = typer.Typer(
    no_args_is_help=True, help="Gates: exit 0 open, 1 failing, 2 usage, 5 stale."
)
_PASS_THROUGH = {"allow_extra_args": True, "ignore_unknown_options": True, "help_option_names": []}


@gate_app.command("observe", context_settings=_PASS_THROUGH)
def _observe(ctx: typer.Context) -> None:
    """May a change be called done? (--junit PATH, --bypass REASON, --root DIR)"""
    from gates.observe import main

    raise typer.Exit(main(list(ctx.args)))


@gate_app.command("promote", context_settings=_PASS_THROUGH)
def _promote(ctx: typer.Context) -> None:
    """Promote dev → qa → prod (--from, --to, --junit, --bypass REASON, --root)."""
    from gates.promote import main

    raise typer.Exit(main(list(ctx.args)))


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
