"""The harness lifecycle table: 36 rows as data, each executed, against the expected
transitions written apart from the table (suites/golden/harness_fsm.yaml)."""

from __future__ import annotations

import pytest

from harness.fsm import (
    HARNESS_TABLE,
    NAMED_ILLEGAL,
    HarnessEvent,
    HarnessState,
    IllegalTransition,
    Lifecycle,
    harness_step,
)
from harness.table_mutation import GoldenRow, load_golden

GOLDEN = load_golden("harness_fsm")


def test_the_table_is_six_states_by_six_events_and_mostly_illegal() -> None:
    assert len(HARNESS_TABLE) == 36
    assert len({(r.source, r.event) for r in HARNESS_TABLE}) == 36
    assert sum(not r.legal for r in HARNESS_TABLE) > 18
    assert all(not r.legal for r in HARNESS_TABLE if (r.source, r.event) in NAMED_ILLEGAL)


@pytest.mark.parametrize("row", [pytest.param(r, id=r.id) for r in GOLDEN.rows])
def test_each_row_of_the_harness_fsm_holds(row: GoldenRow) -> None:
    source = HarnessState(row.source)
    life = Lifecycle(source)
    if row.legal:
        assert life.fire(HarnessEvent(row.event)) is HarnessState(row.target)
        assert life.trail == [row.id]
    else:
        with pytest.raises(IllegalTransition) as caught:
            life.fire(HarnessEvent(row.event))
        assert caught.value.row.id == row.id
        assert life.state is source and life.trail == []


def test_the_table_is_the_golden_file_row_for_row() -> None:
    assert [s.value for s in HarnessState] == list(GOLDEN.states)
    assert [e.value for e in HarnessEvent] == list(GOLDEN.events)
    expected = {(r.source, r.event): (r.id, r.legal, r.target) for r in GOLDEN.rows}
    actual = {(str(r.source), str(r.event)): (r.id, r.legal, str(r.target)) for r in HARNESS_TABLE}
    assert actual == expected
    for row in GOLDEN.rows:
        step = harness_step(HarnessState(row.source), HarnessEvent(row.event))
        assert step.target is HarnessState(row.target)


def test_a_whole_run_walks_from_starting_to_reported() -> None:
    life = Lifecycle()
    for event in ("healthy", "run", "finished", "collected", "decided"):
        life.fire(HarnessEvent(event))
    assert life.state is HarnessState.REPORTED
    with pytest.raises(IllegalTransition, match="second-decision-for-one-run"):
        life.fire(HarnessEvent.DECIDED)
