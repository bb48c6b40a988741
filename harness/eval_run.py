"""Run the gold eval through the full stack and score it (`make eval`)."""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass

from beacon.cli.ask import run_turn
from beacon.wire.sse import SseEvent
from harness.gold import Case, gold_cases
from harness.stack import Stack, running_stack


@dataclass(frozen=True, slots=True)
class Score:
    case: Case
    grade_ok: bool
    slot_answered: bool
    detail: str

    @property
    def passed(self) -> bool:
        return self.grade_ok and self.slot_answered


def _refs(events: list[SseEvent]) -> dict[str, object]:
    return next(e.json() for e in events if e.event == "references")


def _stated(answer: str, value: int, grade: str) -> bool:
    if value == 0 and grade == "EXACT":
        return bool(re.search(r"\b(none|no)\b", answer, re.IGNORECASE))  # said, not numbered
    number = rf"{value:,}|{value}"
    if grade == "EXACT":
        # An exact slot is answered only by an unqualified number, never "at least N".
        return bool(re.search(rf"(?<!at least )(?<![\d,])({number})(?![\d,])", answer))
    return bool(re.search(rf"at least ({number})(?![\d,])", answer))


def score(case: Case, events: list[SseEvent]) -> Score:
    if events[-1].event != "done":
        return Score(case, False, False, f"ended in {events[-1].event}")
    refs = _refs(events)
    counts = refs["counts"]
    assert isinstance(counts, list)
    primary = counts[0] if counts else {"grade": "UNKNOWN", "total": None}
    answer = str(events[-1].json()["answer"])
    grade_ok = primary["grade"] == (case.honest_grade or case.grade)
    if case.members:
        sets = refs.get("sets") or []
        members = tuple(sets[0]["members"]) if isinstance(sets, list) and sets else ()
        answered = members == case.members and all(m in answer for m in case.members)
        return Score(case, grade_ok, answered, f"members {len(members)}/{len(case.members)}")
    if case.grade == "UNKNOWN":
        answered = primary["total"] is None and not re.search(r"\d", answer)
        return Score(case, grade_ok, answered, "no number stated" if answered else answer)
    assert case.value is not None
    answered = primary["total"] == case.value and _stated(answer, case.value, case.grade)
    return Score(case, grade_ok, answered, f"total {primary['total']} vs gold {case.value}")


def run(stack: Stack, cases: list[Case]) -> list[Score]:
    token = stack.token(sub="gold-eval")
    return [
        score(
            c, run_turn(stack.chat_url, {"message": c.question}, token=token, scenario=c.scenario)
        )
        for c in cases
    ]


def report(scores: list[Score]) -> str:
    answered = sum(s.slot_answered for s in scores)
    graded = sum(s.grade_ok for s in scores)
    red = [s for s in scores if s.case.red_reason]
    lines = [
        f"gold eval: {len(scores)} questions",
        f"slots answered: {answered}/{len(scores)}",
        f"grades correct: {graded}/{len(scores)}",
        f"kept red on purpose: {sum(not s.passed for s in red)}/{len(red)}",
    ]
    lines += [f"  RED {s.case.id}: {s.case.red_reason}" for s in red if not s.passed]
    lines += [
        f"  FAIL {s.case.id}: {s.detail}" for s in scores if not s.passed and not s.case.red_reason
    ]
    return "\n".join(lines)


def main() -> int:
    with running_stack() as stack:
        scores = run(stack, gold_cases())
    print(report(scores))
    unexpected = [s for s in scores if s.passed == bool(s.case.red_reason)]
    return 1 if unexpected else 0


if __name__ == "__main__":
    sys.exit(main())
