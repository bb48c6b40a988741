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


# The scorer's own reading of a stated count, per locale (typed here, never taken from
# the renderer): how a bound is worded, how thousands are grouped, how "none" is said.
AT_LEAST = {
    "en": "at least",
    "de": "mindestens",
    "es": "al menos",
    "ko": "최소",
    "ja": "少なくとも",
}
GROUPING = {"en": ",", "de": ".", "es": ".", "ko": ",", "ja": ","}
NONE_SAID = {
    "en": r"\b(none|no)\b",
    "de": r"\bkeine?\b",
    "es": r"\b(ningun[oa]?|no hay)\b",
    "ko": r"없습니다",
    "ja": r"ありません",
}
# An answer for a non-English reader that says any of these mixed languages.
ENGLISH_WORDS = re.compile(
    r"\b(the|has|have|these|are|is|shown|matching|records|count|exactly|at least|cards)\b",
    re.IGNORECASE,
)
SCRIPTS = {"ko": re.compile(r"[\uac00-\ud7af]"), "ja": re.compile(r"[\u3040-\u30ff]")}


def _stated(answer: str, value: int, grade: str, locale: str = "en") -> bool:
    if value == 0 and grade == "EXACT":
        return bool(re.search(NONE_SAID[locale], answer, re.IGNORECASE))  # said, not numbered
    grouped = f"{value:,}".replace(",", GROUPING[locale])
    number = rf"{re.escape(grouped)}|{value}"
    bound = re.escape(AT_LEAST[locale])
    if grade == "EXACT":
        # An exact slot is answered only by an unqualified number, never "at least N".
        return any(
            not re.search(rf"{bound}\s*$", answer[: m.start()])
            for m in re.finditer(rf"(?<![\d.,])({number})(?![\d]|[.,]\d)", answer)
        )
    return bool(re.search(rf"{bound}\s*({number})(?![\d]|[.,]\d)", answer))


def in_locale(answer: str, locale: str) -> bool:
    """Written in the reader's language: no English filler in another locale's answer."""
    if locale == "en":
        return True
    script = SCRIPTS.get(locale)
    if script is not None and not script.search(answer):
        return False
    return not ENGLISH_WORDS.search(answer)


def score(case: Case, events: list[SseEvent]) -> Score:
    if events[-1].event != "done":
        return Score(case, False, False, f"ended in {events[-1].event}")
    refs = _refs(events)
    counts = refs["counts"]
    assert isinstance(counts, list)
    primary = counts[0] if counts else {"grade": "UNKNOWN", "total": None}
    answer = str(events[-1].json()["answer"])
    grade_ok = primary["grade"] == (case.honest_grade or case.grade)
    if not in_locale(answer, case.locale):
        return Score(case, grade_ok, False, f"not written in {case.locale}: {answer}")
    if case.denied:
        notices = [e.json() for e in events if e.event == "notice"]
        denied = any(n.get("kind") == "denied" for n in notices)
        answered = denied and primary["total"] is None and not re.search(r"\d", answer)
        return Score(case, grade_ok, answered, "denied, no number" if answered else answer)
    if case.members:
        sets = refs.get("sets") or []
        members = tuple(sets[0]["members"]) if isinstance(sets, list) and sets else ()
        answered = members == case.members and all(m in answer for m in case.members)
        return Score(case, grade_ok, answered, f"members {len(members)}/{len(case.members)}")
    if case.grade == "UNKNOWN":
        answered = primary["total"] is None and not re.search(r"\d", answer)
        return Score(case, grade_ok, answered, "no number stated" if answered else answer)
    assert case.value is not None
    answered = primary["total"] == case.value and _stated(
        answer, case.value, case.grade, case.locale
    )
    return Score(case, grade_ok, answered, f"total {primary['total']} vs gold {case.value}")


def run(stack: Stack, cases: list[Case]) -> list[Score]:
    tokens: dict[tuple[str, ...] | None, str] = {}

    def token(tiers: tuple[str, ...] | None) -> str:
        if tiers not in tokens:
            tokens[tiers] = (
                stack.token(sub="gold-eval")
                if tiers is None
                else stack.token(sub="gold-eval", tiers=tiers)
            )
        return tokens[tiers]

    return [
        score(
            c,
            run_turn(
                stack.chat_url,
                {"message": c.question, "locale": c.locale},
                token=token(c.tiers),
                scenario=c.scenario,
            ),
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
