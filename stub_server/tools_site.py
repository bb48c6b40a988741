"""``get_capture``, ``get_progress_summary`` and ``get_clash_report``.

A capture is one record (its own answer, no population to count); progress
and clashes are result sets with exact totals.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from stub_server.corpus_site import Clash
from stub_server.tools import (
    Flags,
    Page,
    ToolContext,
    ToolError,
    ToolOutput,
    envelope,
    markdown_table,
    paged_output,
    paginate,
)
from stub_server.tools_records import PagedArgs

_CAPTURE_COLUMNS = ["id", "label", "level_number", "captured_at", "photos", "annotations"]
_PROGRESS_COLUMNS = ["level_number", "level_name", "planned_pct", "actual_pct", "status"]
_CLASH_COLUMNS = [
    "id", "level_number", "discipline_a", "discipline_b", "severity", "status", "detected_on",
]  # fmt: skip
BEHIND_BY = 5  # percentage points behind plan before a level counts as "behind"


class GetCaptureArgs(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    capture_id: str = Field(min_length=1, max_length=100, description="A capture/panorama id.")


class ProgressArgs(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    project_id: str | None = Field(
        default=None, min_length=1, max_length=100, description="Project id (see list_projects)."
    )
    level_number: int | None = Field(default=None, ge=1, le=200)


class ClashReportArgs(PagedArgs):
    level_number: int | None = Field(default=None, ge=1, le=200)
    severity: Literal["critical", "major", "minor"] | None = None
    status: Literal["new", "active", "resolved"] | None = None
    discipline: Literal["structural", "mechanical", "electrical", "plumbing", "fire"] | None = None


def get_capture(ctx: ToolContext, args: GetCaptureArgs, flags: Flags) -> ToolOutput:
    capture = ctx.corpus.capture(args.capture_id)
    if capture is None:
        raise ToolError(f"Unknown capture_id {args.capture_id!r}.")
    item = {
        "id": capture.id,
        "project_id": capture.project_id,
        "label": capture.label,
        "level_number": capture.level_number,
        "level_name": f"Level {capture.level_number}",
        "captured_at": capture.captured_at,
        "photos": sum(1 for p in ctx.corpus.photos if p.capture_id == capture.id),
        "annotations": sum(1 for a in ctx.corpus.annotations if a.capture_id == capture.id),
        "thumbnail": f"{ctx.public_origin}/thumbs/{capture.id}.svg",
    }
    if (project := ctx.corpus.project(capture.project_id)) is not None:
        item.update(ctx.corpus.places.fields(capture.id, project))
    items = [] if flags.zero_hits else [item]
    page = Page(items, len(items), False, None)
    return paged_output("rows", "Capture", page, _CAPTURE_COLUMNS)


def _status(planned: int, actual: int) -> str:
    if actual >= 100:
        return "complete"
    if actual < planned - BEHIND_BY:
        return "behind"
    return "ahead" if actual > planned else "on_track"


def get_progress_summary(ctx: ToolContext, args: ProgressArgs, flags: Flags) -> ToolOutput:
    project = ctx.project(args.project_id)
    trades: dict[int, list[dict[str, Any]]] = defaultdict(list)
    as_of = ""
    for row in ctx.corpus.progress:
        if row.project_id == project.id and args.level_number in (None, row.level_number):
            trades[row.level_number].append(
                {"trade": row.trade, "planned_pct": row.planned_pct, "actual_pct": row.actual_pct}
            )
            as_of = row.as_of
    items = []
    for number in sorted(trades):
        planned = round(sum(t["planned_pct"] for t in trades[number]) / len(trades[number]))
        actual = round(sum(t["actual_pct"] for t in trades[number]) / len(trades[number]))
        items.append(
            {
                "level_number": number,
                "level_name": f"Level {number}",
                "planned_pct": planned,
                "actual_pct": actual,
                "status": _status(planned, actual),
                "as_of": as_of,
                "trades": trades[number],
            }
        )
    items = [] if flags.zero_hits else items
    accounting = envelope(
        "rows", returned=len(items), total=len(items), has_more=False, cursor=None
    )
    text = f"Progress of {project.name} as of {as_of or 'n/a'}: {len(items)} levels shown.\n\n"
    text += markdown_table(_PROGRESS_COLUMNS, items)
    return ToolOutput(text, {**accounting, "items": items}, accounting)


def _clash_item(clash: Clash) -> dict[str, Any]:
    return {
        "id": clash.id,
        "level_number": clash.level_number,
        "discipline_a": clash.discipline_a,
        "discipline_b": clash.discipline_b,
        "element_a": clash.element_a,
        "element_b": clash.element_b,
        "severity": clash.severity,
        "status": clash.status,
        "detected_on": clash.detected_on,
    }


def get_clash_report(ctx: ToolContext, args: ClashReportArgs, flags: Flags) -> ToolOutput:
    project = ctx.project(args.project_id)
    rows = [
        _clash_item(c)
        for c in ctx.corpus.clashes
        if c.project_id == project.id
        and not flags.zero_hits
        and args.level_number in (None, c.level_number)
        and args.severity in (None, c.severity)
        and args.status in (None, c.status)
        and args.discipline in (None, c.discipline_a, c.discipline_b)
    ]
    page = paginate("clashes", args.scope(project.id), rows, args.limit, args.cursor)
    return paged_output("rows", f"BIM clashes in {project.name}", page, _CLASH_COLUMNS)
