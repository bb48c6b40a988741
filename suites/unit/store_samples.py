"""A small load-more page record and narrowing record, for the store tests that only
need one of each to be sealed, aged, pruned or re-sealed (not read field by field)."""

from __future__ import annotations

from beacon.adjudication import GateState, Grade
from beacon.store.records import NarrowingRecord, PageRecord

PAGE = PageRecord(
    tool="search_photos",
    arguments={},
    cursor="next",
    pages=(),
    shown=(),
    grade=Grade.LOWER_BOUND,
    has_more=True,
    total=None,
)
NARROWING = NarrowingRecord(state=GateState.OFFERED, tool="search_photos")
