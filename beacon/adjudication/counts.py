"""Count grades (SPEC §3): decided from structured fields, before the model speaks."""

from __future__ import annotations

import os
from dataclasses import dataclass
from enum import StrEnum

from beacon.adjudication.accounting import AccountingRecord, read_accounting
from beacon.wire.frames import Grade

# The upstream's injected row cap. An external contract, not our constant:
# if upstream raises its cap, a stale sentinel would manufacture false EXACTs.
DEFAULT_SENTINEL = 3000
SENTINEL_ENV = "BEACON_ROW_CAP_SENTINEL"


class Basis(StrEnum):
    """Which row of the grade table decided: machine-readable, unlike ``reason``."""

    NO_ACCOUNTING = "no_accounting"
    AGGREGATE = "aggregate"
    UPSTREAM_BOUND = "upstream_bound"
    SATURATED = "saturated"
    TOTAL = "total"
    HOST_LIST = "host_list"
    NARROWED_PAGE = "narrowed_page"


def is_complete(grade: Grade, value: float | None, has_more: bool) -> bool:
    """The one definition of "complete": the count is the whole set — exact, a number,
    and nothing beyond what came back. Every reader (loop, narration, the fallback
    narrator, the references frame, the panel through ``counts[].complete``) asks here."""
    return grade is Grade.EXACT and value is not None and not has_more


def is_wholly_shown(grade: Grade, value: float | None, has_more: bool, shown: int) -> bool:
    """Complete, and every item of the set on screen: what the cards show is the set."""
    return is_complete(grade, value, has_more) and value is not None and shown >= value


@dataclass(frozen=True, slots=True)
class CountVerdict:
    grade: Grade
    value: int | float | None
    has_more: bool
    returned: int  # what the page carried (0 for an aggregate)
    reason: str
    basis: Basis

    @property
    def complete(self) -> bool:
        return is_complete(self.grade, self.value, self.has_more)

    def wholly_shown(self, shown: int) -> bool:
        return is_wholly_shown(self.grade, self.value, self.has_more, shown)


def sentinel_from_env(environ: dict[str, str] | None = None) -> int:
    raw = (os.environ if environ is None else environ).get(SENTINEL_ENV, "")
    if raw.strip().isdigit() and int(raw) > 0:
        return int(raw)
    return DEFAULT_SENTINEL


def grade_accounting(acct: AccountingRecord | None, *, sentinel: int) -> CountVerdict:
    if acct is None:
        return CountVerdict(
            Grade.UNKNOWN,
            None,
            False,
            0,
            "no accounting: no number may be uttered",
            Basis.NO_ACCOUNTING,
        )
    if acct.aggregate is not None:
        # A single-value aggregate is exempt from the row cap upstream.
        if acct.aggregate.value is None:
            return CountVerdict(
                Grade.UNKNOWN, None, False, 0, "aggregate without a value", Basis.AGGREGATE
            )
        return CountVerdict(
            Grade.EXACT, acct.aggregate.value, False, 0, "single-value aggregate", Basis.AGGREGATE
        )
    if acct.total_lower_bound is not None:
        return CountVerdict(
            Grade.LOWER_BOUND,
            acct.total_lower_bound,
            acct.has_more,
            acct.returned,
            "the upstream reports only a lower bound",
            Basis.UPSTREAM_BOUND,
        )
    assert acct.total is not None  # the reader guarantees exactly one of the two
    if acct.total >= sentinel:
        # Saturated: upstream's has_more=false is a false completion signal.
        # "at least N" holds even when the true total equals N (>= includes =).
        return CountVerdict(
            Grade.LOWER_BOUND,
            acct.total,
            True,
            acct.returned,
            f"total reached the row cap {sentinel}: rows beyond it may exist",
            Basis.SATURATED,
        )
    return CountVerdict(
        Grade.EXACT, acct.total, acct.has_more, acct.returned, "total below the cap", Basis.TOTAL
    )


def grade_count(result: object, *, sentinel: int = DEFAULT_SENTINEL) -> CountVerdict:
    """Grade the count of one MCP ``CallToolResult`` given as a JSON dict."""
    return grade_accounting(read_accounting(result), sentinel=sentinel)
