"""The durable record of turns: ``TurnStore``, every record rule once, over a
backend's hooks (``beacon.store.backends.Backend``).

The rules live by what they keep — ``frames.py`` (a turn's row and frames),
``sessions.py`` (transcript, narrowing), ``pages.py`` (load-more records),
``audit_rows.py`` (the analyst's rows), on ``core.py`` (keys, sealing, reads) —
and meet here, where an answer is saved whole in one commit. Two backends:
SQLite (``sqlite.py``: embedded, one writing process) and PostgreSQL
(``postgres.py``: several server processes on one database, with live followers
told of new frames by NOTIFY).

A backend turns a lost connection into ``StoreUnavailable``; reads are tried
once more after one (the pool hands out a checked connection the second time).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import Any, TypeVar

import anyio

from beacon.policy.audit import AuditRow
from beacon.store.audit_rows import AuditRecords
from beacon.store.backends import Tx
from beacon.store.frames import FrameRow, OpenTurn, TurnFrames
from beacon.store.pages import PageRecords
from beacon.store.records import AnswerRows, NarrowingRecord, PageRecord, SaveFailed
from beacon.store.sessions import SessionRecords

T = TypeVar("T")


class TurnStore(TurnFrames, SessionRecords, PageRecords, AuditRecords):
    """Every record rule, over a backend's transactions."""

    def save_answer(
        self,
        turn_id: str,
        *,
        session_id: str | None,
        question: str,
        answer: str,
        sources: Sequence[dict[str, Any]],
        pages: Mapping[str, PageRecord] | None = None,
        audit: Sequence[AuditRow] = (),
        narrowing: tuple[str, NarrowingRecord | None] | None = None,
        narration: Sequence[Mapping[str, str]] = (),
        tool_calls: Sequence[Mapping[str, Any]] = (),
    ) -> None:
        """An answer's rows (``AnswerRows``) in a commit of their own. A turn's answer
        is not saved this way but with the frames that publish it (``append_frames``)."""
        rows = AnswerRows(
            turn_id,
            question,
            answer,
            session_id,
            sources,
            pages or {},
            audit,
            narrowing,
            narration,
            tool_calls,
        )
        try:
            with self.transaction() as tx:
                self._write_answer(tx, rows, self.clock())
        except self._save_errors() as exc:
            raise SaveFailed(f"the answer could not be saved: {exc}") from exc

    def append_frames(
        self,
        frames: Sequence[FrameRow],
        opens: Sequence[OpenTurn] = (),
        answers: Sequence[AnswerRows] = (),
    ) -> None:
        """Frames (of any turns: ``TurnFrames._append``) and the answers they publish, in
        one commit: an answer is stored exactly when its frames are, so a turn that did
        not end in ``done`` leaves no answer, transcript line or narrowing step behind."""
        now = self.clock()
        with self.transaction() as tx:
            self._append(tx, frames, opens, now)
            for rows in answers:
                self._write_answer(tx, rows, now)

    def _write_answer(self, tx: Tx, rows: AnswerRows, now: float) -> None:
        """The answer's body and sources — with the transcript (chat mode), the load-more
        pages, the turn's audit rows (the PEP's, the narration's: every dropped sentence
        and slot verdict, ``{kind, rule, token}``, and one ``tool_calls`` row per call)
        and the session's narrowing."""
        turn_id = rows.turn_id
        owner = self._owner_of_turn(tx, turn_id)
        if owner is None:
            raise SaveFailed("the answer could not be saved: its turn is not stored")
        tx.execute(
            "INSERT INTO answers (turn_id, body, sources, saved_at) VALUES (?, ?, ?, ?)",
            (
                turn_id,
                self._seal(rows.answer, owner, turn_id, "answer"),
                self._seal(json.dumps(list(rows.sources)), owner, turn_id, "sources"),
                now,
            ),
        )
        if rows.session_id is not None:
            lines = (("user", rows.question), ("assistant", rows.answer))
            self._write_transcript(tx, rows.session_id, turn_id, owner, lines, now)
        for slot, record in rows.pages.items():
            self._write_pages(tx, turn_id, slot, record, owner)
        self._write_audit(tx, rows.audit)
        self._write_tool_calls(tx, rows.tool_calls, now)
        self._write_narration(tx, turn_id, owner, rows.narration, now)
        if rows.narrowing is not None:
            self._write_narrowing(tx, *rows.narrowing)

    def answer(self, turn_id: str) -> tuple[str, list[dict[str, Any]]] | None:
        row = self.read(
            lambda db: db.execute(
                "SELECT a.body, a.sources, t.owner FROM answers a JOIN turns t "
                "ON t.id = a.turn_id WHERE a.turn_id = ?",
                (turn_id,),
            ).fetchone()
        )
        if row is None:
            return None
        owner = str(row[2])
        body = self._unseal_text(row[0], owner, turn_id, "answer")
        sources = self._unseal_text(row[1], owner, turn_id, "sources")
        return body, json.loads(sources)

    def save_feedback(self, turn_id: str, *, owner: str, rating: str, comment: str) -> None:
        """The user's verdict on an answer; the comment is content, so it is sealed."""
        with self.transaction() as tx:
            owner = self._owner_of_turn(tx, turn_id) or owner
            body = self._seal(comment, owner, turn_id, "feedback")
            tx.execute(
                "INSERT INTO feedback (turn_id, owner, rating, body, at) VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT (turn_id) DO UPDATE SET owner = excluded.owner, "
                "rating = excluded.rating, body = excluded.body, at = excluded.at",
                (turn_id, owner, rating, body, self.clock()),
            )

    def feedback(self, turn_id: str) -> tuple[str, str] | None:
        row = self.read(
            lambda db: db.execute(
                "SELECT f.rating, f.body, t.owner FROM feedback f JOIN turns t "
                "ON t.id = f.turn_id WHERE f.turn_id = ?",
                (turn_id,),
            ).fetchone()
        )
        if row is None:
            return None
        return str(row[0]), self._unseal_text(row[1], str(row[2]), turn_id, "feedback")


async def call_write(store: TurnStore, write: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
    """Run one of ``store``'s writes where that backend's writes belong: on the event
    loop for an embedded database, in a worker thread for one across a socket."""
    if store.writes_on_loop:
        return write(*args, **kwargs)
    return await anyio.to_thread.run_sync(partial(write, *args, **kwargs))
