"""The ``beacon`` commands' expected failures: one line naming the fix, one exit code each.

The codes are data (the README's troubleshooting table is this map); ``--debug``
on the root command prints the traceback before the line instead of hiding it.
Codes 1 and 2 keep their usual meaning, 3 is ``verify``'s and ``audit-upstream``'s
"target cannot be tested", 5 is the gates' stale sweep.
"""

from __future__ import annotations

import errno
import socket
import sys
import traceback
from enum import IntEnum
from typing import NoReturn

import typer


class Exit(IntEnum):
    FAILED = 1  # the work ran and failed (a turn ended in error, a check failed)
    USAGE = 2  # a bad option value: an unknown scenario, a missing extra
    UNREACHABLE = 3  # the chat server or stub MCP server named does not answer
    TOKEN_REFUSED = 4  # the chat server refused the bearer (malformed, expired, wrong key)
    PORT_IN_USE = 6  # something else listens on the port asked for
    DATABASE_UNREACHABLE = 7  # the postgresql:// store does not accept a connection
    CONTRACT_DRIFT = 8  # the fronted upstream no longer lists what its contract describes


class _Flags:
    debug = False


FLAGS = _Flags()


def fail(command: str, message: str, code: Exit, exc: BaseException | None = None) -> NoReturn:
    """Print ``beacon COMMAND: MESSAGE`` on stderr (the traceback first with ``--debug``)
    and exit with ``code``."""
    if FLAGS.debug and exc is not None:
        traceback.print_exception(exc, file=sys.stderr)
    typer.echo(f"beacon {command}: {message}", err=True)
    raise typer.Exit(int(code)) from exc


def check_port_free(command: str, host: str, port: int, option: str) -> None:
    """Exit ``PORT_IN_USE`` when ``host:port`` cannot be bound (uvicorn would print a
    traceback-shaped log line and exit 1, after the app was built)."""
    if port == 0:
        return
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn binds
        try:
            sock.bind((host, port))
        except OSError as exc:
            if exc.errno != errno.EADDRINUSE:
                raise
            fail(
                command,
                f"port {port} on {host} is in use: stop what listens there "
                f"(`ss -ltnp 'sport = :{port}'`) or pass another {option} (0 picks a free one)",
                Exit.PORT_IN_USE,
                exc,
            )


def check_database(command: str, url: str, timeout_s: int = 5) -> None:
    """Exit ``DATABASE_UNREACHABLE`` when the PostgreSQL at ``url`` refuses a connection,
    before any process starts (the store's pool would retry, then trace)."""
    import psycopg

    try:
        psycopg.connect(url, connect_timeout=timeout_s).close()
    except psycopg.Error as exc:
        reason = " ".join(str(exc).split())[:200] or type(exc).__name__
        fail(
            command,
            f"cannot connect to the database ({reason}): start it "
            "(`beacon postgres start` prints a URL) or pass the right --db / BEACON_DB",
            Exit.DATABASE_UNREACHABLE,
            exc,
        )
