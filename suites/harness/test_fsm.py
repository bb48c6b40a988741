"""The harness lifecycle table: 36 rows as data, each executed."""

from __future__ import annotations

import pytest

from harness.fsm import (
    HARNESS_TABLE,
    NAMED_ILLEGAL,
    HarnessEvent,
    HarnessRow,
    HarnessState,
    IllegalTransition,
    Lifecycle,
)


def test_the_table_is_six_states_by_six_events_and_mostly_illegal() -> None:
    assert len(HARNESS_TABLE) == 36
    assert len({(r.source, r.event) for r in HARNESS_TABLE}) == 36
    assert sum(not r.legal for r in HARNESS_TABLE) > 18
    assert all(not r.legal for r in HARNESS_TABLE if (r.source, r.event) in NAMED_ILLEGAL)


@pytest.mark.parametrize("row", HARNESS_TABLE, ids=lambda r: r.id)
def test_each_row_of_the_harness_fsm_holds(row: HarnessRow) -> None:
    life = Lifecycle(row.source)
    if row.legal:
        assert life.fire(row.event) is row.target
        assert life.trail == [row.id]
    else:
        with pytest.raises(IllegalTransition) as caught:
            life.fire(row.event)
        assert caught.value.row.id == row.id
        assert life.state is row.source and life.trail == []


def test_a_whole_run_walks_from_starting_to_reported() -> None:
    life = Lifecycle()
    for event in ("healthy", "run", "finished", "collected", "decided"):
        life.fire(HarnessEvent(event))
    assert life.state is HarnessState.REPORTED
    with pytest.raises(IllegalTransition, match="second-decision-for-one-run"):
        life.fire(HarnessEvent.DECIDED)
