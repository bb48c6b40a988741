"""``beacon store prune [--dry-run]``: the retention rules (README "Retention"),
applied once to ``BEACON_DB`` (or ``--db``), as the server's pruning task does.
``beacon store reseal [--batch N]``: every sealed record under ``BEACON_KEYS``'s
active key (``beacon.store.reseal``); ``beacon store keys``: records per key id.

Prints the rules, then one line per table: rows aged (past their rule), pruned (or,
with ``--dry-run``, that would be) and kept. Safe beside running servers: a running
turn is never pruned, batches are short transactions, and on PostgreSQL a pass
another process is making is not doubled (exit 0, nothing done).
"""

from __future__ import annotations

import os

import typer

from beacon.cli.errors import Exit, check_database, fail
from beacon.cli.report import DbOpt, open_for
from beacon.store.backends import is_postgres
from beacon.store.errors import StoreError

# The store's modules are imported by the commands that use them: every `beacon`
# command loads this module at start (beacon/lazy.py). So `--batch`'s default is
# written here: beacon.store.reseal.DEFAULT_BATCH (a unit test holds them equal).
RESEAL_BATCH = 500

store_app = typer.Typer(no_args_is_help=True, help="the turn store: prune, reseal, keys")


@store_app.command()
def prune(
    dry_run: bool = typer.Option(False, "--dry-run", help="count what would go; delete nothing"),
    db: DbOpt = None,
) -> None:
    """Delete what the retention settings say has aged (BEACON_RETAIN_*)."""
    from beacon.store.retention import prune as prune_store
    from beacon.store.retention import retention_from_env

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


@store_app.command()
def reseal(
    batch: int = typer.Option(RESEAL_BATCH, "--batch", min=1, help="records per transaction"),
    db: DbOpt = None,
) -> None:
    """Seal every record again under the active key (the first of BEACON_KEYS); safe
    beside running servers, and a re-run goes on where a stopped one left off."""
    from beacon.store.crypto import keyring_from_env
    from beacon.store.opening import open_store
    from beacon.store.reseal import reseal as reseal_store

    location = db or os.environ.get("BEACON_DB", "")
    if not location:
        fail("store reseal", "no store named: pass --db or set BEACON_DB", Exit.USAGE)
    try:
        ring = keyring_from_env()
    except StoreError as exc:
        fail("store reseal", str(exc), Exit.USAGE, exc)
    if is_postgres(location):
        check_database("store reseal", location)
    try:
        store = open_store(location, ring)
    except StoreError as exc:
        fail("store reseal", str(exc), Exit.FAILED, exc)
    try:
        typer.echo(f"re-sealing under key {ring.active!r}, {batch} records a batch")
        done = reseal_store(store, batch=batch, progress=lambda f: typer.echo(f.line()))
    except StoreError as exc:
        fail("store reseal", str(exc), Exit.FAILED, exc)
    finally:
        store.close()
    typer.echo(done.total_line())
    if done.unreadable:
        fail(
            "store reseal",
            f"{done.unreadable} records do not open with BEACON_KEYS: put back the keys "
            "named above (after the active key) and run it again",
            Exit.FAILED,
        )


@store_app.command()
def keys(db: DbOpt = None) -> None:
    """Records per key id, by sealed column (headers only: needs no key)."""
    from beacon.store.reseal import key_census

    store = open_for("store keys", db)
    try:
        census = key_census(store)
    except StoreError as exc:
        fail("store keys", str(exc), Exit.FAILED, exc)
    finally:
        store.close()
    totals: dict[str, int] = {}
    for label, counts in census.items():
        shown = ", ".join(f"{k} {n}" for k, n in sorted(counts.items())) or "none"
        typer.echo(f"{label}: {shown}")
        for k, n in counts.items():
            totals[k] = totals.get(k, 0) + n
    typer.echo("total: " + (", ".join(f"{k} {n}" for k, n in sorted(totals.items())) or "none"))


def show_retention(command: str) -> None:
    """Refuse a malformed retention setting before anything starts; the rules are
    shown by the server once it stands (``beacon.server.retention``: one line on
    stderr, as stdout's first line is ``listening on``)."""
    from beacon.store.retention import retention_from_env

    try:
        retention_from_env()
    except StoreError as exc:
        fail(command, str(exc), Exit.USAGE, exc)
