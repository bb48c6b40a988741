"""A turn's row and its frames: opened with its first frames, appended only while
this process drives it, finished by its terminal in the same commit, and read back
in order.

Frames are appended only to turns this process still drives: a turn another
process finished (it found this process's liveness lock gone) refuses them with
``TurnTaken``, so a turn never gets two terminals.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from beacon.store.backends import Tx
from beacon.store.core import StoreCore
from beacon.store.errors import TurnTaken
from beacon.store.records import SessionNotOwned, TurnRecord
from beacon.wire.frames import TERMINAL_FRAMES

# (turn_id, seq, type, encoded frame)
FrameRow = tuple[str, int, str, bytes]
# (seq, encoded frame)
StoredFrame = tuple[int, bytes]
# The frames whose commit ends a user's wait for the answer (the first of them is
# ``turns.first_answer_at``); an error frame's ``code`` is kept in the clear
# (one of Beacon's own codes, never the message).
ANSWER_FRAMES = frozenset({"delta", *TERMINAL_FRAMES})
_CODE = re.compile(r"[a-z][a-z0-9_]{0,47}")


def split_granted(stored: str) -> frozenset[str]:
    """``turns.granted`` read back: "" is a token that granted nothing."""
    return frozenset(part for part in stored.split(",") if part)


class OpenTurn(NamedTuple):
    """A turn's row, written in the same commit as its first frames."""

    turn_id: str
    owner: str
    session_id: str | None
    mode: str
    # The capabilities the starter's token granted (``turns.granted``).
    granted: frozenset[str] = frozenset()


class TurnFrames(StoreCore):
    """Turns and their frames."""

    def _insert_turns(self, tx: Tx, opens: Sequence[OpenTurn], now: float) -> None:
        for turn_id, owner, session_id, mode, granted in opens:
            if session_id is not None:
                found = None
                for _ in range(2):
                    tx.execute(
                        "INSERT INTO sessions (id, owner, created_at) VALUES (?, ?, ?) "
                        "ON CONFLICT (id) DO NOTHING",
                        (session_id, owner, now),
                    )
                    # Held to the commit (PostgreSQL): the pruner deletes only a session
                    # it could lock and found without turns. One it deleted under us is
                    # gone when the lock is granted: written again, as a new session.
                    found = tx.execute(
                        f"SELECT owner FROM sessions WHERE id = ?{self.lock_rows}", (session_id,)
                    ).fetchone()
                    if found is not None:
                        break
                if found is None or found[0] != owner:
                    raise SessionNotOwned(session_id)
            tx.execute(
                "INSERT INTO turns "
                "(id, session_id, owner, mode, status, created_at, worker, granted) "
                "VALUES (?, ?, ?, ?, 'running', ?, ?, ?)",
                (turn_id, session_id, owner, mode, now, self.worker, ",".join(sorted(granted))),
            )

    def open_turn(
        self,
        turn_id: str,
        *,
        owner: str,
        session_id: str | None,
        mode: str,
        granted: frozenset[str] = frozenset(),
    ) -> None:
        opening = OpenTurn(turn_id, owner, session_id, mode, granted)
        with self.transaction() as tx:
            self._insert_turns(tx, [opening], self.clock())

    def interrupt_running(
        self, make: Callable[[str, int], bytes], turn_id: str | None = None
    ) -> list[str]:
        """Finish running turns whose process is gone: each gets one ``error`` frame
        (``make(turn_id, seq)`` encodes it) after its last stored frame, and its
        status, in one commit. With ``turn_id``, only that turn. A turn another live
        process drives is left alone."""
        finished = []
        with self.transaction() as tx:
            for stuck in self.dead_running(tx, turn_id):
                owner = self._owner_of_turn(tx, stuck) or ""
                last = tx.execute(
                    "SELECT seq, body FROM frames WHERE turn_id = ? ORDER BY seq DESC LIMIT 1",
                    (stuck,),
                ).fetchone()
                if last is not None and not self._unseals(last[1], owner, stuck, "frame", last[0]):
                    # Sealed under keys this process lacks: a frame sealed here would
                    # make the turn unreadable to the processes that hold them.
                    continue
                seq = 1 if last is None else int(last[0]) + 1
                tx.execute(
                    "INSERT INTO frames (turn_id, seq, type, body) VALUES (?, ?, 'error', ?)",
                    (stuck, seq, self._seal(make(stuck, seq), owner, stuck, "frame", str(seq))),
                )
                tx.execute(
                    "UPDATE turns SET status = 'error', code = 'interrupted', ended_at = ?, "
                    "first_answer_at = COALESCE(first_answer_at, ?) WHERE id = ?",
                    (self.clock(), self.clock(), stuck),
                )
                finished.append(stuck)
            self.announce(tx, finished)
        return finished

    def _append(
        self, tx: Tx, frames: Sequence[FrameRow], opens: Sequence[OpenTurn], now: float
    ) -> None:
        """Many frames (of any turns) in one transaction (``TurnStore.append_frames``:
        one writer, few commits). ``opens`` are turns whose row is written in the same
        commit as their first frame, so a turn costs no commit of its own before its
        ``start`` is out."""
        terminals = [
            (t, _end_code(t, encoded), now, now, turn_id)
            for turn_id, _, t, encoded in frames
            if t in TERMINAL_FRAMES
        ]
        answering = sorted({turn_id for turn_id, _, t, _ in frames if t in ANSWER_FRAMES})
        self._insert_turns(tx, opens, now)
        owners = {o.turn_id: o.owner for o in opens} | self._driven(
            tx, {turn_id for turn_id, *_ in frames} - {o.turn_id for o in opens}
        )
        rows = [
            (
                turn_id,
                seq,
                frame_type,
                self._seal(encoded, owners[turn_id], turn_id, "frame", str(seq)),
            )
            for turn_id, seq, frame_type, encoded in frames
        ]
        tx.executemany("INSERT INTO frames (turn_id, seq, type, body) VALUES (?, ?, ?, ?)", rows)
        # The answer's first frame, and a terminal finishing its turn, in the same commit
        # (most batches carry neither: no statement is sent for them).
        if answering:
            tx.executemany(
                "UPDATE turns SET first_answer_at = ? WHERE id = ? AND first_answer_at IS NULL",
                [(now, turn_id) for turn_id in answering],
            )
        if terminals:
            tx.executemany(
                "UPDATE turns SET status = ?, code = ?, ended_at = ?, "
                "first_answer_at = COALESCE(first_answer_at, ?) WHERE id = ?",
                terminals,
            )
        self.announce(tx, sorted({turn_id for turn_id, *_ in frames}))

    def _driven(self, tx: Tx, turn_ids: set[str]) -> dict[str, str]:
        """The owners of ``turn_ids``, each still running and driven by this process
        (rows held to the commit where the backend can); else ``TurnTaken``."""
        if not turn_ids:
            return {}
        ordered = sorted(turn_ids)
        marks = ", ".join("?" for _ in ordered)
        found = tx.execute(
            f"SELECT id, owner FROM turns WHERE id IN ({marks}) AND status = 'running' "
            f"AND worker = ?{self.lock_rows}",
            (*ordered, self.worker),
        ).fetchall()
        owners = {str(turn_id): str(owner) for turn_id, owner in found}
        taken = [turn_id for turn_id in ordered if turn_id not in owners]
        if taken:
            raise TurnTaken(taken)
        return owners

    def turn(self, turn_id: str) -> TurnRecord | None:
        row = self.read(
            lambda db: db.execute(
                "SELECT id, session_id, owner, mode, status, granted FROM turns WHERE id = ?",
                (turn_id,),
            ).fetchone()
        )
        if row is None:
            return None
        turn, session_id, owner, mode, status, stored = row
        granted = None if stored is None else split_granted(stored)
        return TurnRecord(turn, session_id, owner, mode, status, granted)

    def frames_after(self, turn_id: str, after: int) -> list[bytes]:
        return [body for _, body in self.frames_since(turn_id, after)[1]]

    def frames_since(self, turn_id: str, after: int) -> tuple[str | None, list[StoredFrame]]:
        """The turn's status and its frames with seq > ``after``. The status is read
        first: a status other than ``running`` means the terminal is among the frames."""

        def read(db: Tx) -> tuple[Any, list[Any]]:
            head = db.execute("SELECT status, owner FROM turns WHERE id = ?", (turn_id,))
            found = head.fetchone()
            rows = db.execute(
                "SELECT seq, body FROM frames WHERE turn_id = ? AND seq > ? ORDER BY seq",
                (turn_id, after),
            ).fetchall()
            return found, rows

        found, rows = self.read(read)
        if found is None:
            return None, []
        status, owner = str(found[0]), str(found[1])
        # Unsealed outside the read: the connection is not held for the decryption.
        return status, [
            (int(seq), self._unseal(body, owner, turn_id, "frame", str(seq))) for seq, body in rows
        ]


def _end_code(frame_type: str, encoded: bytes) -> str | None:
    """An error frame's code (SSE text: its ``data:`` line is the frame's JSON)."""
    if frame_type != "error":
        return None
    for line in encoded.split(b"\n"):
        if line.startswith(b"data: "):
            try:
                code = json.loads(line[6:]).get("code")
            except (ValueError, AttributeError):
                return "unreadable"
            return code if isinstance(code, str) and _CODE.fullmatch(code) else "other"
    return "unreadable"
