"""A deliberately dishonest MCP server for the audit's tests: one tool per finding code,
honest tools beside them (snake_case and camelCase names, a lookup, a text-only tool)
that must get no finding, and tools that write, which must never be called.

``python -m harness.audit_upstream.dishonest --port P [--token T]``: streamable HTTP
at ``/mcp`` on 127.0.0.1, a bearer required (401 otherwise); ``GET /dev/calls``
lists every tools/call received, ``GET /healthz`` answers 200. Its tools/list is
served in pages of ``LIST_PAGE`` tools, so a client must follow ``nextCursor``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import uvicorn
from mcp import MCPError
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import Server
from mcp_types import (
    INVALID_PARAMS,
    CallToolRequestParams,
    CallToolResult,
    ListToolsResult,
    PaginatedRequestParams,
    Tool,
    ToolAnnotations,
)
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

from harness.audit_upstream.dishonest_tools import (
    Args,
    get_project,
    list_jobs,
    list_log_lines,
    list_notes,
    list_orders,
    list_projects,
    list_records,
    list_tickets,
    list_users,
    list_widgets,
    never_call,
    search_docs,
    search_events,
    search_files,
)

DEFAULT_TOKEN = "dishonest-dev-token"
LIST_PAGE = 5


# --- the catalogue ------------------------------------------------------------------------

_STR = {"type": "string"}
_LIMIT = {"type": "integer", "minimum": 1, "maximum": 100, "description": "Page size."}
_CURSOR = {"type": "string", "description": "From a previous page."}


def _schema(properties: dict[str, Any], required: tuple[str, ...] = ()) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": list(required)}


def _limit(default: int) -> dict[str, Any]:
    return {**_LIMIT, "default": default}


_ITEMS = {"type": "array", "items": {"type": "object"}}
_ENVELOPE = _schema(
    {
        "items": _ITEMS,
        "total": {"type": "integer"},
        "has_more": {"type": "boolean"},
        "cursor": {"type": ["string", "null"]},
    },
    ("items", "total", "has_more"),
)


@dataclass(frozen=True, slots=True)
class _Tool:
    name: str
    description: str
    input: dict[str, Any]
    run: Callable[[Args], CallToolResult]
    output: dict[str, Any] | None = None
    annotations: ToolAnnotations | None = None

    def tool(self) -> Tool:
        return Tool(
            name=self.name,
            description=self.description,
            input_schema=self.input,
            output_schema=self.output,
            annotations=self.annotations,
        )


_READ = ToolAnnotations(read_only_hint=True)
TOOLS: tuple[_Tool, ...] = (
    # First on tools/list page 1: a client that validates results (the SDK's call_tool)
    # would raise on it instead of reporting it.
    _Tool(
        "list_users",
        "List users.",
        _schema({}),
        list_users,
        output=_schema(
            {
                "items": {"type": "array", "items": _schema({"id": _STR, "name": _STR}, ("id",))},
                "total": {"type": "integer"},
                "has_more": {"type": "boolean"},
            },
            ("items", "total", "has_more"),
        ),
    ),
    _Tool("list_widgets", "List widgets.", _schema({"limit": _limit(20)}), list_widgets),
    _Tool(
        "list_orders",
        "List orders, paginated.",
        _schema({"limit": _limit(10), "cursor": _CURSOR}),
        list_orders,
    ),
    _Tool(
        "search_events",
        "Search calendar events by keywords.",
        _schema({"query": _STR}, ("query",)),
        search_events,
    ),
    _Tool("list_notes", "List notes.", _schema({"limit": _limit(5)}), list_notes),
    _Tool(
        "search_files",
        "Search files by name.",
        _schema({"query": _STR, "cursor": _CURSOR}, ("query",)),
        search_files,
        annotations=_READ,
    ),
    _Tool("list_jobs", "List background jobs.", _schema({}), list_jobs),
    _Tool("list_tickets", "List support tickets.", _schema({}), list_tickets),
    _Tool(
        "list_projects",
        "List projects, paginated.",
        _schema({"limit": _limit(10), "cursor": _CURSOR}),
        list_projects,
        output=_ENVELOPE,
        annotations=_READ,
    ),
    _Tool(
        "listRecords",
        "List records.",
        _schema({"pageSize": {"type": "integer", "default": 5}, "pageToken": _STR}),
        list_records,
    ),
    _Tool(
        "searchDocs",
        "Search documents about budget, safety or design.",
        _schema(
            {
                "query": _STR,
                "maxResults": {"type": "integer", "default": 4},
                "offset": {"type": "integer"},
            },
            ("query",),
        ),
        search_docs,
    ),
    _Tool("list_log_lines", "The service log.", _schema({}), list_log_lines),
    _Tool(
        "get_project",
        "Get one project.",
        _schema({"project_id": _STR}, ("project_id",)),
        get_project,
    ),
    _Tool(
        "delete_project",
        "Remove a project.",
        _schema({"project_id": _STR}, ("project_id",)),
        never_call,
    ),
    _Tool("create_widget", "Make a widget.", _schema({"name": _STR}), never_call),
    _Tool(
        "archive_orders",
        "Archive every order.",
        _schema({}),
        never_call,
        annotations=ToolAnnotations(read_only_hint=False, destructive_hint=True),
    ),
)
_BY_NAME = {t.name: t for t in TOOLS}


def build_server(calls: list[dict[str, Any]]) -> Server[object]:
    async def list_tools(
        _ctx: ServerRequestContext[Any], params: PaginatedRequestParams | None
    ) -> ListToolsResult:
        start = int(params.cursor) if params is not None and params.cursor else 0
        page = [t.tool() for t in TOOLS[start : start + LIST_PAGE]]
        more = start + LIST_PAGE < len(TOOLS)
        return ListToolsResult(tools=page, next_cursor=str(start + LIST_PAGE) if more else None)

    async def call_tool(
        _ctx: ServerRequestContext[Any], params: CallToolRequestParams
    ) -> CallToolResult:
        arguments = dict(params.arguments or {})
        calls.append({"tool": params.name, "arguments": arguments})
        tool = _BY_NAME.get(params.name)
        if tool is None:
            raise MCPError(INVALID_PARAMS, f"Unknown tool: {params.name}")
        return tool.run(arguments)

    return Server("dishonest", version="0.1.0", on_list_tools=list_tools, on_call_tool=call_tool)


class _BearerGate:
    """401 on /mcp without the one bearer this process accepts."""

    def __init__(self, app: ASGIApp, token: str) -> None:
        self._app = app
        self._expected = f"Bearer {token}".encode()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["path"].startswith("/mcp"):
            given = dict(scope["headers"]).get(b"authorization", b"")
            if given != self._expected:
                response = JSONResponse({"error": "invalid_token"}, 401)
                await response(scope, receive, send)
                return
        await self._app(scope, receive, send)


def create_app(token: str = DEFAULT_TOKEN) -> ASGIApp:
    calls: list[dict[str, Any]] = []

    async def listed_calls(_request: Request) -> Response:
        return JSONResponse(calls)

    async def healthz(_request: Request) -> Response:
        return JSONResponse({"ok": True})

    app = build_server(calls).streamable_http_app(
        custom_starlette_routes=[Route("/dev/calls", listed_calls), Route("/healthz", healthz)]
    )
    return _BearerGate(app, token)


@contextmanager
def running(token: str = DEFAULT_TOKEN) -> Iterator[str]:
    """This server as a process on a free loopback port; yields its origin once healthy."""
    from harness.chat_process import running_server

    command = [sys.executable, "-m", "harness.audit_upstream.dishonest", "--token", token]
    with running_server(command) as origin:
        yield origin


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--token", default=DEFAULT_TOKEN)
    options = parser.parse_args(argv)
    uvicorn.run(create_app(options.token), host="127.0.0.1", port=options.port, log_level="warning")


if __name__ == "__main__":
    main()
