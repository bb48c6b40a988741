"""The prose a target published, judged by the narration guard's own rules.

Beacon's guard (``beacon.adjudication.guard.judge``) reads the model's text
*before* the slots are rendered: ``{{count:c1}}`` is code's number, anything
else is the model's. A published answer has its slots rendered, so the
verifier turns the forms each count's grade permits back into slots first —
``PHRASES`` of ``beacon.adjudication.slots``, in every one of the five
locales, with the number in each locale's grouping — and then asks ``judge``,
with a ``Standing`` built from the ``references`` frame's counts (grade,
total, displayed) and the non-count values the frames carry (citation ids,
titles, levels, dates, the arguments of each call). Any number left over is a
free-typed count; a "none", "all" or "exactly" is held to the same standing.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from beacon.adjudication import Grade, Source, Standing, build_standing, judge
from beacon.adjudication.emptiness import Emptiness
from beacon.adjudication.numerals import normalize
from beacon.adjudication.slots import PHRASES, format_number, split_sentences
from beacon.adjudication.standing import strings_in
from beacon.policy.vocabulary import licensing_words
from beacon.wire.sse import SseEvent

LOCALES: tuple[str, ...] = tuple(PHRASES)
_LATIN_START = re.compile(r"^[A-Za-z]")
NUMBER_RULES = frozenset({"free_count", "number_under_unknown"})


@dataclass(frozen=True, slots=True)
class Count:
    """One ``references.counts[]`` entry as the verifier reads it (forgivingly)."""

    slot: str  # ours (v1, v2 …): a target's slot names are not trusted as slot syntax
    source: str
    grade: Grade
    total: int | None
    displayed: int
    has_more: bool

    def as_json(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "grade": self.grade.value,
            "total": self.total,
            "displayed": self.displayed,
            "has_more": self.has_more,
        }


@dataclass(frozen=True, slots=True)
class Finding:
    rule: str  # free_count | number_under_unknown | completeness_claim | absence_claim | denial
    token: str
    sentence: str
    judged_as: str  # the sentence with the permitted forms turned back into slots


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


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _grade(value: Any) -> Grade:
    try:
        return Grade(value)
    except ValueError:
        return Grade.UNKNOWN  # a grade nobody defined permits no number


def read_counts(frames: Sequence[SseEvent]) -> list[Count]:
    counts: list[Count] = []
    for refs in frame_data(frames, "references"):
        entries = refs.get("counts")
        for entry in entries if isinstance(entries, list) else []:
            if not isinstance(entry, Mapping):
                continue
            counts.append(
                Count(
                    f"v{len(counts) + 1}",
                    str(entry.get("source", "")),
                    _grade(entry.get("grade")),
                    _int(entry.get("total")),
                    _int(entry.get("displayed")) or 0,
                    bool(entry.get("has_more", True)),
                )
            )
    return counts


def prose_of(frames: Sequence[SseEvent]) -> str:
    return "".join(str(d.get("text", "")) for d in frame_data(frames, "delta"))


def _levels(value: Any) -> Iterator[int]:
    if isinstance(value, Mapping):
        for key, item in value.items():
            if key == "level_number" and _int(item) is not None:
                yield int(item)
            else:
                yield from _levels(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _levels(item)


def _emptiness(frames: Sequence[SseEvent], tool: str) -> Emptiness:
    seen = {
        str(r.get("emptiness"))
        for r in frame_data(frames, "tool_result")
        if r.get("tool") == tool and r.get("status") == "ok"
    }
    if "non_empty" in seen:
        return "non_empty"
    return "empty" if "empty" in seen else "unknown"


def standing_of(frames: Sequence[SseEvent], counts: Sequence[Count]) -> Standing:
    """The standing the frames give: a source per count, and every non-count value
    the evidence carries (what Beacon's own guard protects, read from the wire)."""
    sources = []
    for count in counts:
        emptiness = _emptiness(frames, count.source)
        grounded_zero = count.grade is Grade.EXACT and count.total == 0 and not count.has_more
        sources.append(
            Source(
                count.slot,
                count.grade,
                count.total,
                count.has_more,
                emptiness,
                may_say_none=grounded_zero or emptiness == "empty",
            )
        )
    values: list[str] = []
    levels: list[int] = []
    for refs in frame_data(frames, "references"):
        for card in refs.get("citations") or []:
            if isinstance(card, Mapping):
                values += [str(card[k]) for k in ("id", "title", "level", "date") if card.get(k)]
                levels += list(_levels(card))
        values += list(strings_in(refs.get("sets") or []))
    for call in frame_data(frames, "tool_call"):
        values += list(strings_in(call.get("arguments") or {}))
        levels += list(_levels(call.get("arguments") or {}))
    return build_standing(sources, values, levels)


def _numbers(value: int, *, grouped_only: bool = False) -> list[str]:
    forms = {format_number(value, locale) for locale in LOCALES}
    if not grouped_only:
        forms.add(str(value))
    return sorted(forms, key=len, reverse=True)


def _phrase_pattern(template: str, number: str) -> str:
    text = template.format(n=number)
    body = r"\s+".join(re.escape(part) for part in text.split(" "))
    head = r"(?<![\w])" if _LATIN_START.match(text) else ""
    return head + body + r"(?![\d])(?![.,]\d)"


def permitted_forms(counts: Iterable[Count]) -> list[tuple[re.Pattern[str], str]]:
    """(pattern, slot) for every form a count's grade permits, longest first.

    A count renders as its grade's phrase (``exactly N`` / ``at least N`` /
    ``these N``) and its displayed subset as the SHOWN phrase (``these N``),
    in any of the five locales: a model does not always answer in the locale
    it was asked in, and a phrase is the grade's whichever language it is in.
    An UNKNOWN count has no form at all.
    """
    forms: list[tuple[str, str]] = []
    for count in counts:
        if count.grade is Grade.UNKNOWN:
            continue
        if count.total is not None:
            for locale in LOCALES:
                for number in _numbers(count.total):
                    template = PHRASES[locale][count.grade]
                    forms.append(
                        (_phrase_pattern(template, number), "{{count:" + count.slot + "}}")
                    )
        if count.displayed > 0:
            for locale in LOCALES:
                for number in _numbers(count.displayed):
                    template = PHRASES[locale][Grade.SHOWN]
                    forms.append(
                        (_phrase_pattern(template, number), "{{shown:" + count.slot + "}}")
                    )
    forms.sort(key=lambda f: len(f[0]), reverse=True)
    return [(re.compile(p, re.IGNORECASE), slot) for p, slot in dict.fromkeys(forms)]


def as_slots(sentence: str, forms: Sequence[tuple[re.Pattern[str], str]]) -> str:
    text = normalize(sentence)
    for pattern, slot in forms:
        text = pattern.sub(slot, text)
    return text


def judge_prose(prose: str, frames: Sequence[SseEvent], locale: str) -> list[Finding]:
    """Every sentence the guard would drop, with the rule it breaks (first rule only,
    as the guard reports it), judged in the turn's locale and in English."""
    counts = read_counts(frames)
    standing = standing_of(frames, counts)
    forms = permitted_forms(counts)
    locales = list(dict.fromkeys([locale if locale in PHRASES else "en", "en"]))
    findings = []
    for sentence in split_sentences(prose):
        if not sentence.strip():
            continue
        judged = as_slots(sentence, forms)
        for lang in locales:
            drop = judge(judged, standing, lang)
            if drop is not None:
                findings.append(Finding(drop.rule, drop.token, sentence.strip(), judged.strip()))
                break
    return findings


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
    standing = standing_of(frames, counts)
    return {
        "counts": [c.as_json() for c in counts],
        "strict": standing.strict,
        "complete": standing.complete,
        "may_say_none": any(s.may_say_none for s in standing.sources),
    }
