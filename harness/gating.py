"""What the gates decide, as values: outcomes map to exit codes in one table.

A gate never passes a child's exit code through: every step yields an ``Outcome``,
and only the table (``harness.gate_exits.EXIT_CODES``) turns an outcome into a number.
"""

from __future__ import annotations

import argparse
import getpass
import json
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from boundaries import load_registry
from harness.callers import find_callers
from harness.executed import JunitError, check_executed, read_junit, requirements
from harness.fanin import HIGH_OVER, audit
from harness.fsm import HarnessEvent, HarnessState, walk
from harness.gate_exits import EXIT_CODES as EXIT_CODES  # re-exported: the one table
from harness.gate_exits import Outcome as Outcome
from harness.sweep import freshness
from harness.verify import Report, Status, VerifyError, VerifyOptions, summary_line, verify

EVIDENCE_DIR = "reports/gates"
VERIFY_DIR = f"{EVIDENCE_DIR}/verify"  # the promote gate's verify report: JUnit, JSON, HTML
DEFAULT_JUNIT = "reports/junit.xml"
MIN_BYPASS_REASON = 10


@dataclass(frozen=False)  # a gate's walk records its outcome, findings and facts as it goes
class Decision:
    gate: str
    outcome: Outcome = Outcome.OPEN
    findings: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    facts: dict[str, Any] = field(default_factory=dict)
    bypass: str | None = None

    @property
    def exit_code(self) -> int:
        return EXIT_CODES[self.outcome]

    def fail(self, finding: str) -> None:
        self.findings.append(finding)
        if self.outcome is Outcome.OPEN:
            self.outcome = Outcome.FAILING


def bypass_problem(reason: str | None) -> str | None:
    if reason is not None and len(reason.strip()) < MIN_BYPASS_REASON:
        return f"--bypass needs a reason of at least {MIN_BYPASS_REASON} characters"
    return None


def _bypass_check(args: argparse.Namespace) -> str | None:
    return bypass_problem(args.bypass)


def gate_args(
    parser: argparse.ArgumentParser,
    argv: list[str] | None,
    *checks: Callable[[argparse.Namespace], str | None],
) -> argparse.Namespace | int:
    """A gate's arguments, or the usage exit code: an unparsable command line, a
    failed ``check`` (each says what is wrong, or None) or a bypass without a
    reason never reaches a decision."""
    try:
        args = parser.parse_args(argv)
    except SystemExit:
        return EXIT_CODES[Outcome.USAGE]
    for check in (*checks, _bypass_check):
        if (problem := check(args)) is not None:
            print(problem, file=sys.stderr)
            return EXIT_CODES[Outcome.USAGE]
    return args


def report_decision(root: Path, decision: Decision) -> int:
    """Stamp the decision's evidence, print it, and give the gate's exit code."""
    print_decision(decision, write_evidence(root, decision))
    return decision.exit_code


def decide_observe(root: Path, junit: Path, bypass: str | None = None) -> Decision:
    """May a change be called done? Fresh sweep, green sweep, executed evidence, callers, fan-in.

    The decision walks the harness lifecycle table (``harness.fsm.walk``): one step per
    state, the next step picked by the row the last event chose. Only a walk reported
    by a decision can open the gate; a stale sweep ends it on an abort row (5).
    """
    decision = Decision("observe", bypass=bypass)
    seen: dict[str, Any] = {}  # what one step leaves for the next

    def suite_finished() -> HarnessEvent:
        # The suite ran before the gate was called; what it left is the JUnit record,
        # read whole: one red case anywhere keeps the gate shut, required or not.
        try:
            record = read_junit(junit)
        except JunitError as exc:
            decision.fail(str(exc))
            seen["cases"] = None  # read and unreadable: no test can be shown to have run
            return HarnessEvent.FINISHED
        seen["cases"] = record.outcomes()
        decision.facts["junit"] = {"path": str(junit), **record.counts()}
        if record.red:
            decision.fail(
                f"the suite is red in {junit}: {record.summary()}: " + "; ".join(record.problems())
            )
        return HarnessEvent.FINISHED

    def collect() -> HarnessEvent:
        if "cases" not in seen:
            decision.fail("evidence collected before the suite's record was read")
        fresh = freshness(root)
        decision.facts["freshness"] = {"fresh": fresh.fresh, "reasons": list(fresh.reasons)}
        if not fresh.fresh and bypass is None:
            decision.findings += [f"stale sweep: {r}" for r in fresh.reasons]
            seen["abort"] = Outcome.STALE
            return HarnessEvent.ABORT
        if not fresh.fresh:
            decision.warnings += [f"BYPASSED stale sweep: {r}" for r in fresh.reasons]
        _collect_sweep_and_executed(root, decision, fresh.record or {}, seen.get("cases"))
        seen["collected"] = True
        return HarnessEvent.COLLECTED

    def decide() -> HarnessEvent:
        if not seen.get("collected"):
            decision.fail("a decision on evidence that was never collected")
        try:
            _decide_callers_and_fan_in(root, decision, seen.get("cases") or {})
        except Exception as exc:  # an audit died: report what is known, as a failure
            decision.fail(f"the gate's audits died: {type(exc).__name__}: {exc}")
            seen["abort"] = Outcome.FAILING
            return HarnessEvent.ABORT
        return HarnessEvent.DECIDED

    S = HarnessState
    run = walk(
        {S.SUITE_RUNNING: suite_finished, S.EVIDENCE_COLLECTING: collect, S.GATE_DECIDING: decide},
        S.SUITE_RUNNING,
    )
    decision.facts["lifecycle"] = run.trail
    ended_on_abort = run.problem is None and run.events[-1:] == [HarnessEvent.ABORT]
    if ended_on_abort and S(run.state) is S.REPORTED and "abort" in seen:
        decision.outcome = seen["abort"]
    elif not run.reported_on_a_decision:
        decision.fail(f"the run was not reported by a decision ({run.problem or run.trail})")
    settle_bypass(decision, junit)
    return decision


def settle_bypass(decision: Decision, junit: Path) -> None:
    """A bypass overrides a stale sweep and nothing else. Used on a stale sweep with
    otherwise green evidence, it opens the gate and is stamped (who, why, when); on
    failing evidence it is refused in one line and nothing is stamped; on a fresh
    sweep it is not needed and nothing is stamped either. A gate that finds more after
    observe's steps (promote) settles it again, last."""
    reason = decision.bypass
    if reason is None:
        return
    fresh = bool(decision.facts.get("freshness", {}).get("fresh"))
    if decision.findings:
        decision.bypass = None
        decision.facts.pop("bypass", None)
        red = decision.facts.get("junit", {})
        where = (
            f"{red.get('failed', 0)} failed and {red.get('errored', 0)} errored in {junit}"
            if red.get("failed") or red.get("errored")
            else decision.findings[0]
        )
        decision.findings.insert(0, f"bypass refused: it overrides a stale sweep only; {where}")
        # The stale sweep was not bypassed after all: no line may say it was.
        marked = "BYPASSED stale sweep: "
        decision.warnings = [
            w.replace(marked, "stale sweep (not bypassed): ") if w.startswith(marked) else w
            for w in decision.warnings
        ]
        return
    if fresh:
        decision.bypass = None
        decision.warnings.append("bypass not used: the sweep is fresh (nothing stamped)")
        return
    decision.facts["bypass"] = {
        "reason": reason,
        "by": _who(),
        "at": datetime.now(UTC).isoformat(timespec="seconds"),
    }


def _who() -> str:
    """Who used a bypass: $BEACON_GATE_BY (a CI job names itself), else the login."""
    named = os.environ.get("BEACON_GATE_BY", "").strip()
    if named:
        return named
    try:
        return getpass.getuser()
    except (KeyError, OSError):  # no login name in a bare container
        return "unknown"


def _collect_sweep_and_executed(
    root: Path, decision: Decision, record: dict[str, Any], cases: dict[str, str] | None
) -> None:
    decision.facts["sweep"] = {k: record.get(k) for k in ("commit", "swept_at", "count", "ok")}
    if not record.get("ok", False):
        failed = [b["id"] for b in record.get("boundaries", []) if b.get("verdict") != "pass"]
        problems = [
            f"{p['file']}: {p['field']}: {p['message']}" for p in record.get("problems", [])
        ]
        decision.fail(
            f"the sweep is red: {len(failed)} boundaries failed {failed[:10]} {problems[:5]}"
        )
    if cases is not None:
        report = check_executed(cases, requirements(load_registry(root), root))
        decision.facts["executed"] = {"required": report.required, "cases": report.cases_seen}
        for shortfall in report.shortfalls:
            decision.fail(f"not executed: {shortfall}")


def _decide_callers_and_fan_in(root: Path, decision: Decision, cases: dict[str, str]) -> None:
    callers = find_callers(root)
    decision.facts["callers"] = {k: list(v) for k, v in callers.callers.items()}
    for orphan in callers.orphans:
        decision.fail(f"orphan: nothing in CI, the Makefile or a gate invokes `beacon {orphan}`")
    passed_files = {c.split("::")[0] for c, status in cases.items() if status == "passed"}
    for gate_fan in audit(root, passed_files or None):
        summary = f"{gate_fan.gate}: {len(gate_fan.unevidenced)} of {len(gate_fan.behind)} items"
        decision.facts.setdefault("fan_in", {})[gate_fan.gate] = {
            "behind": len(gate_fan.behind),
            "unevidenced": list(gate_fan.unevidenced),
            "worst": [list(w) for w in gate_fan.worst],
            "level": gate_fan.level,
        }
        # Warned, never failed: the figure stands in the evidence for a person to read.
        if gate_fan.level == "high":
            decision.warnings.append(
                f"fan-in warning (over {HIGH_OVER}): {summary} lack execution evidence"
            )
        elif gate_fan.level == "warn":
            decision.warnings.append(f"fan-in warning: {summary} lack execution evidence")


def write_evidence(root: Path, decision: Decision, name: str | None = None) -> Path:
    path = root / EVIDENCE_DIR / f"{name or decision.gate}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    body = {
        "gate": decision.gate,
        "outcome": decision.outcome.value,
        "exit_code": decision.exit_code,
        "decided_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "bypass": {
            "used": decision.bypass is not None,
            "reason": decision.bypass,
            **{k: v for k, v in decision.facts.get("bypass", {}).items() if k != "reason"},
        },
        "findings": decision.findings,
        "warnings": decision.warnings,
        "facts": decision.facts,
    }
    path.write_text(json.dumps(body, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    return path


def print_decision(decision: Decision, evidence: Path) -> None:
    for line in decision.warnings:
        print(f"warning: {line}")
    for line in decision.findings:
        print(f"finding: {line}")
    if decision.bypass is not None:
        print(f"bypass used: {decision.bypass!r} (stamped into {evidence})")
    print(
        f"gate {decision.gate}: {decision.outcome.value} (exit {decision.exit_code}); "
        f"evidence {evidence}"
    )


def verify_stack(root: Path, decision: Decision, chat_url: str, mcp_url: str) -> Report | None:
    """``beacon verify`` against a stack the gate started (controlled: the stub is known),
    its report written beside the gate's evidence and recorded in the decision.

    Verify's exit code is never the gate's: a red or stale case is failing evidence,
    and so is a check left not verified — the gate knows the stub, so every check can run.
    """
    try:
        verified = verify(VerifyOptions(target=chat_url, mcp=mcp_url), root / VERIFY_DIR)
    except VerifyError as exc:
        decision.fail(f"verify could not start: {exc}")
        return None
    record_verify(root, decision, verified.report, verified.written)
    return verified.report


def record_verify(root: Path, decision: Decision, report: Report, written: dict[str, Path]) -> None:
    def shown(path: Path) -> str:
        return str(path.relative_to(root)) if path.is_relative_to(root) else str(path)

    red = report.of(Status.FAIL, Status.STALE)
    unverified = report.of(Status.NOT_VERIFIED)
    decision.facts["verify"] = {
        "target": report.target,
        "mode": report.mode,
        "summary": report.tally(),
        "seconds": report.seconds,
        "reports": {kind: shown(path) for kind, path in written.items()},
        "failed": [r.id for r in red],
        "baselined": [r.id for r in report.of(Status.BASELINED)],
        "not_verified": [r.id for r in unverified],
    }
    print(summary_line(report))
    for result in red:
        decision.fail(f"verify {result.id}: {result.message}")
    if unverified:
        ids = [r.id for r in unverified]
        decision.fail(f"verify left {len(ids)} checks not verified: {ids[:5]}")
