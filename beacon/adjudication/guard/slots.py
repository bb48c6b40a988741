"""Count slots: the narrator writes ``{{count:ID}}``; the server writes the number.

Each slot renders with the phrasing its grade permits, in the turn's locale.
A sentence holding an UNKNOWN (or unknown) slot is dropped whole: no number may
be uttered for it, and a clause with a hole in it would imply one.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from beacon.adjudication.guard.counted import Counted
from beacon.lexicon.levels import GERMAN_AFTER_ORDINAL
from beacon.lexicon.months import MONTHS
from beacon.lexicon.phrases import GROUPING
from beacon.lexicon.phrases import PHRASES as PHRASES
from beacon.wire.audit import AuditKind
from beacon.wire.frames import Grade

SLOT = re.compile(r"\{\{(count|shown):([A-Za-z0-9_-]{1,32})\}\}")
_NUMERAL = re.compile(r"(?<![\w.,])\d{1,3}(?:[,.]\d{3})+(?![\w])|(?<![\w.,])\d+(?![\w,.]\d)")
# A sentence ends at . ! ? before whitespace, at 。！？ (Japanese needs no space after
# them), or at a line break — but not at a German ordinal's dot ("12. März", "3. Stock").
_GERMAN_AFTER_ORDINAL = "|".join((*MONTHS["de"], *GERMAN_AFTER_ORDINAL))
_BOUNDARY_LOOKAHEAD = 12  # longer than any word the ordinal rule looks at, plus \b
_SENTENCE_END = re.compile(
    r"(?<=[!?])\s+|(?<=\.)(?<!\d\.)\s+"
    rf"|(?<=\d\.)(?P<ordinal>\s+)(?=[^\W\d_a-zäöüß])(?!(?:{_GERMAN_AFTER_ORDINAL})\b)"
    r"|(?<=[。！？])\s*(?=\S)|\n+"
)


@dataclass(frozen=True, slots=True)
class AuditEntry:
    kind: AuditKind
    slot: str | None
    detail: str


def format_number(value: int | float, locale: str) -> str:
    grouped = (
        f"{value:,.2f}"
        if isinstance(value, float) and not value.is_integer()
        else (f"{int(value):,}")
    )
    if GROUPING.get(locale, ",") == ".":
        # 1,234.50 → 1.234,50: the grouping and decimal marks trade places.
        return grouped.translate(str.maketrans(",.", ".,"))
    return grouped


def render_slot(kind: str, slot: Counted, locale: str) -> str | None:
    """None when the grade forbids any number."""
    if slot.grade is Grade.UNKNOWN or (slot.value is None and kind == "count"):
        return None
    if kind == "shown":
        return format_number(slot.shown, locale)
    assert slot.value is not None
    phrases = PHRASES.get(locale, PHRASES["en"])
    return phrases[slot.grade].format(n=format_number(slot.value, locale))


def split_sentences(text: str) -> list[str]:
    """Sentences with their trailing whitespace kept, so joining restores the text."""
    parts: list[str] = []
    start = 0
    for match in _SENTENCE_END.finditer(text):
        parts.append(text[start : match.end()])
        start = match.end()
    if start < len(text):
        parts.append(text[start:])
    return parts


def _graded_numerals(slots: Mapping[str, Counted]) -> dict[str, str]:
    found: dict[str, str] = {}
    for slot_id, slot in slots.items():
        if slot.grade is not Grade.UNKNOWN and isinstance(slot.value, int):
            found[str(slot.value)] = slot_id
    return found


def audit_bypasses(model_text: str, slots: Mapping[str, Counted]) -> list[AuditEntry]:
    """Numerals the model wrote itself that equal a graded count."""
    graded = _graded_numerals(slots)
    entries = []
    for match in _NUMERAL.finditer(SLOT.sub("", model_text)):
        digits = re.sub(r"[,.]", "", match.group())
        if digits in graded:
            entries.append(
                AuditEntry(AuditKind.BYPASSED_SLOT, graded[digits], f"numeral {match.group()}")
            )
    return entries


def shares_subject(sentence: str) -> bool:
    """A population count and a returned-subset count in one sentence.

    "Of at least 189 matches these 10 are on level 3" reads as if the 189
    were on level 3: the two clauses must not share a subject.
    """
    kinds = {m.group(1) for m in SLOT.finditer(sentence)}
    return {"count", "shown"} <= kinds


def render_sentence(
    sentence: str, slots: Mapping[str, Counted], locale: str
) -> tuple[str, list[AuditEntry]]:
    audit = audit_bypasses(sentence, slots)
    if shares_subject(sentence):
        audit.append(
            AuditEntry(AuditKind.SUBJECT_SHARED, None, "population and subset in one sentence")
        )
    rendered: list[str] = []
    pos = 0
    for match in SLOT.finditer(sentence):
        kind, slot_id = match.group(1), match.group(2)
        slot = slots.get(slot_id)
        if slot is None:
            return "", [
                *audit,
                AuditEntry(AuditKind.UNKNOWN_SLOT, slot_id, "slot names no graded count"),
            ]
        if slot.unapplied:
            detail = "counts another set than asked: " + "; ".join(slot.unapplied)
            return "", [*audit, AuditEntry(AuditKind.SCOPE_UNAPPLIED, slot_id, detail)]
        phrase = render_slot(kind, slot, locale)
        if phrase is None:
            return "", [
                *audit,
                AuditEntry(AuditKind.DROPPED_UNKNOWN_CLAUSE, slot_id, "UNKNOWN grade"),
            ]
        rendered.append(sentence[pos : match.start()])
        rendered.append(phrase)
        pos = match.end()
    rendered.append(sentence[pos:])
    return "".join(rendered), audit


def render_narration(
    text: str, slots: Mapping[str, Counted], locale: str = "en"
) -> tuple[str, list[AuditEntry]]:
    out: list[str] = []
    audit: list[AuditEntry] = []
    for sentence in split_sentences(text):
        rendered, entries = render_sentence(sentence, slots, locale)
        out.append(rendered)
        audit.extend(entries)
    return "".join(out), audit


class SlotStream:
    """Renders streamed narration a sentence at a time.

    A slot's clause can only be judged whole, so text is held back until its
    sentence ends; the concatenation of what it yields equals
    ``render_narration`` of the whole text.
    """

    def __init__(self, slots: Mapping[str, Counted], locale: str = "en") -> None:
        self._slots = slots
        self._locale = locale
        self._pending = ""
        self.audit: list[AuditEntry] = []

    def feed(self, chunk: str) -> str:
        self._pending += chunk
        last_end = 0
        for match in _SENTENCE_END.finditer(self._pending):
            # A boundary near the end may still change: more whitespace may follow, or
            # the word after an ordinal's dot ("3. Stock") may not be whole yet.
            margin = _BOUNDARY_LOOKAHEAD if match.group("ordinal") else 1
            if match.end() + margin <= len(self._pending):
                last_end = match.end()
        done, self._pending = self._pending[:last_end], self._pending[last_end:]
        return self._render(split_sentences(done))

    def flush(self) -> str:
        rest, self._pending = self._pending, ""
        return self._render(split_sentences(rest))

    def _render(self, sentences: list[str]) -> str:
        out = []
        for sentence in sentences:
            rendered, entries = render_sentence(sentence, self._slots, self._locale)
            out.append(rendered)
            self.audit.extend(entries)
        return "".join(out)
