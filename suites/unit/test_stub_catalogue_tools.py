"""The stub's catalogue and site tools in-process (``tools_core``, ``tools_site``): one
page with exact totals, items in the shapes its output schemas declare (``schemas``)."""

from __future__ import annotations

import jsonschema
import pytest

from stub_server.corpus import build_corpus
from stub_server.schemas import CLASH_ITEM, PROGRESS_ITEM, PROJECT_ITEM
from stub_server.tools import Flags, StubSettings, ToolContext, ToolError
from stub_server.tools_core import ListProjectsArgs, ProjectArgs, list_levels, list_projects
from stub_server.tools_site import (
    ClashReportArgs,
    ProgressArgs,
    get_clash_report,
    get_progress_summary,
)

HARBOR = "prj-harbor-tower"


def _ctx() -> ToolContext:
    return ToolContext(build_corpus(), StubSettings(), "http://127.0.0.1:1")


def test_list_projects_answers_every_project_in_one_exact_page() -> None:
    ctx = _ctx()
    out = list_projects(ctx, ListProjectsArgs(), Flags())
    items = out.structured["items"]
    assert [p["id"] for p in items] == [p.id for p in ctx.corpus.projects]
    assert out.accounting["total"] == out.accounting["returned"] == len(items)
    assert out.accounting["has_more"] is False
    for item in items:
        jsonschema.validate(item, PROJECT_ITEM)
    assert list_projects(ctx, ListProjectsArgs(), Flags(zero_hits=True)).structured["items"] == []
    with pytest.raises(ToolError, match="in one page"):
        list_projects(ctx, ListProjectsArgs(cursor="x"), Flags())


def test_list_levels_names_the_projects_levels_and_an_unknown_project_is_a_tool_error() -> None:
    ctx = _ctx()
    levels = list_levels(ctx, ProjectArgs(project_id=HARBOR), Flags()).structured["items"]
    assert len(levels) == sum(1 for lv in ctx.corpus.levels if lv.project_id == HARBOR)
    with pytest.raises(ToolError, match="Unknown project_id"):
        list_levels(ctx, ProjectArgs(project_id="prj-nowhere"), Flags())


def test_progress_and_clashes_are_result_sets_with_exact_totals_in_their_declared_shapes() -> None:
    ctx = _ctx()
    progress = get_progress_summary(ctx, ProgressArgs(project_id=HARBOR), Flags())
    clashes = get_clash_report(ctx, ClashReportArgs(project_id=HARBOR), Flags())
    for out, schema in ((progress, PROGRESS_ITEM), (clashes, CLASH_ITEM)):
        items = out.structured["items"]
        assert items and isinstance(out.accounting["total"], int)
        assert out.accounting["total"] >= out.accounting["returned"] == len(items)
        for item in items:
            jsonschema.validate(item, schema)
