"""Counter-questions code asks before anything runs: the feasible part, the project.

When a request cannot be satisfied deterministically the turn neither refuses
outright nor silently picks an interpretation; it says what it can do and asks,
with the options as structured data (each option's ``reply`` is the message that
applies it) and one of them recommended:

- **partial entitlement**: the question needs a tool the caller's plan lacks for
  part of it ("how many photos …" without Photo AI, "how many …" without the
  aggregate) while another part names records a granted tool lists (findings,
  through ``list_annotations``). The offer is that listing — its count graded by
  the list's own accounting — and the turn runs nothing until it is chosen.
- **comparison**: "compare … on level 2" with no other side named: one option
  per other level the project has (read from ``list_levels``), the nearest above
  recommended, each reply the question with that side added.
- **portfolio**: a question about records that names no project while several
  are visible, in a fresh conversation with no project on screen: one option per
  project, the directory's first recommended.

Code decides both from the question's words (``beacon.lexicon``), the tool
table and the plan; the model is not asked to.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from beacon.adjudication.constraints import UNREAD, Constraint
from beacon.lexicon.copy import (
    AND,
    COMPARE_WITH,
    FEASIBLE,
    LEVEL_LABEL,
    LIST_REPLY,
    LIST_REPLY_ANYWHERE,
    PARTIAL_OFFER,
    PORTFOLIO_QUESTION,
    PROJECT_REPLY,
    say,
)
from beacon.lexicon.words import COMPARE, HOW_MANY_PATTERNS
from beacon.loop.intent import CITED_AS, named_kinds
from beacon.policy.notices import capability_label
from beacon.wire.tools import tool_specs

MAX_PROJECT_OPTIONS = 6
MAX_SIDE_OPTIONS = 4
# Where one part of a question ends and the next begins ("… and how many photos …").
_PARTS = re.compile(
    r"\s+(?:and|und|y|e)\s+|[,;、，]\s*|\s*(?:그리고|및|および|そして)\s*", re.IGNORECASE
)
# What a question wraps its subject in, none of which a listing needs.
_ASKING = re.compile(
    r"\b(?:are|is) there\b|\bdo (?:we|i) have\b|\bgibt es\b|\bhay\b|\bexisten\b"
    r"|있(?:나요|습니까|어요|을까요)|있는지|あります(?:か)?|ありますか|ある(?:か|の)"
    r"|[?？!！。.]+$",
    re.IGNORECASE,
)
_DANGLING = re.compile(
    r"\s+(?:in|on|at|of|for|im|in der|auf|en|de|del|의|에|에서|の|で|are|is|were|sind|ist|son"
    r"|están|hay)\s*$",
    re.IGNORECASE,
)
_LEADING = re.compile(r"^[¿¡]?\s*(?:the|die|der|los|las)?\s*", re.IGNORECASE)
# Korean and Japanese mark a noun phrase's role with particles; the listing's template
# supplies its own, so the question's go: "…의 지적 사항은 몇 건이고" → "지적 사항".
_CJK_PARTICLES = re.compile(
    r"^(?:의|の)\s*|\s*(?:이고|이며|인가요|입니까|은|는|이|가|を|は|が|も)$"
)


@dataclass(frozen=True, slots=True)
class Option:
    label: str
    reply: str
    recommended: bool

    def wire(self) -> dict[str, object]:
        return {"label": self.label, "reply": self.reply, "recommended": self.recommended}


@dataclass(frozen=True, slots=True)
class Offer:
    """A counter-question: the notice's text and options, and the turn's narration
    (the notice without what the denial cards beside it already say)."""

    kind: str  # partial_entitlement | portfolio
    text: str
    options: tuple[Option, ...]
    narration: str

    def notice(self) -> dict[str, object]:
        return {
            "kind": "counter_question",
            "text": self.text,
            "options": [o.wire() for o in self.options],
        }


def _nfkc(text: str) -> str:
    return unicodedata.normalize("NFKC", text)


def listed_by(kind: str, granted: frozenset[str]) -> bool:
    """A tool the caller holds lists records of ``kind`` with an accounted count."""
    cited = CITED_AS[kind]
    return any(
        cited in spec.cites and spec.has_result_contract and spec.capability in granted
        for spec in tool_specs()
    )


def _subject(part: str, locale: str, project_phrase: str | None) -> str:
    """A part of the question reduced to what it asks about: "open safety findings"."""
    text = part
    for pattern in HOW_MANY_PATTERNS.get(locale, ()):
        text = re.sub(pattern, " ", text, flags=re.IGNORECASE)
    if project_phrase:
        text = re.sub(re.escape(project_phrase), " ", text, flags=re.IGNORECASE)
    text = _ASKING.sub(" ", text)
    text = " ".join(text.split())
    while True:
        trimmed = _DANGLING.sub("", " " + text).strip()
        if trimmed == text:
            break
        text = trimmed
    text = _LEADING.sub("", text).strip(" ,.?!¿¡")
    while (bare := _CJK_PARTICLES.sub("", text).strip()) != text:
        text = bare
    return text


def partial_offer(
    question: str,
    locale: str,
    *,
    denied: Sequence[str],
    granted: frozenset[str],
    constraints: Sequence[Constraint],
    projects: Mapping[str, str],
    needs_denied: Callable[[str], bool],
) -> Offer | None:
    """The feasible part of a question the plan covers only partly, or None (nothing
    feasible: the denial stands alone; or nothing denied). ``denied``: the capabilities
    the question needs and the plan lacks; ``needs_denied(part)``: that part of the
    question alone needs one of them (a photo search, whichever tool lists photos)."""
    if not denied:
        return None
    text = _nfkc(question)
    parts = [p for p in _PARTS.split(text) if p.strip()]
    project = next((c for c in constraints if c.axis == "project"), None)
    feasible: list[str] = []
    for part in parts:
        kinds = named_kinds(part)
        if not kinds or needs_denied(part):
            continue
        if not all(listed_by(kind, granted) for kind, _ in kinds):
            continue
        subject = _subject(part, locale, project.phrase if project else None)
        if subject:
            feasible.append(subject)
    if not feasible:
        return None
    options: list[Option] = []
    for subject in dict.fromkeys(feasible):
        if project is not None:
            name = projects.get(project.value, project.phrase)
            reply = say(LIST_REPLY, locale, what=subject, project=name)
        else:
            reply = say(LIST_REPLY_ANYWHERE, locale, what=subject)
        options.append(Option(reply, reply, recommended=not options))
    labels = say(AND, locale).join(dict.fromkeys(capability_label(c, locale) for c in denied))
    scope = "; ".join(o.label for o in options)
    text = say(PARTIAL_OFFER, locale, capabilities=labels, scope=scope)
    return Offer("partial_entitlement", text, tuple(options), say(FEASIBLE, locale, scope=scope))


def portfolio_offer(
    question: str,
    locale: str,
    *,
    constraints: Sequence[Constraint],
    directory: Sequence[Mapping[str, str]],
) -> Offer | None:
    """Which project, for a question about records that names none while several are
    visible; None when it names one, names no records, or one project is all there is.
    The directory's first project is recommended (the upstream lists the caller's own
    projects in its order; code has no better ground to prefer one)."""
    if any(c.axis == "project" for c in constraints) or len(directory) < 2:
        return None
    if not named_kinds(_nfkc(question)):
        return None
    ordered = list(directory)
    asked = _nfkc(question).strip().rstrip("?？")
    options = tuple(
        Option(
            project["name"],
            say(PROJECT_REPLY, locale, question=asked, project=project["name"]),
            recommended=index == 0,
        )
        for index, project in enumerate(ordered[:MAX_PROJECT_OPTIONS])
    )
    text = say(PORTFOLIO_QUESTION, locale)
    return Offer("portfolio", text, options, text)


def one_sided_level(question: str, constraints: Sequence[Constraint]) -> Constraint | None:
    """The one level a comparison names ("compare … on level 2"), or None (no
    comparison, no level, or both sides already named)."""
    levels = [c for c in constraints if c.axis == "level" and c.value != UNREAD]
    if not COMPARE.search(_nfkc(question)) or len(levels) != 1:
        return None
    return levels[0]


def comparison_offer(
    question: str, locale: str, *, side: Constraint, levels: Sequence[int]
) -> Offer | None:
    """The other side of a one-sided comparison, from the levels the project has."""
    asked = int(side.value)
    others = sorted({n for n in levels if n != asked}, key=lambda n: (abs(n - asked), n < asked))
    if not others:
        return None
    text = _nfkc(question)
    named = re.search(re.escape(side.phrase), text, re.IGNORECASE)
    if named is None:
        return None
    options = []
    for index, level in enumerate(others[:MAX_SIDE_OPTIONS]):
        label = say(LEVEL_LABEL, locale, n=level)
        reply = text[: named.end()] + say(AND, locale) + label + text[named.end() :]
        options.append(Option(label, reply, recommended=index == 0))
    asked_text = say(COMPARE_WITH, locale)
    return Offer("comparison", asked_text, tuple(options), asked_text)
