"""``beacon report``: what the store's analyst rows say about a period.

``--since`` is a date (``2026-11-01``, UTC midnight), an ISO time, or a duration
back from now (``90m``, ``24h``, ``7d``, ``2w``; now is the one clock's, see
``beacon.store.retention.retention_now``). Reads ``BEACON_DB`` (or ``--db``);
needs no key: nothing sealed is opened.
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
from datetime import UTC, date, datetime
from typing import TYPE_CHECKING, Annotated, Literal

import typer

from beacon.cli.errors import Exit, check_database, fail
from beacon.store.backends import is_postgres
from beacon.store.errors import StoreError

if TYPE_CHECKING:
    from beacon.store.turns import TurnStore

# The store's modules are imported by the commands that open one: every `beacon`
# command loads this module at start (beacon/lazy.py).

_DURATION = re.compile(r"(\d+(?:\.\d+)?)([smhdw])")
_UNIT_S = {"s": 1, "m": 60, "h": 3600, "d": 86_400, "w": 7 * 86_400}

DbOpt = Annotated[
    str | None,
    typer.Option("--db", help="the store (default: BEACON_DB): a path or postgresql:// URL"),
]


def duration_seconds(value: str) -> float | None:
    """``90m``, ``24h``, ``7d``, ``2w``, ``30s`` as seconds; None when it is not one."""
    found = _DURATION.fullmatch(value.strip())
    return float(found[1]) * _UNIT_S[found[2]] if found else None


def parse_since(value: str, now: float) -> float:
    """A date, an ISO time, or a duration back from ``now``, as epoch seconds."""
    text = value.strip()
    back = duration_seconds(text)
    if back is not None:
        return now - back
    try:
        if len(text) == 10:
            day = date.fromisoformat(text)
            return datetime(day.year, day.month, day.day, tzinfo=UTC).timestamp()
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise ValueError(
            f"--since {value!r} is neither a date (YYYY-MM-DD), an ISO time nor a duration "
            "(90m, 24h, 7d, 2w)"
        ) from None
    return (moment if moment.tzinfo else moment.replace(tzinfo=UTC)).timestamp()


def open_for(command: str, db: str | None) -> TurnStore:
    """The store named by ``--db`` or ``BEACON_DB``, opened with a throwaway key: the
    analyst's rows and the pruner need none (nothing sealed is opened or written)."""
    from beacon.store.crypto import new_key_slot, parse_keys
    from beacon.store.opening import open_store

    location = db or os.environ.get("BEACON_DB", "")
    if not location:
        fail(command, "no store named: pass --db or set BEACON_DB", Exit.USAGE)
    if is_postgres(location):
        check_database(command, location)
    try:
        return open_store(location, parse_keys(new_key_slot("analyst")))
    except StoreError as exc:
        fail(command, str(exc), Exit.FAILED, exc)


def report(
    since: Annotated[
        str, typer.Option(help="a date (YYYY-MM-DD), an ISO time, or a duration back (24h, 7d)")
    ] = "7d",
    fmt: Annotated[
        Literal["text", "csv", "json"], typer.Option("--format", help="text, csv or json")
    ] = "text",
    db: DbOpt = None,
) -> None:
    """Summarise the store's rows since a time: turns, errors by cause, count grades,
    guard drops, permission verdicts, tool calls, p50/p95 time to first frame."""
    from beacon.store.report import summarise, text_lines
    from beacon.store.retention import retention_now

    now = retention_now()
    try:
        start = parse_since(since, now)
    except ValueError as exc:
        fail("report", str(exc), Exit.USAGE, exc)
    store = open_for("report", db)
    try:
        found = summarise(store, since=start, until=now + 1)
    except StoreError as exc:
        fail("report", str(exc), Exit.FAILED, exc)
    finally:
        store.close()
    if fmt == "json":
        typer.echo(json.dumps(found.as_json(), indent=2, sort_keys=False))
    elif fmt == "csv":
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(("section", "key", "detail", "value"))
        writer.writerows(("" if v is None else v for v in row) for row in found.rows())
        typer.echo(out.getvalue(), nl=False)
    else:
        typer.echo("\n".join(text_lines(found)))
