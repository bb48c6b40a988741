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
from beacon.adjudication.anchors import enumeration
from beacon.loop.evidence import Evidence
from beacon.loop.prompts import model_json


def anchor_records(evidence: Sequence[Evidence], question: str) -> list[dict[str, Any]]:
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
        for anchor in call_anchors(
            item.slot, str(subject), item.verdict, item.absence, shown=len(item.citations)
        ):
            records.append({**anchor.record(), **facts})
        if item.enumeration is not None:
            found = item.enumeration
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
    return records


def anchors_message(evidence: Sequence[Evidence], question: str) -> str:
    records = anchor_records(evidence, question)
    head = "Narration anchors (decided by code before you speak; follow each instruction)"
    if not records:
        head += "; no counted evidence was gathered: state no number"
    return head + ":\n```json\n" + model_json({"anchors": records}) + "\n```"
