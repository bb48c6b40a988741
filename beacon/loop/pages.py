"""Load-more: the next page of one counted source, stitched honestly.

A page is fetched with the same arguments and the upstream's cursor, then
stitched onto the pages already shown. The stitch collects ids only: a
violated invariant (the total moved, ids overlap, a page lost its
accounting) discards the new page and says so, and no count is ever summed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from beacon.adjudication import StitchResult, stitch_pages
from beacon.loop.citations import pack_card, unpack_card
from beacon.loop.evidence import Evidence, adjudicate
from beacon.upstream.mcp_client import McpUpstream
from beacon.wire.accounting import ACCOUNTING_META_KEY
from beacon.wire.frames import CountEntry


def page_record(evidence: Evidence) -> dict[str, Any]:
    """What the store keeps to fetch and stitch the next page later.

    A page with no cursor is never stitched to another, so adjudication kept no
    ids for it (a 3000-row page's were 48 KB sealed into every such turn).
    """
    return {
        "tool": evidence.tool,
        "arguments": evidence.arguments,
        "cursor": evidence.cursor,
        "pages": [page_summary(evidence)],
        "shown": [c.id for c in evidence.citations],
        "pending": [pack_card(c) for c in evidence.unshown],
        "grade": evidence.verdict.grade.value,
        "has_more": evidence.verdict.has_more,
    }


def page_summary(evidence: Evidence) -> dict[str, Any]:
    bound = evidence.verdict.basis.value == "upstream_bound"
    return {
        "total": evidence.verdict.value,
        "bound": bound,
        "ids": list(evidence.page_ids),
        "has_more": evidence.cursor is not None,
        "returned": evidence.returned or 0,
    }


def _as_result(summary: dict[str, Any]) -> dict[str, Any]:
    """A stored page summary in the CallToolResult shape the stitcher reads."""
    envelope = {
        "result_kind": "search" if summary["bound"] else "rows",
        "returned": summary["returned"],
        "has_more": summary["has_more"],
        "cursor": None,
    }
    envelope["total_lower_bound" if summary["bound"] else "total"] = summary["total"]
    return {
        "content": [{"type": "text", "text": "", "_meta": {ACCOUNTING_META_KEY: envelope}}],
        "structuredContent": {**envelope, "items": [{"id": i} for i in summary["ids"]]},
    }


@dataclass(frozen=True, slots=True)
class NextPage:
    stitch: StitchResult
    record: dict[str, Any]


def stitch_next(record: dict[str, Any], evidence: Evidence) -> NextPage:
    pages = [*record["pages"], page_summary(evidence)]
    stitch = stitch_pages([_as_result(p) for p in pages])
    if not stitch.ok:
        # Discard and disclose: nothing more is offered from a moving source.
        return NextPage(stitch, {**record, "cursor": None})
    shown = [*record["shown"], *(c.id for c in evidence.citations)]
    pending = [pack_card(c) for c in evidence.unshown]
    return NextPage(
        stitch,
        {**record, "pages": pages, "cursor": evidence.cursor, "shown": shown, "pending": pending},
    )


MORE_CARDS = 10


def has_more(record: dict[str, Any]) -> bool:
    return bool(record.get("pending")) or record.get("cursor") is not None


def _count(record: dict[str, Any], slot: str) -> CountEntry:
    first = record["pages"][0]
    return CountEntry(
        source=record["tool"],
        slot=slot,
        displayed=len(record["shown"]),
        total=first["total"],
        total_is_lower_bound=record["grade"] == "LOWER_BOUND",
        has_more=record["has_more"] or has_more(record),
        grade=record["grade"],
        more=has_more(record),
    )


def serve_pending(
    record: dict[str, Any], *, turn_id: str, slot: str
) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """The next cards of a page already in hand: no upstream call needed."""
    pending = list(record.get("pending") or [])
    if not pending:
        return None
    project_id = record["arguments"].get("project_id")
    batch = [
        unpack_card(p, record["tool"], project_id if isinstance(project_id, str) else None)
        for p in pending[:MORE_CARDS]
    ]
    rest = pending[MORE_CARDS:]
    updated = {**record, "pending": rest, "shown": [*record["shown"], *(c["id"] for c in batch)]}
    body = {
        "turn_id": turn_id,
        "slot": slot,
        "citations": batch,
        "count": _count(updated, slot).model_dump(),
        "anomalies": [],
        "failed": False,
    }
    return body, updated


async def fetch_more(
    upstream: McpUpstream, record: dict[str, Any], *, turn_id: str, slot: str, sentinel: int
) -> tuple[dict[str, Any], dict[str, Any]]:
    """(response body, updated record) for one load-more request."""
    arguments = {**record["arguments"], "cursor": record["cursor"]}
    outcome = await upstream.call_tool(record["tool"], arguments)
    project_id = record["arguments"].get("project_id")
    evidence = adjudicate(
        outcome,
        call_id=f"more_{slot}",
        slot=slot,
        sentinel=sentinel,
        project_id=project_id if isinstance(project_id, str) else None,
        stitching=True,
    )
    nxt = (
        stitch_next(record, evidence)
        if not evidence.failed
        else NextPage(stitch_pages([]), {**record, "cursor": None})
    )
    first = record["pages"][0]
    count = CountEntry(
        source=record["tool"],
        slot=slot,
        displayed=len(nxt.record["shown"]),
        total=first["total"],
        total_is_lower_bound=record["grade"] == "LOWER_BOUND",
        has_more=record["has_more"] or nxt.record["cursor"] is not None,
        grade=record["grade"],
        more=nxt.record["cursor"] is not None,
    )
    cards = list(evidence.citations) if nxt.stitch.ok else []
    body = {
        "turn_id": turn_id,
        "slot": slot,
        "citations": [c.model_dump() for c in cards],
        "count": count.model_dump(),
        "anomalies": [a.value for a in nxt.stitch.anomalies],
        "failed": evidence.failed,
    }
    return body, nxt.record
