"""One verify run: plan the turns, make them side by side, judge them, then the rest.

Order: the expired token is minted first (its life must run out, with the
verifier's clock leeway, before it is used), the turns are made in parallel,
every turn goes through every per-turn check, then the auth and input checks,
then the controlled verdicts, the expired token last. The baseline re-grades
the results; the report is a value the CLI and the promote gate both write.
"""

from __future__ import annotations

import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import urlsplit

import httpx

from harness.verify.baseline import BaselineError, apply_baseline, load_baseline
from harness.verify.blackbox import BLACK_BOX_CHECKS, Credentials, ExpiredToken
from harness.verify.controlled import CONTROLLED, DENIED_TIER
from harness.verify.http import (
    Streamed,
    Stub,
    VerifyHttpError,
    Wire,
    public_pems,
    unverified,
)
from harness.verify.model import CHECKS, CaseResult, Outcome, Report, Skip, Status, Verdict
from harness.verify.report import write_reports
from harness.verify.turns import (
    DEFAULT_TURNS,
    TURN_CHECKS,
    TurnPlan,
    TurnRun,
    question_turns,
    run_turn,
)

DEFAULT_WORKERS = 4
DEFAULT_LEEWAY_S = 30.0  # Beacon's verifier leeway; a token inside it is not yet expired


class VerifyError(RuntimeError):
    """The run could not start: the stub at --mcp minted no token, and no --token was given."""


class VerifyTargetError(VerifyError):
    """The target cannot be tested at all: unreachable, or it answers no turn with a
    stream. One line that names the fix, and exit 3 — not a failing server's exit 1."""


@dataclass(frozen=False)  # the run reads the baseline file into baseline_entries
class VerifyOptions:
    target: str
    token: str | None = None
    mcp: str | None = None
    other_token: str | None = None
    expired_token: str | None = None
    jwks: str | None = None
    checks: tuple[str, ...] = ()  # names or groups (``prose``, ``auth.other-user``); empty = all
    baseline: Path | None = None
    questions: tuple[str, ...] = ()
    leeway_s: float = DEFAULT_LEEWAY_S
    workers: int = DEFAULT_WORKERS
    baseline_entries: list[str] = field(default_factory=list)
    deadline_s: float | None = None  # the most one turn's stream may take
    # Told each check's results as the check finishes (a person running verify by hand
    # sees a line per check, not half a minute of silence).
    progress: Callable[[str], None] | None = None

    @property
    def controlled(self) -> bool:
        return self.mcp is not None


def _url_problem(name: str, url: str | None) -> str | None:
    if url is None:
        return None
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return f"{name} must be an http(s) URL, got {url!r}"
    return None


def selected(names: Iterable[str]) -> tuple[list[str], list[str]]:
    """(check names selected, names that select nothing); no name selects every check."""
    wanted = list(names)
    if not wanted:
        return list(CHECKS), []
    chosen, unknown = [], []
    for name in wanted:
        hits = [c for c in CHECKS if c == name or c.startswith(f"{name}.")]
        chosen += hits
        if not hits:
            unknown.append(name)
    return [c for c in CHECKS if c in chosen], unknown


def usage_problem(options: VerifyOptions) -> str | None:
    """What is wrong with the command line (a usage error, exit 2), or None."""
    for name, url in (
        ("--target", options.target),
        ("--mcp", options.mcp),
        ("--jwks", options.jwks),
    ):
        if problem := _url_problem(name, url):
            return problem
    if options.token is None and options.mcp is None:
        return "give --token TOKEN (black-box) or --mcp STUB_MCP_URL (dev tokens are minted there)"
    _, unknown = selected(options.checks)
    if unknown:
        names = ", ".join(CHECKS)
        return f"unknown --check {unknown}: choose from {names} (or a group: prose, auth …)"
    if options.leeway_s < 0 or options.workers < 1:
        return "--leeway must be ≥ 0 and --concurrency ≥ 1"
    if options.deadline_s is not None and not options.deadline_s > 0:
        return "--turn-deadline must be > 0 seconds"
    if any(not q.strip() for q in options.questions):
        return "--question must not be blank"
    if options.baseline is not None:
        try:
            options.baseline_entries = load_baseline(options.baseline)
        except BaselineError as exc:
            return str(exc)
    return None


def _result(check: str, case: str, outcome: Outcome, seconds: float = 0.0) -> CaseResult:
    if isinstance(outcome, Skip):
        return CaseResult(check, case, Status.NOT_VERIFIED, outcome.reason, seconds=seconds)
    status = Status.PASS if outcome.ok else Status.FAIL
    return CaseResult(check, case, status, outcome.message, dict(outcome.evidence or {}), seconds)


def _public_keys(wire: Wire, creds: Credentials, jwks_url: str | None) -> None:
    if jwks_url is None:
        return
    try:
        response = wire.client.get(jwks_url)
        loaded = response.json() if response.status_code == 200 else None
    except (httpx.HTTPError, ValueError) as exc:
        creds.pem_problem = f"the JWKS at {jwks_url} did not answer: {exc}"
        return
    if not isinstance(loaded, dict):
        creds.pem_problem = f"the JWKS at {jwks_url} answered {response.status_code}, no key set"
        return
    kid = unverified(creds.token)[0].get("kid")
    creds.public_pems = public_pems(loaded, kid if isinstance(kid, str) else None)
    if not creds.public_pems:
        creds.pem_problem = f"the JWKS at {jwks_url} holds no RSA public key"


def _credentials(options: VerifyOptions, wire: Wire, stub: Stub | None) -> Credentials:
    run_tag = uuid.uuid4().hex[:8]
    token = options.token
    other = options.other_token
    if stub is not None:
        try:
            token = token or stub.token(f"verify-user-{run_tag}")
            other = other or stub.token(f"verify-other-{run_tag}")
        except VerifyHttpError as exc:
            if token is None:
                raise VerifyError(f"no token: {exc}") from exc
    assert token is not None  # usage_problem refuses a run with neither --token nor --mcp
    creds = Credentials(token, other)
    creds.expired = ExpiredToken(options.expired_token, stub, options.leeway_s)
    jwks = options.jwks or (stub.jwks_url if stub is not None else None)
    _public_keys(wire, creds, jwks)
    return creds


def _plans(options: VerifyOptions, checks: list[str]) -> list[TurnPlan]:
    plans: list[TurnPlan] = []
    needs_turns = any(c in TURN_CHECKS for c in checks) or any(
        c in ("auth.other-user", "auth.no-token", "input.bad-after", "answers.evidence")
        for c in checks
    )
    if needs_turns:
        plans += question_turns(options.questions) if options.questions else DEFAULT_TURNS
    if options.controlled:
        wanted = {c.plan for c in CONTROLLED if c.check in checks}
        plans += [c.plan for c in CONTROLLED if c.plan in wanted]
    return list(dict.fromkeys(plans))


def _make_turns(
    options: VerifyOptions, wire: Wire, stub: Stub | None, creds: Credentials, plans: list[TurnPlan]
) -> list[TurnRun]:
    def one(plan: TurnPlan) -> TurnRun:
        if plan.role == "denied" and stub is not None:
            sub = f"verify-denied-{uuid.uuid4().hex[:8]}"
            try:
                token = stub.token(sub, (DENIED_TIER,))
            except VerifyHttpError as exc:
                return TurnRun(plan, _no_stream(str(exc)), None, 0.0, sub)
            return run_turn(wire, plan, token, sub)
        return run_turn(wire, plan, creds.token)

    with ThreadPoolExecutor(max_workers=options.workers) as pool:
        return list(pool.map(one, plans))


def _no_stream(reason: str) -> Streamed:
    return Streamed(None, error=reason)


def _judge_turns(runs: list[TurnRun], checks: list[str]) -> list[CaseResult]:
    results = []
    for name, check in TURN_CHECKS.items():
        if name not in checks:
            continue
        for run in runs:
            if name != "turn.stream" and not (run.streamed.ok and run.frames):
                outcome: Outcome = Skip("the turn did not stream (see turn.stream)")
            else:
                outcome = check(run)
            results.append(_result(name, run.plan.case, outcome, run.seconds))
    return results


_NEEDS_STUB = "a controlled check: give --mcp STUB_MCP_URL (the stub the target uses)"
_REFUSED = "not run: the target refuses X-Beacon-Scenario (see controlled.scenarios)"


def _scenarios_refused(runs: list[TurnRun]) -> str | None:
    """Why the target refused every scenario turn (a 4xx to each), or None."""
    scenario_runs = [r for r in runs if r.plan.scenario is not None]
    refused = [r for r in scenario_runs if r.streamed.status in range(400, 500)]
    if not scenario_runs or len(refused) != len(scenario_runs):
        return None
    first = refused[0].streamed
    return f"every scenario turn was refused: HTTP {first.status}: {first.body[:200]}"


def _controlled(runs: list[TurnRun], checks: list[str], stub: Stub | None) -> list[CaseResult]:
    results = []
    by_plan = {r.plan: r for r in runs}
    refused = _scenarios_refused(runs) if stub is not None else None
    if "controlled.scenarios" in checks:
        accepted: Outcome = (
            Skip(_NEEDS_STUB)
            if stub is None
            else Verdict(refused is None, refused or "every scenario turn was accepted")
        )
        results.append(_result("controlled.scenarios", "*", accepted))
    for spec in CONTROLLED:
        if spec.check not in checks:
            continue
        run = by_plan.get(spec.plan)
        if stub is None or run is None:
            results.append(_result(spec.check, spec.case, Skip(_NEEDS_STUB)))
            continue
        if refused is not None:
            results.append(_result(spec.check, spec.case, Skip(_REFUSED)))
            continue
        if not (run.streamed.ok and run.frames):
            detail = run.streamed.error or f"HTTP {run.streamed.status}: {run.streamed.body[:300]}"
            verdict = Verdict(False, f"the scenario's turn did not stream: {detail}")
        else:
            verdict = spec.verdict(run, stub)
        results.append(_result(spec.check, spec.case, verdict, run.seconds))
    return results


def _answered_a_stream(streamed: Streamed) -> bool:
    return streamed.status == 200 and (
        bool(streamed.frames) or streamed.content_type.startswith("text/event-stream")
    )


def _refuse_a_target_without_streams(target: str, runs: list[TurnRun]) -> None:
    """A target that answered no turn with a stream is not a chat server to test. One
    that answered with a stream it then broke (past a cap or the deadline) is: it fails."""
    if not runs or any(_answered_a_stream(r.streamed) for r in runs):
        return
    first = runs[0].streamed
    got = first.error or f"HTTP {first.status} {first.content_type or 'no content type'}"
    raise VerifyTargetError(
        f"{target} answered no turn with an SSE stream (POST /v1/turns: {got}): is it a "
        "Beacon-protocol chat server, and is --target its origin?"
    )


def _announce(say: Callable[[str], None], results: list[CaseResult], report: Report) -> None:
    """One line per check as its results are in: name, verdict (cases), time."""
    report.results += results
    for name in dict.fromkeys(r.check for r in results):
        mine = [r for r in results if r.check == name]
        tally = Counter(r.status.value for r in mine)
        verdict = ", ".join(f"{n} {s}" for s, n in sorted(tally.items()))
        seconds = max(r.seconds for r in mine)
        say(f"{name:<32} {verdict:<28} {seconds:6.1f} s")


def run_verify(options: VerifyOptions) -> Report:
    """The whole run against ``options.target`` (``usage_problem`` has already passed)."""
    checks, _ = selected(options.checks)
    started = time.perf_counter()
    report = Report(
        options.target,
        "controlled" if options.controlled else "black-box",
        started_at=datetime.now(UTC).isoformat(timespec="seconds"),
        baseline=str(options.baseline) if options.baseline else None,
    )
    wire = Wire(options.target, options.deadline_s)
    say = options.progress or (lambda _line: None)
    try:
        if (unreachable := wire.reachable()) is not None:
            raise VerifyTargetError(
                f"cannot reach {options.target} ({unreachable}): start the chat server "
                "or fix --target"
            )
        stub = Stub(options.mcp, wire) if options.mcp is not None else None
        creds = _credentials(options, wire, stub)
        if "auth.expired" in checks:
            creds.expired.start()
        plans = _plans(options, checks)
        say(f"making {len(plans)} turns against {options.target} ({options.workers} at a time)")
        began = time.perf_counter()
        runs = _make_turns(options, wire, stub, creds, plans)
        _refuse_a_target_without_streams(options.target, runs)
        say(f"turns made in {time.perf_counter() - began:.1f} s")
        _announce(say, _judge_turns(runs, checks), report)
        for name, check in BLACK_BOX_CHECKS.items():
            if name in checks:
                began = time.perf_counter()
                outcomes = check(wire, creds, runs)
                seconds = round(time.perf_counter() - began, 3)
                _announce(say, [_result(name, c, o, seconds) for c, o in outcomes.items()], report)
        _announce(say, _controlled(runs, checks, stub), report)
    finally:
        wire.close()
    order = {name: i for i, name in enumerate(CHECKS)}
    report.results.sort(key=lambda r: order[r.check])
    report.unmatched_baseline = apply_baseline(report.results, options.baseline_entries)
    report.seconds = round(time.perf_counter() - started, 3)
    return report


class VerifyUsageError(VerifyError):
    """The command line asks for what verify cannot do (an unknown check, a bad URL or
    baseline): exit 2 from the CLI, failing evidence in a gate."""


@dataclass(frozen=True, slots=True)
class Verified:
    report: Report
    written: dict[str, Path]  # "junit", "json", "html" → where each was written


def verify(
    options: VerifyOptions,
    out_dir: Path,
    *,
    junit: Path | None = None,
    checks_json: Path | None = None,
    html_page: Path | None = None,
) -> Verified:
    """The one verify run path, ``beacon verify``'s and the promote gate's: the usage
    check, the run, its three reports (each path defaults to its name under ``out_dir``).
    Raises ``VerifyUsageError``, ``VerifyTargetError`` or ``VerifyError``."""
    if (problem := usage_problem(options)) is not None:
        raise VerifyUsageError(problem)
    report = run_verify(options)
    written = write_reports(
        report, out_dir, junit=junit, checks_json=checks_json, html_page=html_page
    )
    return Verified(report, written)
