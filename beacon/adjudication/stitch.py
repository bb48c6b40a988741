"""Page stitching: collect ids across pages, never claim a count from them.

Two invariants make a stitch trustworthy: I-a every page reports the same
total in the same bound style (the population did not move under us), and
I-b no id appears on two pages (the pages partition one ordering). Both are
checked on every page given, and a page past the page cap is itself a
violation: the cap is where following stops, so a stitch that reaches beyond
it was never followed honestly. Any violation discards the stitch: the answer
falls back to page 1 and the anomaly is disclosed. A stitched total is page
1's population figure — never a sum of page sizes.

Pages are ``PageSummary`` records (what the store keeps between load-more
requests) or MCP ``CallToolResult`` dicts, which are summarised through the
same accounting reader the grades use.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from beacon.adjudication.accounting import AccountingRecord, read_accounting
from beacon.wire.accounting import PageSummary

DEFAULT_PAGE_CAP = 5


class Anomaly(StrEnum):
    TOTAL_CHANGED = "total_changed"  # I-a: the population figure moved between pages
    BOUND_STYLE_CHANGED = "bound_style_changed"  # I-a: exact total vs lower bound flipped
    OVERLAPPING_IDS = "overlapping_ids"  # I-b: an id on two pages
    UNACCOUNTED_PAGE = "unaccounted_page"  # a page without accounting
    MISSING_IDS = "missing_ids"  # a record without an id cannot be stitched
    PAGE_CAP_EXCEEDED = "page_cap_exceeded"  # more pages were given than the cap allows
    PAGE_CAP_REACHED = "page_cap_reached"  # more pages existed than we may follow
    NO_PAGES = "no_pages"


# Anomalies that void the stitch; PAGE_CAP_REACHED only leaves has_more true.
VOIDING: frozenset[Anomaly] = frozenset(Anomaly) - {Anomaly.PAGE_CAP_REACHED}


@dataclass(frozen=True, slots=True)
class StitchResult:
    ok: bool
    ids: tuple[str, ...]
    total: int | None
    total_is_lower_bound: bool
    has_more: bool
    pages_used: int
    anomalies: tuple[Anomaly, ...]

    @property
    def disclose(self) -> bool:
        return not self.ok


def page_ids(page: object) -> list[str] | None:
    """Ids of a page's records; None when some record has no string id."""
    structured = page.get("structuredContent") if isinstance(page, dict) else None
    records: Any = None
    if isinstance(structured, dict):
        records = structured.get("items", structured.get("rows"))
    if not isinstance(records, list):
        return []
    ids = [r.get("id") if isinstance(r, dict) else None for r in records]
    return [i for i in ids if isinstance(i, str)] if all(isinstance(i, str) for i in ids) else None


def summarize(acct: AccountingRecord | None, ids: Sequence[str] | None) -> PageSummary:
    """A page's accounting and ids as the stitcher weighs them."""
    if acct is None:
        # Unaccounted: no population, and nothing said about later pages.
        return PageSummary(total=None, ids=None if ids is None else tuple(ids), has_more=True)
    bound = acct.total_lower_bound is not None
    return PageSummary(
        total=acct.total_lower_bound if bound else acct.total,
        bound=bound,
        ids=None if ids is None else tuple(ids),
        has_more=acct.has_more,
        returned=acct.returned,
    )


def summarize_page(result: object) -> PageSummary:
    """One MCP ``CallToolResult`` (a JSON dict) as a page summary."""
    return summarize(read_accounting(result), page_ids(result))


def _anomalies(pages: Sequence[PageSummary]) -> list[Anomaly]:
    found: list[Anomaly] = []
    if not all(p.accounted for p in pages):
        found.append(Anomaly.UNACCOUNTED_PAGE)
    accounted = [p for p in pages if p.accounted]
    if len({p.bound for p in accounted}) > 1:
        found.append(Anomaly.BOUND_STYLE_CHANGED)
    elif len({p.total for p in accounted}) > 1:
        found.append(Anomaly.TOTAL_CHANGED)
    if any(p.ids is None for p in pages):
        found.append(Anomaly.MISSING_IDS)
    seen: set[str] = set()
    for p in pages:
        ids = p.ids or ()
        page = set(ids)
        if seen & page or len(page) != len(ids):
            found.append(Anomaly.OVERLAPPING_IDS)
            break
        seen |= page
    return found


def stitch_pages(
    pages: Sequence[PageSummary | dict[str, Any]], *, page_cap: int = DEFAULT_PAGE_CAP
) -> StitchResult:
    """Stitch pages in the order they were fetched (page 1 first)."""
    if not pages:
        return StitchResult(False, (), None, False, False, 0, (Anomaly.NO_PAGES,))
    summaries = [p if isinstance(p, PageSummary) else summarize_page(p) for p in pages]
    anomalies = _anomalies(summaries)
    first, last = summaries[0], summaries[-1]
    has_more = last.has_more
    if len(summaries) > page_cap:
        anomalies.append(Anomaly.PAGE_CAP_EXCEEDED)
    elif len(summaries) == page_cap and has_more:
        anomalies.append(Anomaly.PAGE_CAP_REACHED)
    if set(anomalies) & VOIDING:
        # Discard and disclose: page 1 alone is still an honest answer.
        return StitchResult(
            False,
            first.ids or (),
            first.total,
            first.bound,
            first.has_more or len(summaries) > 1,
            1,
            tuple(anomalies),
        )
    ids = tuple(i for p in summaries for i in (p.ids or ()))
    return StitchResult(
        True, ids, first.total, first.bound, has_more, len(summaries), tuple(anomalies)
    )
