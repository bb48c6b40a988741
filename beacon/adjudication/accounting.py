"""Read the accounting envelope of a tool result into one frozen record.

The reader never raises: a malformed envelope is "no accounting" (UNKNOWN
downstream), because a parser bug must degrade to silence, not kill a turn.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from beacon.wire.accounting import ACCOUNTING_META_KEY

AccountingSource = Literal["meta", "structured"]
_AGGREGATE_FUNCTIONS = frozenset({"COUNT", "SUM", "AVG", "MIN", "MAX"})


@dataclass(frozen=True, slots=True)
class AggregateValue:
    function: str
    value: float | int | None


@dataclass(frozen=True, slots=True)
class AccountingRecord:
    result_kind: str
    returned: int
    total: int | None
    total_lower_bound: int | None
    has_more: bool
    cursor: str | None
    aggregate: AggregateValue | None
    source: AccountingSource


def _is_count(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _parse_aggregate(raw: object) -> AggregateValue | Literal[False] | None:
    """None when absent, False when present but malformed."""
    if raw is None:
        return None
    if not isinstance(raw, dict) or raw.get("function") not in _AGGREGATE_FUNCTIONS:
        return False
    value = raw.get("value")
    if value is not None and (isinstance(value, bool) or not isinstance(value, int | float)):
        return False
    return AggregateValue(function=str(raw["function"]), value=value)


def parse_envelope(raw: object, source: AccountingSource) -> AccountingRecord | None:
    if not isinstance(raw, dict):
        return None
    kind = raw.get("result_kind")
    returned = raw.get("returned")
    has_more = raw.get("has_more")
    total = raw.get("total")
    bound = raw.get("total_lower_bound")
    cursor = raw.get("cursor")
    if kind not in ("search", "rows") or not _is_count(returned) or not isinstance(has_more, bool):
        return None
    # Exactly one of total / total_lower_bound: both or neither is not an envelope.
    if (total is None) == (bound is None):
        return None
    if (total is not None and not _is_count(total)) or (bound is not None and not _is_count(bound)):
        return None
    if cursor is not None and not isinstance(cursor, str):
        return None
    aggregate = _parse_aggregate(raw.get("aggregate"))
    if aggregate is False:
        return None
    return AccountingRecord(
        result_kind=str(kind),
        returned=int(returned),  # type: ignore[arg-type]
        total=total,
        total_lower_bound=bound,
        has_more=has_more,
        cursor=cursor,
        aggregate=aggregate,
        source=source,
    )


def _meta_envelope(result: dict[str, Any]) -> object:
    content = result.get("content")
    if not isinstance(content, list):
        return None
    for block in content:
        if isinstance(block, dict):
            meta = block.get("_meta")
            if isinstance(meta, dict) and ACCOUNTING_META_KEY in meta:
                return meta[ACCOUNTING_META_KEY]
    return None


def read_accounting(result: object) -> AccountingRecord | None:
    """The envelope from block ``_meta`` first (it survives presentation
    changes), else from ``structuredContent``; None when neither parses."""
    if not isinstance(result, dict):
        return None
    from_meta = parse_envelope(_meta_envelope(result), "meta")
    if from_meta is not None:
        return from_meta
    return parse_envelope(result.get("structuredContent"), "structured")
