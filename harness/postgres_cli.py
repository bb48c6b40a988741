"""``beacon postgres start|stop|status``: a local PostgreSQL for several chat processes.

``register`` is the ``postgres`` entry point of the ``beacon.commands`` group
(pyproject.toml). ``start`` creates (once) and starts a cluster in
``--directory`` (default: the state directory, outside any checkout; see
``harness.postgres``), with a password generated for it, and prints its
database URL as ``db: URL``, where the password is kept and how to hand the URL
to ``beacon up --workers N`` (``--db`` or ``BEACON_DB``); run again, it prints
the same. ``stop`` stops it and says so (the directory stays until you delete
it). ``status`` says whether it runs, on which port, in which directory.
Debian's ``postgresql`` package provides the server.
"""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Annotated, NoReturn

import typer

DirOpt = Annotated[
    Path | None,
    typer.Option(
        help="the cluster's directory, created on first start "
        "(default: $XDG_STATE_HOME/beacon/postgres, i.e. ~/.local/state/beacon/postgres; "
        "as root, the postgres user's)"
    ),
]


def _directory(given: Path | None) -> Path:
    from harness.postgres import state_directory

    return (given.expanduser() if given else state_directory()).resolve()


def _fail(command: str, exc: Exception) -> NoReturn:
    typer.echo(f"beacon postgres {command}: {' '.join(str(exc).split())}", err=True)
    raise typer.Exit(1) from exc


def _checkout_around(directory: Path) -> Path | None:
    """The git checkout ``directory`` would be inside: a cluster there is hundreds of
    files of another user's that git sees (and ``make test`` trips over)."""
    return next((p for p in (directory, *directory.parents) if (p / ".git").exists()), None)


def _start(
    directory: DirOpt = None,
    port: Annotated[int, typer.Option(help="0 picks a free port")] = 0,
) -> None:
    """Start your local PostgreSQL cluster (or find it running) and print its `db: URL`."""
    import psycopg

    from harness.postgres import PASSWORD_FILE, PostgresUnavailable, start

    where = _directory(directory)
    checkout = _checkout_around(where)
    if checkout is not None:
        _fail("start", ValueError(f"{where} is inside the checkout {checkout}: "
                                  "pass a --directory outside it, or leave it out"))  # fmt: skip
    try:
        cluster = start(where, port)
        with psycopg.connect(cluster.url(), autocommit=True) as conn:
            exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = 'beacon'").fetchone()
        url = cluster.url("beacon") if exists else cluster.create_database("beacon")
    except (PostgresUnavailable, OSError, psycopg.Error) as exc:
        _fail("start", exc)
    quoted = shlex.quote(url)
    typer.echo(f"db: {url}")
    typer.echo(f"password file: {where / PASSWORD_FILE} (mode 0600, yours alone)")
    typer.echo(f"run: beacon up --workers 2 --db {quoted}")
    typer.echo(f"or per process: BEACON_DB={quoted} beacon serve --port P")
    typer.echo(f"stop it with: beacon postgres stop --directory {shlex.quote(str(where))}")


def _stop(directory: DirOpt = None) -> None:
    """Stop the cluster in DIR, saying what was stopped."""
    from harness.postgres import PostgresUnavailable, stop

    where = _directory(directory)
    try:
        port = stop(where)
    except (PostgresUnavailable, OSError) as exc:
        _fail("stop", exc)
    if port is None:
        typer.echo(f"nothing to stop: no PostgreSQL cluster runs in {where}")
    else:
        typer.echo(f"stopped: the PostgreSQL cluster in {where} (port {port})")


def _status(directory: DirOpt = None) -> None:
    """Say whether the cluster in DIR runs, and on which port (exit 0 running, 1 not)."""
    from harness.postgres import PostgresUnavailable, running_port

    where = _directory(directory)
    try:
        port = running_port(where / "data")
    except (PostgresUnavailable, OSError) as exc:
        _fail("status", exc)
    if port is None:
        typer.echo(f"not running: no PostgreSQL cluster runs in {where}")
        raise typer.Exit(1)
    typer.echo(f"running on port {port} in {where}")


def register(app: typer.Typer) -> None:
    group = typer.Typer(help="A local PostgreSQL, yours alone, for several chat processes.")
    group.command("start")(_start)
    group.command("stop")(_stop)
    group.command("status")(_status)
    app.add_typer(group, name="postgres")
