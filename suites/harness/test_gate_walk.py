"""The observe gate walks the harness lifecycle table: a wrong row changes its decision.

Three real situations, each a throwaway root (no stack, no sweep run): a stale one
(no sweep record), the same let through by the bypass, and one whose audits die
(an unreadable Makefile). Their decisions are written here, apart from the table;
then every row the gate walks is pointed at each other state in turn, with the
table-mutation check's own patch, and the decision in one situation must change.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.fsm import HARNESS_TABLE, HarnessEvent, HarnessRow, HarnessState, Step, walk
from harness.gating import Decision, Outcome, decide_observe
from harness.table_mutation import TABLES, retargets_unseen

REASON = "the sweep host is down: approved by on-call"
FSM = next(spec for spec in TABLES if spec.name == "harness_fsm")
# The rows an observe decision can take: it starts once the suite has run, and the
# suite's step always reports it finished (an unreadable record is failing evidence,
# judged after staleness), so `running-abort-reports` is no observe row.
WALKED = (
    "running-finished",
    "collecting-collected",
    "collecting-abort-reports",
    "deciding-decided",
    "deciding-abort-reports",
)
Situation = tuple[str, str | None]  # (what the root holds, bypass reason)
SITUATIONS: tuple[Situation, ...] = (("stale", None), ("stale", REASON), ("audits-die", REASON))


def _root(tmp_path: Path, kind: str) -> Path:
    root = tmp_path / kind
    root.mkdir(exist_ok=True)
    if kind == "audits-die":
        (root / "Makefile").write_bytes(b"test:\n\t\xff\xfe not UTF-8\n")
    return root


def _decide(tmp_path: Path, situation: Situation) -> Decision:
    kind, bypass = situation
    root = _root(tmp_path, kind)
    return decide_observe(root, root / "reports/junit.xml", bypass)


def _verdict(decision: Decision) -> tuple[Outcome, tuple[str, ...]]:
    return decision.outcome, tuple(decision.findings)


def test_a_stale_root_is_refused_on_the_collecting_abort_row(tmp_path: Path) -> None:
    decision = _decide(tmp_path, ("stale", None))
    assert decision.outcome is Outcome.STALE and decision.exit_code == 5
    assert decision.facts["lifecycle"] == ["running-finished", "collecting-abort-reports"]
    assert "stale sweep: no sweep record at reports/sweep/latest.json" in decision.findings


def test_a_bypassed_stale_root_is_decided_on_the_deciding_row(tmp_path: Path) -> None:
    decision = _decide(tmp_path, ("stale", REASON))
    assert decision.outcome is Outcome.FAILING  # no JUnit record: failing evidence
    assert decision.facts["lifecycle"] == [
        "running-finished",
        "collecting-collected",
        "deciding-decided",
    ]
    assert not any("not reported by a decision" in f for f in decision.findings)


def test_audits_that_die_end_the_walk_on_the_deciding_abort_row(tmp_path: Path) -> None:
    decision = _decide(tmp_path, ("audits-die", REASON))
    assert decision.outcome is Outcome.FAILING
    assert decision.facts["lifecycle"][-1] == "deciding-abort-reports"
    assert any(
        f.startswith("the gate's audits died: UnicodeDecodeError") for f in decision.findings
    )


WALKED_ROWS = [pytest.param(row, id=row.id) for row in HARNESS_TABLE if row.id in WALKED]


def test_every_row_the_gate_walks_is_a_legal_row_of_the_table() -> None:
    assert sorted(row.id for row in HARNESS_TABLE if row.id in WALKED) == sorted(WALKED)
    assert all(row.legal for row in HARNESS_TABLE if row.id in WALKED)


@pytest.mark.parametrize("row", WALKED_ROWS)
def test_pointing_a_walked_row_elsewhere_changes_an_observe_decision(
    tmp_path: Path, row: HarnessRow
) -> None:
    unchanged = retargets_unseen(
        FSM, row, HarnessState, lambda: {s: _verdict(_decide(tmp_path, s)) for s in SITUATIONS}
    )
    assert unchanged == [], f"{row.id} pointed at {unchanged} left every decision as it was"


def test_a_walk_that_reaches_a_state_without_a_step_is_no_decision() -> None:
    ran: list[str] = []

    def step(name: str, event: HarnessEvent) -> Step:
        def run() -> HarnessEvent:
            ran.append(name)
            return event

        return run

    S, E = HarnessState, HarnessEvent
    done = walk({S.STUBS_READY: step("ready", E.RUN)}, S.STUBS_READY)
    assert ran == ["ready"] and done.state is S.SUITE_RUNNING
    assert done.problem is not None and "suite_running" in done.problem
    assert not done.reported_on_a_decision
    looped = walk({S.STUBS_STARTING: step("start", E.RUN)}, S.STUBS_STARTING)
    assert looped.problem is not None and "suite-before-stubs-ready" in looped.problem
