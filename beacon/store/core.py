"""What every record rule of the turn store stands on: the key ring, sealing with
the record's owner and place as associated data, one read tried again after a lost
connection, and who owns a turn or a session.

Content is sealed (AES-256-GCM, ``beacon.store.crypto``) with the record's owner
and place as associated data, so a row copied elsewhere, or handed to another
owner by rewriting a column, does not open.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from typing import Any, TypeVar

from pydantic import BaseModel

from beacon.store.backends import Backend, Tx
from beacon.store.crypto import Keyring, needs_reseal, record_context, seal, unseal
from beacon.store.errors import (
    KeyringError,
    SealedReason,
    SealedRecordError,
    StoreUnavailable,
)
from beacon.store.records import parse_record

T = TypeVar("T")
R = TypeVar("R", bound=BaseModel)
KEY_CHECK_SAMPLE = 20
# Who owns the record a JSON read opens (its first key is the turn's or session's id).
TURN_OWNER = "SELECT owner FROM turns WHERE id = ?"
SESSION_OWNER = "SELECT owner FROM sessions WHERE id = ?"


def new_worker_id() -> int:
    """A process's id in the turns it drives: positive and fits an int4 (PostgreSQL
    advisory lock keys)."""
    return secrets.randbelow(2**31 - 2) + 1


class StoreCore(Backend):
    """The key ring, the clock and sealing, over a backend's hooks (``Backend``)."""

    def __init__(self, keyring: Keyring) -> None:
        self._ring = keyring
        self.worker = new_worker_id()
        # The time records are stamped with (tests age a store by setting it).
        self.clock: Callable[[], float] = time.time

    # --- sealing: the owner and the record's place are the associated data --------

    def _seal(self, data: bytes | str, owner: str, *place: str) -> bytes:
        return seal(self._ring, data, context=record_context(owner, *place))

    def _unseal(self, record: bytes, owner: str, *place: str) -> bytes:
        return unseal(
            self._ring,
            record,
            context=record_context(owner, *place),
            legacy_context=record_context(*place),
        )

    def _unseal_text(self, record: bytes, owner: str, *place: str) -> str:
        try:
            return self._unseal(record, owner, *place).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise SealedRecordError(SealedReason.NOT_TEXT, "the record holds bytes") from exc

    def _unseals(self, record: bytes, owner: str, *place: object) -> bool:
        try:
            self._unseal(record, owner, *(str(p) for p in place))
        except SealedRecordError:
            return False
        return True

    def resealed(self, record: bytes, owner: str, *place: str) -> bytes | None:
        """The record sealed again under the active key, at the same owner and place,
        or None when it already is (``beacon.store.reseal``). A version 1 record comes
        back as version 2: re-sealing binds its owner too."""
        if not needs_reseal(self._ring, record):
            return None
        return self._seal(self._unseal(record, owner, *place), owner, *place)

    @property
    def keyring(self) -> Keyring:
        return self._ring

    # --- reads ----------------------------------------------------------------------

    def read(self, read: Callable[[Tx], T]) -> T:
        """One read; tried once more when the connection was lost under it."""
        try:
            with self.reading() as db:
                return read(db)
        except StoreUnavailable:
            with self.reading() as db:
                return read(db)

    def _get_record(
        self, kind: type[R], sql: str, key: tuple[str, ...], owner_sql: str, *place: str
    ) -> R | None:
        """One sealed record, opened with its owner (read by ``owner_sql``) and
        parsed as ``kind``: one that does not parse is unreadable."""

        def read(db: Tx) -> tuple[Any, Any]:
            owner = db.execute(owner_sql, (key[0],)).fetchone()
            return db.execute(sql, key).fetchone(), owner

        row, owner = self.read(read)
        if row is None:
            return None
        text = self._unseal_text(row[0], "" if owner is None else str(owner[0]), *place)
        return parse_record(kind, text)

    def _owner_of_turn(self, db: Tx, turn_id: str) -> str | None:
        row = db.execute(TURN_OWNER, (turn_id,)).fetchone()
        return None if row is None else str(row[0])

    def _owner_of_session(self, db: Tx, session_id: str) -> str | None:
        row = db.execute(SESSION_OWNER, (session_id,)).fetchone()
        return None if row is None else str(row[0])

    def _save_errors(self) -> tuple[type[Exception], ...]:
        return (StoreUnavailable, *self.db_errors)

    def check_keys(self, sample: int = KEY_CHECK_SAMPLE) -> None:
        """Refuse a key ring that opens fewer than half of the most recent turns'
        first frames: every reattach would fail, and frames it sealed into a dead
        process's turn would be unreadable to the processes holding the right keys."""
        rows = self.read(
            lambda db: db.execute(
                "SELECT t.id, t.owner, f.body FROM turns t JOIN frames f "
                "ON f.turn_id = t.id AND f.seq = 1 ORDER BY t.created_at DESC LIMIT ?",
                (sample,),
            ).fetchall()
        )
        opened = sum(
            1 for turn_id, owner, body in rows if self._unseals(body, owner, turn_id, "frame", 1)
        )
        if rows and opened * 2 < len(rows):
            raise KeyringError(
                f"BEACON_KEYS opens {opened} of the {len(rows)} most recent turns in BEACON_DB: "
                "start with the key ring that sealed them (to rotate, put a new key first "
                "and keep the old ones)"
            )
