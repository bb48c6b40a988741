"""Read the accounting envelope of a tool result into one frozen record.

The envelope is parsed by its wire model (``beacon.wire.accounting.Accounting``,
the one the stub writes through): this module only finds it and keeps where it
came from. The reader never raises: a malformed envelope is "no accounting"
(UNKNOWN downstream), because a parser bug must degrade to silence, not kill a
turn.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from pydantic import ValidationError

from beacon.wire.accounting import ACCOUNTING_META_KEY, Accounting

AccountingSource = Literal["meta", "structured"]
# Only the envelope's own fields are handed to the model: structuredContent
# carries the page's records beside them, which the envelope need not copy.
_ENVELOPE_FIELDS = tuple(Accounting.model_fields)


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


def parse_envelope(raw: object, source: AccountingSource) -> AccountingRecord | None:
    """One envelope through the wire model; None when it is not one."""
    if not isinstance(raw, dict):
        return None
    try:
        envelope = Accounting.model_validate({k: raw[k] for k in _ENVELOPE_FIELDS if k in raw})
    except ValidationError:
        return None
    aggregate = envelope.aggregate
    return AccountingRecord(
        result_kind=envelope.result_kind,
        returned=envelope.returned,
        total=envelope.total,
        total_lower_bound=envelope.total_lower_bound,
        has_more=envelope.has_more,
        cursor=envelope.cursor,
        aggregate=(
            AggregateValue(function=aggregate.function, value=aggregate.value)
            if aggregate is not None
            else None
        ),
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
