"""The analyst's rows of a turn, kept in the clear for ``beacon report``: the PEP's
permission verdicts (``audit``), one row per tool call (``tool_calls``: codes and
numbers, the arguments as a digest) and the narration guard's drops
(``narration_audit``: the dropped phrase itself sealed, its kind and rule clear).
"""

from __future__ import annotations

import base64
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from beacon.policy.audit import AuditRow
from beacon.store.backends import Tx
from beacon.store.core import StoreCore
from beacon.store.errors import SealedReason, SealedRecordError
from beacon.store.schema import AUDIT_COLUMNS, AUDIT_INSERT, TOOL_CALL_COLUMNS, TOOL_CALL_INSERT
from beacon.wire.audit import AuditKind

SEALED_TOKEN = "sealed:"  # a narration_audit token sealed at rest (base64 after it)


class AuditRecords(StoreCore):
    """Permission verdicts, tool calls and narration drops, by turn."""

    def record_audit(
        self,
        rows: Sequence[AuditRow],
        tool_calls: Sequence[Mapping[str, Any]] = (),
        *,
        turn_id: str | None = None,
        narration: Sequence[Mapping[str, str]] = (),
    ) -> None:
        """A turn's audit rows without an answer (the turn ended in an error); its
        narration rows (a safety filter's block) need the ``turn_id`` they seal under."""
        now = self.clock()
        with self.transaction() as tx:
            self._write_audit(tx, rows)
            self._write_tool_calls(tx, tool_calls, now)
            if narration and turn_id is not None:
                owner = self._owner_of_turn(tx, turn_id) or ""
                self._write_narration(tx, turn_id, owner, narration, now)

    def _write_audit(self, tx: Tx, rows: Sequence[AuditRow]) -> None:
        if rows:
            tx.executemany(AUDIT_INSERT, [_audit_values(row) for row in rows])

    def _write_tool_calls(self, tx: Tx, rows: Sequence[Mapping[str, Any]], now: float) -> None:
        # Codes and numbers only: the arguments are a digest (beacon.loop.evidence).
        tx.executemany(
            TOOL_CALL_INSERT,
            [
                tuple(
                    now if c == "at" else int(row[c]) if c == "total_is_lower_bound" else row.get(c)
                    for c in TOOL_CALL_COLUMNS
                )
                for row in rows
            ],
        )

    def _write_narration(
        self,
        tx: Tx,
        turn_id: str,
        owner: str,
        rows: Sequence[Mapping[str, str]],
        now: float,
    ) -> None:
        """Every dropped sentence and slot verdict, ``{kind, rule, token}``; a kind that is
        not an ``AuditKind`` is refused (ValueError), and the whole answer with it."""
        tx.executemany(
            "INSERT INTO narration_audit (turn_id, kind, rule, token, at) VALUES (?, ?, ?, ?, ?)",
            [
                (
                    turn_id,
                    str(AuditKind(n["kind"])),
                    n["rule"],
                    self._seal_token(n, owner, turn_id),
                    now,
                )
                for n in rows
            ],
        )

    def tool_calls(self, turn_id: str) -> list[dict[str, Any]]:
        """The turn's ``tool_calls`` rows, in the order they were made."""
        columns = ", ".join(TOOL_CALL_COLUMNS)
        rows = self.read(
            lambda db: db.execute(
                f"SELECT {columns} FROM tool_calls WHERE turn_id = ? ORDER BY {self.order_column}",
                (turn_id,),
            ).fetchall()
        )
        return [dict(zip(TOOL_CALL_COLUMNS, row, strict=True)) for row in rows]

    def _seal_token(self, row: Mapping[str, str], owner: str, turn_id: str) -> str:
        """The dropped phrase is the model's or the user's words: sealed, as base64
        text in its text column (kind and rule, the guard's own codes, stay clear)."""
        sealed = self._seal(row["token"], owner, turn_id, "narration", row["kind"], row["rule"])
        return SEALED_TOKEN + base64.b64encode(sealed).decode("ascii")

    def narration_drops(self, turn_id: str) -> list[dict[str, str]]:
        """The turn's narration audit rows, in the order they were made."""

        def read(db: Tx) -> tuple[str | None, list[Any]]:
            rows = db.execute(
                "SELECT kind, rule, token FROM narration_audit WHERE turn_id = ? "
                f"ORDER BY {self.order_column}",
                (turn_id,),
            ).fetchall()
            return self._owner_of_turn(db, turn_id), rows

        owner, rows = self.read(read)

        def token(kind: str, rule: str, stored: str) -> str:
            if not stored.startswith(SEALED_TOKEN):
                return stored  # written before tokens were sealed
            sealed = base64.b64decode(stored.removeprefix(SEALED_TOKEN))
            return self._unseal_text(sealed, owner or "", turn_id, "narration", kind, rule)

        return [{"kind": k, "rule": r, "token": token(k, r, t)} for k, r, t in rows]

    def capabilities_used(self, turn_ids: Sequence[str]) -> dict[str, set[str]]:
        """The capabilities each turn's allowed calls used, by turn (the PEP's rows)."""
        if not turn_ids:
            return {}
        marks = ", ".join("?" for _ in turn_ids)
        rows = self.read(
            lambda db: db.execute(
                f"SELECT turn_id, capability FROM audit WHERE turn_id IN ({marks}) "
                "AND allowed = 1 AND capability IS NOT NULL",
                tuple(turn_ids),
            ).fetchall()
        )
        used: dict[str, set[str]] = {}
        for turn_id, capability in rows:
            used.setdefault(str(turn_id), set()).add(str(capability))
        return used

    def audit_rows(self, turn_id: str) -> list[AuditRow]:
        columns = ", ".join(AUDIT_COLUMNS)
        rows = self.read(
            lambda db: db.execute(
                f"SELECT {columns} FROM audit WHERE turn_id = ? ORDER BY {self.order_column}",
                (turn_id,),
            ).fetchall()
        )
        return [_audit_row(row) for row in rows]


def _audit_values(row: AuditRow) -> tuple[object, ...]:
    # Flags are stored as 0/1 on every backend (PostgreSQL will not take a bool
    # into an integer column).
    values = row.as_record()
    return tuple(
        int(values[c]) if c in ("allowed", "hint_present") else values[c] for c in AUDIT_COLUMNS
    )


def _audit_row(stored: Sequence[Any]) -> AuditRow:
    """A stored audit row (columns in ``AUDIT_COLUMNS`` order) as the PEP wrote it;
    one whose time does not parse is unreadable."""
    turn_id, sub, tool, capability, allowed, reason, hint_present, at = stored
    try:
        when = datetime.fromisoformat(str(at))
    except ValueError as exc:
        raise SealedRecordError(
            SealedReason.MALFORMED_RECORD, "an audit row's time does not parse"
        ) from exc
    return AuditRow(
        turn_id=str(turn_id),
        sub=str(sub),
        tool=str(tool),
        capability=None if capability is None else str(capability),
        allowed=bool(allowed),
        reason=str(reason),
        hint_present=bool(hint_present),
        at=when,
    )
