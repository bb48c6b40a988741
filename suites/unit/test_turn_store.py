"""The turn store keeps content sealed, opens old records after a key rotation,
never returns a tampered record as text, and saves a turn whole or not at all —
on SQLite and on PostgreSQL alike (each test runs on both; what only one backend
does is in ``test_turn_store_sqlite.py`` and ``test_turn_store_postgres.py``)."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import psycopg
import pytest

from beacon.adjudication import GateState, Grade
from beacon.policy.audit import AuditRow
from beacon.store.crypto import format_key, generate_key, parse_keys
from beacon.store.errors import (
    KeyringError,
    SealedReason,
    SealedRecordError,
    StoreError,
    TurnTaken,
)
from beacon.store.frames import OpenTurn
from beacon.store.opening import open_store
from beacon.store.records import (
    AnswerRows,
    NarrowingRecord,
    PageRecord,
    SaveFailed,
    SessionNotOwned,
)
from beacon.store.turns import TurnStore

SECRET_PAGE = PageRecord(
    tool="search_photos",
    arguments={"query": "secret page"},
    cursor=None,
    pages=(),
    shown=(),
    grade=Grade.EXACT,
    has_more=False,
    total=0,
)
K1, K2 = format_key("k1", generate_key()), format_key("k2", generate_key())
# Every table that holds sealed content, with its sealed column(s).
SEALED = {
    "frames": ("body",),
    "answers": ("body", "sources"),
    "messages": ("body",),
    "narrowing": ("body",),
    "pages": ("body",),
    "feedback": ("body",),
    "narration_audit": ("token",),  # the dropped phrase: the model's or the user's words
}


class Backend:
    """Opens stores on one database and reaches under them, as an attacker or a
    full disk would."""

    def __init__(self, location: str) -> None:
        self.location = location
        self.opened: list[TurnStore] = []

    def store(self, spec: str = K1) -> TurnStore:
        self.opened.append(open_store(self.location, parse_keys(spec)))
        return self.opened[-1]

    def sql(self, statement: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        if self.location.startswith("postgresql://"):
            with psycopg.connect(self.location, autocommit=True) as conn:
                cursor = conn.execute(statement.replace("?", "%s"), params)
                return list(cursor.fetchall()) if cursor.description else []
        db = sqlite3.connect(self.location, isolation_level=None)
        try:
            return list(db.execute(statement, params).fetchall())
        finally:
            db.close()

    def refuse_messages(self) -> None:
        """The database refuses every transcript row from now on."""
        if self.location.startswith("postgresql://"):
            self.sql(
                "CREATE FUNCTION refuse() RETURNS trigger AS "
                "$$ BEGIN RAISE EXCEPTION 'full'; END $$ LANGUAGE plpgsql"
            )
            self.sql(
                "CREATE TRIGGER no_messages BEFORE INSERT ON messages "
                "FOR EACH ROW EXECUTE FUNCTION refuse()"
            )
        else:
            self.sql(
                "CREATE TRIGGER no_messages BEFORE INSERT ON messages "
                "BEGIN SELECT RAISE(ABORT, 'full'); END"
            )


@pytest.fixture(params=["sqlite", "postgresql"])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Backend]:
    if request.param == "sqlite":
        opened = Backend(str(tmp_path / "beacon.sqlite3"))
    else:
        opened = Backend(request.getfixturevalue("pg_url"))
    yield opened
    for store in opened.opened:
        store.close()


def test_records_sealed_under_a_retired_key_still_open(backend: Backend) -> None:
    old = backend.store(K1)
    old.open_turn("t1", owner="u", session_id="s1", mode="chat")
    old.save_answer("t1", session_id="s1", question="q?", answer="exactly 24.", sources=[])
    rotated = backend.store(f"{K2},{K1}")  # k2 active, k1 retired but readable
    rotated.open_turn("t2", owner="u", session_id="s1", mode="chat")
    rotated.save_answer(
        "t2",
        session_id="s1",
        question="again?",
        answer="at least 3,000.",
        sources=[{"id": "cap-1"}],
    )
    texts = [m.text for m in rotated.transcript("s1")]
    assert texts == ["q?", "exactly 24.", "again?", "at least 3,000."]
    assert rotated.answer("t2") == ("at least 3,000.", [{"id": "cap-1"}])


def test_content_is_not_stored_in_the_clear(backend: Backend) -> None:
    kept = backend.store()
    kept.open_turn("t1", owner="u", session_id="s1", mode="chat")
    kept.append_frames([("t1", 1, "start", b"secret frame")])
    kept.save_answer(
        "t1",
        session_id="s1",
        question="secret question",
        answer="secret answer",
        sources=[{"title": "secret source"}],
        pages={"search#1": SECRET_PAGE},
        narrowing=("s1", NarrowingRecord(state=GateState.OFFERED, tool="secret narrowing")),
        narration=[{"kind": "narration_dropped", "rule": "free_count", "token": "secret phrase"}],
    )
    kept.save_feedback("t1", owner="u", rating="down", comment="secret comment")
    for table, columns in SEALED.items():
        rows = backend.sql(f"SELECT {', '.join(columns)} FROM {table}")
        assert rows, table
        stored = [v.encode() if isinstance(v, str) else bytes(v) for row in rows for v in row]
        assert all(b"secret" not in value for value in stored), table
    assert kept.feedback("t1") == ("down", "secret comment")
    assert kept.narration_drops("t1") == [
        {"kind": "narration_dropped", "rule": "free_count", "token": "secret phrase"}
    ]


def test_a_narration_row_of_no_audit_kind_is_refused_with_the_whole_answer(
    backend: Backend,
) -> None:
    kept = backend.store()
    kept.open_turn("t1", owner="u", session_id=None, mode="single")
    with pytest.raises(ValueError, match="dropped"):
        kept.save_answer(
            "t1",
            session_id=None,
            question="q",
            answer="a",
            sources=[],
            narration=[{"kind": "dropped", "rule": "free_count", "token": "x"}],
        )
    assert kept.answer("t1") is None  # nothing of it was saved
    assert kept.narration_drops("t1") == []


def test_a_tampered_record_is_an_error_never_garbage(backend: Backend) -> None:
    kept = backend.store()
    kept.open_turn("t1", owner="u", session_id=None, mode="single")
    kept.save_answer("t1", session_id=None, question="q", answer="exactly 24.", sources=[])
    ((body,),) = backend.sql("SELECT body FROM answers")
    flipped = bytes(body[:-1]) + bytes([body[-1] ^ 1])
    backend.sql("UPDATE answers SET body = ?", (flipped,))
    with pytest.raises(SealedRecordError):
        kept.answer("t1")


def test_a_session_cannot_be_continued_by_someone_else(backend: Backend) -> None:
    kept = backend.store()
    kept.open_turn("t1", owner="alice", session_id="s1", mode="chat")
    with pytest.raises(SessionNotOwned):
        kept.open_turn("t2", owner="mallory", session_id="s1", mode="chat")
    assert kept.turn("t2") is None


def test_a_database_that_refuses_the_answer_raises_save_failed(backend: Backend) -> None:
    kept = backend.store()
    kept.open_turn("t1", owner="u", session_id="s1", mode="chat")
    backend.refuse_messages()
    with pytest.raises(SaveFailed):
        kept.save_answer("t1", session_id="s1", question="q", answer="a", sources=[])
    assert kept.answer("t1") is None  # one transaction: no half-saved turn


def test_a_terminal_frame_finishes_its_turn_in_the_same_commit(backend: Backend) -> None:
    kept = backend.store()
    kept.open_turn("t1", owner="u", session_id=None, mode="single")
    kept.append_frames([("t1", 1, "start", b"a"), ("t1", 2, "error", b"b")])
    record = kept.turn("t1")
    assert record is not None and record.status == "error"
    assert kept.frames_after("t1", 0) == [b"a", b"b"]
    assert kept.frames_since("t1", 1) == ("error", [(2, b"b")])


def test_a_turn_row_rides_in_the_commit_of_its_first_frames(backend: Backend) -> None:
    kept = backend.store()
    kept.append_frames(
        [("t1", 1, "start", b"a")], opens=[OpenTurn("t1", "u", session_id="s1", mode="chat")]
    )
    record = kept.turn("t1")
    assert record is not None and (record.owner, record.status) == ("u", "running")
    assert kept.session_owner("s1") == "u"
    # A refused batch leaves neither the turn nor its frames.
    with pytest.raises(SessionNotOwned):
        kept.append_frames(
            [("t2", 1, "start", b"b")], opens=[OpenTurn("t2", "eve", session_id="s1", mode="chat")]
        )
    assert kept.turn("t2") is None and kept.frames_after("t2", 0) == []


def test_an_answer_is_stored_in_the_commit_of_the_frames_that_publish_it(
    backend: Backend,
) -> None:
    kept = backend.store()
    kept.append_frames(
        [("t1", 1, "start", b"a")], opens=[OpenTurn("t1", "u", session_id="s1", mode="chat")]
    )
    rows = AnswerRows("t1", "how many?", "Twelve.", session_id="s1", sources=[{"id": "f1"}])
    kept.append_frames([("t1", 2, "delta", b"b"), ("t1", 3, "done", b"c")], answers=[rows])
    assert kept.answer("t1") == ("Twelve.", [{"id": "f1"}])
    assert [(m.role, m.text) for m in kept.transcript("s1")] == [
        ("user", "how many?"),
        ("assistant", "Twelve."),
    ]
    record = kept.turn("t1")
    assert record is not None and record.status == "done"


def test_a_refused_answer_takes_its_frames_with_it_and_refused_frames_their_answer(
    backend: Backend,
) -> None:
    kept = backend.store()
    for turn_id in ("t1", "t2"):
        kept.append_frames(
            [(turn_id, 1, "start", b"a")],
            opens=[OpenTurn(turn_id, "u", session_id=f"s-{turn_id}", mode="chat")],
        )
    # The transcript refuses the answer: neither its sentences nor its `done` are stored.
    backend.refuse_messages()
    refused = AnswerRows("t1", "q", "Twelve.", session_id="s-t1")
    with pytest.raises((sqlite3.Error, psycopg.Error)):
        kept.append_frames([("t1", 2, "delta", b"b"), ("t1", 3, "done", b"c")], answers=[refused])
    assert kept.frames_after("t1", 0) == [b"a"] and kept.answer("t1") is None
    # Another process ended t2 meanwhile: its frames are refused, and its answer with them.
    backend.sql("UPDATE turns SET status = 'error' WHERE id = 't2'")
    taken = AnswerRows("t2", "q", "Seven.")  # single-mode rows: no transcript line
    with pytest.raises(TurnTaken):
        kept.append_frames([("t2", 2, "delta", b"b"), ("t2", 3, "done", b"c")], answers=[taken])
    assert kept.frames_after("t2", 0) == [b"a"] and kept.answer("t2") is None


def test_a_running_turn_of_a_stopped_store_is_interrupted_once(backend: Backend) -> None:
    first = backend.store()
    first.open_turn("t1", owner="u", session_id=None, mode="single")
    first.append_frames([("t1", 1, "start", b"a")])
    first.close()  # the process that drove t1 is gone
    second = backend.store()
    error: Callable[[str, int], bytes] = lambda turn, seq: f"error {turn} {seq}".encode()  # noqa: E731
    assert second.interrupt_running(error) == ["t1"]
    assert second.interrupt_running(error) == []  # once
    assert second.frames_since("t1", 0) == ("error", [(1, b"a"), (2, b"error t1 2")])


def test_a_turn_its_own_live_store_drives_is_never_interrupted(backend: Backend) -> None:
    kept = backend.store()
    kept.open_turn("t1", owner="u", session_id=None, mode="single")
    assert kept.interrupt_running(lambda turn, seq: b"x", "t1") == []
    record = kept.turn("t1")
    assert record is not None and record.status == "running"


def test_a_closed_store_refuses_work(backend: Backend) -> None:
    kept = backend.store()
    kept.close()
    with pytest.raises(StoreError):
        kept.open_turn("t1", owner="u", session_id=None, mode="single")
    with pytest.raises(StoreError):
        kept.turn("t1")


def test_audit_rows_keep_their_order_and_flags(backend: Backend) -> None:
    kept = backend.store()
    at = datetime(2026, 3, 1, 12, tzinfo=UTC)
    row = AuditRow("t1", "u", "search_photos", None, True, "r", False, at)
    kept.record_audit([row, replace(row, tool="query_data", allowed=False, hint_present=True)])
    rows = kept.audit_rows("t1")
    assert [(r.tool, r.allowed, r.hint_present) for r in rows] == [
        ("search_photos", True, False),
        ("query_data", False, True),
    ]


def test_a_turn_handed_to_another_owner_does_not_open(backend: Backend) -> None:
    kept = backend.store()
    kept.open_turn("t1", owner="alice", session_id="s1", mode="chat")
    kept.append_frames([("t1", 1, "start", b"alice's frame")])
    kept.save_answer("t1", session_id="s1", question="mine?", answer="yes.", sources=[])
    # An attacker with write access to the rows, not the keys, re-owns them.
    backend.sql("UPDATE turns SET owner = 'mallory'")
    backend.sql("UPDATE sessions SET owner = 'mallory'")
    reader = backend.store()
    for read in (
        lambda: reader.frames_after("t1", 0),
        lambda: reader.answer("t1"),
        lambda: reader.transcript("s1"),
    ):
        with pytest.raises(SealedRecordError) as refused:
            read()
        assert refused.value.reason is SealedReason.AUTHENTICATION_FAILED


def test_frames_for_a_turn_another_process_finished_are_refused_whole(backend: Backend) -> None:
    driver = backend.store()
    driver.open_turn("t1", owner="u", session_id=None, mode="single")
    driver.open_turn("t2", owner="u", session_id=None, mode="single")
    driver.append_frames([("t1", 1, "start", b"one"), ("t2", 1, "start", b"two")])
    # Another process found this one's lock gone and finished t1 with its terminal.
    backend.sql("UPDATE turns SET status = 'error' WHERE id = 't1'")
    with pytest.raises(TurnTaken) as taken:
        driver.append_frames([("t1", 2, "delta", b"late"), ("t2", 2, "delta", b"fine")])
    assert taken.value.turn_ids == ["t1"]
    assert driver.frames_after("t2", 0) == [b"two"]  # nothing of the batch was written
    driver.append_frames([("t2", 2, "delta", b"fine")])
    assert driver.frames_after("t2", 0) == [b"two", b"fine"]


def test_a_key_ring_that_opens_none_of_the_recent_turns_is_refused_at_start(
    backend: Backend,
) -> None:
    first = backend.store(K1)
    for n in range(3):
        first.open_turn(f"t{n}", owner="u", session_id=None, mode="single")
        first.append_frames([(f"t{n}", 1, "start", b"sealed under k1")])
    first.check_keys()
    stranger = backend.store(K2)
    with pytest.raises(KeyringError) as refused:
        stranger.check_keys()
    assert "BEACON_KEYS opens 0 of the 3 most recent turns" in str(refused.value)
    backend.store(f"{K2},{K1}").check_keys()  # a rotated ring still holds k1


def test_a_dead_turn_sealed_under_keys_this_process_lacks_is_left_alone(
    backend: Backend,
) -> None:
    dead = backend.store(K1)
    dead.open_turn("t1", owner="u", session_id=None, mode="single")
    dead.append_frames([("t1", 1, "start", b"k1 frame")])
    dead.close()
    stranger = backend.store(K2)
    assert stranger.interrupt_running(lambda turn_id, seq: b"interrupted") == []
    keeper = backend.store(K1)
    assert keeper.interrupt_running(lambda turn_id, seq: b"interrupted") == ["t1"]
    assert keeper.frames_after("t1", 0) == [b"k1 frame", b"interrupted"]
