"""A chat session's records: its owner, its transcript (one user and one assistant
line per answered turn) and its narrowing between turns."""

from __future__ import annotations

from typing import Any

from beacon.store.backends import Tx
from beacon.store.core import SESSION_OWNER, StoreCore
from beacon.store.records import Message, NarrowingRecord


class SessionRecords(StoreCore):
    """Sessions: who owns one, what was said, and what it is narrowed to."""

    def session_owner(self, session_id: str) -> str | None:
        return self.read(lambda db: self._owner_of_session(db, session_id))

    def _write_transcript(
        self,
        tx: Tx,
        session_id: str,
        turn_id: str,
        owner: str,
        lines: tuple[tuple[str, str], ...],
        now: float,
    ) -> None:
        """The turn's ``(role, text)`` lines; the session's owner is the turn's
        (``TurnFrames._insert_turns`` refuses another)."""
        for role, text in lines:
            tx.execute(
                "INSERT INTO messages (session_id, turn_id, role, body, created_at) "
                "VALUES (?, ?, ?, ?, ?)",
                (
                    session_id,
                    turn_id,
                    role,
                    self._seal(text, owner, session_id, "message", turn_id, role),
                    now,
                ),
            )

    def transcript(self, session_id: str) -> list[Message]:
        def read(db: Tx) -> tuple[str | None, list[Any]]:
            rows = db.execute(
                "SELECT turn_id, role, body FROM messages WHERE session_id = ? "
                f"ORDER BY created_at, {self.order_column}",
                (session_id,),
            ).fetchall()
            return self._owner_of_session(db, session_id), rows

        owner, rows = self.read(read)
        return [
            Message(
                turn_id,
                role,
                self._unseal_text(body, owner or "", session_id, "message", turn_id, role),
            )
            for turn_id, role, body in rows
        ]

    def _write_narrowing(self, tx: Tx, session_id: str, record: NarrowingRecord | None) -> None:
        """The session's narrowing (None clears it): owned by dispatch, not the model."""
        if record is None:
            tx.execute("DELETE FROM narrowing WHERE session_id = ?", (session_id,))
            return
        owner = self._owner_of_session(tx, session_id) or ""
        body = self._seal(record.model_dump_json(), owner, session_id, "narrowing")
        tx.execute(
            "INSERT INTO narrowing (session_id, body, updated_at) VALUES (?, ?, ?) "
            "ON CONFLICT (session_id) DO UPDATE SET body = excluded.body, "
            "updated_at = excluded.updated_at",
            (session_id, body, self.clock()),
        )

    def load_narrowing(self, session_id: str) -> NarrowingRecord | None:
        return self._get_record(
            NarrowingRecord,
            "SELECT body FROM narrowing WHERE session_id = ?",
            (session_id,),
            SESSION_OWNER,
            session_id,
            "narrowing",
        )
