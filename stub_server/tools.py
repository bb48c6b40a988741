"""What every stub tool shares: settings, the tool context, cursors and the envelope.

A tool handler returns a ``ToolOutput`` (text, structured content, accounting);
the fault layer (``faults.py``) decides how much of it reaches the wire.
"""

from __future__ import annotations

import base64
import binascii
import json
import os
from dataclasses import dataclass, field
from datetime import date
from typing import Any, Self

from mcp_types import TextContent
from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from beacon.wire.accounting import ACCOUNTING_META_KEY, Accounting
from stub_server.corpus import Corpus, Project

DEFAULT_FOCUS = "prj-maple-clinic"


class ToolError(Exception):
    """An honest tool failure: answered as ``isError: true`` with this message."""


def _env_int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = int(raw)
    except ValueError as exc:
        raise ValueError(f"{name} must be an integer, got {raw!r}") from exc
    if value < 0:
        raise ValueError(f"{name} must not be negative, got {value}")
    return value


DEFAULT_ROW_CAP = 3000
DEFAULT_FETCH_CAP = 200
DEFAULT_QUERY_PAGE_SIZE = 3000
DEFAULT_SLOW_MS = 1500


@dataclass(frozen=True, slots=True)
class StubSettings:
    row_cap: int = DEFAULT_ROW_CAP
    fetch_cap: int = DEFAULT_FETCH_CAP
    query_page_size: int = DEFAULT_QUERY_PAGE_SIZE
    slow_ms: int = DEFAULT_SLOW_MS

    @classmethod
    def from_env(cls) -> StubSettings:
        settings = cls(
            row_cap=_env_int("BEACON_STUB_ROW_CAP", DEFAULT_ROW_CAP),
            fetch_cap=_env_int("BEACON_STUB_FETCH_CAP", DEFAULT_FETCH_CAP),
            query_page_size=_env_int("BEACON_STUB_QUERY_PAGE_SIZE", DEFAULT_QUERY_PAGE_SIZE),
            slow_ms=_env_int("BEACON_STUB_SLOW_MS", DEFAULT_SLOW_MS),
        )
        if min(settings.row_cap, settings.fetch_cap, settings.query_page_size) < 1:
            raise ValueError("row cap, fetch cap and page size must be at least 1")
        return settings


@dataclass(frozen=False, slots=True)  # follows the last project a call named
class Focus:
    """The upstream's server-side "current project": a trap for callers that omit ids."""

    project_id: str = DEFAULT_FOCUS


@dataclass(frozen=True, slots=True)
class Flags:
    """How a fault mode bends an otherwise normal run."""

    zero_hits: bool = False
    cursor_drift: bool = False
    measured: bool = False  # photo hits at their measured weight


@dataclass(frozen=True, slots=True)
class ToolContext:
    corpus: Corpus
    settings: StubSettings
    public_origin: str
    focus: Focus = field(default_factory=Focus)

    def project(self, project_id: str | None) -> Project:
        """Resolve an explicit id (which then becomes the focus) or fall back to the focus."""
        chosen = project_id if project_id is not None else self.focus.project_id
        project = self.corpus.project(chosen)
        if project is None:
            raise ToolError(f"Unknown project_id {chosen!r}. Call list_projects to see valid ids.")
        if project_id is not None:
            self.focus.project_id = project.id
        return project


class DateRange(BaseModel):
    """An inclusive day range, the one definition every dated tool argument uses, so
    findings and photos cannot drift apart on what a valid range is."""

    model_config = ConfigDict(extra="forbid", strict=True)

    date_from: str | None = Field(
        default=None, pattern=r"^\d{4}-\d{2}-\d{2}$", description="Inclusive, YYYY-MM-DD."
    )
    date_to: str | None = Field(
        default=None, pattern=r"^\d{4}-\d{2}-\d{2}$", description="Inclusive, YYYY-MM-DD."
    )

    @field_validator("date_from", "date_to")
    @classmethod
    def _real_date(cls, value: str | None) -> str | None:
        if value is not None:
            date.fromisoformat(value)  # "2026-02-30" fails here, naming the field
        return value

    @model_validator(mode="after")
    def _ordered(self) -> Self:
        if self.date_from and self.date_to and self.date_from > self.date_to:
            raise ValueError("date_from must not be after date_to")
        return self

    def covers(self, moment: str) -> bool:
        """Whether a record's ISO date (or timestamp: its day) falls in the range."""
        day = moment[:10]
        return (self.date_from is None or day >= self.date_from) and (
            self.date_to is None or day <= self.date_to
        )


@dataclass(frozen=True, slots=True)
class ToolOutput:
    text: str
    structured: dict[str, Any]
    accounting: dict[str, Any]

    def block(self) -> TextContent:
        return TextContent(
            type="text", text=self.text, _meta={ACCOUNTING_META_KEY: self.accounting}
        )


def envelope(
    result_kind: str,
    *,
    returned: int,
    has_more: bool,
    cursor: str | None,
    total: int | None = None,
    total_lower_bound: int | None = None,
    aggregate: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The accounting dict, validated through the shared wire model."""
    fields: dict[str, Any] = {
        "result_kind": result_kind,
        "returned": returned,
        "has_more": has_more,
        "cursor": cursor,
    }
    if total is not None:
        fields["total"] = total
    if total_lower_bound is not None:
        fields["total_lower_bound"] = total_lower_bound
    if aggregate is not None:
        fields["aggregate"] = aggregate
    Accounting.model_validate(fields)
    return fields


def encode_cursor(payload: dict[str, Any]) -> str:
    raw = json.dumps(payload, sort_keys=True, separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def decode_cursor(cursor: str, kind: str) -> dict[str, Any]:
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
        payload = json.loads(raw)
    except (binascii.Error, ValueError) as exc:
        raise ToolError("Invalid cursor: it was not issued by this server.") from exc
    if (
        not isinstance(payload, dict)
        or payload.get("t") != kind
        or not isinstance(payload.get("o"), int)
        or payload["o"] < 0
    ):
        raise ToolError("Invalid cursor: it was not issued by this tool.")
    return payload


def markdown_table(columns: list[str], rows: list[dict[str, Any]]) -> str:
    head = "| " + " | ".join(columns) + " |"
    rule = "|" + "|".join("---" for _ in columns) + "|"
    body = ["| " + " | ".join(str(row.get(c, "")) for c in columns) + " |" for row in rows]
    return "\n".join([head, rule, *body])


@dataclass(frozen=True, slots=True)
class Page:
    items: list[dict[str, Any]]
    total: int
    has_more: bool
    cursor: str | None


def paginate(
    kind: str, scope: dict[str, Any], rows: list[dict[str, Any]], limit: int, cursor: str | None
) -> Page:
    """A stable offset page over ``rows``; the cursor is bound to ``scope`` (the filters)."""
    offset = 0
    if cursor is not None:
        state = decode_cursor(cursor, kind)
        if state.get("s") != scope:
            raise ToolError("Invalid cursor: it belongs to a different query.")
        offset = state["o"]
    page = rows[offset : offset + limit]
    next_offset = offset + len(page)
    has_more = next_offset < len(rows)
    issued = encode_cursor({"t": kind, "s": scope, "o": next_offset}) if has_more else None
    return Page(page, len(rows), has_more, issued)


def paged_output(result_kind: str, lead: str, page: Page, columns: list[str]) -> ToolOutput:
    """A page with an exact total: the envelope, the items, and a small table for readers."""
    accounting = envelope(
        result_kind,
        returned=len(page.items),
        total=page.total,
        has_more=page.has_more,
        cursor=page.cursor,
    )
    text = f"{lead}: {len(page.items)} shown.\n\n{markdown_table(columns, page.items)}"
    return ToolOutput(text, {**accounting, "items": page.items}, accounting)
