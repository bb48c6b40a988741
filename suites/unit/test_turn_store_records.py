"""The store's sealed records come back as the frozen types they were saved as,
and one that opens but does not parse is ``record_unreadable`` — never a dict with
a key missing further on (SQLite and PostgreSQL alike)."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import psycopg
import pytest

from beacon.adjudication import GateState, Grade
from beacon.policy.audit import AuditRow
from beacon.store.crypto import Keyring, format_key, generate_key, parse_keys, record_context, seal
from beacon.store.errors import SealedReason, SealedRecordError
from beacon.store.frames import OpenTurn
from beacon.store.opening import open_store
from beacon.store.records import NarrowingOption, NarrowingRecord, PageRecord
from beacon.store.turns import TurnStore
from beacon.wire.accounting import PageSummary

RING: Keyring = parse_keys(format_key("k1", generate_key()))
PAGE = PageRecord(
    tool="search_photos",
    arguments={"project_id": "prj-harbor-tower", "query": "hard hats"},
    cursor="c2",
    pages=(PageSummary(total=173, bound=True, ids=("ph-1", "ph-2"), has_more=True, returned=2),),
    shown=("ph-1",),
    pending=(["ph-2", "Hard hat", None, "Level 3", None],),
    grade=Grade.LOWER_BOUND,
    has_more=True,
    total=173,
    locale="de",
    scope={"applied": [], "unapplied": []},
    anchors=({"kind": "stitch_discarded", "slot": "c1"},),
)
NARROWING = NarrowingRecord(
    state=GateState.OFFERED,
    tool="query_data",
    arguments={"project_id": "prj-harbor-tower"},
    scope={},
    options=(
        NarrowingOption(
            label="March 2026",
            reply="Only March 2026",
            recommended=True,
            scope={"date_from": "2026-03-01", "date_to": "2026-03-31"},
        ),
    ),
)
AUDIT = AuditRow(
    turn_id="t1",
    sub="u",
    tool="search_photos",
    capability="photo_ai",
    allowed=False,
    reason="tier",
    hint_present=True,
    at=datetime(2026, 3, 1, 12, 30, tzinfo=UTC),
)


class Database:
    def __init__(self, location: str) -> None:
        self.location = location
        self.store: TurnStore = open_store(location, RING)

    def sql(self, statement: str, params: tuple[Any, ...] = ()) -> None:
        if self.location.startswith("postgresql://"):
            with psycopg.connect(self.location, autocommit=True) as conn:
                conn.execute(statement.replace("?", "%s"), params)
            return
        db = sqlite3.connect(self.location, isolation_level=None)
        try:
            db.execute(statement, params)
        finally:
            db.close()


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Database]:
    location = (
        str(tmp_path / "beacon.sqlite3")
        if request.param == "sqlite"
        else request.getfixturevalue("pg_url")
    )
    opened = Database(location)
    opened.store.append_frames(
        [("t1", 1, "start", b"s")], opens=[OpenTurn("t1", "u", "s1", "chat")]
    )
    opened.store.save_answer(
        "t1",
        session_id="s1",
        question="q",
        answer="a",
        sources=[],
        pages={"c1": PAGE},
        audit=[AUDIT],
        narrowing=("s1", NARROWING),
    )
    yield opened
    opened.store.close()


def _unreadable(read: Any) -> None:
    with pytest.raises(SealedRecordError) as refused:
        read()
    assert refused.value.code == "record_unreadable"
    assert refused.value.reason is SealedReason.MALFORMED_RECORD


def test_a_page_record_comes_back_as_it_was_saved(database: Database) -> None:
    assert database.store.load_page_record("t1", "c1") == PAGE


def test_a_narrowing_record_comes_back_as_it_was_saved(database: Database) -> None:
    assert database.store.load_narrowing("s1") == NARROWING


def test_an_audit_row_comes_back_as_the_pep_wrote_it(database: Database) -> None:
    assert database.store.audit_rows("t1") == [AUDIT]


def test_a_page_record_that_opens_but_does_not_parse_is_unreadable(database: Database) -> None:
    # Sealed under the right key and place: only its shape is wrong (no tool).
    body = seal(RING, '{"cursor": "c2"}', context=record_context("u", "t1", "pages", "c1"))
    database.sql("UPDATE pages SET body = ? WHERE turn_id = ?", (body, "t1"))
    _unreadable(lambda: database.store.load_page_record("t1", "c1"))


def test_a_narrowing_record_that_opens_but_does_not_parse_is_unreadable(
    database: Database,
) -> None:
    body = seal(RING, '{"state": "nowhere"}', context=record_context("u", "s1", "narrowing"))
    database.sql("UPDATE narrowing SET body = ? WHERE session_id = ?", (body, "s1"))
    _unreadable(lambda: database.store.load_narrowing("s1"))


def test_an_audit_row_whose_time_does_not_parse_is_unreadable(database: Database) -> None:
    database.sql("UPDATE audit SET at = ? WHERE turn_id = ?", ("yesterday", "t1"))
    _unreadable(lambda: database.store.audit_rows("t1"))


def test_a_record_saved_before_the_turns_total_was_kept_takes_its_first_pages() -> None:
    legacy = PAGE.model_dump(mode="json", exclude={"total"})
    assert PageRecord.model_validate(legacy).total == 173
