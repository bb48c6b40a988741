"""Opening the turn store a ``BEACON_DB`` names: a file path is SQLite, a
``postgresql://`` (or ``postgres://``) URL is PostgreSQL. Apart from the backends'
hooks (``backends.py``), which the record rules import: opening imports the
backends, and they import the rules, so the two cannot share a module.
"""

from __future__ import annotations

from pathlib import Path

from beacon.store.backends import is_postgres
from beacon.store.crypto import Keyring
from beacon.store.turns import TurnStore


def open_store(location: str | Path, keyring: Keyring) -> TurnStore:
    """The store at ``location``; PostgreSQL's driver is imported only when named."""
    if isinstance(location, str) and is_postgres(location):
        from beacon.store.postgres import PostgresStore

        return PostgresStore(location, keyring)
    from beacon.store.sqlite import SqliteStore

    return SqliteStore(location, keyring)
