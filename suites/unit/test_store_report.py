"""``beacon report`` over a store with known turns: every figure below was counted
by hand from the records this test writes (four turns inside the window, one
outside it), and the command is run as an operator runs it (the installed
``beacon``, ``--db``, three formats)."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from beacon.policy.audit import AuditRow
from beacon.store.crypto import new_key_slot, parse_keys
from beacon.store.frames import OpenTurn
from beacon.store.opening import open_store
from beacon.store.report import percentile
from beacon.store.turns import TurnStore
from harness.stack import beacon_executable

DAY_S = 86_400.0


def _call(tool: str, verdict: str, grade: str, ms: float | None, n: int = 1) -> dict[str, Any]:
    return {
        "call_id": f"call_{n}",
        "tool": tool,
        "args_digest": "sha256:" + "0" * 64,
        "duration_ms": ms,
        "verdict": verdict,
        "grade": grade,
        "returned": None,
        "total": None,
        "total_is_lower_bound": grade == "LOWER_BOUND",
    }


def _audit(turn_id: str, capability: str, allowed: bool, at: float) -> AuditRow:
    return AuditRow(
        turn_id=turn_id,
        sub="analyst",
        tool="t",
        capability=capability,
        allowed=allowed,
        reason="entitled" if allowed else "tier",
        hint_present=False,
        at=datetime.fromtimestamp(at, UTC),
    )


def _error(seq: int, code: str) -> bytes:
    body = json.dumps({"code": code, "message": "the words of an error are not reported"})
    return f"event: error\nid: {seq}\ndata: {body}\n\n".encode()


def _answered(
    store: TurnStore,
    turn_id: str,
    at: float,
    answer_after_s: float,
    end_after_s: float,
    calls: list[dict[str, Any]],
    audit: list[AuditRow],
    narration: list[dict[str, str]] = (),  # type: ignore[assignment]
) -> None:
    store.clock = lambda: at
    store.append_frames(
        [(turn_id, 1, "start", b"s")], opens=[OpenTurn(turn_id, "u", None, "single")]
    )
    store.save_answer(
        turn_id,
        session_id=None,
        question="q",
        answer="a",
        sources=[],
        audit=audit,
        narration=narration,
        tool_calls=[{"turn_id": turn_id, **c} for c in calls],
    )
    store.clock = lambda: at + answer_after_s
    store.append_frames([(turn_id, 2, "delta", b"d")])
    store.clock = lambda: at + end_after_s
    store.append_frames([(turn_id, 3, "done", b"x")])


def _failed(
    store: TurnStore,
    turn_id: str,
    at: float,
    after_s: float,
    code: str,
    calls: list[dict[str, Any]],
) -> None:
    store.clock = lambda: at
    store.append_frames(
        [(turn_id, 1, "start", b"s")], opens=[OpenTurn(turn_id, "u", None, "single")]
    )
    store.record_audit([], [{"turn_id": turn_id, **c} for c in calls])
    store.clock = lambda: at + after_s
    store.append_frames([(turn_id, 2, "error", _error(2, code))])


@pytest.fixture
def known_store(tmp_path: Path) -> str:
    location = str(tmp_path / "beacon.sqlite3")
    store = open_store(location, parse_keys(new_key_slot("k1")))
    t = time.time() - 3600  # inside --since 7d
    _answered(
        store,
        "t1",
        t,
        0.5,
        0.6,
        [
            _call("search_photos", "ok", "LOWER_BOUND", 20.0),
            _call("query_data", "ok", "EXACT", 40.0, 2),
        ],
        [_audit("t1", "photo_ai", True, t), _audit("t1", "analytics", True, t)],
    )
    _failed(
        store,
        "t2",
        t,
        2.0,
        "upstream_unavailable",
        [_call("search_photos", "disguised_failure", "UNKNOWN", 10.0)],
    )
    _answered(
        store,
        "t3",
        t,
        1.0,
        1.0,
        [
            _call("get_clash_report", "denied", "UNKNOWN", None),
            _call("list_annotations", "no_accounting", "UNKNOWN", 30.0, 2),
        ],
        [_audit("t3", "bim", False, t), _audit("t3", "core", True, t)],
        [
            {"kind": "narration_dropped", "rule": "free_count", "token": "12"},
            {"kind": "narration_dropped", "rule": "absence_claim", "token": "none"},
            {"kind": "scope_applied", "rule": "level", "token": "c2:3"},
        ],
    )
    _failed(store, "t4", t, 3.0, "llm_refused", [])
    # Ten days before: outside the window, every row of it.
    old = t - 10 * DAY_S
    _answered(
        store,
        "t0",
        old,
        9.0,
        9.0,
        [_call("search_photos", "error", "UNKNOWN", 99.0)],
        [_audit("t0", "photo_ai", False, old)],
        [{"kind": "narration_dropped", "rule": "completeness", "token": "all"}],
    )
    store.close()
    return location


def _report(location: str, *args: str) -> str:
    done = subprocess.run(
        [beacon_executable(), "report", "--db", location, *args],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


EXPECTED = {
    "turns": {"total": 4, "done": 2, "error": 2},
    "errors_by_cause": {"llm_refused": 1, "upstream_unavailable": 1},
    # first answer frame: 0.5, 2.0, 1.0, 3.0 s → nearest rank p50 = 2nd = 1.0, p95 = 4th = 3.0
    "first_frame_ms": {"p50": 1000.0, "p95": 3000.0},
    # ends: 0.6, 2.0, 1.0, 3.0 s
    "turn_duration_ms": {"p50": 1000.0, "p95": 3000.0},
    "tool_calls": {
        "total": 5,
        "denied": 1,
        "disguised_failure": 1,
        "no_accounting": 1,
        "ok": 2,
    },
    "tool_calls_by_tool": {
        "get_clash_report": {"denied": 1},
        "list_annotations": {"no_accounting": 1},
        "query_data": {"ok": 1},
        "search_photos": {"disguised_failure": 1, "ok": 1},
    },
    # 10, 20, 30, 40 ms (the denied call made none)
    "tool_call_ms": {"p50": 20.0, "p95": 40.0},
    "grades": {"EXACT": 1, "LOWER_BOUND": 1, "UNKNOWN": 2},
    "guard_drops": {"absence_claim": 1, "free_count": 1},
    "narration_rows": {"narration_dropped": 2, "scope_applied": 1},
    "permission_verdicts": {
        "analytics": {"allowed": 1},
        "bim": {"denied": 1},
        "core": {"allowed": 1},
        "photo_ai": {"allowed": 1},
    },
}


def test_beacon_report_summarises_known_turns_with_hand_counted_figures(known_store: str) -> None:
    found = json.loads(_report(known_store, "--since", "7d", "--format", "json"))
    assert {k: v for k, v in found.items() if k not in ("since", "until")} == EXPECTED


def test_beacon_report_as_text_and_csv_says_the_same_figures(known_store: str) -> None:
    lines = _report(known_store, "--since", "7d").splitlines()
    assert lines[0].startswith("beacon report ")
    assert lines[1:] == [
        "turns: total 4, done 2, error 2",
        "errors by cause: llm_refused 1, upstream_unavailable 1",
        "time to first frame (the answer's): p50 1000 ms, p95 3000 ms",
        "turn duration: p50 1000 ms, p95 3000 ms",
        "tool calls: total 5, denied 1, disguised_failure 1, no_accounting 1, ok 2",
        "  get_clash_report: denied 1",
        "  list_annotations: no_accounting 1",
        "  query_data: ok 1",
        "  search_photos: disguised_failure 1, ok 1",
        "tool call time: p50 20 ms, p95 40 ms",
        "count grades: EXACT 1, LOWER_BOUND 1, UNKNOWN 2",
        "guard drops: absence_claim 1, free_count 1",
        "narration rows: narration_dropped 2, scope_applied 1",
        "permission verdicts: ",
        "  analytics: allowed 1",
        "  bim: denied 1",
        "  core: allowed 1",
        "  photo_ai: allowed 1",
    ]
    rows = list(csv.reader(io.StringIO(_report(known_store, "--since", "7d", "--format", "csv"))))
    assert rows[0] == ["section", "key", "detail", "value"]
    assert ["errors_by_cause", "upstream_unavailable", "", "1"] in rows
    assert ["permission_verdicts", "bim", "denied", "1"] in rows
    assert ["first_frame_ms", "p95", "", "3000.0"] in rows


def test_a_wider_window_takes_in_the_older_turn(known_store: str) -> None:
    since = datetime.fromtimestamp(time.time() - 30 * DAY_S, UTC).date().isoformat()
    found = json.loads(_report(known_store, "--since", since, "--format", "json"))
    assert found["turns"] == {"total": 5, "done": 3, "error": 2}
    assert found["tool_calls"]["error"] == 1
    assert found["guard_drops"] == {"absence_claim": 1, "completeness": 1, "free_count": 1}
    assert found["permission_verdicts"]["photo_ai"] == {"allowed": 1, "denied": 1}


def test_a_since_that_is_no_date_nor_duration_is_a_usage_error(known_store: str) -> None:
    done = subprocess.run(
        [beacon_executable(), "report", "--db", known_store, "--since", "last tuesday"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2 and "--since 'last tuesday'" in done.stderr


def test_nearest_rank_percentiles() -> None:
    assert percentile([], 50) is None
    assert percentile([3.0, 1.0, 2.0], 50) == 2.0
    assert percentile([float(n) for n in range(1, 21)], 95) == 19.0
