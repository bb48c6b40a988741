"""The SSE frame FSM: all 60 rows executed through the emitter itself, against the
expected transitions written apart from the table (suites/golden/frame_table.yaml)."""

from __future__ import annotations

import pytest

from beacon.loop.frame_table import (
    FRAME_EVENTS,
    FRAME_TABLE,
    NAMED_ILLEGAL,
    TurnState,
    frame_step,
)
from beacon.loop.frames import FrameMaker, FrameOrderError
from harness.table_mutation import GoldenRow, load_golden

GOLDEN = load_golden("frame_table")

# The shortest legal frame sequence that reaches each state.
PATH_TO: dict[TurnState, list[str]] = {
    TurnState.IDLE: [],
    TurnState.STARTED: ["start"],
    TurnState.GATHERING: ["start", "plan"],
    TurnState.REFERENCED: ["start", "references"],
    TurnState.STREAMING: ["start", "references", "delta"],
    TurnState.TERMINATED: ["start", "references", "done"],
}
FIELDS: dict[str, dict[str, object]] = {
    "start": {"session_id": None, "mode": "single"},
    "plan": {"round": 1, "purpose": "gather", "calls": []},
    "tool_call": {"call_id": "c", "tool": "search_photos", "arguments": {}},
    "tool_result": {
        "call_id": "c",
        "tool": "search_photos",
        "status": "ok",
        "grade": "EXACT",
        "emptiness": "non_empty",
        "returned": 1,
        "bytes": 10,
    },
    "references": {"citations": [], "counts": [], "complete": False},
    "delta": {"text": "x"},
    "notice": {"kind": "disclosure", "text": "x"},
    "heartbeat": {},
    "done": {"finish_reason": "stop", "answer": "x"},
    "error": {"code": "e", "message": "m"},
}


def maker_in(state: TurnState) -> FrameMaker:
    maker = FrameMaker("t_test")
    for frame_type in PATH_TO[state]:
        maker.make(frame_type, **FIELDS[frame_type])
    assert maker.state is state
    return maker


@pytest.mark.parametrize("row", [pytest.param(r, id=r.id) for r in GOLDEN.rows])
def test_each_row_is_enforced_by_the_emitter(row: GoldenRow) -> None:
    source = TurnState(row.source)
    maker = maker_in(source)
    if row.legal:
        frame = maker.make(row.event, **FIELDS[row.event])
        assert maker.state is TurnState(row.target) and frame.type == row.event
        assert frame.data["seq"] == len(PATH_TO[source]) + 1
    else:
        with pytest.raises(FrameOrderError) as refused:
            maker.make(row.event, **FIELDS[row.event])
        assert refused.value.row_id == row.id
        assert maker.state is source  # nothing left the process


def test_the_table_is_the_golden_file_row_for_row() -> None:
    assert [s.value for s in TurnState] == list(GOLDEN.states)
    assert list(FRAME_EVENTS) == list(GOLDEN.events)
    expected = {(r.source, r.event): (r.id, r.legal, r.target) for r in GOLDEN.rows}
    actual = {(str(r.source), r.event): (r.id, r.legal, str(r.target)) for r in FRAME_TABLE}
    assert actual == expected
    for row in GOLDEN.rows:
        step = frame_step(TurnState(row.source), row.event)
        assert (step.id, step.legal, step.target) == (row.id, row.legal, TurnState(row.target))


def test_row_ids_are_unique() -> None:
    assert len({r.id for r in FRAME_TABLE}) == len(FRAME_TABLE) == 60


def test_the_table_is_six_states_by_ten_frames_and_mostly_illegal() -> None:
    assert len(TurnState) == 6 and len(FRAME_EVENTS) == 10 and len(FRAME_TABLE) == 60
    assert sum(not r.legal for r in FRAME_TABLE) > 30
    assert {(r.source, r.event) for r in FRAME_TABLE} == {
        (s, e) for s in TurnState for e in FRAME_EVENTS
    }


def test_the_named_illegal_orderings_are_in_the_table() -> None:
    names = {r.id for r in FRAME_TABLE if not r.legal}
    for name in (
        "delta-before-start",
        "plan-after-delta",
        "duplicate-terminal",
        "delta-before-references",
        "delta-while-gathering",
        "references-after-delta",
    ):
        assert name in names
    for (state, event), name in NAMED_ILLEGAL.items():
        assert frame_step(state, event).id == name and not frame_step(state, event).legal


def test_every_legal_row_says_what_it_does() -> None:
    assert all(r.side_effect for r in FRAME_TABLE)
    assert all(r.side_effect == "rejected in-process" for r in FRAME_TABLE if not r.legal)
