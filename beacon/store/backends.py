"""Which turn store a ``BEACON_DB`` names: a file path is SQLite, a
``postgresql://`` (or ``postgres://``) URL is PostgreSQL."""

from __future__ import annotations

from pathlib import Path

from beacon.store.crypto import Keyring
from beacon.store.turns import TurnStore

POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def is_postgres(location: str) -> bool:
    return location.startswith(POSTGRES_SCHEMES)


def open_store(location: str | Path, keyring: Keyring) -> TurnStore:
    """The store at ``location``; PostgreSQL's driver is imported only when named."""
    if isinstance(location, str) and is_postgres(location):
        from beacon.store.postgres import PostgresStore

        return PostgresStore(location, keyring)
    from beacon.store.sqlite import SqliteStore

    return SqliteStore(location, keyring)
