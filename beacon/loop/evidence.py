"""One gathered tool result, adjudicated: the only thing later steps read.

The raw upstream payload stops here. The model gets ``digest`` (ids and key
fields, no counts: a number it never sees is a number it cannot misstate); the
panel gets citations and the graded count.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from beacon.adjudication import (
    AbsenceVerdict,
    CallFacts,
    CountVerdict,
    Emptiness,
    Grade,
    PageShape,
    PageSummary,
    absence_cause,
    fingerprint,
    grade_accounting,
    is_in_band_failure,
    promote_complete,
    read_accounting,
    result_emptiness,
)
from beacon.adjudication.constraints import UNSCOPED, Scope
from beacon.adjudication.counts import is_complete
from beacon.adjudication.stitch import page_ids, summarize
from beacon.adjudication.tools import has_result_contract
from beacon.loop.citations import (
    MAX_CARDS_PER_SOURCE,
    NO_PENDING,
    PendingCards,
    card_list,
    records_of,
)
from beacon.loop.sets import Enumeration
from beacon.upstream.mcp_client import ToolOutcome
from beacon.wire.frames import Citation, CountEntry, CountScope

# The planner sees a few records (ids for follow-up calls, a title, a level) and
# never the page: it plans, it does not narrate; the cards are the panel's.
DIGEST_RECORDS = 3
PENDING_CARDS = 500
_DIGEST_FIELDS = ("id", "title", "label", "name", "level_number")
# A sample's typed fields, kept so a counter-question can offer the axes its
# records really split on (status, category, company …), not only what a card shows.
FACET_FIELDS = (
    "level_number",
    "status",
    "category",
    "company",
    "kind",
    "taken_at",
    "created_at",
    "captured_at",
    "issued_on",
    "date",
)
FACET_ROWS = 500

log = logging.getLogger(__name__)

# What a call's result was, as an analyst's row says it (the ``tool_calls`` table):
# accounted or not, a failure the upstream disguised as data, one it admitted
# (isError, or a transport status other than 200), or blocked by the PEP.
EnvelopeVerdict = Literal["ok", "disguised_failure", "no_accounting", "error", "denied"]


@dataclass(frozen=True, slots=True)
class Evidence:
    call_id: str
    tool: str
    arguments: dict[str, Any]
    slot: str
    failed: bool
    verdict: CountVerdict
    emptiness: Emptiness
    citations: tuple[Citation, ...]
    bytes: int
    returned: int | None
    absence: AbsenceVerdict | None
    denied: bool = False
    cursor: str | None = None  # the upstream's next-page handle, for load-more
    # The page as the stitcher weighs it (accounting and every record id; cards are a
    # prefix), kept only when a page may be stitched.
    page: PageSummary | None = None
    enumeration: Enumeration | None = None  # a set read from a typed field of every record
    # Cards of this page beyond the display limit, as Citation fields (load-more serves
    # them), built when first read: see ``unshown``.
    pending: PendingCards = field(default_factory=lambda: NO_PENDING)
    # A sample's records, reduced to FACET_FIELDS (the first FACET_ROWS): what narrowing reads.
    facets: tuple[dict[str, Any], ...] = ()
    # The question's constraints against the arguments that went out (dispatch decides it).
    scope: Scope = UNSCOPED
    envelope: EnvelopeVerdict = "ok"
    # Wall time of the upstream call (dispatch measures it around the call); None: none made.
    duration_s: float | None = None

    @property
    def unshown(self) -> tuple[dict[str, Any], ...]:
        return self.pending.cards()

    @property
    def counted(self) -> bool:
        return has_result_contract(self.tool)

    @property
    def asked_members(self) -> Enumeration | None:
        """Its field's members when they are the asked set's (a whole scope): the companies
        of another set's records are never the answer to "Which companies?"."""
        return self.enumeration if self.scope.whole else None

    def count_entry(self) -> CountEntry:
        return count_entry(
            self.tool,
            self.slot,
            self.verdict.grade,
            self.verdict.value,
            displayed=len(self.citations),
            has_more=self.verdict.has_more,
            more=(self.cursor is not None or bool(self.pending)) and not self.failed,
            scope=self.scope.wire(),
        )


def count_entry(
    source: str,
    slot: str,
    grade: Grade,
    value: float | None,
    *,
    displayed: int,
    has_more: bool,
    more: bool,
    scope: Mapping[str, Any] | None = None,
) -> CountEntry:
    """The one place a count line's numbers are made (the references frame's and
    every load-more reply's): an UNKNOWN count carries no number, a lower bound
    says so."""
    total = None if grade is Grade.UNKNOWN or value is None else int(value)
    return CountEntry(
        source=source,
        slot=slot,
        displayed=displayed,
        total=total,
        total_is_lower_bound=grade is Grade.LOWER_BOUND,
        has_more=has_more,
        complete=is_complete(grade, value, has_more),
        grade=grade,
        more=more,
        scope=CountScope.model_validate(scope or {}),
    )


def adjudicate(
    outcome: ToolOutcome,
    *,
    call_id: str,
    slot: str,
    sentinel: int,
    project_id: str | None,
    narrowed: bool = False,
    card_limit: int = MAX_CARDS_PER_SOURCE,
    stitching: bool = False,
) -> Evidence:
    """``stitching``: this page will be checked against pages already shown, so
    its ids are kept even if nothing follows it (otherwise they are kept only
    when a cursor leads to a next page: a 3000-row page's ids are not free).

    ``narrowed``: the call ran in the dispatch scope of an active narrowing. Its
    grade is final here, before any frame shows it: a narrowed scope that came
    back as one page with nothing beyond it is the complete set (EXACT).
    """
    result = outcome.result
    failed = is_in_band_failure(outcome.tool, result, transport_status=outcome.transport_status)
    if failed:  # diagnosed by its shape (block count, types, _meta keys), never its content
        log.warning(
            "%s failed (status %d): %s", outcome.tool, outcome.transport_status, fingerprint(result)
        )
    acct = None if failed else read_accounting(result)
    emptiness: Emptiness = "unknown" if failed else result_emptiness(outcome.tool, result)
    facts = CallFacts(
        emptiness, transport_status=outcome.transport_status, failed=failed, narrowed=narrowed
    )
    # The whole page's cards: the first `card_limit` are shown, the rest wait for load-more.
    records = [] if failed else records_of(result)
    cards, rest = card_list(outcome.tool, records, project_id, card_limit)
    verdict = grade_accounting(acct, sentinel=sentinel)
    if narrowed and acct is not None and emptiness != "empty":
        # An empty narrowed page is an absence (zero after narrowing), not a promotion.
        verdict = promote_complete(verdict, PageShape(True, 1, acct.has_more, acct.returned))
    sample = verdict.grade is Grade.LOWER_BOUND or verdict.has_more
    return Evidence(
        envelope=envelope_verdict(outcome, failed=failed, accounted=acct is not None),
        call_id=call_id,
        tool=outcome.tool,
        arguments=outcome.arguments,
        slot=slot,
        failed=failed,
        verdict=verdict,
        emptiness=emptiness,
        citations=tuple(Citation(**c) for c in cards),
        bytes=outcome.bytes,
        returned=acct.returned if acct is not None else None,
        absence=absence_cause(facts),
        cursor=acct.cursor if acct is not None else None,
        page=(
            summarize(acct, page_ids(result))
            if not failed and (stitching or (acct is not None and acct.cursor is not None))
            else None
        ),
        pending=PendingCards(outcome.tool, records[rest:], project_id, PENDING_CARDS),
        facets=tuple(
            {k: r[k] for k in FACET_FIELDS if k in r} for r in records[:FACET_ROWS] if sample
        ),
    )


def denied_evidence(tool: str, arguments: dict[str, Any], *, call_id: str, slot: str) -> Evidence:
    """A call the caller may not make: blocked before dispatch, so no data exists."""
    facts = CallFacts("unknown", denied=True)
    return Evidence(
        call_id=call_id,
        tool=tool,
        arguments=arguments,
        slot=slot,
        failed=False,
        verdict=grade_accounting(None, sentinel=1),
        emptiness="unknown",
        citations=(),
        bytes=0,
        returned=None,
        absence=absence_cause(facts),
        denied=True,
        envelope="denied",
    )


def envelope_verdict(outcome: ToolOutcome, *, failed: bool, accounted: bool) -> EnvelopeVerdict:
    """The call's envelope verdict, from the adjudication already made (no content read)."""
    if failed:
        admitted = outcome.transport_status != 200 or outcome.result.get("isError") is True
        return "error" if admitted else "disguised_failure"
    if has_result_contract(outcome.tool) and not accounted:
        return "no_accounting"
    return "ok"


def arguments_digest(arguments: Mapping[str, Any]) -> str:
    """sha256 of the arguments' canonical JSON: calls can be grouped and compared,
    and the row holds none of what was asked."""
    canonical = json.dumps(arguments, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return "sha256:" + hashlib.sha256(canonical.encode()).hexdigest()


def tool_call_rows(turn_id: str, evidence: Sequence[Evidence]) -> list[dict[str, Any]]:
    """One ``tool_calls`` row per call the turn made or was refused: its tool, the
    arguments' digest, duration, envelope verdict, grade and returned/total —
    codes and numbers only, never the arguments or the result."""
    rows = []
    for e in evidence:
        value = e.verdict.value
        total = None if e.verdict.grade is Grade.UNKNOWN or value is None else int(value)
        rows.append(
            {
                "turn_id": turn_id,
                "call_id": e.call_id,
                "tool": e.tool,
                "args_digest": arguments_digest(e.arguments),
                "duration_ms": None if e.duration_s is None else round(e.duration_s * 1000, 3),
                "verdict": e.envelope,
                "grade": e.verdict.grade.value,
                "returned": e.returned,
                "total": total,
                "total_is_lower_bound": e.verdict.grade is Grade.LOWER_BOUND,
            }
        )
    return rows


def digest(evidence: Evidence, result: dict[str, Any]) -> dict[str, Any]:
    """What the model reads about one call: compact, count-free, untrusted data."""
    if evidence.denied:
        # Neutral on purpose: the model input carries no access vocabulary.
        return {"call_id": evidence.call_id, "tool": evidence.tool, "status": "unavailable"}
    if evidence.failed:
        return {"call_id": evidence.call_id, "tool": evidence.tool, "status": "failed"}
    records = [
        {k: r[k] for k in _DIGEST_FIELDS if k in r} for r in records_of(result, DIGEST_RECORDS)
    ]
    return {
        "call_id": evidence.call_id,
        "tool": evidence.tool,
        "status": "ok",
        "slot": evidence.slot,
        "grade": evidence.verdict.grade.value,
        "emptiness": evidence.emptiness,
        "sample": records,
    }
