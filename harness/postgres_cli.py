"""``beacon postgres start|stop``: a throwaway local PostgreSQL for several chat processes.

``register`` is the ``postgres`` entry point of the ``beacon.commands`` group
(pyproject.toml). ``start`` creates (once) and starts a cluster in ``--dir``,
on loopback, and prints its database URL as ``db: URL`` — for ``beacon up
--workers 2 --db URL`` or ``BEACON_DB``; ``stop`` stops it (the directory stays
until you delete it). Debian's ``postgresql`` package provides the server.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

DirOpt = Annotated[Path, typer.Option(help="the cluster's directory (created on first start)")]
DEFAULT_DIR = Path(".beacon/postgres")


def _start(
    directory: DirOpt = DEFAULT_DIR,
    port: Annotated[int, typer.Option(help="0 picks a free port")] = 0,
) -> None:
    """Start a local PostgreSQL cluster in DIR and print `db: URL`."""
    import psycopg

    from harness.postgres import PostgresUnavailable, start

    try:
        cluster = start(directory.resolve(), port)
    except (PostgresUnavailable, OSError, KeyError) as exc:
        typer.echo(f"beacon postgres start: {exc}", err=True)
        raise typer.Exit(1) from exc
    with psycopg.connect(cluster.url(), autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = 'beacon'").fetchone()
    url = cluster.url("beacon") if exists else cluster.create_database("beacon")
    typer.echo(f"db: {url}")
    typer.echo(f"stop it with: beacon postgres stop --directory {directory}")


def _stop(directory: DirOpt = DEFAULT_DIR) -> None:
    """Stop the cluster in DIR."""
    from harness.postgres import PostgresUnavailable, stop

    try:
        stop(directory.resolve())
    except PostgresUnavailable as exc:
        typer.echo(f"beacon postgres stop: {exc}", err=True)
        raise typer.Exit(1) from exc


def register(app: typer.Typer) -> None:
    group = typer.Typer(help="A throwaway local PostgreSQL for several chat processes.")
    group.command("start")(_start)
    group.command("stop")(_stop)
    app.add_typer(group, name="postgres")
