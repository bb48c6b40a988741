"""``beacon gate promote --from dev --to qa|prod``: promote what was exercised.

Requires everything ``observe`` requires (a fresh, green sweep; executed
evidence; no orphans), a green e2e group in the JUnit record, every probe
passing and ``beacon verify`` green (every check, controlled ones included:
the gate knows the stub) against a stack started from the artifact itself:
``--to qa`` builds the wheel and sdist once (``harness/artifact.py``) and installs
the wheel into a clean venv outside the checkout; ``--to prod`` needs a ledger
line of a ``qa`` promotion of the very same commit and swept content, and installs
the very wheel qa exercised after checking its digest (upper channels promote what
the lower one exercised; they never rebuild). Each promotion appends a line to
``reports/gates/ledger.jsonl`` (``beacon gate history``). The
verify report (JUnit, checks.json, HTML) is written to ``reports/gates/verify/``
and recorded in the gate's evidence; verify takes no baseline here. The bypass
flag overrides a stale sweep only, never red evidence. Exit codes: ``harness.gate_exits``.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import httpx

from beacon.wire.connections import client_tls
from harness.artifact import (
    Artifact,
    ArtifactError,
    append,
    build,
    evidence_digests,
    installed,
    kept,
    ledger,
)
from harness.executed import JunitError, junit_cases
from harness.fsm import HarnessEvent, HarnessState, walk
from harness.gate_exits import exit_codes_line
from harness.gating import (
    DEFAULT_JUNIT,
    Decision,
    Outcome,
    decide_observe,
    gate_args,
    report_decision,
    settle_bypass,
    verify_stack,
)
from harness.probes import PROBES, run_probe
from harness.stack import Stack, StackError, running_stack
from harness.sweep import read_record

PROMOTIONS: dict[str, str] = {"dev": "qa", "qa": "prod"}
E2E_GROUP = "suites/e2e/"
INVOKES: tuple[str, ...] = ("gate observe", "probe --all", "verify")


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="beacon gate promote", description=__doc__, epilog=exit_codes_line()
    )
    p.add_argument("--from", dest="source", required=True, choices=sorted(PROMOTIONS))
    p.add_argument("--to", dest="target", required=True, choices=sorted(PROMOTIONS.values()))
    p.add_argument("--root", type=Path, default=Path.cwd())
    p.add_argument("--junit", type=Path, default=None)
    p.add_argument("--bypass", metavar="REASON", default=None)
    return p


def _swept(root: Path) -> dict[str, Any]:
    """The commit and content the sweep vouched for (what qa must have exercised too)."""
    record = read_record(root) or {}
    return {"commit": record.get("commit"), "paths": record.get("paths")}


def _exercised_in_qa(root: Path, swept: dict[str, Any]) -> dict[str, Any] | None:
    """The last qa line of the ledger for this very commit and swept content."""
    lines = [e for e in ledger(root) if e.get("to") == "qa" and e.get("swept") == swept]
    return lines[-1] if lines else None


def decide_promote(
    root: Path, junit: Path, source: str, target: str, bypass: str | None
) -> Decision:
    decision = decide_observe(root, junit, bypass)
    decision.gate = "promote"
    decision.facts["promotion"] = {"from": source, "to": target}
    if decision.outcome is Outcome.STALE:
        return decision
    swept = _swept(root)
    exercised = _exercised_in_qa(root, swept) if source == "qa" else None
    if source == "qa" and exercised is None:
        decision.fail(
            "no qa promotion of this exact commit and swept content: promote dev → qa first"
        )
    try:
        cases = junit_cases(junit)  # observe's steps have judged the whole record already
    except JunitError:
        cases = {}
    e2e = {c: s for c, s in cases.items() if c.startswith(E2E_GROUP)}
    if not e2e or any(s != "passed" for s in e2e.values()):
        bad = sorted(c for c, s in e2e.items() if s != "passed")[:5]
        decision.fail(f"the e2e group against the stub is not green ({len(e2e)} ran; {bad})")
    if decision.outcome is not Outcome.OPEN:
        settle_bypass(decision, junit)
        return decision
    # Build once (dev → qa); an upper channel takes the very bytes the lower one ran.
    try:
        artifact = build(root) if exercised is None else kept(root, exercised)
    except ArtifactError as exc:
        decision.fail(str(exc))
        settle_bypass(decision, junit)
        return decision
    decision.facts["artifact"] = artifact.record()
    _probe_walk(root, decision, artifact)
    settle_bypass(decision, junit)
    if decision.outcome is Outcome.OPEN:
        decision.facts["ledger"] = append(
            root,
            {
                "from": source,
                "to": target,
                **artifact.record(),
                "swept": swept,
                "evidence": evidence_digests(root, ("observe.json", "verify/checks.json")),
                "bypass": decision.bypass,
            },
        )
    return decision


@contextmanager
def artifact_stack(artifact: Artifact) -> Iterator[Stack]:
    """The stack ``beacon up`` starts from the artifact installed in a clean venv, run
    from a folder outside the checkout."""
    with installed(artifact) as (beacon, work), running_stack(executable=beacon, cwd=work) as up:
        yield up


def stack_health(stack: Stack) -> str | None:
    """Why the started stack cannot be probed (a service that stopped answering), or None."""
    origins = (stack.chat_url, stack.mcp_origin, stack.llm_url.removesuffix("/v1"))
    for origin in origins:
        try:
            status = httpx.get(f"{origin}/healthz", timeout=5.0, verify=client_tls()).status_code
        except httpx.HTTPError as exc:
            return f"{origin}/healthz: {type(exc).__name__}"
        if status != 200:
            return f"{origin}/healthz answered {status}"
    return None


def _probe_walk(root: Path, decision: Decision, artifact: Artifact) -> None:
    """The probes and verify against a fresh stack, as a walk of the harness table
    from ``stubs_starting``: start the stack, run, let it finish, collect, decide.
    Each step checks that the one before it ran, so a row that skips or repeats a
    step fails the decision; only a walk reported by a decision keeps it open."""
    seen: dict[str, Any] = {}
    S, E = HarnessState, HarnessEvent
    with ExitStack() as held:

        def start() -> HarnessEvent:
            try:
                seen["stack"] = held.enter_context(artifact_stack(artifact))
            except (StackError, ArtifactError) as exc:
                decision.fail(f"the stack for the probes and verify did not start: {exc}")
                return E.ABORT
            return E.HEALTHY

        def ready() -> HarnessEvent:
            if "stack" not in seen:
                decision.fail("the probes were started without a stack")
            elif (sick := stack_health(seen["stack"])) is not None:
                decision.fail(f"the stack was not healthy when the probes were to start: {sick}")
                return E.ABORT
            seen["ready"] = True
            return E.RUN

        def run() -> HarnessEvent:
            stack = seen.get("stack")
            if stack is None or not seen.get("ready"):
                decision.fail("the probes ran before their stack was ready")
                return E.ABORT
            try:
                seen["reports"] = [run_probe(name, stack) for name in PROBES]
                verify_stack(root, decision, stack.chat_url, stack.mcp_url)
            except Exception as exc:  # a probe died: what is known is reported, failing
                decision.fail(f"the probes died: {type(exc).__name__}: {exc}")
                return E.ABORT
            return E.FINISHED

        def collect() -> HarnessEvent:
            reports = seen.get("reports")
            if reports is None:
                decision.fail("probe evidence collected before the probes ran")
                reports = []
            decision.facts["probes"] = {r.name: {"ok": r.ok, "seconds": r.seconds} for r in reports}
            seen["collected"] = reports
            return E.COLLECTED

        def decide() -> HarnessEvent:
            if "collected" not in seen:
                decision.fail("a promotion decided on probe evidence never collected")
            for report in seen.get("collected", []):
                if not report.ok:
                    decision.fail(f"probe {report.name}: {report.failure}")
            return E.DECIDED

        run_ = walk(
            {
                S.STUBS_STARTING: start,
                S.STUBS_READY: ready,
                S.SUITE_RUNNING: run,
                S.EVIDENCE_COLLECTING: collect,
                S.GATE_DECIDING: decide,
            },
            S.STUBS_STARTING,
        )
    decision.facts["probe_lifecycle"] = run_.trail
    aborted = run_.problem is None and run_.state is S.REPORTED and run_.events[-1:] == [E.ABORT]
    if not run_.reported_on_a_decision and not (aborted and decision.findings):
        where = run_.problem or run_.trail
        decision.fail(f"the probe run was not reported by a decision ({where})")


def _promotion_problem(args: argparse.Namespace) -> str | None:
    if PROMOTIONS[args.source] != args.target:
        return f"cannot promote {args.source} → {args.target}"
    return None


def main(argv: list[str] | None = None) -> int:
    args = gate_args(parser(), argv, _promotion_problem)
    if isinstance(args, int):
        return args
    root = args.root.resolve()
    junit = args.junit or root / DEFAULT_JUNIT
    return report_decision(root, decide_promote(root, junit, args.source, args.target, args.bypass))


if __name__ == "__main__":
    raise SystemExit(main())
