"""Save before publish, and turns that outlive their connections (real HTTP)."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import httpx
import pytest

from beacon.cli.ask import run_turn
from beacon.store.schema import SQLITE_SCHEMA
from beacon.wire.sse import parse_sse
from harness.chat_process import chat_env, running_chat
from harness.stack import Stack

pytestmark = pytest.mark.e2e
PHOTOS = "Photos of missing hard hats in Harbor Tower"
REFUSE_ANSWERS = """
CREATE TRIGGER refuse_answers BEFORE INSERT ON answers
BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END;
"""
# The answer's rows are stored; only its `done` frame is refused (the disk fills
# between the two, or the process dies there).
REFUSE_DONE = """
CREATE TRIGGER refuse_done BEFORE INSERT ON frames WHEN NEW.type = 'done'
BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END;
"""


def llm_turn_requests(stack: Stack, turn_id: str) -> int:
    origin = stack.llm_url.removesuffix("/v1")
    entries = httpx.get(f"{origin}/dev/requests", timeout=10).json()["requests"]
    return sum(1 for e in entries if e["turn"] == turn_id)


def test_a_failing_save_is_an_error_with_no_done_and_no_retry(stack: Stack, tmp_path: Path) -> None:
    db = sqlite3.connect(tmp_path / "beacon.sqlite3")
    db.executescript(SQLITE_SCHEMA + REFUSE_ANSWERS)  # a real SQLite failure, not a mock
    db.close()
    with running_chat(chat_env(stack, tmp_path)) as chat:
        events = run_turn(chat, {"message": PHOTOS}, token=stack.token())
    kinds = [e.event for e in events]
    assert kinds[-1] == "error" and events[-1].json()["code"] == "save_failed"
    assert "done" not in kinds and "delta" not in kinds
    # One plan (READY beside its calls) and one answer: the save failed after both, not retried.
    assert llm_turn_requests(stack, events[0].json()["turn_id"]) == 2


def test_an_answer_whose_done_is_not_stored_is_not_in_the_transcript_either(
    stack: Stack, tmp_path: Path
) -> None:
    # The answer, its deltas and its `done` are one commit: a turn the user saw end in
    # an error leaves no answer behind for the session (nor for the next turn's model).
    db = sqlite3.connect(tmp_path / "beacon.sqlite3")
    db.executescript(SQLITE_SCHEMA + REFUSE_DONE)
    db.close()
    token = stack.token()
    with running_chat(chat_env(stack, tmp_path)) as chat:
        events = run_turn(chat, {"mode": "chat", "message": PHOTOS}, token=token)
        kinds = [e.event for e in events]
        assert kinds[-1] == "error" and events[-1].json()["code"] == "save_failed"
        assert "done" not in kinds and "delta" not in kinds
        session_id = events[0].json()["session_id"]
        transcript = httpx.get(
            f"{chat}/v1/sessions/{session_id}",
            headers={"Authorization": f"Bearer {token}"},
            timeout=10,
        )
    assert transcript.status_code == 200
    assert transcript.json()["messages"] == []
    db = sqlite3.connect(tmp_path / "beacon.sqlite3")
    turn_id = events[0].json()["turn_id"]
    try:
        answers = db.execute("SELECT COUNT(*) FROM answers WHERE turn_id = ?", (turn_id,))
        assert answers.fetchone()[0] == 0
        # What the turn did upstream is still on record: its tool calls' audit rows.
        calls = db.execute("SELECT COUNT(*) FROM tool_calls WHERE turn_id = ?", (turn_id,))
        assert calls.fetchone()[0] >= 1
    finally:
        db.close()


def open_turn_and_drop(stack: Stack, token: str, keep: int) -> tuple[str, bytes]:
    """Start a slow turn, read ``keep`` frames, then hang up."""
    kept: list[bytes] = []
    with httpx.stream(
        "POST",
        f"{stack.chat_url}/v1/turns",
        json={"message": PHOTOS},
        headers={"Authorization": f"Bearer {token}", "X-Beacon-Scenario": "slow-upstream"},
        timeout=30,
    ) as response:
        lines: list[str] = []
        for line in response.iter_lines():
            lines.append(line)
            if line == "":
                kept.append(("\n".join(lines)).encode() + b"\n")
                lines = []
                if len(kept) == keep:
                    break
    (first,) = [e for e in parse_sse(kept[0].decode().splitlines()) if e.event == "start"]
    return first.json()["turn_id"], b"".join(kept)


def events_url(stack: Stack, turn_id: str) -> str:
    return f"{stack.chat_url}/v1/turns/{turn_id}/events"


def test_a_dropped_turn_finishes_and_reattach_equals_the_saved_turn(stack: Stack) -> None:
    token = stack.token()
    turn_id, first_part = open_turn_and_drop(stack, token, keep=2)
    auth = {"Authorization": f"Bearer {token}"}
    rest = httpx.get(
        events_url(stack, turn_id), params={"after": 2}, headers=auth, timeout=60
    ).content
    saved = httpx.get(events_url(stack, turn_id), headers=auth, timeout=30).content
    assert first_part + rest == saved  # byte for byte
    tail = list(parse_sse(rest.decode().splitlines()))
    assert [e.event for e in tail][-1] == "done"  # the turn ran on without its client
    assert int(tail[0].id or 0) == 3


def test_last_event_id_resumes_where_the_client_stopped(stack: Stack) -> None:
    token = stack.token()
    turn_id, _ = open_turn_and_drop(stack, token, keep=1)
    headers = {"Authorization": f"Bearer {token}", "Last-Event-ID": "4"}
    rest = list(
        parse_sse(
            httpx.get(events_url(stack, turn_id), headers=headers, timeout=60).text.splitlines()
        )
    )
    assert int(rest[0].id or 0) == 5 and rest[-1].event == "done"


def test_an_old_follower_leaving_never_cuts_off_a_newer_one(stack: Stack) -> None:
    token = stack.token()
    turn_id, _ = open_turn_and_drop(stack, token, keep=1)
    auth = {"Authorization": f"Bearer {token}"}
    newer: list[bytes] = []

    def follow() -> None:
        newer.append(httpx.get(events_url(stack, turn_id), headers=auth, timeout=60).content)

    thread = threading.Thread(target=follow)
    with httpx.stream("GET", events_url(stack, turn_id), headers=auth, timeout=30) as older:
        thread.start()
        next(older.iter_lines())  # the older one reads a line and hangs up
    thread.join(timeout=60)
    assert newer and b"event: done" in newer[0]


def test_another_subject_cannot_reattach_or_learn_the_turn_exists(stack: Stack) -> None:
    turn_id, _ = open_turn_and_drop(stack, stack.token(), keep=1)
    stranger = {"Authorization": f"Bearer {stack.token(sub='someone-else')}"}
    theirs = httpx.get(events_url(stack, turn_id), headers=stranger, timeout=30)
    missing = httpx.get(events_url(stack, "t_nonexistent"), headers=stranger, timeout=30)
    assert theirs.status_code == missing.status_code == 404
    assert theirs.json() == missing.json()
