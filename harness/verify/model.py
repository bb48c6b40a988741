"""What ``beacon verify`` knows and reports, as values: the check list, case results, the run.

A *check* is one rule a frame-protocol server must keep (``prose.count-forms``);
a *case* is that check applied to one question or one probe of the target
(``prose.count-forms::photos-en``). Every case ends in exactly one status:

- ``pass`` / ``fail``: the check ran and held, or did not;
- ``not_verified``: the check could not run against this target (a controlled
  check without ``--mcp``, a forged-key attack without the target's JWKS …) —
  reported in its own section, never counted as a pass;
- ``baselined``: it failed and the baseline expects it to (exit 0);
- ``stale_baseline``: the baseline expects a failure and it now passes (exit 1:
  the baseline must be brought up to date, or it hides the next regression).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Literal

Kind = Literal["black-box", "controlled"]


class Status(StrEnum):
    PASS = "pass"
    FAIL = "fail"
    NOT_VERIFIED = "not_verified"
    BASELINED = "baselined"
    STALE = "stale_baseline"


# The run's exit codes: 0 every check passes or is baselined, 1 an unexpected
# failure or a stale baseline, 2 usage, 3 the target could not be tested at all
# (unreachable, or not answering turns with a stream). A child's exit code is never
# among them.
EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2
EXIT_TARGET = 3


@dataclass(frozen=True, slots=True)
class CheckSpec:
    name: str
    kind: Kind
    title: str


def _spec(name: str, kind: Kind, title: str) -> tuple[str, CheckSpec]:
    return name, CheckSpec(name, kind, title)


# Every check, in report order. Per-turn checks judge every turn the run makes.
CHECKS: dict[str, CheckSpec] = dict(
    [
        _spec("turn.stream", "black-box", "a turn is accepted and streamed to its end"),
        _spec("frames.schema", "black-box", "every frame is a known type with its wire shape"),
        _spec("frames.seq", "black-box", "seq 1..n without a gap, equal to the SSE id; one turn"),
        _spec("frames.order", "black-box", "start first; nothing gathered after the narration"),
        _spec("frames.one-terminal", "black-box", "exactly one terminal (done|error), and last"),
        _spec(
            "frames.references-before-delta",
            "black-box",
            "the references frame precedes every delta",
        ),
        _spec("frames.answer", "black-box", "done.answer is exactly the streamed deltas"),
        _spec(
            "prose.count-forms",
            "black-box",
            "every number in the prose is in the form its source's grade permits "
            "(EXACT: N or 'exactly N'; LOWER_BOUND: 'at least N'; SHOWN: 'these N'; UNKNOWN: none)",
        ),
        _spec(
            "prose.completeness",
            "black-box",
            "no completeness claim unless a source is EXACT and complete",
        ),
        _spec(
            "prose.absence",
            "black-box",
            "no 'there are none' unless a source is empty with standing",
        ),
        _spec(
            "prose.population",
            "black-box",
            "no sentence describes the results as a whole unless all of them are on screen",
        ),
        _spec(
            "prose.subject",
            "black-box",
            "a population count and the shown subset never share one sentence",
        ),
        _spec("prose.denial", "black-box", "the prose never restates a denial the notice shows"),
        _spec("reattach.replay", "black-box", "reattach (after=0) replays the streamed frames"),
        _spec(
            "answers.evidence",
            "black-box",
            "across the questions, some answer narrates, carries a graded count and a citation "
            "(silence is no honesty)",
        ),
        _spec("auth.no-token", "black-box", "no bearer → 401"),
        _spec("auth.alg-none", "black-box", "a token with alg=none → 401"),
        _spec(
            "auth.hs256-public-key",
            "black-box",
            "an HS256 token signed with the RS256 public key → 401",
        ),
        _spec("auth.expired", "black-box", "an expired token → 401"),
        _spec(
            "auth.other-user",
            "black-box",
            "another user's turn or session → the same 404 as a missing one",
        ),
        _spec("input.non-strict-json", "black-box", "NaN / Infinity in the body → 4xx, never 5xx"),
        _spec(
            "input.hostile-json",
            "black-box",
            "lone surrogates, out-of-range numbers, deep nesting → 4xx, never 5xx",
        ),
        _spec("input.oversized", "black-box", "an oversized body → 4xx, no echo of the input"),
        _spec("input.bad-after", "black-box", "a bad reattach `after` → 4xx, never 5xx"),
        _spec(
            "controlled.scenarios",
            "controlled",
            "the target accepts X-Beacon-Scenario, so the controlled checks can run",
        ),
        _spec(
            "scenario.legacy-upstream",
            "controlled",
            "no accounting upstream → every count UNKNOWN, no number said",
        ),
        _spec(
            "scenario.inband-502",
            "controlled",
            "a 502 dressed as a result → a failure notice and no count",
        ),
        _spec("scenario.auth-empty", "controlled", "'{}' after an upstream 401 → no 'none'"),
        _spec("scenario.zero-hits", "controlled", "a real zero → absence with its cause"),
        _spec(
            "scenario.saturated-cap",
            "controlled",
            "a saturated row cap → 'at least 3,000', never exact",
        ),
        _spec(
            "scenario.model-overclaims",
            "controlled",
            "a model typing 'I found 10' under a lower bound → its sentence is never published",
        ),
        _spec(
            "scenario.denied-tier",
            "controlled",
            "a denied capability → a denial notice, and the call is never made (/dev/requests)",
        ),
    ]
)


@dataclass(frozen=True, slots=True)
class Verdict:
    """What one check found on one case: held or not, why, and the evidence."""

    ok: bool
    message: str = ""
    evidence: dict[str, Any] | None = None


PASS = Verdict(True)


@dataclass(frozen=True, slots=True)
class Skip:
    """The check could not run against this target; ``reason`` says what it lacked."""

    reason: str


Outcome = Verdict | Skip


@dataclass(frozen=False)  # the baseline re-files a result's status and message
class CaseResult:
    check: str
    case: str
    status: Status
    message: str = ""
    evidence: dict[str, Any] = field(default_factory=dict)
    seconds: float = 0.0
    expected_failure: bool = False  # named by the baseline

    @property
    def id(self) -> str:
        return f"{self.check}::{self.case}"

    @property
    def kind(self) -> Kind:
        return CHECKS[self.check].kind

    def as_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "check": self.check,
            "case": self.case,
            "kind": self.kind,
            "title": CHECKS[self.check].title,
            "status": self.status.value,
            "message": self.message,
            "evidence": self.evidence,
            "seconds": self.seconds,
        }


@dataclass(frozen=False)  # the run adds results, then its time and unmatched baseline
class Report:
    target: str
    mode: Literal["black-box", "controlled"]
    results: list[CaseResult] = field(default_factory=list)
    started_at: str = ""
    seconds: float = 0.0
    baseline: str | None = None
    unmatched_baseline: list[str] = field(default_factory=list)  # entries naming no case

    def tally(self) -> dict[str, int]:
        counts = Counter(r.status.value for r in self.results)
        return {"cases": len(self.results), **{s.value: counts.get(s.value, 0) for s in Status}}

    def of(self, *statuses: Status) -> list[CaseResult]:
        return [r for r in self.results if r.status in statuses]

    @property
    def exit_code(self) -> int:
        return EXIT_FAILED if self.of(Status.FAIL, Status.STALE) else EXIT_OK

    def as_json(self) -> dict[str, Any]:
        return {
            "tool": "beacon verify",
            "target": self.target,
            "mode": self.mode,
            "started_at": self.started_at,
            "seconds": self.seconds,
            "exit_code": self.exit_code,
            "summary": self.tally(),
            "baseline": {"file": self.baseline, "unmatched": self.unmatched_baseline},
            "checks": [r.as_json() for r in self.results],
        }
