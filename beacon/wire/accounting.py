"""The upstream accounting envelope (SPEC §2.1), and a page as the stitcher keeps it.

Carried on a tool result's content blocks under ``_meta[ACCOUNTING_META_KEY]``
and mirrored in ``structuredContent``. This model is the envelope's only
parser: the stub writes through it and the adjudication layer reads through it
(``beacon.adjudication.accounting.read_accounting``), so both agree on what an
envelope is — exactly one of ``total`` / ``total_lower_bound``, counts that are
integers (never ``true``, never ``"3"``), a known ``result_kind``.
"""

from __future__ import annotations

from typing import Literal, Self

from pydantic import BaseModel, ConfigDict, Field, model_validator

# Reverse-DNS, as the MCP spec asks of metadata that is not MCP's own.
ACCOUNTING_META_KEY = "beacon.dev/accounting"

ResultKind = Literal["search", "rows"]
AggregateFunction = Literal["COUNT", "SUM", "AVG", "MIN", "MAX"]


class Aggregate(BaseModel):
    """A single-value aggregate: exempt from the row cap, so its value is exact.

    ``column`` is informative (the stub names it); an aggregate without it is
    still an aggregate, and fields beyond these are ignored, as on the envelope.
    """

    model_config = ConfigDict(extra="allow", frozen=True, strict=True)

    function: AggregateFunction
    column: str | None = None
    value: float | int | None


class Accounting(BaseModel):
    """``returned`` is a page size, never a population; exactly one of
    ``total`` / ``total_lower_bound`` is present (both, or neither, is not an
    envelope). Strict: JSON's ``true`` is not a count and ``"no"`` is not a flag."""

    # extra="allow": structuredContent carries the envelope beside the records.
    model_config = ConfigDict(extra="allow", frozen=True, strict=True)

    result_kind: ResultKind
    returned: int = Field(ge=0)
    total: int | None = Field(default=None, ge=0)
    total_lower_bound: int | None = Field(default=None, ge=0)
    has_more: bool
    cursor: str | None = None
    aggregate: Aggregate | None = None

    @model_validator(mode="after")
    def _exactly_one_population(self) -> Self:
        if (self.total is None) == (self.total_lower_bound is None):
            raise ValueError("exactly one of total / total_lower_bound must be given")
        return self


class PageSummary(BaseModel):
    """One page as the page stitcher weighs it, and as the store keeps it for load-more.

    ``total`` is the page's population figure — ``total`` or, when ``bound``,
    ``total_lower_bound`` — and None when the page carried no accounting.
    ``ids`` are its records' ids in order; None when a record had none (such a
    page cannot be stitched). ``has_more`` is what the page said of the pages
    after it (an unaccounted page says nothing, so more may follow).
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    total: int | None
    bound: bool = False
    ids: tuple[str, ...] | None
    has_more: bool
    returned: int = Field(default=0, ge=0)

    @property
    def accounted(self) -> bool:
        return self.total is not None
