"""``query_data``: NL question → generated SQL → capped rows, as the upstream does it.

The row cap is injected into list SQL, ``total`` is the number of rows the
*capped* SQL returned and a page holds the whole capped table, so a saturated
result says ``total: 3000, has_more: false`` — the upstream's false completion
signal, reproduced on purpose. The cursor carries the question, not the SQL.

Beside the question it takes structured filters (level, status, category,
kind, company, inspector, an inclusive date range), declared in its input schema and
ANDed onto the generated SQL: a caller can narrow a question without
rewording it. A cursor is bound to them as it is to the question.

A row naming a capture, photo or finding by its ``id`` carries that record's place
(camera view, BIM reference, host scope) beside the columns its SQL selected: the
payload a host needs to open it, as the record tools carry it.
"""

from __future__ import annotations

import sqlite3
from typing import Any, Self

from pydantic import (
    ConfigDict,
    Field,
    ValidationError,
    model_validator,
)

from beacon.wire.tools import PANORAMA
from stub_server import db
from stub_server.corpus import Project
from stub_server.sqlgen import Filters, Query, UntranslatableQuestion, to_sql, with_row_cap
from stub_server.tools import (
    Flags,
    ToolContext,
    ToolError,
    ToolOutput,
    decode_cursor,
    encode_cursor,
    envelope,
    markdown_table,
)
from stub_server.tools_records import FindingFilters

QUERY_RAN_LINE = "Query executed successfully."
_TEXT_ROWS = 20  # the full rows travel in structuredContent; the text stays small


class QueryDataArgs(FindingFilters):
    model_config = ConfigDict(
        extra="forbid",
        strict=True,
        json_schema_extra={"anyOf": [{"required": ["question"]}, {"required": ["cursor"]}]},
    )

    project_id: str | None = Field(
        default=None, min_length=1, max_length=100, description="Project id (see list_projects)."
    )
    question: str | None = Field(
        default=None, min_length=1, max_length=1000, description="The question, in plain words."
    )
    cursor: str | None = Field(
        default=None, min_length=1, max_length=4000, description="From a previous page's cursor."
    )
    # A time of day, for records that carry one (panoramas' capture time): inclusive
    # HH:MM ends; a start after the end wraps past midnight ("22:00"–"05:59").
    time_from: str | None = Field(
        default=None, pattern=r"^([01]\d|2[0-3]):[0-5]\d$", description="Inclusive, HH:MM."
    )
    time_to: str | None = Field(
        default=None, pattern=r"^([01]\d|2[0-3]):[0-5]\d$", description="Inclusive, HH:MM."
    )

    @model_validator(mode="after")
    def _question_or_cursor(self) -> Self:
        if self.question is None and self.cursor is None:
            raise ValueError("either question or cursor is required")
        return self

    def filters(self) -> Filters:
        return Filters(
            level_number=self.level_number,
            status=self.status,
            category=self.category,
            kind=self.kind,
            company=self.company,
            inspector=self.inspector,
            date_from=self.date_from,
            date_to=self.date_to,
            time_from=self.time_from,
            time_to=self.time_to,
        )


def _run(ctx: ToolContext, query: Query) -> tuple[list[str], list[dict[str, Any]]]:
    try:
        columns, rows = db.run(ctx.corpus, query.sql, query.params)
    except sqlite3.Error as exc:
        raise ToolError(f"The generated SQL could not be run: {exc}") from exc
    return columns, [dict(zip(columns, row, strict=True)) for row in rows]


# A finding's or photo's row keeps where its record stands (view, BIM reference,
# review). The host scope is its project's, the same on every row, and a capture's
# pose is get_capture's: a panorama listing runs to the 3000-row cap, and with both
# on every row the saturated answer was 2.8× its bytes before views (and every turn
# that listed panoramas twice as slow, at the stub and in the chat server alike).
_ROW_PLACE = ("view", "bim", "review")


def _placed(ctx: ToolContext, project: Project, row: dict[str, Any]) -> dict[str, Any]:
    record_id = row.get("id")
    if (
        not isinstance(record_id, str)
        or record_id.startswith(PANORAMA.id_prefix)
        or record_id not in ctx.corpus.places.views
    ):
        return row
    place = ctx.corpus.places.fields(record_id, project)
    return {**row, **{name: place[name] for name in _ROW_PLACE if name in place}}


def _cursor_filters(bound: object) -> Filters:
    """The filters a cursor was issued for, validated as arguments are."""
    if not isinstance(bound, dict):
        raise ToolError("Invalid cursor: it was not issued by this tool.")
    try:
        return QueryDataArgs.model_validate({"question": "-", **bound}).filters()
    except ValidationError as exc:
        raise ToolError("Invalid cursor: it was not issued by this tool.") from exc


def query_data(ctx: ToolContext, args: QueryDataArgs, flags: Flags) -> ToolOutput:
    project = ctx.project(args.project_id)
    question, offset, filters = args.question, 0, args.filters()
    if args.cursor is not None:
        state = decode_cursor(args.cursor, "query")
        if state.get("p") != project.id or (question is not None and state.get("q") != question):
            raise ToolError("Invalid cursor: it belongs to a different question.")
        bound = state.get("f") or {}
        if filters.given() and filters.given() != bound:
            raise ToolError("Invalid cursor: it belongs to different filters.")
        question, offset, filters = str(state.get("q")), state["o"], _cursor_filters(bound)
    assert question is not None  # guaranteed by QueryDataArgs
    try:
        query = with_row_cap(to_sql(question, project.id, filters), ctx.settings.row_cap)
    except UntranslatableQuestion as exc:
        raise ToolError(f"Could not translate the question into SQL: {exc}") from exc
    if flags.cursor_drift and args.cursor is not None and not query.is_aggregate:
        # Page 2 regenerates the SQL from the question, and this time it differs.
        query = with_row_cap(
            to_sql(question, project.id, filters), max(1, ctx.settings.row_cap - 7)
        )
        offset = max(0, offset - 3)
    columns, rows = _run(ctx, query)
    if flags.zero_hits:
        # A real zero-result run: nothing matched, so a COUNT is 0 and a list is empty.
        rows = [{columns[0]: 0}] if query.aggregate_function == "COUNT" else []
    total = len(rows)
    page = [
        _placed(ctx, project, row) for row in rows[offset : offset + ctx.settings.query_page_size]
    ]
    has_more = offset + len(page) < total
    issued: dict[str, Any] = {"t": "query", "p": project.id, "q": question, "o": offset + len(page)}
    if filters.given():
        issued["f"] = filters.given()
    cursor = encode_cursor(issued)
    aggregate = None
    if query.is_aggregate and page:
        column = query.aggregate_column or columns[0]
        aggregate = {
            "function": query.aggregate_function,
            "column": column,
            "value": page[0][column],
        }
    accounting = envelope(
        "rows",
        returned=len(page),
        total=total,
        has_more=has_more,
        cursor=cursor if has_more else None,
        aggregate=aggregate,
    )
    structured = {**accounting, "aggregate": aggregate, "sql": query.sql, "columns": columns}
    structured["rows"] = page
    lines = [QUERY_RAN_LINE, f"SQL: {query.sql}", f"Rows: {len(page)}"]
    if aggregate is not None:
        lines.append(f"Result: {aggregate['column']} = {aggregate['value']}")
    lines += ["", markdown_table(columns, page[:_TEXT_ROWS])]
    if len(page) > _TEXT_ROWS:
        lines.append(f"(first {_TEXT_ROWS} of {len(page)} rows shown)")
    return ToolOutput("\n".join(lines), structured, accounting)
