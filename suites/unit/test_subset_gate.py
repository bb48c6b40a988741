"""The subset gate's transition table: every row is executed, against the expected
transitions written apart from the table (suites/golden/subset_gate.yaml)."""

from __future__ import annotations

import pytest

from beacon.adjudication import GATE_TABLE, GateEvent, GateState, gate_step
from beacon.adjudication.subset_gate import NAMED_ILLEGAL, GateRow
from beacon.adjudication.tables import DuplicateRowId, build_rows
from harness.table_mutation import GoldenRow, load_golden

GOLDEN = load_golden("subset_gate")


@pytest.mark.parametrize("row", [pytest.param(r, id=r.id) for r in GOLDEN.rows])
def test_each_row_of_the_table_holds(row: GoldenRow) -> None:
    source, event = GateState(row.source), GateEvent(row.event)
    step = gate_step(source, event)
    assert step == GateRow(row.id, source, event, GateState(row.target), row.legal)
    if not row.legal:
        assert step.target is source  # an illegal event changes nothing


def test_the_table_is_the_golden_file_row_for_row() -> None:
    assert [s.value for s in GateState] == list(GOLDEN.states)
    assert [e.value for e in GateEvent] == list(GOLDEN.events)
    expected = {(r.source, r.event): (r.id, r.legal, r.target) for r in GOLDEN.rows}
    actual = {(str(r.source), str(r.event)): (r.id, r.legal, str(r.target)) for r in GATE_TABLE}
    assert actual == expected


def test_the_table_builder_refuses_a_repeated_row_id() -> None:
    legal = {("a", "x"): ("same", "b"), ("b", "x"): ("same", "a")}
    with pytest.raises(DuplicateRowId, match="same"):
        build_rows(["a", "b"], ["x"], legal, {}, lambda *row: row)
    with pytest.raises(DuplicateRowId, match="named"):
        build_rows(["a", "b"], ["x"], {}, {("a", "x"): "named", ("b", "x"): "named"}, lambda *r: r)
    built = build_rows(["a", "b"], ["x", "y"], {("a", "x"): ("ax", "b")}, {}, lambda *r: r)
    assert [r[0] for r in built] == ["ax", "a-y-illegal", "b-x-illegal", "b-y-illegal"]


def test_the_table_is_complete_with_more_illegal_than_legal_rows() -> None:
    assert len(GATE_TABLE) == len(GateState) * len(GateEvent) >= 20
    illegal = [r for r in GATE_TABLE if not r.legal]
    assert len(illegal) > len(GATE_TABLE) / 2
    assert len({r.id for r in GATE_TABLE}) == len(GATE_TABLE)


def test_every_named_illegal_ordering_is_illegal() -> None:
    for (state, event), name in NAMED_ILLEGAL.items():
        row = gate_step(state, event)
        assert not row.legal and row.id == name


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
