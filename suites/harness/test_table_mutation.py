"""The table-mutation check's parts: golden files that refuse to be vague, and a
mutant that is installed where every reader looks and removed afterwards."""

from __future__ import annotations

from pathlib import Path

import pytest

import beacon.adjudication.subset_gate as subset_gate
from beacon.adjudication import GateEvent, GateState, gate_step
from harness.table_mutation import TABLES, load_golden, mutated

LAST_ROW = "  - {id: b-x-illegal, from: b, event: x, legal: false, to: b}\n"
GOOD = """
table: t
states: [a, b]
events: [x]
rows:
  - {id: a-x, from: a, event: x, legal: true, to: b}
  - {id: b-x-illegal, from: b, event: x, legal: false, to: b}
"""


def write(tmp_path: Path, text: str) -> Path:
    (tmp_path / "t.yaml").write_text(text, encoding="utf-8")
    return tmp_path


def test_every_table_has_a_golden_file_covering_each_cell() -> None:
    sizes = {name: len(load_golden(name).rows) for name in ("frame_table", "harness_fsm")}
    assert sizes == {"frame_table": 60, "harness_fsm": 36}
    assert len(load_golden("subset_gate").rows) >= 20
    assert len(load_golden("panel_states").rows) == 231
    assert {spec.name for spec in TABLES} == {"frame_table", "subset_gate", "harness_fsm"}


def test_a_well_formed_golden_file_loads(tmp_path: Path) -> None:
    golden = load_golden("t", write(tmp_path, GOOD))
    assert [(r.id, r.legal, r.target) for r in golden.rows] == [
        ("a-x", True, "b"),
        ("b-x-illegal", False, "b"),
    ]


@pytest.mark.parametrize(
    ("broken", "why"),
    [
        (GOOD.replace("legal: false, to: b", "legal: false, to: a"), "moves the state"),
        (GOOD.replace("{id: b-x-illegal", "{id: a-x"), "repeats"),
        (GOOD.replace(LAST_ROW, ""), "cover"),
        (GOOD.replace("to: b}", "to: c}", 1), "unknown"),
        (GOOD.replace("table: t", "table: other"), "name its table"),
    ],
)
def test_a_vague_golden_file_is_refused(tmp_path: Path, broken: str, why: str) -> None:
    with pytest.raises(ValueError, match=why):
        load_golden("t", write(tmp_path, broken))


def test_a_mutant_is_seen_by_the_readers_and_then_removed() -> None:
    spec = next(s for s in TABLES if s.name == "subset_gate")
    before = subset_gate.GATE_TABLE
    with mutated(spec, GateState.OFFERED, GateEvent.CHOOSE, GateState.IDLE):
        assert gate_step(GateState.OFFERED, GateEvent.CHOOSE).target is GateState.IDLE
        assert subset_gate.GATE_TABLE is not before
    assert gate_step(GateState.OFFERED, GateEvent.CHOOSE).target is GateState.NARROWED
    assert subset_gate.GATE_TABLE is before
    assert subset_gate.build_table() == before
