"""Narration anchors: code tells the model what it may say about each count.

Rendered twice over the same facts: sentences for a general model, and a JSON
block any model (the embedded ``beacon-rules`` among them) can read exactly.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from beacon.adjudication import Grade
from beacon.loop.evidence import Evidence

_RULES = {
    Grade.EXACT: "write {{count:%s}}; it renders as an exact count",
    Grade.LOWER_BOUND: "write {{count:%s}}; it renders as a lower bound ('at least'), never exact",
    Grade.SHOWN: "write {{shown:%s}} only about the returned examples, never about the whole",
    Grade.UNKNOWN: "no number may be uttered for this result (%s): say it was not counted",
}


def anchor_records(evidence: Sequence[Evidence], question: str) -> list[dict[str, Any]]:
    anchors = []
    for item in evidence:
        if not item.counted:
            continue
        anchors.append(
            {
                "slot": item.slot,
                "tool": item.tool,
                "project_id": item.arguments.get("project_id"),
                "subject": item.arguments.get("question")
                or item.arguments.get("query")
                or question,
                "aggregate": item.verdict.reason == "single-value aggregate",
                "grade": item.verdict.grade.value,
                "failed": item.failed,
                "emptiness": item.emptiness,
                "shown": len(item.citations),
                "has_more": item.verdict.has_more,
            }
        )
    return anchors


def anchors_message(evidence: Sequence[Evidence], question: str) -> str:
    records = anchor_records(evidence, question)
    lines = ["Narration anchors (decided by code before you speak):"]
    for record in records:
        if record["failed"]:
            lines.append(f"- {record['tool']}: the call failed; say the source did not answer.")
            continue
        rule = _RULES[Grade(record["grade"])] % record["slot"]
        lines.append(f'- {record["tool"]} about "{record["subject"]}": {rule}.')
    if not records:
        lines.append("- no counted evidence was gathered: state no number.")
    body = json.dumps({"anchors": records}, ensure_ascii=False)
    return "\n".join(lines) + "\n```json\n" + body + "\n```"
