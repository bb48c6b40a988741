"""The fan-in audit warns over both its thresholds and never fails a gate by itself.

The thresholds are pinned by value, and synthetic reports just over each one
(by absolute counts, so a raised constant cannot move the line with them) must
come out ``warn`` / ``high`` — through the report type, the gate decision (a
warning and the figure in its facts, never a finding) and the ``beacon audit
fan-in`` output, which exits 0 at every level. The sweep record carries the
audit's findings per gate.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

import harness.fanin as fanin
from harness.fanin import HIGH_OVER, WARN_OVER, GateFanIn, level_for
from harness.gating import Decision, Outcome, _decide_callers_and_fan_in
from harness.sweep import fan_in_findings

ROOT = Path(__file__).resolve().parents[2]


def synthetic(unevidenced: int, gate: str = "promote") -> GateFanIn:
    items = tuple(f"beacon.synthetic.m{i:03d}" for i in range(unevidenced + 5))
    return GateFanIn(gate, items, items[:unevidenced], ((items[0], 3),))


def test_the_thresholds_are_pinned_and_never_raised() -> None:
    assert WARN_OVER == 20
    assert HIGH_OVER == 40
    assert WARN_OVER < HIGH_OVER


@pytest.mark.parametrize(
    ("unevidenced", "level"),
    [(0, "ok"), (20, "ok"), (21, "warn"), (40, "warn"), (41, "high"), (500, "high")],
)
def test_a_synthetic_report_over_a_threshold_warns_and_louder_over_the_second(
    unevidenced: int, level: str
) -> None:
    assert level_for(unevidenced) == level
    assert synthetic(unevidenced).level == level


def test_the_finding_names_the_gate_its_level_and_its_thresholds() -> None:
    finding = synthetic(41).finding()
    assert finding["gate"] == "promote" and finding["level"] == "high"
    assert finding["unevidenced_count"] == 41 and finding["behind"] == 46
    assert finding["warn_over"] == 20 and finding["high_over"] == 40
    assert finding["worst"] == [["beacon.synthetic.m000", 3]]


@pytest.mark.parametrize("unevidenced", [20, 21, 41, 500])
def test_the_audit_command_reports_every_level_and_exits_zero(
    monkeypatch: pytest.MonkeyPatch, unevidenced: int
) -> None:
    from beacon.cli.main import app

    monkeypatch.setattr(fanin, "audit", lambda root, passed=None: [synthetic(unevidenced)])
    result = CliRunner().invoke(app, ["audit", "fan-in", "--root", str(ROOT)])
    assert result.exit_code == 0, result.output
    expected = level_for(unevidenced)
    assert f"{unevidenced} without their own execution evidence → {expected}" in result.output


@pytest.mark.parametrize(("unevidenced", "warned"), [(20, 0), (21, 1), (41, 1), (500, 1)])
def test_a_gate_over_either_threshold_is_warned_and_stays_open_with_the_figure(
    monkeypatch: pytest.MonkeyPatch, unevidenced: int, warned: int
) -> None:
    import harness.gating as gating

    monkeypatch.setattr(gating, "audit", lambda root, passed=None: [synthetic(unevidenced)])
    decision = Decision("promote")
    _decide_callers_and_fan_in(ROOT, decision, {})
    assert not [f for f in decision.findings if "fan-in" in f]
    assert decision.outcome is Outcome.OPEN  # the real tree invokes every command
    assert len([w for w in decision.warnings if "fan-in" in w]) == warned
    assert len(decision.facts["fan_in"]["promote"]["unevidenced"]) == unevidenced


def test_the_sweep_record_carries_the_fan_in_findings() -> None:
    record = fan_in_findings(ROOT)
    assert record["evidence"] == "static imports" and "error" not in record
    gates = {g["gate"]: g for g in record["gates"]}
    assert set(gates) == {"observe", "promote"}
    for finding in gates.values():
        assert finding["level"] == level_for(finding["unevidenced_count"])
        assert finding["unevidenced_count"] == len(finding["unevidenced"])
        assert (finding["warn_over"], finding["high_over"]) == (WARN_OVER, HIGH_OVER)
