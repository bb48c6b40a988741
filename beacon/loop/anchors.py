"""The responder's anchors: adjudicated facts per call, as instructions.

Rendered once, as a JSON block: every record carries its instruction as a
sentence (what a general model follows) beside the fields any model — the
embedded ``beacon-rules`` among them — reads exactly. (They were once also
listed as prose above the block: the same sentences twice, ~40 % of the
answer call's input.)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from beacon.adjudication import Basis, call_anchors
from beacon.adjudication.anchors import (
    AnchorKind,
    enumeration,
    narrowing_released,
    view_list_truncated,
)
from beacon.lexicon.plurals import plural_category
from beacon.loop.evidence import Evidence
from beacon.loop.prompts import model_json


def _plural(count: int | float | None, locale: str) -> dict[str, str]:
    """The CLDR plural category of a slot's number in the answer's locale, so a model
    that never sees the number can still choose the noun's form ("1 finding")."""
    return {} if count is None else {"plural": plural_category(count, locale)}


def anchor_records(
    evidence: Sequence[Evidence],
    question: str,
    *,
    released: bool = False,
    view_slot: str | None = None,
    locale: str = "en",
) -> list[dict[str, Any]]:
    """Every counted call's anchors; with ``released`` (the narrowed scope came back
    empty and was let go), the instruction that the next search covers everything
    and nothing is re-run inside this turn; with ``view_slot`` (the host's list is at
    its wire cap), that the list on screen is spoken of as shown, never as all."""
    records = []
    for item in evidence:
        if not item.counted:
            continue
        subject = item.arguments.get("question") or item.arguments.get("query") or question
        facts = {
            "tool": item.tool,
            "project_id": item.arguments.get("project_id"),
            "subject": str(subject),
            "aggregate": item.verdict.basis is Basis.AGGREGATE,
        }
        shown = len(item.citations)
        # An empty result of another set than asked says nothing of the asked one.
        absence = item.absence if item.scope.whole else None
        for anchor in call_anchors(item.slot, str(subject), item.verdict, absence, shown=shown):
            number = {
                AnchorKind.EXACT_COUNT: item.verdict.value,
                AnchorKind.LOWER_BOUND: item.verdict.value,
                AnchorKind.SHOWN_SUBSET: shown,
            }.get(anchor.kind)
            records.append({**anchor.record(), **facts, **_plural(number, locale)})
        found = item.asked_members
        if found is not None:
            anchor = enumeration(
                item.slot,
                found.field,
                found.members,
                complete=found.complete,
                relation=found.relation,
                extreme=found.extreme,
                leaders=found.leaders,
            )
            records.append({**anchor.record(), **facts})
    if released:
        records.append(narrowing_released().record())
    if view_slot is not None:
        records.append(view_list_truncated(view_slot).record())
    return records


def anchors_message(
    evidence: Sequence[Evidence],
    question: str,
    *,
    released: bool = False,
    view_slot: str | None = None,
    locale: str = "en",
) -> str:
    records = anchor_records(
        evidence, question, released=released, view_slot=view_slot, locale=locale
    )
    return records_message(records)


def records_message(records: Sequence[dict[str, Any]]) -> str:
    """The answer call's anchors message from records already built (``anchor_records``)."""
    head = "Narration anchors (decided by code before you speak; follow each instruction)"
    if not records:
        head += "; no counted evidence was gathered: state no number"
    return head + ":\n```json\n" + model_json({"anchors": list(records)}) + "\n```"
