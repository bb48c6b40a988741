"""The dishonest server's tools: one per finding code the audit must raise, the honest
ones beside them that must raise none, and ``never_call`` behind every tool that writes
(``harness/audit_upstream/dishonest.py`` serves them)."""

from __future__ import annotations

import base64
import json
from typing import Any

from mcp import MCPError
from mcp_types import INVALID_PARAMS, CallToolResult, TextContent

Args = dict[str, Any]


# Which tool must raise which finding; the honest ones (None) must raise none.
EXPECTED: dict[str, str | None] = {
    "list_widgets": "no-accounting",
    "list_orders": "page-labelled-total",
    "search_events": "cap-saturation",
    "list_notes": "limit-ignored",
    "search_files": "cursor-unpinned",
    "list_jobs": "error-as-result",
    "list_users": "schema-violation",
    "list_tickets": "empty-without-accounting",
    "list_projects": None,
    "listRecords": None,
    "searchDocs": None,
    "list_log_lines": None,
    "get_project": None,
}
WRITE_TOOLS = ("delete_project", "create_widget", "archive_orders")


def _text(text: str) -> TextContent:
    return TextContent(type="text", text=text)


def _result(structured: dict[str, Any] | None, text: str = "") -> CallToolResult:
    body = text or json.dumps(structured)[:200]
    return CallToolResult(content=[_text(body)], structured_content=structured)


def _offset(token: object) -> int:
    if not isinstance(token, str) or not token:
        return 0
    return int(base64.urlsafe_b64decode(token.encode()).decode())


def _token(offset: int) -> str:
    return base64.urlsafe_b64encode(str(offset).encode()).decode()


def _int(args: Args, name: str, default: int) -> int:
    value = args.get(name, default)
    return value if isinstance(value, int) and value > 0 else default


def _words(args: Args) -> str:
    return str(args.get("query") or "")


# --- the dishonest tools, one per finding ---------------------------------------------


def list_widgets(args: Args) -> CallToolResult:
    """Returns a full page of 100 widgets and says nothing about the rest."""
    size = _int(args, "limit", 20)
    items = [{"id": f"w-{i}", "name": f"Widget {i}"} for i in range(min(size, 100))]
    return _result({"items": items})


def list_orders(args: Args) -> CallToolResult:
    """Labels the page length as the total (60 orders, 10 a page)."""
    start, size = _offset(args.get("cursor")), _int(args, "limit", 10)
    page = [{"id": f"o-{i}", "name": f"Order {i}"} for i in range(start, min(start + size, 60))]
    more = start + len(page) < 60
    return _result(
        {"items": page, "total": len(page), "next_cursor": _token(start + size) if more else None}
    )


def search_events(args: Args) -> CallToolResult:
    """Stops every search at 500 and calls it complete."""
    query = _words(args).lower()
    items = [{"id": f"{query}-{i}", "title": f"{query} event {i}"} for i in range(500)]
    return _result({"items": items, "total": 500, "has_more": False})


def list_notes(args: Args) -> CallToolResult:
    """Ignores its limit: always 12 notes."""
    items = [{"id": f"n-{i}", "title": f"Note {i}"} for i in range(12)]
    return _result({"items": items, "total": 12, "has_more": False})


def search_files(args: Args) -> CallToolResult:
    """Its cursor re-runs the search three rows back: page 2 repeats page 1's tail."""
    start = _offset(args.get("cursor"))
    page_start = max(0, start - 3) if start else 0
    page = [{"id": f"f-{i}", "title": f"File {i}"} for i in range(page_start, min(start + 10, 40))]
    more = start + 10 < 40
    return _result(
        {
            "items": page,
            "total": 40,
            "has_more": more,
            "cursor": _token(start + 10) if more else None,
        }
    )


def list_jobs(args: Args) -> CallToolResult:
    """A failure relayed as an ordinary result (isError false)."""
    return CallToolResult(content=[_text("Error: upstream returned 502 Bad Gateway")])


def list_users(args: Args) -> CallToolResult:
    """Declares string ids and an integer total, sends integer ids and a string total."""
    items = [{"id": i, "name": f"User {i}"} for i in range(3)]
    return _result({"items": items, "total": "3", "has_more": False})


def list_tickets(args: Args) -> CallToolResult:
    """Nothing, and nothing saying whether that is all."""
    return _result({"items": []})


# --- the honest tools -------------------------------------------------------------------

_PROJECTS = [{"id": f"p-{i:02}", "name": f"Project {i}"} for i in range(23)]
_RECORDS = [{"id": f"r-{i}", "label": f"Record {i}"} for i in range(17)]
_DOCS = [
    {"id": f"d-{i}", "title": f"{topic} document {i}"}
    for i, topic in enumerate(["Budget", "Safety", "Budget", "Design", "Safety", "Budget"] * 4)
]


def list_projects(args: Args) -> CallToolResult:
    start, size = _offset(args.get("cursor")), _int(args, "limit", 10)
    page = _PROJECTS[start : start + size]
    more = start + len(page) < len(_PROJECTS)
    cursor = _token(start + len(page)) if more else None
    return _result({"items": page, "total": len(_PROJECTS), "has_more": more, "cursor": cursor})


def list_records(args: Args) -> CallToolResult:
    start, size = _offset(args.get("pageToken")), _int(args, "pageSize", 5)
    page = _RECORDS[start : start + size]
    more = start + len(page) < len(_RECORDS)
    token = _token(start + len(page)) if more else None
    return _result(
        {"records": page, "totalCount": len(_RECORDS), "hasMore": more, "nextPageToken": token}
    )


def search_docs(args: Args) -> CallToolResult:
    words = set(_words(args).lower().split())
    hits = [d for d in _DOCS if words & set(d["title"].lower().split())]
    start, size = _int(args, "offset", 0) if args.get("offset") else 0, _int(args, "maxResults", 4)
    page = hits[start : start + size]
    more = start + len(page) < len(hits)
    return _result({"results": page, "totalCount": len(hits), "hasMore": more})


def list_log_lines(args: Args) -> CallToolResult:
    lines = [f"{i}. 2026-11-0{i} service restarted" for i in range(1, 9)]
    return CallToolResult(content=[_text("Total: 8 entries\n" + "\n".join(lines))])


def get_project(args: Args) -> CallToolResult:
    found = next((p for p in _PROJECTS if p["id"] == args.get("project_id")), None)
    if found is None:
        return CallToolResult(content=[_text("no such project")], is_error=True)
    return _result(found)


def never_call(args: Args) -> CallToolResult:
    raise MCPError(INVALID_PARAMS, "a write tool was called")
