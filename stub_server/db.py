"""The corpus as an in-memory SQLite database, one read-only connection per caller.

A shared-cache in-memory database is loaded once per corpus and kept alive by
an anchor connection; every ``connect`` opens its own connection to it, so
threads and async tasks never share a ``sqlite3.Connection``.
"""

from __future__ import annotations

import dataclasses
import itertools
import sqlite3
import threading
from collections.abc import Sequence
from contextlib import closing
from typing import Any

from stub_server.corpus import Annotation, Capture, Corpus, Level, Photo, Project

_TABLES: tuple[tuple[str, type[Any]], ...] = (
    ("projects", Project),
    ("levels", Level),
    ("captures", Capture),
    ("photos", Photo),
    ("annotations", Annotation),
)
_INT_COLUMNS = frozenset({"number", "level_number"})
_lock = threading.Lock()
_names = itertools.count(1)
# id(corpus) -> (corpus, anchor, uri); holding the corpus keeps its id unique.
_anchors: dict[int, tuple[Corpus, sqlite3.Connection, str]] = {}


def _schema(table: str, record: type[Any]) -> str:
    columns = [
        f"{f.name} {'INTEGER' if f.name in _INT_COLUMNS else 'TEXT'}"
        + (" PRIMARY KEY" if f.name == "id" else "")
        for f in dataclasses.fields(record)
    ]
    return f"CREATE TABLE {table} ({', '.join(columns)})"


def _load(anchor: sqlite3.Connection, corpus: Corpus) -> None:
    for table, record in _TABLES:
        names = [f.name for f in dataclasses.fields(record)]
        anchor.execute(_schema(table, record))
        rows = [dataclasses.astuple(r) for r in getattr(corpus, table)]
        placeholders = ", ".join("?" for _ in names)
        anchor.executemany(f"INSERT INTO {table} VALUES ({placeholders})", rows)
    for table in ("levels", "captures", "photos", "annotations"):
        anchor.execute(f"CREATE INDEX ix_{table}_project ON {table} (project_id)")
    anchor.commit()


def _uri(corpus: Corpus) -> str:
    with _lock:
        entry = _anchors.get(id(corpus))
        if entry is None:
            uri = f"file:beacon-stub-{next(_names)}?mode=memory&cache=shared"
            anchor = sqlite3.connect(uri, uri=True, check_same_thread=False)
            _load(anchor, corpus)
            entry = (corpus, anchor, uri)
            _anchors[id(corpus)] = entry
        return entry[2]


def connect(corpus: Corpus) -> sqlite3.Connection:
    """A fresh read-only connection to the corpus database; the caller closes it."""
    conn = sqlite3.connect(_uri(corpus), uri=True)
    conn.execute("PRAGMA query_only = ON")
    return conn


def run(
    corpus: Corpus, sql: str, params: Sequence[Any] = ()
) -> tuple[list[str], list[tuple[Any, ...]]]:
    """Execute one statement and return (column names, rows)."""
    with closing(connect(corpus)) as conn:
        cursor = conn.execute(sql, tuple(params))
        columns = [d[0] for d in cursor.description or ()]
        return columns, cursor.fetchall()
