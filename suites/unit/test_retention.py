"""Retention on both stores: rows aged by the one clock (``BEACON_TODAY`` moves
``retention_now`` by whole days; the store's own ``clock`` stamps the records)
are pruned by their rule, and nothing younger — nor a running turn — is touched.
The expected figures are counted by hand from the records written below."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from store_samples import NARROWING, PAGE

from beacon.policy.audit import AuditRow
from beacon.store.crypto import new_key_slot, parse_keys
from beacon.store.frames import OpenTurn
from beacon.store.opening import open_store
from beacon.store.retention import (
    DAY_S,
    Figures,
    Retention,
    RetentionSettingError,
    prune,
    retention_from_env,
    retention_now,
)
from beacon.store.turns import TurnStore

HOUR_S = 3600.0


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[TurnStore]:
    location = (
        str(tmp_path / "beacon.sqlite3")
        if request.param == "sqlite"
        else request.getfixturevalue("pg_url")
    )
    opened = open_store(location, parse_keys(new_key_slot("k1")))
    yield opened
    opened.close()


def _turn(
    store: TurnStore,
    turn_id: str,
    session_id: str | None,
    at: float,
    *,
    finished: bool = True,
    feedback: bool = False,
    narrowing: bool = False,
) -> None:
    """A chat turn as the server writes one, every record stamped ``at``."""
    store.clock = lambda: at
    store.append_frames(
        [(turn_id, 1, "start", b"s")], opens=[OpenTurn(turn_id, "u", session_id, "chat")]
    )
    if not finished:
        return
    store.save_answer(
        turn_id,
        session_id=session_id,
        question=f"question of {turn_id}",
        answer=f"answer of {turn_id}",
        sources=[],
        pages={"c1": PAGE},
        audit=[
            AuditRow(
                turn_id=turn_id,
                sub="u",
                tool="search_photos",
                capability="photo_ai",
                allowed=True,
                reason="entitled",
                hint_present=False,
                at=datetime.fromtimestamp(at, UTC),
            )
        ],
        narration=[{"kind": "narration_dropped", "rule": "free_count", "token": "12"}],
        tool_calls=[
            {
                "turn_id": turn_id,
                "call_id": "call_1",
                "tool": "search_photos",
                "args_digest": "sha256:00",
                "duration_ms": 3.0,
                "verdict": "ok",
                "grade": "LOWER_BOUND",
                "returned": 20,
                "total": 20,
                "total_is_lower_bound": True,
            }
        ],
        narrowing=(session_id, NARROWING) if narrowing and session_id else None,
    )
    store.append_frames([(turn_id, 2, "delta", b"d"), (turn_id, 3, "done", b"x")])
    if feedback:
        store.save_feedback(turn_id, owner="u", rating="up", comment="thanks")


def _clock_moved(base: float, days: int) -> dict[str, str]:
    """``BEACON_TODAY`` set ``days`` after the real date of ``base``."""
    day = datetime.fromtimestamp(base, UTC).date() + timedelta(days=days)
    return {"BEACON_TODAY": day.isoformat()}


def test_turns_aged_by_the_clock_are_pruned_and_nothing_younger_is_touched(
    store: TurnStore,
) -> None:
    base = time.time()
    _turn(store, "old1", "s_old", base, feedback=True, narrowing=True)
    _turn(store, "old2", "s_mixed", base, narrowing=True)
    _turn(store, "stuck", None, base, finished=False)  # still running: never pruned
    _turn(store, "young", "s_mixed", base + 200 * DAY_S)
    _turn(store, "dayold", "s_day", base + 364 * DAY_S)
    _turn(store, "fresh", "s_fresh", base + 366 * DAY_S - HOUR_S, feedback=True)
    env = _clock_moved(base, 366)  # now ≈ base + 366 days: base is a year and a day old

    def now() -> float:
        return retention_now(env)

    assert 365 * DAY_S < now() - base < 367 * DAY_S
    rules = Retention(batch=1)  # one row a transaction: every loop runs many times

    dry = prune(store, rules, dry_run=True, now=now)
    expected_aged = {
        "sessions": 1,  # s_old (s_mixed keeps its young turn)
        "turns": 2,  # old1, old2 (stuck is running)
        "frames": 6,
        "answers": 2,
        "messages": 4,
        "pages": 4,  # every turn's but fresh's: 24 hours after their turn
        "feedback": 1,
        "narrowing": 1,
        "audit": 2,
        "narration_audit": 2,
        "tool_calls": 2,
    }
    totals = {
        "sessions": 4,
        "turns": 6,
        "frames": 16,
        "answers": 5,
        "messages": 10,
        "pages": 5,
        "feedback": 2,
        "narrowing": 2,
        "audit": 5,
        "narration_audit": 5,
        "tool_calls": 5,
    }
    assert dry.tables == {t: Figures(n, n, totals[t] - n) for t, n in expected_aged.items()}, (
        "dry run"
    )
    assert store.turn("old1") is not None and store.page_slots("old1") == ["c1"]

    done = prune(store, rules, now=now)
    assert done.ran and not done.dry_run
    assert done.tables == {t: Figures(n, n, totals[t] - n) for t, n in expected_aged.items()}

    # What aged is gone …
    assert store.turn("old1") is None and store.turn("old2") is None
    assert store.frames_after("old1", 0) == [] and store.answer("old2") is None
    assert store.session_owner("s_old") is None and store.load_narrowing("s_old") is None
    assert store.feedback("old1") is None
    assert store.audit_rows("old1") == [] and store.tool_calls("old2") == []
    assert store.narration_drops("old1") == []
    assert store.page_slots("young") == [] and store.page_slots("dayold") == []
    # … and nothing younger (nor the running turn) is touched.
    assert store.turn("stuck") is not None and store.frames_after("stuck", 0) == [b"s"]
    assert store.session_owner("s_mixed") == "u"
    assert store.load_narrowing("s_mixed") == NARROWING
    assert [(m.turn_id, m.role) for m in store.transcript("s_mixed")] == [
        ("young", "user"),
        ("young", "assistant"),
    ]
    for kept in ("young", "dayold", "fresh"):
        assert store.frames_after(kept, 0) == [b"s", b"d", b"x"]
        assert store.answer(kept) == (f"answer of {kept}", [])
        assert len(store.audit_rows(kept)) == 1 and len(store.tool_calls(kept)) == 1
        assert store.narration_drops(kept)[0]["token"] == "12"
    assert store.page_slots("fresh") == ["c1"] and store.feedback("fresh") == ("up", "thanks")

    again = prune(store, rules, now=now)
    assert all(f.aged == f.pruned == 0 for f in again.tables.values())


def test_without_a_moved_clock_nothing_a_year_old_or_younger_is_pruned(store: TurnStore) -> None:
    base = time.time()
    _turn(store, "t1", "s1", base - 364 * DAY_S)
    done = prune(store, Retention(), now=lambda: retention_now({}))
    assert done.tables["turns"] == Figures(0, 0, 1)
    assert done.tables["pages"] == Figures(1, 1, 0)  # 24 hours after its turn
    assert store.answer("t1") is not None and store.session_owner("s1") == "u"


def test_retention_settings_are_read_from_the_environment_and_refused_when_malformed() -> None:
    assert retention_from_env({}) == Retention(365, 365, 24, 3600, 200)
    assert retention_from_env(
        {
            "BEACON_RETAIN_TURNS_DAYS": "30",
            "BEACON_RETAIN_PAGES_HOURS": "2",
            "BEACON_PRUNE_BATCH": "50",
        }
    ) == Retention(30, 365, 2, 3600, 50)
    for bad in (
        {"BEACON_RETAIN_AUDIT_DAYS": "0"},
        {"BEACON_PRUNE_BATCH": "1.5"},
        {"BEACON_RETAIN_TURNS_DAYS": "a year"},
    ):
        with pytest.raises(RetentionSettingError, match=next(iter(bad))):
            retention_from_env(bad)
    assert "sessions and turns 365 days" in Retention().describe()


def test_one_pass_at_a_time_prunes_a_shared_store(pg_url: str) -> None:
    first, second = (open_store(pg_url, parse_keys(new_key_slot("k1"))) for _ in range(2))
    try:
        with first.prune_hold() as held:
            assert held
            assert not prune(second, Retention()).ran  # the other process's pass is skipped
        assert prune(second, Retention()).ran
    finally:
        first.close()
        second.close()


def test_a_pass_stops_after_the_batch_in_hand_when_asked(store: TurnStore) -> None:
    base = time.time()
    for n in range(3):
        _turn(store, f"t{n}", None, base)
    stop = threading.Event()
    stop.set()
    done = prune(
        store, Retention(batch=1), now=lambda: retention_now(_clock_moved(base, 400)), stop=stop
    )
    assert done.tables["turns"].pruned == 1 and done.tables["turns"].kept == 2
