"""``beacon store prune [--dry-run]``: the retention rules (README "Retention"),
applied once to ``BEACON_DB`` (or ``--db``), as the server's pruning task does.

Prints the rules, then one line per table: rows aged (past their rule), pruned (or,
with ``--dry-run``, that would be) and kept. Safe beside running servers: a running
turn is never pruned, batches are short transactions, and on PostgreSQL a pass
another process is making is not doubled (exit 0, nothing done).
"""

from __future__ import annotations

import typer

from beacon.cli.errors import Exit, fail
from beacon.cli.report import DbOpt, open_for
from beacon.store.errors import StoreError
from beacon.store.retention import prune as prune_store
from beacon.store.retention import retention_from_env

store_app = typer.Typer(no_args_is_help=True, help="the turn store: prune")


@store_app.command()
def prune(
    dry_run: bool = typer.Option(False, "--dry-run", help="count what would go; delete nothing"),
    db: DbOpt = None,
) -> None:
    """Delete what the retention settings say has aged (BEACON_RETAIN_*)."""
    try:
        retention = retention_from_env()
    except StoreError as exc:
        fail("store prune", str(exc), Exit.USAGE, exc)
    store = open_for("store prune", db)
    try:
        done = prune_store(store, retention, dry_run=dry_run)
    except StoreError as exc:
        fail("store prune", str(exc), Exit.FAILED, exc)
    finally:
        store.close()
    typer.echo(retention.describe())
    typer.echo("\n".join(done.lines()))


def show_retention(command: str) -> None:
    """Refuse a malformed retention setting before anything starts; the rules are
    shown by the server once it stands (``beacon.server.retention``: one line on
    stderr, as stdout's first line is ``listening on``)."""
    try:
        retention_from_env()
    except StoreError as exc:
        fail(command, str(exc), Exit.USAGE, exc)
