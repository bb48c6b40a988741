"""The tool catalogue and the MCP handlers: list, validate, record, run under a fault mode.

The scenario and the caller's subject arrive through context variables set by
the HTTP layer (``mcp_app``) for the request being served.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass
from functools import partial
from typing import Any

from mcp import MCPError
from mcp.server.context import ServerRequestContext
from mcp_types import (
    INVALID_PARAMS,
    CallToolRequestParams,
    CallToolResult,
    ListToolsResult,
    PaginatedRequestParams,
    Tool,
)
from pydantic import BaseModel, ValidationError

from stub_server import schemas
from stub_server.corpus import Corpus
from stub_server.faults import render, tool_error
from stub_server.scenarios import CallCounter, Scenario
from stub_server.tools import Flags, ToolContext, ToolError, ToolOutput
from stub_server.tools_core import (
    ListProjectsArgs,
    ProjectArgs,
    get_project,
    list_levels,
    list_projects,
)
from stub_server.tools_query import QueryDataArgs, query_data
from stub_server.tools_records import (
    ListAnnotationsArgs,
    SearchDocumentsArgs,
    list_annotations,
    search_documents,
)
from stub_server.tools_search import SearchIndex, SearchPhotosArgs, search_photos
from stub_server.tools_site import (
    ClashReportArgs,
    GetCaptureArgs,
    ProgressArgs,
    get_capture,
    get_clash_report,
    get_progress_summary,
)

CURRENT_SCENARIO: ContextVar[Scenario | None] = ContextVar("beacon_stub_scenario", default=None)
CURRENT_SUBJECT: ContextVar[str | None] = ContextVar("beacon_stub_subject", default=None)
# The chat server names the turn on every request, so tests count calls per turn.
CURRENT_TURN: ContextVar[str | None] = ContextVar("beacon_stub_turn", default=None)
# Its W3C trace context (``traceparent``), kept so tests can see a trace cross the hop.
CURRENT_TRACEPARENT: ContextVar[str | None] = ContextVar("beacon_stub_traceparent", default=None)


@dataclass(frozen=True, slots=True)
class ToolSpec:
    name: str
    description: str
    args: type[BaseModel]
    output_schema: dict[str, Any]
    run: Callable[[ToolContext, Any, Flags], ToolOutput]

    def tool(self, *, with_output_schema: bool) -> Tool:
        return Tool(
            name=self.name,
            description=self.description,
            input_schema=self.args.model_json_schema(),
            output_schema=self.output_schema if with_output_schema else None,
        )


class RequestLog:
    """Every tool call received, in order (served at ``GET /dev/requests``)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._entries: list[dict[str, Any]] = []
        self._seq = 0

    def record(self, tool: str, arguments: dict[str, Any], scenario: str, sub: str | None) -> None:
        with self._lock:
            self._seq += 1
            self._entries.append(
                {
                    "seq": self._seq,
                    "tool": tool,
                    "arguments": arguments,
                    "scenario": scenario,
                    "sub": sub,
                    "turn": CURRENT_TURN.get(),
                    "traceparent": CURRENT_TRACEPARENT.get(),
                }
            )

    def entries(self) -> list[dict[str, Any]]:
        with self._lock:
            return list(self._entries)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()


def _specs(index: SearchIndex) -> dict[str, ToolSpec]:
    specs = (
        ToolSpec(
            "search_photos",
            "Semantic search over a project's site photos, optionally only those taken on "
            "one level or in an inclusive date range. Results are ranked; the total is "
            "a lower bound because the search backend cannot count every match.",
            SearchPhotosArgs,
            schemas.SEARCH_OUTPUT,
            partial(_search, index),
        ),
        ToolSpec(
            "query_data",
            "Answer an analytics question about a project by generating and running SQL over "
            "panoramas (captures), photos, findings (annotations) and levels. Optional filters "
            "(level, an inclusive date range; for findings also status, category, kind, "
            "company and inspector) are ANDed onto the question.",
            QueryDataArgs,
            schemas.QUERY_OUTPUT,
            query_data,
        ),
        ToolSpec(
            "list_projects",
            "List the projects the caller can see.",
            ListProjectsArgs,
            schemas.items_output(schemas.PROJECT_ITEM),
            list_projects,
        ),
        ToolSpec(
            "get_project",
            "Get one project.",
            ProjectArgs,
            schemas.items_output(schemas.PROJECT_ITEM),
            get_project,
        ),
        ToolSpec(
            "list_levels",
            "List the levels of a project.",
            ProjectArgs,
            schemas.items_output(schemas.LEVEL_ITEM),
            list_levels,
        ),
        ToolSpec(
            "get_capture",
            "Get one capture (a 360° panorama walk) by id.",
            GetCaptureArgs,
            schemas.items_output(schemas.CAPTURE_ITEM),
            get_capture,
        ),
        ToolSpec(
            "list_annotations",
            "List a project's annotations (safety findings, quality issues), filtered by "
            "level, status, category, kind, company, inspector and an inclusive date range. "
            "Paginated.",
            ListAnnotationsArgs,
            schemas.items_output(schemas.ANNOTATION_ITEM),
            list_annotations,
        ),
        ToolSpec(
            "search_documents",
            "Keyword search over a project's documents (specifications and RFIs). Paginated.",
            SearchDocumentsArgs,
            schemas.items_output(schemas.DOCUMENT_ITEM),
            search_documents,
        ),
        ToolSpec(
            "get_progress_summary",
            "Construction progress per level (planned vs actual percent, per trade).",
            ProgressArgs,
            schemas.items_output(schemas.PROGRESS_ITEM),
            get_progress_summary,
        ),
        ToolSpec(
            "get_clash_report",
            "BIM clash report of a project, filtered by level, severity, status and "
            "discipline. Paginated.",
            ClashReportArgs,
            schemas.items_output(schemas.CLASH_ITEM),
            get_clash_report,
        ),
    )
    return {spec.name: spec for spec in specs}


def _search(
    index: SearchIndex, ctx: ToolContext, args: SearchPhotosArgs, flags: Flags
) -> ToolOutput:
    return search_photos(ctx, index, args, flags)


def _validation_message(tool: str, exc: ValidationError) -> str:
    problems = [
        f"{'.'.join(str(part) for part in error['loc']) or '(arguments)'}: {error['msg']}"
        for error in exc.errors()
    ]
    return f"Invalid arguments for {tool}: " + "; ".join(problems)


# One search index per corpus in a process: every stub app made in one process (the sweep's
# producers, the suite's in-process stubs) shares the project documents it makes (~0.3 s a
# project, each made on that project's first search).
_INDEXES: dict[int, tuple[Corpus, SearchIndex]] = {}


def search_index(corpus: Corpus) -> SearchIndex:
    kept = _INDEXES.get(id(corpus))
    if kept is None or kept[0] is not corpus:
        if len(_INDEXES) >= 4:  # as many as build_corpus keeps
            _INDEXES.pop(next(iter(_INDEXES)))
        kept = _INDEXES[id(corpus)] = (corpus, SearchIndex(corpus))
    return kept[1]


class StubTools:
    def __init__(self, ctx: ToolContext, default_scenario: Scenario) -> None:
        self.ctx = ctx
        self.default_scenario = default_scenario
        self.specs = _specs(search_index(ctx.corpus))
        self.counter = CallCounter()
        self.log = RequestLog()
        # Each tool's listing, by whether it declares its output schema: made once.
        # Building them (a JSON Schema generated from each arguments model) was ~7 ms
        # of every tools/list, the largest single step of a turn at the stub's pace.
        self._listed: dict[tuple[str, bool], Tool] = {}

    def scenario(self) -> Scenario:
        return CURRENT_SCENARIO.get() or self.default_scenario

    async def list_tools(
        self, _ctx: ServerRequestContext[Any], _params: PaginatedRequestParams | None
    ) -> ListToolsResult:
        scenario = self.scenario()
        tools = [
            self._listing(spec, scenario.declares_output_schema(spec.name))
            for spec in self.specs.values()
        ]
        return ListToolsResult(tools=tools)

    def _listing(self, spec: ToolSpec, with_output_schema: bool) -> Tool:
        key = (spec.name, with_output_schema)
        listed = self._listed.get(key)
        if listed is None:
            listed = self._listed[key] = spec.tool(with_output_schema=with_output_schema)
        return listed

    async def call_tool(
        self, _ctx: ServerRequestContext[Any], params: CallToolRequestParams
    ) -> CallToolResult:
        scenario = self.scenario()
        arguments = dict(params.arguments or {})
        self.log.record(params.name, arguments, scenario.name, CURRENT_SUBJECT.get())
        spec = self.specs.get(params.name)
        if spec is None:
            # A JSON-RPC error, not a result: conformance probes count a result as a pass.
            raise MCPError(INVALID_PARAMS, f"Unknown tool: {params.name}")
        try:
            args = spec.args.model_validate(arguments)
        except ValidationError as exc:
            return tool_error(_validation_message(spec.name, exc))
        mode = self.counter.next_mode(scenario, spec.name)
        try:
            return await render(
                spec.name, mode, partial(spec.run, self.ctx, args), self.ctx.settings.slow_ms
            )
        except ToolError as exc:
            return tool_error(str(exc))
