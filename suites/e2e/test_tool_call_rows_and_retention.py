"""Over real HTTP, on SQLite and on PostgreSQL: a turn leaves one ``tool_calls`` row
per call (digest, duration, envelope verdict, grade — never the arguments), a
session the retention prune removed is a 404 like any missing one, and the
server's own pruning task, running in small batches beside live turns, removes
what aged and loses nothing of the turns in flight."""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest

from beacon.adjudication import Grade
from beacon.store.crypto import new_key_slot, parse_keys
from beacon.store.frames import OpenTurn
from beacon.store.opening import open_store
from beacon.store.records import PageRecord
from harness.chat_process import chat_env, chat_process
from harness.stack import Stack, beacon_executable
from harness.turn_streams import PANORAMAS, auth, events, frames_of, post, turn_id_of

# A load-more record of an aged turn: the pruner removes it with its turn.
OLD_PAGE = PageRecord(
    tool="list_projects",
    arguments={},
    cursor=None,
    pages=(),
    shown=(),
    grade=Grade.EXACT,
    has_more=False,
    total=0,
)

pytestmark = [pytest.mark.e2e, pytest.mark.xdist_group("postgres-e2e"), pytest.mark.timeout(300)]
DAY_S = 86_400.0
PHOTOS = "Show me photos of rebar in Harbor Tower"


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return str(tmp_path / "beacon.sqlite3")
    return str(request.getfixturevalue("pg_url"))


def _rows(db: str, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    if db.startswith("postgresql://"):
        with psycopg.connect(db, autocommit=True) as conn:
            return list(conn.execute(sql.replace("?", "%s"), params).fetchall())
    conn = sqlite3.connect(db)
    try:
        return list(conn.execute(sql, params).fetchall())
    finally:
        conn.close()


def _digest(arguments: dict[str, Any]) -> str:
    canonical = json.dumps(arguments, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return "sha256:" + hashlib.sha256(canonical.encode()).hexdigest()


def _values(arguments: object) -> Iterator[str]:
    if isinstance(arguments, dict):
        for value in arguments.values():
            yield from _values(value)
    elif isinstance(arguments, list):
        for value in arguments:
            yield from _values(value)
    elif arguments is not None and not isinstance(arguments, bool):
        yield str(arguments)


def test_a_real_turn_over_http_leaves_tool_call_rows_with_no_argument_content(
    stack: Stack, db: str, tmp_path: Path
) -> None:
    env = chat_env(stack, tmp_path, BEACON_DB=db)
    token = stack.token(sub="analyst-rows")
    with chat_process(env) as (url, _):
        ok = post(url, token, PANORAMAS)
        disguised = httpx.post(
            f"{url}/v1/turns",
            json={"mode": "single", "message": PHOTOS},
            headers=auth(token, "inband-502"),
            timeout=120,
        )
    for reply in (ok, disguised):
        assert reply.status_code == 200
        frames = frames_of(reply.content)
        turn_id = turn_id_of(reply)
        calls = [f.json() for f in frames if f.event == "tool_call"]
        results = {f.json()["call_id"]: f.json() for f in frames if f.event == "tool_result"}
        assert calls, [f.event for f in frames]
        rows = _rows(
            db,
            "SELECT call_id, tool, args_digest, duration_ms, verdict, grade, returned, total "
            "FROM tool_calls WHERE turn_id = ? ORDER BY at, call_id",
            (turn_id,),
        )
        by_call = {r[0]: r for r in rows}
        assert set(by_call) == {c["call_id"] for c in calls}
        for call in calls:
            call_id, tool, digest, ms, verdict, grade, returned, _ = by_call[call["call_id"]]
            shown = results[call_id]
            assert tool == call["tool"] and digest == _digest(call["arguments"])
            assert ms is not None and ms > 0
            assert grade == shown["grade"] and returned == shown["returned"]
            assert verdict == ("disguised_failure" if shown["status"] == "failure" else "ok")
            # Nothing the caller or the planner wrote into the arguments is in the row.
            row_text = json.dumps(by_call[call_id], default=str)
            for value in _values(call["arguments"]):
                if len(value) >= 3:
                    assert value not in row_text, (value, row_text)
        ended = _rows(
            db,
            "SELECT status, first_answer_at, ended_at, created_at FROM turns WHERE id = ?",
            (turn_id,),
        )
        status, first, end, created = ended[0]
        assert status == "done" and created <= first <= end
    verdicts = {
        r[0]
        for r in _rows(
            db, "SELECT verdict FROM tool_calls WHERE turn_id = ?", (turn_id_of(disguised),)
        )
    }
    assert "disguised_failure" in verdicts, verdicts


def _prune(db: str, keys: str, days_ahead: int, *extra: str) -> str:
    import subprocess

    day = (datetime.now(UTC).date() + timedelta(days=days_ahead)).isoformat()
    done = subprocess.run(
        [beacon_executable(), "store", "prune", "--db", db, *extra],
        env={"PATH": "/usr/bin:/bin", "BEACON_TODAY": day, "BEACON_KEYS": keys},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_a_pruned_session_is_a_404_like_any_missing_one(
    stack: Stack, db: str, tmp_path: Path
) -> None:
    env = chat_env(stack, tmp_path, BEACON_DB=db)
    token = stack.token(sub="retained")
    with chat_process(env) as (url, _):
        first = post(url, token, PANORAMAS, mode="chat")
        session_id = frames_of(first.content)[0].json()["session_id"]
        turn_id = turn_id_of(first)
        assert (
            httpx.get(
                f"{url}/v1/sessions/{session_id}", headers=auth(token), timeout=10
            ).status_code
            == 200
        )
        missing = httpx.get(f"{url}/v1/sessions/s_{'0' * 20}", headers=auth(token), timeout=10)
        assert missing.status_code == 404

        # A year on, nothing has aged: the session stays.
        assert "turns                   0            0" in _prune(db, env["BEACON_KEYS"], 364)
        assert (
            httpx.get(
                f"{url}/v1/sessions/{session_id}", headers=auth(token), timeout=10
            ).status_code
            == 200
        )

        figures = _prune(db, env["BEACON_KEYS"], 366)
        assert "sessions                1            1        0" in figures, figures
        assert "turns                   1            1        0" in figures, figures
        gone = httpx.get(f"{url}/v1/sessions/{session_id}", headers=auth(token), timeout=10)
        assert (gone.status_code, gone.json()) == (404, missing.json())
        assert events(url, token, turn_id).status_code == 404
        # The next turn in it finds no such session either.
        again = post(url, token, PANORAMAS, mode="chat", session_id=session_id)
        assert again.status_code == 404


def _seed_old_turns(db: str, keys: str, count: int) -> None:
    """``count`` finished chat turns written 400 days ago (the store's clock)."""
    store = open_store(db, parse_keys(keys))
    store.clock = lambda: time.time() - 400 * DAY_S
    try:
        for n in range(count):
            turn_id, session_id = f"t_old{n:05d}", f"s_old{n:05d}"
            store.append_frames(
                [(turn_id, 1, "start", b"s")], opens=[OpenTurn(turn_id, "old", session_id, "chat")]
            )
            store.save_answer(
                turn_id,
                session_id=session_id,
                question="q",
                answer="a",
                sources=[],
                pages={"c1": OLD_PAGE},
                tool_calls=[
                    {
                        "turn_id": turn_id,
                        "call_id": "c",
                        "tool": "list_projects",
                        "args_digest": "sha256:0",
                        "duration_ms": 1.0,
                        "verdict": "ok",
                        "grade": "EXACT",
                        "returned": 1,
                        "total": 1,
                        "total_is_lower_bound": False,
                    }
                ],
            )
            store.append_frames([(turn_id, 2, "delta", b"d"), (turn_id, 3, "done", b"x")])
    finally:
        store.close()


def test_the_servers_pruning_beside_live_turns_removes_what_aged_and_loses_nothing(
    stack: Stack, db: str, tmp_path: Path
) -> None:
    keys = new_key_slot("live")
    old = 120
    _seed_old_turns(db, keys, old)
    env = chat_env(
        stack,
        tmp_path,
        BEACON_DB=db,
        BEACON_KEYS=keys,
        BEACON_PRUNE_INTERVAL_S="0.2",
        BEACON_PRUNE_BATCH="3",  # many short transactions, interleaved with the turns'
    )
    token = stack.token(sub="live")
    replies: list[httpx.Response] = []
    with chat_process(env) as (url, _):

        def run() -> None:
            for _ in range(3):
                replies.append(post(url, token, PANORAMAS, mode="chat"))

        threads = [threading.Thread(target=run) for _ in range(4)]
        for thread in threads:
            thread.start()
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and (
            _rows(db, "SELECT COUNT(*) FROM turns WHERE owner = 'old'")[0][0] > 0
            or any(t.is_alive() for t in threads)
        ):
            time.sleep(0.2)
        for thread in threads:
            thread.join(5)
        assert _rows(db, "SELECT COUNT(*) FROM turns WHERE owner = 'old'") == [(0,)]
        for table in ("frames", "answers", "messages", "pages", "tool_calls"):
            assert _rows(db, f"SELECT COUNT(*) FROM {table} WHERE turn_id LIKE ?", ("t_old%",)) == [
                (0,)
            ], table
        assert _rows(db, "SELECT COUNT(*) FROM sessions WHERE owner = 'old'") == [(0,)]

        # Every live turn is whole: one terminal, its answer, its rows, the same on replay.
        assert len(replies) == 12
        for reply in replies:
            assert reply.status_code == 200
            kinds = [f.event for f in frames_of(reply.content)]
            assert kinds[-1] == "done" and kinds.count("done") == 1, kinds
            turn_id = turn_id_of(reply)
            assert events(url, token, turn_id).content == reply.content
            session_id = frames_of(reply.content)[0].json()["session_id"]
            got = httpx.get(f"{url}/v1/sessions/{session_id}", headers=auth(token), timeout=10)
            assert got.status_code == 200 and len(got.json()["messages"]) == 2
            calls = [f for f in frames_of(reply.content) if f.event == "tool_call"]
            assert _rows(db, "SELECT COUNT(*) FROM tool_calls WHERE turn_id = ?", (turn_id,)) == [
                (len(calls),)
            ]
