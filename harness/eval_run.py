"""Run the gold eval through the full stack and score it (`make eval`)."""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass

from beacon.cli.ask import run_turn
from beacon.wire.sse import SseEvent
from harness.gold import gold_cases
from harness.gold_case import Case
from harness.stack import Stack, running_stack


@dataclass(frozen=True, slots=True)
class Score:
    case: Case
    grade_ok: bool
    slot_answered: bool
    detail: str
    # A graded count of another set than the one asked, stated as the answer: the
    # failure Beacon exists to prevent. Must be 0 over the whole eval.
    wrong_set: bool = False

    @property
    def passed(self) -> bool:
        return self.grade_ok and self.slot_answered and not self.wrong_set

    @property
    def verdict(self) -> str:
        """right (slot and grade), partly (one of them), wrong (neither, or a wrong set)."""
        if self.wrong_set or not (self.grade_ok or self.slot_answered):
            return "wrong"
        return "right" if self.passed else "partly"


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


def _sentences(answer: str) -> list[str]:
    return [part for part in re.split(r"(?<=[.!?。])\s*", answer) if part.strip()]


def _states(sentence: str, value: int, locale: str) -> bool:
    grouped = f"{value:,}".replace(",", GROUPING[locale])
    number = rf"{re.escape(grouped)}|{value}"
    return bool(re.search(rf"(?<![\d.,])({number})(?![\d]|[.,]\d)", sentence))


def stated_wider_set(events: list[SseEvent], answer: str, locale: str) -> bool:
    """A count that left out a constraint of the question, stated in a sentence that
    does not say what it left out (the scope sentence names each unapplied phrase)."""
    counts = _refs(events)["counts"]
    assert isinstance(counts, list)
    for count in counts:
        phrases = [u["phrase"] for u in count.get("scope", {}).get("unapplied", [])]
        total = count.get("total")
        if not phrases or not isinstance(total, int) or total == 0:
            continue
        for sentence in _sentences(answer):
            if _states(sentence, total, locale) and not all(p in sentence for p in phrases):
                return True
    return False


def _disclosure_score(case: Case, events: list[SseEvent], answer: str, grade_ok: bool) -> Score:
    notices = [e.json() for e in events if e.event == "notice"]
    named = " ".join(str(n.get("text", "")) for n in notices if n.get("kind") == "disclosure")
    failed = any(n.get("kind") in ("failure", "denied") for n in notices)
    disclosed = all(p in named for p in case.disclosed) or (failed and not re.search(r"\d", answer))
    wrong = stated_wider_set(events, answer, case.locale)
    detail = "disclosed" if disclosed else f"not disclosed: {named or answer}"
    return Score(case, True, disclosed and not wrong, detail, wrong_set=wrong)


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
    if case.disclosed:
        return _disclosure_score(case, events, answer, grade_ok)
    wrong = stated_wider_set(events, answer, case.locale)
    if case.denied:
        notices = [e.json() for e in events if e.event == "notice"]
        denied = any(n.get("kind") == "denied" for n in notices)
        answered = denied and primary["total"] is None and not re.search(r"\d", answer)
        return Score(case, grade_ok, answered, "denied, no number" if answered else answer)
    if case.members:
        sets = refs.get("sets") or []
        members = tuple(sets[0]["members"]) if isinstance(sets, list) and sets else ()
        answered = members == case.members and all(m in answer for m in case.members)
        detail = f"members {len(members)}/{len(case.members)}"
        return Score(case, grade_ok, answered, detail, wrong_set=wrong)
    if case.grade == "UNKNOWN":
        answered = primary["total"] is None and not re.search(r"\d", answer)
        return Score(case, grade_ok, answered, "no number stated" if answered else answer)
    assert case.value is not None
    answered = primary["total"] == case.value and _stated(
        answer, case.value, case.grade, case.locale
    )
    total = primary["total"]
    # An exact count the gold says is of another size, stated as exact: another set.
    # (A count that says what it left out is judged by its scope sentence, above.)
    scope = primary.get("scope")
    unscoped = not (isinstance(scope, dict) and scope.get("unapplied"))
    if (
        case.grade == "EXACT"
        and primary["grade"] == "EXACT"
        and isinstance(total, int)
        and unscoped
    ):
        wrong = wrong or (total != case.value and _stated(answer, total, "EXACT", case.locale))
    detail = f"total {total} vs gold {case.value}"
    return Score(case, grade_ok, answered, detail, wrong_set=wrong)


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


def table(scores: list[Score]) -> list[str]:
    """right / partly / wrong / wrong-set per question kind, then per locale."""
    lines = [f"{'':<16}{'right':>7}{'partly':>8}{'wrong':>7}{'wrong-set':>11}"]
    for title in ("kind", "locale"):
        lines.append(f"by {title}:")
        keys = [s.case.shape if title == "kind" else s.case.locale for s in scores]
        for name in sorted(set(keys)):
            group = [s for s, key in zip(scores, keys, strict=True) if key == name]
            tally = [sum(s.verdict == v for s in group) for v in ("right", "partly", "wrong")]
            wrong_set = sum(s.wrong_set for s in group)
            lines.append(f"  {name:<14}{tally[0]:>7}{tally[1]:>8}{tally[2]:>7}{wrong_set:>11}")
    return lines


def report(scores: list[Score]) -> str:
    answered = sum(s.slot_answered for s in scores)
    graded = sum(s.grade_ok for s in scores)
    red = [s for s in scores if s.case.red_reason]
    lines = [
        f"gold eval: {len(scores)} questions",
        f"slots answered: {answered}/{len(scores)}",
        f"grades correct: {graded}/{len(scores)}",
        f"wrong-set graded counts: {sum(s.wrong_set for s in scores)} (must be 0)",
        f"kept red on purpose: {sum(not s.passed for s in red)}/{len(red)}",
        *table(scores),
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
    return 1 if unexpected or any(s.wrong_set for s in scores) else 0


if __name__ == "__main__":
    sys.exit(main())
