"""The core catalogue tools: ``list_projects``, ``get_project``, ``list_levels``.

Small enough to answer in one page, but they carry the same envelope as the
list tools so a reader never has to guess whether a list is complete.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from stub_server.corpus import Project
from stub_server.tools import Flags, ToolContext, ToolError, ToolOutput, envelope, markdown_table


class ListProjectsArgs(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    cursor: str | None = Field(default=None, min_length=1, max_length=2000)


class ProjectArgs(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    project_id: str | None = Field(default=None, min_length=1, max_length=100)


def _rows(kind_label: str, items: list[dict[str, Any]], columns: list[str]) -> ToolOutput:
    accounting = envelope(
        "rows", returned=len(items), total=len(items), has_more=False, cursor=None
    )
    text = f"{kind_label}: {len(items)} shown.\n\n{markdown_table(columns, items)}"
    return ToolOutput(text, {**accounting, "items": items}, accounting)


def _project_item(ctx: ToolContext, project: Project) -> dict[str, Any]:
    corpus = ctx.corpus
    return {
        "id": project.id,
        "name": project.name,
        "code": project.code,
        "city": project.city,
        "panoramas": sum(1 for c in corpus.captures if c.project_id == project.id),
        "levels": sum(1 for lv in corpus.levels if lv.project_id == project.id),
    }


_PROJECT_COLUMNS = ["id", "name", "code", "city", "panoramas", "levels"]


def list_projects(ctx: ToolContext, args: ListProjectsArgs, flags: Flags) -> ToolOutput:
    if args.cursor is not None:
        # One page holds every project, so this tool never issues a cursor.
        raise ToolError("Invalid cursor: list_projects answers every project in one page.")
    projects = [] if flags.zero_hits else list(ctx.corpus.projects)
    return _rows("Projects", [_project_item(ctx, p) for p in projects], _PROJECT_COLUMNS)


def get_project(ctx: ToolContext, args: ProjectArgs, flags: Flags) -> ToolOutput:
    project = ctx.project(args.project_id)
    items = [] if flags.zero_hits else [_project_item(ctx, project)]
    return _rows("Project", items, _PROJECT_COLUMNS)


def list_levels(ctx: ToolContext, args: ProjectArgs, flags: Flags) -> ToolOutput:
    project = ctx.project(args.project_id)
    corpus = ctx.corpus
    panoramas = Counter(c.level_number for c in corpus.captures if c.project_id == project.id)
    photos = Counter(p.level_number for p in corpus.photos if p.project_id == project.id)
    items = [
        {
            "id": level.id,
            "number": level.number,
            "name": level.name,
            "panoramas": panoramas[level.number],
            "photos": photos[level.number],
        }
        for level in corpus.levels
        if level.project_id == project.id and not flags.zero_hits
    ]
    return _rows(
        f"Levels of {project.name}", items, ["id", "number", "name", "panoramas", "photos"]
    )
