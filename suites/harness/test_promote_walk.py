"""The promote gate's probe run walks the harness lifecycle table too: a wrong row
changes a promotion decision.

Five situations, each decided by the real ``decide_promote`` with the stack, its
health check, the probes and verify replaced by fakes (and the observe half held
open), so no stack starts per row: the stack starts and every probe passes; the
stack does not start; it stops answering before the probes; a probe dies; a
probe fails. Their verdicts are written here, apart
from the table; then every row the probe run walks is pointed at each other state
in turn (the table-mutation check's own patch) and a verdict must change.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

import gates.promote as promote
from harness.artifact import Artifact, ledger
from harness.fsm import HARNESS_TABLE, HarnessRow, HarnessState
from harness.gating import Decision, Outcome
from harness.probe_target import ProbeReport
from harness.probes import PROBES
from harness.stack import StackError
from harness.table_mutation import TABLES, retargets_unseen

FSM = next(spec for spec in TABLES if spec.name == "harness_fsm")
WALKED = (
    "starting-healthy",
    "starting-abort-reports",
    "ready-run",
    "ready-abort-reports",
    "running-finished",
    "running-abort-reports",
    "collecting-collected",
    "deciding-decided",
)
SITUATIONS = ("all-pass", "no-stack", "stack-sick", "probe-dies", "probe-fails")


@dataclass(frozen=True)
class _Stack:
    chat_url: str = "http://127.0.0.1:9"
    mcp_url: str = "http://127.0.0.1:9/mcp"


def _situation(monkeypatch: pytest.MonkeyPatch, situation: str) -> list[str]:
    """Fakes for one situation; returns the log of what the gate ran, in order."""
    ran: list[str] = []

    @contextmanager
    def running_stack(**_where: object) -> Iterator[_Stack]:
        ran.append("stack")
        if situation == "no-stack":
            raise StackError("beacon up did not print `ready`")
        yield _Stack()

    def run_probe(name: str, stack: _Stack) -> ProbeReport:
        ran.append(f"probe:{name}")
        if situation == "probe-dies":
            raise ConnectionError("the stack went away")
        failed = situation == "probe-fails" and name == next(iter(PROBES))
        return ProbeReport(name, not failed, 0.1, failure="red" if failed else None)

    def verify_stack(root: Path, decision: Decision, chat: str, mcp: str) -> None:
        ran.append("verify")

    def stack_health(stack: _Stack) -> str | None:
        ran.append("health")
        return "http://127.0.0.1:9/healthz: ConnectError" if situation == "stack-sick" else None

    def decide_observe(root: Path, junit: Path, bypass: str | None) -> Decision:
        return Decision("observe")  # the observe half is test_gate_walk.py's

    @contextmanager
    def installed(artifact: Artifact) -> Iterator[tuple[str, Path]]:
        yield "beacon", Path("/nonexistent")  # the fake stack starts nothing

    fake = Artifact(Path("beacon-0.1.0-py3-none-any.whl"), None, "0" * 64, None)
    monkeypatch.setattr(promote, "build", lambda root: fake)
    monkeypatch.setattr(promote, "installed", installed)
    monkeypatch.setattr(promote, "running_stack", running_stack)
    monkeypatch.setattr(promote, "run_probe", run_probe)
    monkeypatch.setattr(promote, "verify_stack", verify_stack)
    monkeypatch.setattr(promote, "stack_health", stack_health)
    monkeypatch.setattr(promote, "decide_observe", decide_observe)
    monkeypatch.setattr(promote, "junit_cases", lambda junit: {"suites/e2e/x::t": "passed"})
    return ran


def _verdict(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, situation: str
) -> tuple[Outcome, tuple[str, ...], tuple[str, ...]]:
    ran = _situation(monkeypatch, situation)
    root = tmp_path / situation
    root.mkdir(exist_ok=True)
    decision = promote.decide_promote(root, root / "junit.xml", "dev", "qa", None)
    return decision.outcome, tuple(decision.findings), tuple(ran)


def test_a_stack_whose_probes_pass_is_promoted_on_the_deciding_row(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    outcome, findings, ran = _verdict(monkeypatch, tmp_path, "all-pass")
    assert outcome is Outcome.OPEN and findings == ()
    assert ran == ("stack", "health", *(f"probe:{p}" for p in PROBES), "verify")
    (line,) = ledger(tmp_path / "all-pass")
    assert (line["to"], line["digest"]) == ("qa", "0" * 64)


def test_a_stack_that_does_not_start_fails_on_the_starting_abort_row(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    outcome, findings, ran = _verdict(monkeypatch, tmp_path, "no-stack")
    assert outcome is Outcome.FAILING and ran == ("stack",)
    assert findings == (
        "the stack for the probes and verify did not start: beacon up did not print `ready`",
    )


def test_a_stack_that_stopped_answering_fails_on_the_ready_abort_row(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    outcome, findings, ran = _verdict(monkeypatch, tmp_path, "stack-sick")
    assert outcome is Outcome.FAILING and ran == ("stack", "health")  # no probe ran
    assert findings == (
        "the stack was not healthy when the probes were to start: "
        "http://127.0.0.1:9/healthz: ConnectError",
    )


def test_a_probe_that_dies_fails_on_the_running_abort_row(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    outcome, findings, _ = _verdict(monkeypatch, tmp_path, "probe-dies")
    assert outcome is Outcome.FAILING
    assert findings == ("the probes died: ConnectionError: the stack went away",)


def test_a_red_probe_fails_the_promotion(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    outcome, findings, _ = _verdict(monkeypatch, tmp_path, "probe-fails")
    assert outcome is Outcome.FAILING
    assert findings == (f"probe {next(iter(PROBES))}: red",)


WALKED_ROWS = [pytest.param(row, id=row.id) for row in HARNESS_TABLE if row.id in WALKED]


def test_the_probe_run_walks_legal_rows_of_the_table() -> None:
    assert sorted(row.id for row in HARNESS_TABLE if row.id in WALKED) == sorted(WALKED)
    assert all(row.legal for row in HARNESS_TABLE if row.id in WALKED)


@pytest.mark.parametrize("row", WALKED_ROWS)
def test_pointing_a_walked_row_elsewhere_changes_a_promotion(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, row: HarnessRow
) -> None:
    unchanged = retargets_unseen(
        FSM,
        row,
        HarnessState,
        lambda: {s: _verdict(monkeypatch, tmp_path, s) for s in SITUATIONS},
    )
    assert unchanged == [], f"{row.id} pointed at {unchanged} left every promotion as it was"
