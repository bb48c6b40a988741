"""A session's narrowing, across turns: offer, choose, apply, promote, release.

The scope lives in the session (dispatch owns it) and is spread last over
whatever the model asks, so "search everything" from the model cannot widen
it. Only the user widens it: by asking something else, or — after a narrowed
search found nothing — automatically at the end of that turn.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from beacon.adjudication import GateEvent, GateState, Grade, gate_step
from beacon.adjudication.narrowing import FILTER_AXES
from beacon.loop.copy import LEVEL_LABEL, LEVEL_REPLY, say
from beacon.loop.evidence import Evidence

MAX_OPTIONS = 3
# A narrowed scope asks for the tool's largest page, so the whole set can come
# back as one page with nothing beyond it.
NARROWED_PAGE = {"search_photos": 50}
_LEVEL = re.compile(r"(\d+)")
# Scope keys per tool, in the tool's own argument names.
SCOPE_KEYS: dict[str, tuple[str, ...]] = {
    "search_photos": ("level_number", "limit"),
    "list_annotations": ("level_number",),
}


@dataclass(slots=True)
class Narrowing:
    state: GateState = GateState.IDLE
    tool: str | None = None
    arguments: dict[str, Any] = field(default_factory=dict)
    scope: dict[str, Any] = field(default_factory=dict)
    options: list[dict[str, Any]] = field(default_factory=list)
    released: bool = False

    def step(self, event: GateEvent) -> None:
        row = gate_step(self.state, event)
        if row.legal:
            self.state = row.target

    @property
    def active(self) -> bool:
        return self.state is GateState.NARROWED and bool(self.scope)

    def record(self) -> dict[str, Any] | None:
        if self.state in (GateState.IDLE, GateState.RELEASED):
            return None
        return {
            "state": self.state.value,
            "tool": self.tool,
            "arguments": self.arguments,
            "scope": self.scope,
            "options": self.options,
        }


def resume(record: dict[str, Any] | None, message: str) -> Narrowing:
    """The session's narrowing for this turn: an option's reply applies it."""
    if not record:
        return Narrowing()
    narrowing = Narrowing(
        GateState(record["state"]),
        record.get("tool"),
        dict(record.get("arguments") or {}),
        dict(record.get("scope") or {}),
        list(record.get("options") or []),
    )
    chosen = next(
        (o for o in narrowing.options if o["reply"].strip().lower() == message.strip().lower()),
        None,
    )
    if chosen is not None and narrowing.state is GateState.OFFERED:
        narrowing.step(GateEvent.CHOOSE)
        narrowing.scope = dict(chosen["scope"])
        return narrowing
    narrowing.step(GateEvent.NEW_QUESTION)
    return Narrowing()


def scoped_arguments(tool: str, arguments: dict[str, Any], narrowing: Narrowing) -> dict[str, Any]:
    """The scope keys this tool accepts, spread last over the model's arguments."""
    if not narrowing.active:
        return arguments
    keys = SCOPE_KEYS.get(tool, ())
    return {**arguments, **{k: v for k, v in narrowing.scope.items() if k in keys}}


def offer_levels(evidence: Evidence, locale: str) -> list[dict[str, Any]]:
    """Options on the level axis, from the levels of the cards actually shown.

    Grounded only in what came back (no count is promised), recommending the
    level most shown cards are on.
    """
    if "level" not in FILTER_AXES.get(evidence.tool, ()) or evidence.tool not in NARROWED_PAGE:
        return []
    levels = Counter(
        int(m.group(1)) for c in evidence.citations if c.level and (m := _LEVEL.search(c.level))
    )
    ranked = sorted(levels, key=lambda n: (-levels[n], n))[:MAX_OPTIONS]
    return [
        {
            "label": say(LEVEL_LABEL, locale, n=n),
            "reply": say(LEVEL_REPLY, locale, n=n),
            "recommended": index == 0,
            "scope": {"level_number": n, "limit": NARROWED_PAGE[evidence.tool]},
        }
        for index, n in enumerate(ranked)
    ]


def is_sample(evidence: Evidence) -> bool:
    verdict = evidence.verdict
    return bool(evidence.citations) and (verdict.grade is Grade.LOWER_BOUND or verdict.has_more)


def first_sample(evidence: Sequence[Evidence]) -> Evidence | None:
    return next((e for e in evidence if e.counted and not e.denied and is_sample(e)), None)
