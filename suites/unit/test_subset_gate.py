"""The subset gate's transition table: every row is executed."""

from __future__ import annotations

import pytest

from beacon.adjudication import GATE_TABLE, GateEvent, GateState, gate_step
from beacon.adjudication.subset_gate import NAMED_ILLEGAL, GateRow


@pytest.mark.parametrize("row", [pytest.param(r, id=r.id) for r in GATE_TABLE])
def test_each_row_of_the_table_holds(row: GateRow) -> None:
    step = gate_step(row.source, row.event)
    assert step == row
    if not row.legal:
        assert step.target is row.source  # an illegal event changes nothing


def test_the_table_is_complete_with_more_illegal_than_legal_rows() -> None:
    assert len(GATE_TABLE) == len(GateState) * len(GateEvent) >= 20
    illegal = [r for r in GATE_TABLE if not r.legal]
    assert len(illegal) > len(GATE_TABLE) / 2
    assert len({r.id for r in GATE_TABLE}) == len(GATE_TABLE)


def test_every_named_illegal_ordering_is_illegal() -> None:
    for (state, event), name in NAMED_ILLEGAL.items():
        row = gate_step(state, event)
        assert not row.legal and row.id == name


def test_the_model_can_never_widen_in_any_state() -> None:
    assert all(not gate_step(s, GateEvent.MODEL_WIDEN).legal for s in GateState)


def test_a_sample_narrowed_to_a_complete_page_walks_to_complete() -> None:
    state = GateState.IDLE
    for event in (
        GateEvent.SAMPLE_RESULT,
        GateEvent.OFFER,
        GateEvent.CHOOSE,
        GateEvent.NARROWED_COMPLETE,
    ):
        row = gate_step(state, event)
        assert row.legal, row.id
        state = row.target
    assert state is GateState.COMPLETE


def test_zero_after_narrowing_releases_then_clears() -> None:
    assert gate_step(GateState.NARROWED, GateEvent.NARROWED_ZERO).target is GateState.RELEASED
    assert gate_step(GateState.RELEASED, GateEvent.RELEASE).target is GateState.IDLE


def test_the_table_is_built_from_its_rows_of_data() -> None:
    from beacon.adjudication.subset_gate import LEGAL_ROWS, build_table

    built = {(row.source, row.event): row for row in build_table()}
    assert len(built) == len(GateState) * len(GateEvent)
    for row_id, source, event, target in LEGAL_ROWS:
        assert built[(source, event)] == GateRow(row_id, source, event, target, True)
    for (source, event), name in NAMED_ILLEGAL.items():
        assert built[(source, event)] == GateRow(name, source, event, source, False)
    listed = {(s, e) for _, s, e, _ in LEGAL_ROWS} | set(NAMED_ILLEGAL)
    for (source, event), row in built.items():
        if (source, event) not in listed:
            assert row == GateRow(f"{source}-{event}-illegal", source, event, source, False)
