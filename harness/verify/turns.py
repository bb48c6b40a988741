"""Turns the run makes, and the checks that judge every one of them.

Each question is asked once (``POST /v1/turns``), its frames read to the end,
then replayed (``GET /v1/turns/{id}/events?after=0``). The per-turn checks
read only those frames: the frame protocol (order, seq, one terminal,
references before narration, the answer the deltas spell), the prose (the
narration guard's rules, ``prose.py``) and the replay.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from beacon.wire.audit import DropRule
from beacon.wire.frames import FRAME_MODELS, TERMINAL_FRAMES
from beacon.wire.sse import SseEvent
from harness.verify.http import Streamed, Wire
from harness.verify.model import PASS, Verdict
from harness.verify.prose import (
    NUMBER_RULES,
    Finding,
    denial_restated,
    judge_prose,
    prose_of,
    standing_summary,
)

COUNT_QUESTION = "How many open safety findings are on level 3 of Harbor Tower?"
LIST_QUESTION = "List all panoramas in Harbor Tower"
PHOTO_QUESTION = "Photos of missing hard hats in Harbor Tower"
FRAME_EXCERPT = 40  # frames kept as evidence
DATA_EXCERPT = 240  # characters of each frame's data kept as evidence
# Frames of the gathering stage: none may follow the narration (a late references frame
# is frames.references-before-delta's finding, not this one's).
GATHERING = frozenset({"plan", "tool_call", "tool_result"})


@dataclass(frozen=True, slots=True)
class TurnPlan:
    case: str
    message: str
    locale: str = "en"
    mode: str = "single"
    scenario: str | None = None
    role: str = "user"  # whose token: "user" or "denied" (a tier that lacks photo_ai)

    def body(self) -> dict[str, Any]:
        return {"mode": self.mode, "message": self.message, "locale": self.locale}


# The questions every run asks: the three count shapes (an exact aggregate, a
# saturated row cap, a vector search's lower bound) across the five locales, and
# one chat-mode turn (its session is what another user must not see).
DEFAULT_TURNS: tuple[TurnPlan, ...] = (
    TurnPlan("count-en", COUNT_QUESTION, "en"),
    TurnPlan("count-de", COUNT_QUESTION, "de"),
    TurnPlan("list-en", LIST_QUESTION, "en"),
    TurnPlan("list-ko", LIST_QUESTION, "ko"),
    TurnPlan("photos-en", PHOTO_QUESTION, "en"),
    TurnPlan("photos-es", PHOTO_QUESTION, "es"),
    TurnPlan("photos-ja", PHOTO_QUESTION, "ja"),
    TurnPlan("chat-en", COUNT_QUESTION, "en", mode="chat"),
)
_ROTATION = ("en", "de", "es", "ko", "ja")


def question_turns(questions: Sequence[str]) -> tuple[TurnPlan, ...]:
    """Given questions (``--question``) in place of the defaults: each in one locale of
    the rotation, the first in every locale, and the first once more in chat mode."""
    plans: list[TurnPlan] = []
    for i, question in enumerate(questions):
        locales = _ROTATION if i == 0 else (_ROTATION[i % len(_ROTATION)],)
        plans += [TurnPlan(f"q{i + 1}-{loc}", question, loc) for loc in locales]
    plans.append(TurnPlan("q1-chat", questions[0], "en", mode="chat"))
    return tuple(plans)


@dataclass(frozen=False)  # the replay is attached once the stream has ended
class TurnRun:
    plan: TurnPlan
    streamed: Streamed
    replay: Streamed | None
    seconds: float
    sub: str | None = None  # the token's subject, when the run minted it

    @property
    def frames(self) -> list[SseEvent]:
        return self.streamed.frames

    def start(self) -> dict[str, Any]:
        for frame in self.frames:
            if frame.event == "start":
                try:
                    return frame.json()
                except (ValueError, AssertionError):
                    return {}
        return {}

    @property
    def turn_id(self) -> str | None:
        value = self.start().get("turn_id")
        return value if isinstance(value, str) else None


def run_turn(wire: Wire, plan: TurnPlan, token: str | None, sub: str | None = None) -> TurnRun:
    started = time.perf_counter()
    streamed = wire.turn(plan.body(), token, plan.scenario)
    seconds = round(time.perf_counter() - started, 3)
    run = TurnRun(plan, streamed, None, seconds, sub)
    if streamed.ok and run.turn_id is not None:
        run.replay = wire.replay(run.turn_id, token)
    return run


# --- evidence ---------------------------------------------------------------------------


def frame_lines(frames: Sequence[SseEvent], limit: int = FRAME_EXCERPT) -> list[str]:
    lines = [f"{f.id} {f.event} {f.data[:DATA_EXCERPT]}" for f in frames[:limit]]
    if len(frames) > limit:
        lines.append(f"… {len(frames) - limit} more frames")
    return lines


def _fail(message: str, run: TurnRun, **evidence: Any) -> Verdict:
    return Verdict(False, message, {"frames": frame_lines(run.frames), **evidence})


def _json(frame: SseEvent) -> dict[str, Any] | None:
    try:
        return frame.json()
    except (ValueError, AssertionError):
        return None


# --- the per-turn checks ------------------------------------------------------------------


def check_stream(run: TurnRun) -> Verdict:
    s = run.streamed
    if s.error is not None:
        return Verdict(False, f"the turn could not be read: {s.error}", {"status": s.status})
    if s.status != 200 or not s.content_type.startswith("text/event-stream"):
        return Verdict(
            False,
            f"the turn was answered {s.status} ({s.content_type or 'no content type'}), "
            "not an event stream",
            {"status": s.status, "body": s.body},
        )
    if not s.frames:
        return Verdict(False, "the stream carried no frame", {"status": s.status})
    return PASS


def check_schema(run: TurnRun) -> Verdict:
    for frame in run.frames:
        model = FRAME_MODELS.get(frame.event)
        if model is None:
            return _fail(f"frame {frame.id}: unknown frame type {frame.event!r}", run)
        data = _json(frame)
        if data is None:
            return _fail(f"frame {frame.id} ({frame.event}): data is not a JSON object", run)
        try:
            model.model_validate(data)
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"]) or "(data)"
            return _fail(f"frame {frame.id} ({frame.event}): {where}: {first['msg']}", run)
    return PASS


def seq_problem(frames: Sequence[SseEvent]) -> str | None:
    """seq 1, 2, … without a gap, each equal to its SSE id, all frames of one turn."""
    turn_ids: set[str] = set()
    for due, frame in enumerate(frames, start=1):
        data = _json(frame) or {}
        try:
            seq = int(frame.id or "")
        except ValueError:
            return f"a {frame.event} frame carries no numeric SSE id ({frame.id!r})"
        if data.get("seq") != seq:
            return f"frame {seq} ({frame.event}): data.seq is {data.get('seq')!r}"
        if seq != due:
            return f"seq goes from {due - 1} to {seq} ({frame.event})"
        turn_ids.add(str(data.get("turn_id")))
    if len(turn_ids) > 1:
        return f"frames of one stream name several turns: {sorted(turn_ids)}"
    return None


def order_problem(frames: Sequence[SseEvent]) -> str | None:
    """``start`` first and once, one references frame, nothing gathered after a delta."""
    kinds = [f.event for f in frames]
    if kinds[0] != "start":
        return f"the first frame is {kinds[0]!r}, not start"
    if kinds.count("start") > 1:
        return "more than one start frame"
    if kinds.count("references") > 1:
        return f"{kinds.count('references')} references frames: the counts moved"
    if "delta" in kinds:
        first = kinds.index("delta")
        late = [f"{f.id} {f.event}" for f in frames[first:] if f.event in GATHERING]
        if late:
            return f"gathered after the narration began: {late[:5]}"
    return None


def terminal_problem(frames: Sequence[SseEvent]) -> str | None:
    """Exactly one terminal (done or error), and it is the last frame."""
    terminals = [f"{f.id} {f.event}" for f in frames if f.event in TERMINAL_FRAMES]
    if len(terminals) != 1:
        return f"{len(terminals)} terminal frames, not exactly one: {terminals}"
    if frames[-1].event not in TERMINAL_FRAMES:
        return f"the terminal ({terminals[0]}) is not the last frame"
    return None


def frame_problem(frames: Sequence[SseEvent]) -> str | None:
    """Why a stream's frames break the frame protocol (seq, order, one terminal), or None:
    the rules every verified turn is held to, for a caller with only the frames (bench)."""
    if not frames:
        return "the stream carried no frame"
    for rule in (seq_problem, order_problem, terminal_problem):
        if (problem := rule(frames)) is not None:
            return problem
    return None


def _frame_check(rule: Callable[[Sequence[SseEvent]], str | None]) -> Callable[[TurnRun], Verdict]:
    def check(run: TurnRun) -> Verdict:
        problem = rule(run.frames)
        return PASS if problem is None else _fail(problem, run)

    return check


check_seq = _frame_check(seq_problem)
check_order = _frame_check(order_problem)
check_one_terminal = _frame_check(terminal_problem)


def check_references_first(run: TurnRun) -> Verdict:
    kinds = [f.event for f in run.frames]
    if "delta" not in kinds:
        return PASS
    first_delta = kinds.index("delta")
    if "references" not in kinds[:first_delta]:
        delta = run.frames[first_delta]
        return _fail(
            f"delta {delta.id} is published before any references frame",
            run,
            prose=prose_of(run.frames),
        )
    return PASS


def check_answer(run: TurnRun) -> Verdict:
    done = next((_json(f) for f in run.frames if f.event == "done"), None)
    if done is None:
        return PASS  # an error published no answer; a stream without a terminal is one-terminal's
    prose = prose_of(run.frames)
    if done.get("answer") != prose:
        return _fail(
            "done.answer differs from the deltas the client was shown",
            run,
            prose=prose,
            answer=str(done.get("answer"))[:2000],
        )
    return PASS


def _prose_verdict(run: TurnRun, findings: list[Finding], what: str) -> Verdict:
    if not findings:
        return PASS
    first = findings[0]
    return _fail(
        f"{what}: {first.rule} {first.token!r} in {first.sentence!r}",
        run,
        prose=prose_of(run.frames),
        sentences=[
            {"rule": f.rule, "token": f.token, "sentence": f.sentence, "judged_as": f.judged_as}
            for f in findings
        ],
        standing=standing_summary(run.frames),
    )


def _guarded(run: TurnRun, rules: frozenset[str], what: str) -> Verdict:
    findings = judge_prose(prose_of(run.frames), run.frames, run.plan.locale)
    return _prose_verdict(run, [f for f in findings if f.rule in rules], what)


def check_count_forms(run: TurnRun) -> Verdict:
    return _guarded(run, NUMBER_RULES, "a number outside the form its grade permits")


def check_completeness(run: TurnRun) -> Verdict:
    return _guarded(
        run,
        frozenset({DropRule.COMPLETENESS_CLAIM}),
        "a completeness claim without an EXACT complete count",
    )


def check_absence(run: TurnRun) -> Verdict:
    return _guarded(run, frozenset({DropRule.ABSENCE_CLAIM}), "an absence claim without standing")


def check_population(run: TurnRun) -> Verdict:
    return _guarded(
        run,
        frozenset({DropRule.POPULATION_CLAIM}),
        "the results described as a whole from a sample (a population claim)",
    )


def check_subject(run: TurnRun) -> Verdict:
    return _guarded(
        run,
        frozenset({DropRule.SUBJECT_MIXED}),
        "a population count and a shown subset share one sentence",
    )


def check_denial(run: TurnRun) -> Verdict:
    found = denial_restated(prose_of(run.frames), run.frames)
    return _prose_verdict(run, found, "the prose restates the denial its notice shows")


def _triples(frames: Sequence[SseEvent]) -> list[tuple[str, str | None, str]]:
    return [(f.event, f.id, f.data) for f in frames]


def check_replay(run: TurnRun) -> Verdict:
    if run.turn_id is None:
        return _fail("the stream named no turn_id to reattach to", run)
    replay = run.replay
    if replay is None or not replay.ok:
        status = None if replay is None else replay.status
        body = "" if replay is None else replay.body or (replay.error or "")
        return _fail(f"reattach with after=0 answered {status}: {body[:300]}", run)
    streamed, replayed = _triples(run.frames), _triples(replay.frames)
    for i, (a, b) in enumerate(zip(streamed, replayed, strict=False)):
        if a != b:
            return _fail(
                f"replayed frame {i + 1} differs from the streamed one",
                run,
                streamed=f"{a[1]} {a[0]} {a[2][:1000]}",
                replayed=f"{b[1]} {b[0]} {b[2][:1000]}",
            )
    if len(streamed) != len(replayed):
        return _fail(
            f"{len(streamed)} frames streamed, {len(replayed)} replayed",
            run,
            replayed_frames=frame_lines(replay.frames),
        )
    return PASS


TurnCheck = Callable[[TurnRun], Verdict]
# Check name → how it judges one turn; every turn of the run goes through each.
TURN_CHECKS: dict[str, TurnCheck] = {
    "turn.stream": check_stream,
    "frames.schema": check_schema,
    "frames.seq": check_seq,
    "frames.order": check_order,
    "frames.one-terminal": check_one_terminal,
    "frames.references-before-delta": check_references_first,
    "frames.answer": check_answer,
    "prose.count-forms": check_count_forms,
    "prose.completeness": check_completeness,
    "prose.absence": check_absence,
    "prose.population": check_population,
    "prose.subject": check_subject,
    "prose.denial": check_denial,
    "reattach.replay": check_replay,
}
