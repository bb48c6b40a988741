"""The counted set against the asked set: one corrective round, then disclosure.

``beacon.adjudication.constraints`` reads what the question limits its set by
and judges each call's arguments against it. This stage acts on the verdicts:
when a call left out a constraint its tool could have applied, the planner is
asked once (inside the six-round budget, like the how-many correction) to call
again with the arguments that apply it, given as data. Whatever is still
unapplied at the answer is disclosed: a ``disclosure`` notice naming each
phrase, the count's own sentence in code's words (the set it really counts),
and the model's sentences holding that count's slot dropped by the guard.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from beacon.adjudication.constraints import Constraint, corrective_arguments, missing_sides
from beacon.adjudication.guard.slots import render_slot
from beacon.lexicon.copy import QUOTES, say
from beacon.lexicon.scope_copy import (
    SCOPE_ADDED,
    SCOPE_COUNT,
    SCOPE_COUNT_ADDED,
    SCOPE_COUNT_BOTH,
    SCOPE_MISSING_SIDE,
    SCOPE_UNAPPLIED,
)
from beacon.loop.evidence import Evidence
from beacon.loop.guarded_answer import Narration, count_of
from beacon.wire.audit import AuditKind

log = logging.getLogger(__name__)

SCOPE_CORRECTION = (
    "The question limits its set by more than the last call applied. Call the tool again "
    "with the arguments below added (JSON data), so the count is of the set that was asked "
    "about:\n"
)


def _usable(item: Evidence) -> bool:
    return item.counted and not item.failed and not item.denied


def answers_question(item: Evidence) -> bool:
    """A count of the asked set: adjudicated, and nothing the question named left out."""
    return _usable(item) and item.scope.whole


@dataclass(frozen=False, slots=True)  # sent_before is set when the correction goes out
class ScopeCorrection:
    """One turn's scope correction: at most one round, and only where a tool can apply it."""

    sent_before: int | None = None

    def needed(self, evidence: Sequence[Evidence]) -> list[dict[str, Any]]:
        """The calls that would apply what was left out (none if some count is already whole)."""
        if self.sent_before is not None or any(answers_question(e) for e in evidence):
            return []
        fixes = []
        for item in evidence:
            if not _usable(item):
                continue
            added = corrective_arguments(item.scope, item.tool)
            if added:
                fixes.append({"tool": item.tool, "arguments": {**item.arguments, **added}})
        return fixes

    def after_stop(
        self, round_no: int, max_rounds: int, evidence: Sequence[Evidence], content: str
    ) -> list[dict[str, Any]]:
        """The messages that precede one more planner round, or ``[]``."""
        if round_no >= max_rounds:
            return []
        fixes = self.needed(evidence)
        if not fixes:
            return []
        self.sent_before = round_no + 1
        log.info(
            "constraints left out of %d call(s): corrective round %d", len(fixes), round_no + 1
        )
        said = [{"role": "assistant", "content": content}] if content else []
        data = json.dumps({"calls": fixes}, ensure_ascii=False, sort_keys=True)
        return [*said, {"role": "system", "content": SCOPE_CORRECTION + data}]

    def ordered(self, evidence: list[Evidence]) -> list[Evidence]:
        """After a correction, the counts of the asked set lead (a stable partition)."""
        if self.sent_before is None:
            return evidence
        return sorted(evidence, key=lambda e: not answers_question(e))


def scope_notices(
    evidence: Sequence[Evidence], constraints: Sequence[Constraint], locale: str
) -> list[str]:
    """The disclosures a turn owes: each unapplied phrase of a count that is not the answer,
    and each side of a comparison no call counted."""
    texts = []
    if not any(answers_question(e) for e in evidence):
        usable = [e.scope for e in evidence if _usable(e)]
        left_out = dict.fromkeys(c.phrase for s in usable for c in s.unapplied)
        narrowed = dict.fromkeys(c.phrase for s in usable for c in s.added)
        for copy, phrases in ((SCOPE_UNAPPLIED, left_out), (SCOPE_ADDED, narrowed)):
            if phrases:
                texts.append(say(copy, locale, phrases=quoted(list(phrases), locale)))
    missing = missing_sides(constraints, (e.scope for e in evidence if _usable(e)))
    if missing:
        texts.append(
            say(SCOPE_MISSING_SIDE, locale, phrases=quoted([c.phrase for c in missing], locale))
        )
    return texts


def quoted(phrases: Sequence[str], locale: str) -> str:
    marks = QUOTES.get(locale, QUOTES["en"])
    return ", ".join(f"{marks[0]}{p}{marks[1]}" for p in phrases)


def scope_audit(evidence: Sequence[Evidence]) -> list[dict[str, str]]:
    """One narration-audit row per decision: each constraint, applied or not, per count."""
    rows = []
    for item in evidence:
        if not item.counted:
            continue
        for c in item.scope.applied:
            token = f"{item.slot}:{c.value}"
            rows.append({"kind": AuditKind.SCOPE_APPLIED, "rule": c.axis, "token": token})
        for c in (*item.scope.unapplied, *item.scope.added):
            token = f"{item.slot}:{c.phrase}"
            rows.append({"kind": AuditKind.SCOPE_UNAPPLIED, "rule": c.axis, "token": token})
    return rows


def with_scope_counts(narration: Narration, evidence: Sequence[Evidence], locale: str) -> Narration:
    """When no count is of the asked set, code says what each count does count."""
    if any(answers_question(e) for e in evidence):
        return narration
    said = []
    for item in evidence:
        if not _usable(item) or item.scope.whole:
            continue
        count = render_slot("count", count_of(item), locale)
        if count is not None:
            left_out = quoted([c.phrase for c in item.scope.unapplied], locale)
            added = quoted([c.phrase for c in item.scope.added], locale)
            if left_out and added:  # both said: either alone misnames the set it counts
                sentence = say(
                    SCOPE_COUNT_BOTH, locale, phrases=left_out, added=added, figure=count
                )
            elif left_out:
                sentence = say(SCOPE_COUNT, locale, phrases=left_out, figure=count)
            else:
                sentence = say(SCOPE_COUNT_ADDED, locale, phrases=added, figure=count)
            if sentence not in said:  # a count and its listing companion say it once
                said.append(sentence)
    if not said:
        return narration
    text = " ".join([narration.text, *said]) if narration.text else " ".join(said)
    return replace(narration, text=text.strip())
