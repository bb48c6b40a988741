"""``list_annotations`` and ``search_documents``: filtered, paginated record lists.

Both count exactly (a filter over typed fields, a keyword index over a small
document set), so their envelopes carry ``total``; only ``search_photos``'s
vector backend is a lower bound.
"""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from stub_server.corpus import Annotation, Project
from stub_server.corpus_site import Document
from stub_server.tools import DateRange, Flags, ToolContext, ToolOutput, paged_output, paginate

Category = Literal[
    "fall protection", "ppe", "housekeeping", "electrical", "fire safety",
    "finish", "alignment", "waterproofing",
]  # fmt: skip
Status = Literal["open", "closed", "in_review"]
_ANNOTATION_COLUMNS = [
    "id", "title", "kind", "category", "status", "company", "inspector", "level_number",
    "created_at",
]  # fmt: skip
_DOCUMENT_COLUMNS = ["id", "kind", "number", "title", "status", "level_number", "issued_on"]
_WORD = re.compile(r"[a-z0-9]+")


class PagedArgs(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    project_id: str | None = Field(
        default=None, min_length=1, max_length=100, description="Project id (see list_projects)."
    )
    limit: int = Field(default=25, ge=1, le=100, description="Page size.")
    cursor: str | None = Field(
        default=None, min_length=1, max_length=2000, description="From a previous page's cursor."
    )

    def scope(self, project_id: str) -> dict[str, Any]:
        """The filters a cursor is bound to (everything but the page controls)."""
        fields = self.model_dump(exclude={"limit", "cursor", "project_id"}, mode="json")
        return {"project_id": project_id, **fields}


class FindingFilters(DateRange):
    """The filter arguments list_annotations and query_data both accept (one definition,
    so the two tools cannot drift apart on what a level, an inspector or a date range is)."""

    level_number: int | None = Field(
        default=None, ge=1, le=200, description="Only rows on this level."
    )
    status: Status | None = Field(default=None, description="Only findings in this status.")
    category: Category | None = Field(default=None, description="Only findings of this category.")
    kind: Literal["safety", "quality"] | None = Field(
        default=None, description="Only findings of this kind."
    )
    company: str | None = Field(
        default=None, min_length=1, max_length=100, description="Only findings of this company."
    )
    inspector: str | None = Field(
        default=None,
        min_length=1,
        max_length=100,
        description="Only findings raised by this inspector (full name).",
    )


class ListAnnotationsArgs(PagedArgs, FindingFilters):
    pass


class SearchDocumentsArgs(PagedArgs):
    query: str = Field(min_length=1, max_length=500, description="Words to find in specs/RFIs.")
    kind: Literal["spec", "rfi"] | None = None


def _annotation_item(ctx: ToolContext, annotation: Annotation, project: Project) -> dict[str, Any]:
    return {
        "id": annotation.id,
        "title": annotation.title,
        "kind": annotation.kind,
        "category": annotation.category,
        "status": annotation.status,
        "company": annotation.company,
        "inspector": annotation.inspector,
        "level_number": annotation.level_number,
        "capture_id": annotation.capture_id,
        "created_at": annotation.created_at,
        **ctx.corpus.places.fields(annotation.id, project),
    }


def _named(wanted: str | None, value: str) -> bool:
    # A company or a person is a name a caller types: matched in any case, as the
    # query_data SQL does (COLLATE NOCASE).
    return wanted is None or wanted.lower() == value.lower()


def _keeps(a: Annotation, args: ListAnnotationsArgs, project_id: str) -> bool:
    return (
        a.project_id == project_id
        and args.level_number in (None, a.level_number)
        and args.status in (None, a.status)
        and args.category in (None, a.category)
        and args.kind in (None, a.kind)
        and _named(args.company, a.company)
        and _named(args.inspector, a.inspector)
        and args.covers(a.created_at)
    )


def list_annotations(ctx: ToolContext, args: ListAnnotationsArgs, flags: Flags) -> ToolOutput:
    project = ctx.project(args.project_id)
    rows = [
        _annotation_item(ctx, a, project)
        for a in ctx.corpus.annotations
        if not flags.zero_hits and _keeps(a, args, project.id)
    ]
    page = paginate("annotations", args.scope(project.id), rows, args.limit, args.cursor)
    return paged_output("rows", f"Annotations in {project.name}", page, _ANNOTATION_COLUMNS)


def _document_item(document: Document, score: int) -> dict[str, Any]:
    return {
        "id": document.id,
        "kind": document.kind,
        "number": document.number,
        "title": document.title,
        "summary": document.summary,
        "status": document.status,
        "discipline": document.discipline,
        "level_number": document.level_number,
        "issued_on": document.issued_on,
        "score": score,
    }


def search_documents(ctx: ToolContext, args: SearchDocumentsArgs, flags: Flags) -> ToolOutput:
    project = ctx.project(args.project_id)
    wanted = set(_WORD.findall(args.query.lower()))
    scored: list[tuple[int, Document]] = []
    for document in ctx.corpus.documents:
        if document.project_id != project.id or args.kind not in (None, document.kind):
            continue
        words = set(_WORD.findall(f"{document.number} {document.title} {document.summary}".lower()))
        score = len(wanted & words)
        if score and not flags.zero_hits:
            scored.append((score, document))
    scored.sort(key=lambda pair: (-pair[0], pair[1].id))
    rows = [_document_item(document, score) for score, document in scored]
    page = paginate("documents", args.scope(project.id), rows, args.limit, args.cursor)
    lead = f'Documents matching "{args.query}" in {project.name}'
    return paged_output("search", lead, page, _DOCUMENT_COLUMNS)
