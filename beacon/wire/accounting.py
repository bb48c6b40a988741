"""The upstream accounting envelope (SPEC §2.1).

Carried on a tool result's content blocks under ``_meta[ACCOUNTING_META_KEY]``
and mirrored in ``structuredContent``. The stub writes it with these models and
the adjudication layer reads raw dicts against the same field names.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

# Reverse-DNS, as the MCP spec asks of metadata that is not MCP's own.
ACCOUNTING_META_KEY = "beacon.dev/accounting"

ResultKind = Literal["search", "rows"]
AggregateFunction = Literal["COUNT", "SUM", "AVG", "MIN", "MAX"]


class Aggregate(BaseModel):
    """A single-value aggregate: exempt from the row cap, so its value is exact."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    function: AggregateFunction
    column: str
    value: float | int | None


class Accounting(BaseModel):
    """``returned`` is a page size, never a population; exactly one of
    ``total`` / ``total_lower_bound`` is present."""

    model_config = ConfigDict(extra="allow", frozen=True)

    result_kind: ResultKind
    returned: int = Field(ge=0)
    total: int | None = Field(default=None, ge=0)
    total_lower_bound: int | None = Field(default=None, ge=0)
    has_more: bool
    cursor: str | None = None
    aggregate: Aggregate | None = None
