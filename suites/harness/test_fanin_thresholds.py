"""The fan-in audit's thresholds are a gate: removing or raising them fails here.

The thresholds are pinned by value, and synthetic reports just over each one
(by absolute counts, so a raised constant cannot move the line with them) must
come out ``warn`` / ``fail`` — through the report type, the gate decision's
mapping and the ``beacon audit fan-in`` exit code. The sweep record carries the
audit's findings per gate.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

import harness.fanin as fanin
from harness.fanin import FAIL_OVER, WARN_OVER, GateFanIn, audit, level_for
from harness.sweep import fan_in_findings

ROOT = Path(__file__).resolve().parents[2]


def synthetic(unevidenced: int, gate: str = "promote") -> GateFanIn:
    items = tuple(f"beacon.synthetic.m{i:03d}" for i in range(unevidenced + 5))
    return GateFanIn(gate, items, items[:unevidenced], ((items[0], 3),))


def test_the_thresholds_are_pinned_and_never_raised() -> None:
    assert WARN_OVER == 20
    assert FAIL_OVER == 40
    assert WARN_OVER < FAIL_OVER


@pytest.mark.parametrize(
    ("unevidenced", "level"),
    [(0, "ok"), (20, "ok"), (21, "warn"), (40, "warn"), (41, "fail"), (500, "fail")],
)
def test_a_synthetic_report_over_a_threshold_warns_or_fails(unevidenced: int, level: str) -> None:
    assert level_for(unevidenced) == level
    assert synthetic(unevidenced).level == level


def test_the_finding_names_the_gate_its_level_and_its_thresholds() -> None:
    finding = synthetic(41).finding()
    assert finding["gate"] == "promote" and finding["level"] == "fail"
    assert finding["unevidenced_count"] == 41 and finding["behind"] == 46
    assert finding["warn_over"] == 20 and finding["fail_over"] == 40
    assert finding["worst"] == [["beacon.synthetic.m000", 3]]


@pytest.mark.parametrize(("unevidenced", "exit_code"), [(20, 0), (21, 0), (41, 1)])
def test_the_audit_command_fails_over_the_hard_limit(
    monkeypatch: pytest.MonkeyPatch, unevidenced: int, exit_code: int
) -> None:
    from beacon.cli.main import app

    monkeypatch.setattr(fanin, "audit", lambda root, passed=None: [synthetic(unevidenced)])
    result = CliRunner().invoke(app, ["audit", "fan-in", "--root", str(ROOT)])
    assert result.exit_code == exit_code, result.output
    expected = level_for(unevidenced)
    assert f"{unevidenced} without their own execution evidence → {expected}" in result.output


def test_the_real_tree_is_under_the_hard_limit() -> None:
    for gate in audit(ROOT):
        assert len(gate.unevidenced) <= FAIL_OVER, (gate.gate, gate.unevidenced)


def test_the_sweep_record_carries_the_fan_in_findings() -> None:
    record = fan_in_findings(ROOT)
    assert record["evidence"] == "static imports" and "error" not in record
    gates = {g["gate"]: g for g in record["gates"]}
    assert set(gates) == {"observe", "promote"}
    for finding in gates.values():
        assert finding["level"] == level_for(finding["unevidenced_count"])
        assert finding["unevidenced_count"] == len(finding["unevidenced"])
        assert (finding["warn_over"], finding["fail_over"]) == (WARN_OVER, FAIL_OVER)
