"""Controlled checks: the canonical scenarios, when ``--mcp`` names the stub the target uses.

The verifier mints its tokens at the stub (``POST /dev/tokens``), picks each
scenario with the ``X-Beacon-Scenario`` header, and reads the stub's request
log (``GET /dev/requests``) to prove a call was never made. Each scenario has
the one verdict SPEC §2.3 measures it for, and before it the evidence the
scenario must produce (its count with value and grade, citations, its notice,
a narration): every rule of the prose holds over an empty ``done``, so silence
is judged here, never passed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from beacon.wire.frames import Grade
from harness.verify.claims import absence
from harness.verify.http import Stub, VerifyHttpError
from harness.verify.judge import split_sentences
from harness.verify.model import PASS, Verdict
from harness.verify.numbers import fold, numerals
from harness.verify.phrases import Count, find_forms
from harness.verify.prose import (
    count_json,
    denial_restated,
    frame_data,
    judge_prose,
    prose_of,
    read_counts,
)
from harness.verify.turns import LIST_QUESTION, PHOTO_QUESTION, TurnPlan, TurnRun, frame_lines
from stub_server.scripted import OVERCLAIM

# The upstream's row cap (SPEC §2.1): an external contract the target must grade, so
# verify states it itself rather than reading the product's setting of it.
ROW_CAP = 3000
DENIED_TIER = "essentials"  # lacks photo_ai: search_photos is denied
PHOTO_TOOL = "search_photos"


@dataclass(frozen=True, slots=True)
class CountShape:
    """A count the scenario's frames must carry: its source, grades it may have, total."""

    source: str | None
    grades: tuple[Grade, ...]
    total: int | None = None  # None: any total (an UNKNOWN count has none)
    has_more: bool | None = None

    def met_by(self, count: Count) -> bool:
        return (
            (self.source is None or count.source == self.source)
            and count.grade in self.grades
            and (self.total is None or count.total == self.total)
            and (self.has_more is None or count.has_more == self.has_more)
        )

    def __str__(self) -> str:
        source = f"{self.source} " if self.source else ""
        total = "" if self.total is None else f" of {self.total:,}"
        more = {None: "", True: " with more", False: " and no more"}[self.has_more]
        return f"a {source}count graded {' or '.join(self.grades)}{total}{more}"


@dataclass(frozen=True, slots=True)
class Expected:
    """The evidence a scenario's turn must carry whatever else it says: an empty ``done``
    breaks no rule of the prose, so each scenario also names what it must produce."""

    counts: tuple[CountShape, ...] = ()
    citations: bool = False
    notices: tuple[str, ...] = ()  # notice kinds
    results: tuple[tuple[str | None, str], ...] = ()  # (tool or any, status) of a tool_result
    narrated: bool = True

    def missing(self, run: TurnRun) -> list[str]:
        counts = read_counts(run.frames)
        lacks = [str(shape) for shape in self.counts if not any(map(shape.met_by, counts))]
        if self.citations and not any(
            refs.get("citations") for refs in frame_data(run.frames, "references")
        ):
            lacks.append("a citation (references.citations)")
        kinds = [n.get("kind") for n in frame_data(run.frames, "notice")]
        lacks += [f"a notice of kind {kind}" for kind in self.notices if kind not in kinds]
        results = [(r.get("tool"), r.get("status")) for r in frame_data(run.frames, "tool_result")]
        for tool, status in self.results:
            if not any((tool is None or t == tool) and s == status for t, s in results):
                of = f" of {tool}" if tool else ""
                lacks.append(f"a tool_result{of} with status {status}")
        if self.narrated and not prose_of(run.frames).strip():
            lacks.append("a narrated answer (delta text)")
        return lacks


@dataclass(frozen=True, slots=True)
class Controlled:
    check: str
    case: str
    plan: TurnPlan
    judge: Callable[[TurnRun, Stub], Verdict]
    expected: Expected = Expected()

    def verdict(self, run: TurnRun, stub: Stub) -> Verdict:
        """The scenario's evidence first (silence fails here), then its one verdict."""
        if lacks := self.expected.missing(run):
            return _fail(
                run, f"the frames lack the scenario's evidence: {'; '.join(lacks)}", missing=lacks
            )
        return self.judge(run, stub)


def _fail(run: TurnRun, message: str, **evidence: Any) -> Verdict:
    return Verdict(
        False,
        message,
        {"frames": frame_lines(run.frames), "prose": prose_of(run.frames), **evidence},
    )


def _numerals(run: TurnRun) -> list[str]:
    return [n.text for n in numerals(fold(prose_of(run.frames)), run.plan.locale)]


def _terminal(run: TurnRun) -> str | None:
    return next((f.event for f in run.frames if f.event in ("done", "error")), None)


def _numbered(counts: Sequence[Count], source: str | None = None) -> list[Count]:
    return [
        c
        for c in counts
        if (source is None or c.source == source) and c.grade != "UNKNOWN" and c.total is not None
    ]


def legacy_upstream(run: TurnRun, stub: Stub) -> Verdict:
    counts = read_counts(run.frames)
    if _terminal(run) != "done":
        return _fail(run, f"the turn ended in {_terminal(run)}, not an answer")
    if not counts or any(c.grade != "UNKNOWN" for c in counts):
        return _fail(run, f"an upstream without accounting was graded {[c.grade for c in counts]}")
    if said := _numerals(run):
        return _fail(run, f"numbers said over UNKNOWN counts: {said}")
    return PASS


def inband_502(run: TurnRun, stub: Stub) -> Verdict:
    results = [r for r in frame_data(run.frames, "tool_result") if r.get("tool") == PHOTO_TOOL]
    if not results or any(r.get("status") != "failure" for r in results):
        return _fail(run, f"the disguised 502 was not a failure: {results}")
    if numbered := _numbered(read_counts(run.frames), PHOTO_TOOL):
        return _fail(run, f"a count over a failure: {[count_json(c) for c in numbered]}")
    if said := _numerals(run):
        return _fail(run, f"numbers said over a failure: {said}")
    return PASS


def auth_empty(run: TurnRun, stub: Stub) -> Verdict:
    for sentence in split_sentences(prose_of(run.frames)):
        if (claim := absence(fold(sentence))) is not None:
            return _fail(run, f"'{{}}' after a 401 was said to be empty: {claim!r} in {sentence!r}")
    if numbered := _numbered(read_counts(run.frames)):
        return _fail(run, f"a count from a refused sign-in: {[count_json(c) for c in numbered]}")
    return PASS


def zero_hits(run: TurnRun, stub: Stub) -> Verdict:
    results = [r for r in frame_data(run.frames, "tool_result") if r.get("tool") == PHOTO_TOOL]
    if not results or any(r.get("emptiness") != "empty" for r in results):
        return _fail(run, f"an accounted zero was not graded empty: {results}")
    absences = [n for n in frame_data(run.frames, "notice") if n.get("kind") == "absence"]
    if not absences or not all(str(n.get("text", "")).strip() for n in absences):
        return _fail(run, "no absence notice giving its cause")
    return PASS


def saturated_cap(run: TurnRun, stub: Stub) -> Verdict:
    counts = [c for c in read_counts(run.frames) if c.total == ROW_CAP]
    if not counts:
        return _fail(run, f"no count pinned at the {ROW_CAP:,} row cap")
    if not all(c.grade == "LOWER_BOUND" and c.has_more for c in counts):
        return _fail(
            run, f"a saturated cap not graded a lower bound: {[count_json(c) for c in counts]}"
        )
    said = [f for f in find_forms(fold(prose_of(run.frames)), counts) if f.kind == "count"]
    if not said:
        return _fail(run, f"the prose does not say 'at least {ROW_CAP:,}'")
    if found := judge_prose(prose_of(run.frames), run.frames, run.plan.locale):
        return _fail(run, f"{found[0].rule} {found[0].token!r} in {found[0].sentence!r}")
    return PASS


def model_overclaims(run: TurnRun, stub: Stub) -> Verdict:
    prose = prose_of(run.frames)
    if _terminal(run) != "done":
        return _fail(run, f"the turn ended in {_terminal(run)}: nothing was answered")
    if OVERCLAIM in prose or "found 10" in prose:
        return _fail(run, "the model's overclaim was published")
    bounds = [c for c in read_counts(run.frames) if c.grade == "LOWER_BOUND"]
    if not [f for f in find_forms(fold(prose), bounds) if f.kind == "count"]:
        return _fail(run, "the prose does not say the lower bound in its form ('at least N')")
    if found := judge_prose(prose, run.frames, run.plan.locale):
        return _fail(run, f"{found[0].rule} {found[0].token!r} in {found[0].sentence!r}")
    return PASS


def denied_tier(run: TurnRun, stub: Stub) -> Verdict:
    try:
        entries = stub.requests()
    except VerifyHttpError as exc:
        return _fail(run, str(exc))
    mine = [e for e in entries if e.get("turn") == run.turn_id or e.get("sub") == run.sub]
    if not mine:
        return _fail(
            run,
            "no request of this turn reached the stub at --mcp: is it the target's upstream?",
        )
    made = [e for e in mine if e.get("tool") == PHOTO_TOOL]
    if made:
        return _fail(run, "the denied call was made anyway", requests=made[:5])
    if restated := denial_restated(prose_of(run.frames), run.frames):
        return _fail(run, f"the denial was restated: {restated[0].sentence!r}")
    return PASS


DENIED = Expected(notices=("denied",))
CONTROLLED: tuple[Controlled, ...] = (
    Controlled(
        "scenario.legacy-upstream",
        "list-en",
        TurnPlan("legacy-upstream", LIST_QUESTION, scenario="legacy-upstream"),
        legacy_upstream,
        Expected(counts=(CountShape(None, (Grade.UNKNOWN,)),)),
    ),
    Controlled(
        "scenario.inband-502",
        "photos-en",
        TurnPlan("inband-502", PHOTO_QUESTION, scenario="inband-502"),
        inband_502,
        Expected(
            counts=(CountShape(PHOTO_TOOL, (Grade.UNKNOWN,)),),
            notices=("failure",),
            results=((PHOTO_TOOL, "failure"),),
        ),
    ),
    Controlled(
        "scenario.auth-empty",
        "photos-en",
        TurnPlan("auth-empty", PHOTO_QUESTION, scenario="auth-empty"),
        auth_empty,
        Expected(notices=("failure",), results=((None, "failure"),)),
    ),
    Controlled(
        "scenario.zero-hits",
        "photos-en",
        TurnPlan("zero-hits", PHOTO_QUESTION, scenario="zero-hits"),
        zero_hits,
        Expected(
            counts=(CountShape(PHOTO_TOOL, (Grade.EXACT, Grade.LOWER_BOUND), 0, has_more=False),),
            notices=("absence",),
            results=((PHOTO_TOOL, "ok"),),
        ),
    ),
    Controlled(
        "scenario.saturated-cap",
        "list-en",
        TurnPlan("saturated-cap", LIST_QUESTION, scenario="default"),
        saturated_cap,
        Expected(
            counts=(CountShape(None, (Grade.LOWER_BOUND,), ROW_CAP, has_more=True),),
            citations=True,
        ),
    ),
    Controlled(
        "scenario.model-overclaims",
        "photos-en",
        TurnPlan("model-overclaims", PHOTO_QUESTION, scenario="model-overclaims"),
        model_overclaims,
        Expected(counts=(CountShape(PHOTO_TOOL, (Grade.LOWER_BOUND,)),), citations=True),
    ),
    Controlled(
        "scenario.denied-tier",
        "default-model",
        TurnPlan("denied-tier", PHOTO_QUESTION, scenario="default", role="denied"),
        denied_tier,
        DENIED,
    ),
    Controlled(
        "scenario.denied-tier",
        "restating-model",
        TurnPlan(
            "denied-restating", PHOTO_QUESTION, scenario="model-restates-denial", role="denied"
        ),
        denied_tier,
        DENIED,
    ),
)
