"""The prose a target published, judged by verify's own judge (``judge.py``).

A published answer has its slots rendered already. The judge is given the
turn's evidence as the frames carry it: a count per ``references.counts``
entry (grade, total, displayed, has_more, and whether a ``tool_result`` of its
source was graded empty with standing), and the non-count values the cards
carry (ids, titles, levels, dates) and the sets read from fields. A call's
arguments are the planner's words, not evidence: they give only the level
numbers and dates bound to their fields, never a bare string.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from beacon.lexicon.levels import level_numbers
from beacon.policy.vocabulary import licensing_words
from beacon.wire.audit import DropRule
from beacon.wire.frames import Grade
from beacon.wire.sse import SseEvent
from harness.verify.judge import Evidence, Finding, judge_text, split_sentences
from harness.verify.phrases import LOCALES, Count
from harness.verify.values import Values

__all__ = ["LOCALES", "NUMBER_RULES", "Count", "Finding"]
NUMBER_RULES = frozenset({DropRule.FREE_COUNT, DropRule.NUMBER_UNDER_UNKNOWN})
_BOUND = re.compile(r"\d{4}-\d{2}-\d{2}")


def count_json(count: Count) -> dict[str, Any]:
    return {
        "source": count.source,
        "grade": count.grade,
        "total": count.total,
        "displayed": count.displayed,
        "has_more": count.has_more,
    }


def frame_data(frames: Sequence[SseEvent], kind: str) -> list[dict[str, Any]]:
    """The JSON data of every ``kind`` frame; one whose data is not a JSON object is skipped."""
    out = []
    for frame in frames:
        if frame.event == kind:
            try:
                out.append(frame.json())
            except (ValueError, AssertionError):
                continue
    return out


def count_entries(frames: Sequence[SseEvent]) -> list[dict[str, Any]]:
    """The ``counts`` of the turn's one ``references`` frame (none: no references)."""
    found = [c for refs in frame_data(frames, "references") for c in refs.get("counts") or []]
    return [c for c in found if isinstance(c, dict)]


def final_answer(frames: Sequence[SseEvent]) -> str:
    """The answer the turn's ``done`` frame carries ("" when it ended otherwise)."""
    return "".join(str(done.get("answer", "")) for done in frame_data(frames, "done"))


def sentences_stating(text: str, number: int) -> list[str]:
    """The sentences of ``text`` that state ``number`` (with or without grouping)."""
    spelled = {str(number), f"{number:,}"}
    return [
        s
        for s in re.split(r"(?<=[.!?])\s+", text)
        if any(re.search(rf"(?<![\d,.]){re.escape(n)}(?![\d,])", s) for n in spelled)
    ]


def stated_without(text: str, numbers: Iterable[int], phrase: str) -> list[str]:
    """The sentences of ``text`` that state one of ``numbers`` without naming ``phrase``
    (a count of another set may be said only where what it left out is said too)."""
    return [s for n in numbers for s in sentences_stating(text, n) if phrase not in s]


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _grade(value: Any) -> Grade:
    # A grade nobody defined permits no number.
    return Grade(value) if value in tuple(Grade) else Grade.UNKNOWN


def _emptied(frames: Sequence[SseEvent]) -> set[str]:
    """Sources a ``tool_result`` graded empty with standing (and never non-empty)."""
    seen: dict[str, set[str]] = {}
    for r in frame_data(frames, "tool_result"):
        if r.get("status") == "ok":
            seen.setdefault(str(r.get("tool")), set()).add(str(r.get("emptiness")))
    return {tool for tool, kinds in seen.items() if "empty" in kinds and "non_empty" not in kinds}


def read_counts(frames: Sequence[SseEvent]) -> list[Count]:
    empty = _emptied(frames)
    counts: list[Count] = []
    for refs in frame_data(frames, "references"):
        entries = refs.get("counts")
        for entry in entries if isinstance(entries, list) else []:
            if not isinstance(entry, Mapping):
                continue
            grade, total = _grade(entry.get("grade")), _int(entry.get("total"))
            has_more = bool(entry.get("has_more", True))
            source = str(entry.get("source", ""))
            grounded_zero = grade == "EXACT" and total == 0 and not has_more
            counts.append(
                Count(
                    # ours (v1, v2 …): a target's slot names are not trusted as slot syntax
                    f"v{len(counts) + 1}",
                    grade,
                    total,
                    _int(entry.get("displayed")) or 0,
                    has_more,
                    may_say_none=grounded_zero or source in empty,
                    source=source,
                )
            )
    return counts


def prose_of(frames: Sequence[SseEvent]) -> str:
    return "".join(str(d.get("text", "")) for d in frame_data(frames, "delta"))


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, Mapping):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _strings(item)


def evidence_of(frames: Sequence[SseEvent], counts: Sequence[Count]) -> Evidence:
    """The counts and every non-count value the frames carry (what may be named)."""
    values: list[str] = []
    levels: list[int] = []
    for refs in frame_data(frames, "references"):
        for card in refs.get("citations") or []:
            if isinstance(card, Mapping):
                values += [str(card[k]) for k in ("id", "title", "level", "date") if card.get(k)]
                levels += list(level_numbers(card))
        values += list(_strings(refs.get("sets") or []))
    for call in frame_data(frames, "tool_call"):
        arguments = call.get("arguments") or {}
        values += [m.group() for text in _strings(arguments) for m in _BOUND.finditer(text)]
        levels += list(level_numbers(arguments))
    return Evidence(tuple(counts), Values(tuple(dict.fromkeys(values)), frozenset(levels)))


def judge_prose(prose: str, frames: Sequence[SseEvent], locale: str) -> list[Finding]:
    """Every sentence that may not stand on the turn's evidence, with its first broken rule."""
    counts = read_counts(frames)
    return judge_text(prose, evidence_of(frames, counts), locale if locale in LOCALES else "en")


def denial_restated(prose: str, frames: Sequence[SseEvent]) -> list[Finding]:
    """Sentences that say again, in licensing words, what a denial notice already shows."""
    denied = any(n.get("kind") == "denied" for n in frame_data(frames, "notice")) or any(
        r.get("status") == "denied" for r in frame_data(frames, "tool_result")
    )
    if not denied:
        return []
    findings = []
    for sentence in split_sentences(prose):
        words = licensing_words(sentence)
        if words:
            findings.append(Finding("denial", ", ".join(words), sentence.strip(), sentence.strip()))
    return findings


def standing_summary(frames: Sequence[SseEvent]) -> dict[str, Any]:
    counts = read_counts(frames)
    evidence = evidence_of(frames, counts)
    return {
        "counts": [count_json(c) for c in counts],
        "strict": evidence.strict,
        "complete": evidence.complete,
        "may_say_none": evidence.may_say_none,
    }
