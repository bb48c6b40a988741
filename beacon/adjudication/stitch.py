"""Page stitching: collect ids across pages, never claim a count from them.

Two invariants make a stitch trustworthy: I-a every page reports the same
total in the same bound style (the population did not move under us), and
I-b no id appears on two pages (the pages partition one ordering). Any
violation discards the stitch: the answer falls back to page 1 and the
anomaly is disclosed. A stitched total is page 1's population figure — never
a sum of page sizes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from beacon.adjudication.accounting import AccountingRecord, read_accounting

DEFAULT_PAGE_CAP = 5


class Anomaly(StrEnum):
    TOTAL_CHANGED = "total_changed"  # I-a: the population figure moved between pages
    BOUND_STYLE_CHANGED = "bound_style_changed"  # I-a: exact total vs lower bound flipped
    OVERLAPPING_IDS = "overlapping_ids"  # I-b: an id on two pages
    UNACCOUNTED_PAGE = "unaccounted_page"  # a page without accounting
    MISSING_IDS = "missing_ids"  # a record without an id cannot be stitched
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


def _population(acct: AccountingRecord) -> tuple[int | None, bool]:
    if acct.total_lower_bound is not None:
        return acct.total_lower_bound, True
    return acct.total, False


def _anomalies(
    accts: list[AccountingRecord | None], id_lists: list[list[str] | None]
) -> list[Anomaly]:
    found: list[Anomaly] = []
    if any(a is None for a in accts):
        found.append(Anomaly.UNACCOUNTED_PAGE)
    accounted = [a for a in accts if a is not None]
    styles = {_population(a)[1] for a in accounted}
    if len(styles) > 1:
        found.append(Anomaly.BOUND_STYLE_CHANGED)
    elif len({_population(a)[0] for a in accounted}) > 1:
        found.append(Anomaly.TOTAL_CHANGED)
    if any(ids is None for ids in id_lists):
        found.append(Anomaly.MISSING_IDS)
    seen: set[str] = set()
    for ids in id_lists:
        page = set(ids or ())
        if seen & page or len(page) != len(ids or ()):
            found.append(Anomaly.OVERLAPPING_IDS)
            break
        seen |= page
    return found


def stitch_pages(pages: Sequence[object], *, page_cap: int = DEFAULT_PAGE_CAP) -> StitchResult:
    if not pages:
        return StitchResult(False, (), None, False, False, 0, (Anomaly.NO_PAGES,))
    used = list(pages[:page_cap])
    accts = [read_accounting(p) for p in used]
    id_lists = [page_ids(p) for p in used]
    anomalies = _anomalies(accts, id_lists)
    first = accts[0]
    total, bound = _population(first) if first is not None else (None, False)
    last = accts[-1]
    has_more = last.has_more if last is not None else True
    if len(pages) > page_cap or (len(used) == page_cap and has_more):
        anomalies.append(Anomaly.PAGE_CAP_REACHED)
        has_more = True
    ok = not (set(anomalies) & VOIDING)
    if not ok:
        # Discard and disclose: page 1 alone is still an honest answer.
        first_more = first.has_more if first is not None else True
        return StitchResult(
            False,
            tuple(id_lists[0] or ()),
            total,
            bound,
            first_more or len(pages) > 1,
            1,
            tuple(anomalies),
        )
    ids = tuple(i for page in id_lists for i in (page or ()))
    return StitchResult(True, ids, total, bound, has_more, len(used), tuple(anomalies))
