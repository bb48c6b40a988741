"""The responder's anchors: adjudicated facts per call, as instructions.

Rendered twice over the same records: sentences for a general model, and a
JSON block any model (the embedded ``beacon-rules`` among them) reads exactly.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from beacon.adjudication import Basis, call_anchors
from beacon.adjudication.anchors import enumeration
from beacon.loop.evidence import Evidence


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
            )
            records.append({**anchor.record(), **facts})
    return records


def anchors_message(evidence: Sequence[Evidence], question: str) -> str:
    records = anchor_records(evidence, question)
    lines = ["Narration anchors (decided by code before you speak):"]
    lines += [f"- {r['tool']}: {r['instruction']}" for r in records]
    if not records:
        lines.append("- no counted evidence was gathered: state no number.")
    body = json.dumps({"anchors": records}, ensure_ascii=False)
    return "\n".join(lines) + "\n```json\n" + body + "\n```"
