"""Load-more: the next page of one counted source, stitched honestly.

A page is fetched with the same arguments and the upstream's cursor, then
stitched onto the pages already shown. The stitch collects ids only: a
violated invariant (the total moved, ids overlap, a page lost its
accounting, a page past the cap) discards the new page and says so — to the
user as a disclosure notice in the reply, and to later turns as the
``stitch_discarded`` anchor kept in the source's record — and no count is
ever summed. No page past the cap is fetched at all.

The record the store keeps per counted source (sealed, one per turn and slot) is
``beacon.store.records.PageRecord``, validated when it is read.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime

from beacon.adjudication import Anomaly, Grade, StitchResult, stitch_pages
from beacon.adjudication.anchors import stitch_discarded
from beacon.adjudication.stitch import DEFAULT_PAGE_CAP, summarize
from beacon.lexicon.copy import FAILURE, PAGE_CAP, STITCH_DISCARDED, say
from beacon.loop.citations import unpack_card
from beacon.loop.evidence import Evidence, adjudicate, count_entry
from beacon.policy.audit import AuditRow, audit_row
from beacon.policy.notices import denial_notice
from beacon.policy.pep import Decision, decide
from beacon.store.records import PageRecord
from beacon.upstream.mcp_client import Upstream
from beacon.wire.frames import CountEntry, MoreNotice, MoreReply


def page_record(evidence: Evidence, *, locale: str) -> PageRecord:
    """What the store keeps to fetch and stitch the next page later.

    A page with no cursor is never stitched to another, so adjudication kept no
    summary for it (a 3000-row page's ids were 48 KB sealed into every such turn).
    """
    entry = evidence.count_entry()
    return PageRecord(
        tool=evidence.tool,
        arguments=evidence.arguments,
        cursor=evidence.cursor,
        pages=(evidence.page,) if evidence.page is not None else (),
        shown=tuple(c.id for c in evidence.citations),
        pending=evidence.pending.packed(),
        grade=Grade(entry.grade),
        has_more=entry.has_more,
        total=entry.total,
        locale=locale,
        # A later page counts the same set: its count line keeps the turn's scope.
        scope=entry.scope.model_dump(mode="json"),
    )


@dataclass(frozen=True, slots=True)
class PagePermission:
    """The PEP's verdict on one load-more, its audit row, and the denial copy."""

    decision: Decision
    audit: AuditRow
    denial: str


def decide_page(
    record: PageRecord, tiers: Iterable[object], *, turn_id: str, sub: str
) -> PagePermission:
    """May the caller, as its token stands *now*, see another page of this source?

    Asked before every page, the cards of a page already in hand included: the
    turn's verdict was for the token the turn ran with, and a downgraded token
    must get a denial, not the cards it can no longer see.
    """
    decision = decide(record.tool, tiers, capability_hint=None)
    row = audit_row(decision, turn_id=turn_id, sub=sub, at=datetime.now(UTC))
    return PagePermission(decision, row, denial_notice(decision.capability, record.locale))


@dataclass(frozen=True, slots=True)
class NextPage:
    stitch: StitchResult
    record: PageRecord


def stitch_next(
    record: PageRecord, evidence: Evidence, *, slot: str, page_cap: int = DEFAULT_PAGE_CAP
) -> NextPage:
    """``evidence``'s page stitched onto the record's pages, or set aside."""
    # A page adjudication kept no summary of is weighed as what it is: unaccounted.
    page = evidence.page if evidence.page is not None else summarize(None, ())
    stitch = stitch_pages([*record.pages, page], page_cap=page_cap)
    if not stitch.ok:
        # Discard and disclose: nothing more is offered from a moving source, and a
        # later turn's model is told why (the anchor is kept with the record).
        anchor = stitch_discarded(slot, [a.value for a in stitch.anomalies]).record()
        anchors = (*record.anchors, anchor)
        return NextPage(stitch, record.model_copy(update={"cursor": None, "anchors": anchors}))
    update = {
        "pages": (*record.pages, page),
        "cursor": evidence.cursor,
        "shown": (*record.shown, *(c.id for c in evidence.citations)),
        "pending": evidence.pending.packed(),
    }
    return NextPage(stitch, record.model_copy(update=update))


MORE_CARDS = 10


def has_more(record: PageRecord, *, page_cap: int = DEFAULT_PAGE_CAP) -> bool:
    """Cards of a page in hand wait, or a next page exists within the page cap."""
    fetchable = record.cursor is not None and len(record.pages) < page_cap
    return bool(record.pending) or fetchable


def _count(record: PageRecord, slot: str, *, page_cap: int) -> CountEntry:
    """The slot's count after this reply: the turn's population, never a page sum."""
    more = has_more(record, page_cap=page_cap)
    return count_entry(
        record.tool,
        slot,
        record.grade,
        record.total,
        displayed=len(record.shown),
        has_more=record.has_more or more,
        more=more,
        scope=record.scope,
    )


def _project_id(record: PageRecord) -> str | None:
    project_id = record.arguments.get("project_id")
    return project_id if isinstance(project_id, str) else None


def serve_pending(
    record: PageRecord, *, turn_id: str, slot: str, page_cap: int = DEFAULT_PAGE_CAP
) -> tuple[MoreReply, PageRecord] | None:
    """The next cards of a page already in hand: no upstream call needed."""
    if not record.pending:
        return None
    batch = [unpack_card(p, record.tool, _project_id(record)) for p in record.pending[:MORE_CARDS]]
    updated = record.model_copy(
        update={
            "pending": record.pending[MORE_CARDS:],
            "shown": (*record.shown, *(c["id"] for c in batch)),
        }
    )
    reply = MoreReply.model_validate(
        {
            "turn_id": turn_id,
            "slot": slot,
            "citations": batch,
            "count": _count(updated, slot, page_cap=page_cap),
        }
    )
    return reply, updated


def _notices(record: PageRecord, stitch: StitchResult | None, *, page_cap: int) -> list[MoreNotice]:
    locale = record.locale
    if stitch is None:
        return [MoreNotice(kind="failure", text=say(FAILURE, locale, tool=record.tool))]
    if not stitch.ok:
        return [MoreNotice(kind="disclosure", text=say(STITCH_DISCARDED, locale))]
    if Anomaly.PAGE_CAP_REACHED in stitch.anomalies:
        return [MoreNotice(kind="disclosure", text=say(PAGE_CAP, locale, n=page_cap))]
    return []


async def fetch_more(
    upstream: Upstream,
    record: PageRecord,
    *,
    turn_id: str,
    slot: str,
    sentinel: int,
    page_cap: int = DEFAULT_PAGE_CAP,
) -> tuple[MoreReply, PageRecord]:
    """(reply, updated record) for one load-more request."""
    arguments = {**record.arguments, "cursor": record.cursor}
    outcome = await upstream.call_tool(record.tool, arguments)
    evidence = adjudicate(
        outcome,
        call_id=f"more_{slot}",
        slot=slot,
        sentinel=sentinel,
        project_id=_project_id(record),
        stitching=True,
    )
    if evidence.failed:
        # A failed page is not stitched (there is nothing to weigh): the reply says it failed.
        stitch, updated = None, record.model_copy(update={"cursor": None})
    else:
        nxt = stitch_next(record, evidence, slot=slot, page_cap=page_cap)
        stitch, updated = nxt.stitch, nxt.record
    accepted = stitch is not None and stitch.ok
    reply = MoreReply(
        turn_id=turn_id,
        slot=slot,
        citations=list(evidence.citations) if accepted else [],
        count=_count(updated, slot, page_cap=page_cap),
        anomalies=[a.value for a in stitch.anomalies] if stitch is not None else [],
        failed=evidence.failed,
        notices=_notices(record, stitch, page_cap=page_cap),
    )
    return reply, updated
