"""A stdio-only MCP server served over streamable HTTP, so Beacon can front it.

``python -m harness.stdio_bridge --stdio "mcp-server-git --repository R" --port P``
starts the command once, as a child speaking MCP on its stdin/stdout (the SDK's
stdio client), and answers ``tools/list`` and ``tools/call`` on
``http://127.0.0.1:P/mcp`` by relaying them untouched: every page of the
child's list, and each call's raw result (structured content, ``_meta`` and
``isError`` as the child sent them — the SDK's output-schema check is not
applied, because judging the result is the fronting server's job). A test
peer and a demo tool; loopback only.
"""

from __future__ import annotations

import argparse
import os
import shlex
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from typing import Any

import uvicorn
from mcp import ClientSession, types
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.server.lowlevel import Server
from mcp.server.streamable_http_manager import StreamableHTTPASGIApp, StreamableHTTPSessionManager
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

# A bridge that lists a child's tools follows at most this many list pages.
MAX_LIST_PAGES = 100


class Child:
    """The stdio server, once started (in the app's lifespan)."""

    def __init__(self, command: str) -> None:
        self.command = command
        self.session: ClientSession | None = None

    def live(self) -> ClientSession:
        assert self.session is not None, "the bridge's child is not started"
        return self.session

    async def list_tools(
        self, _ctx: Any, _params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        tools: list[types.Tool] = []
        cursor: str | None = None
        for _ in range(MAX_LIST_PAGES):
            page = await self.live().list_tools(
                params=types.PaginatedRequestParams(cursor=cursor) if cursor else None
            )
            tools += page.tools
            cursor = page.next_cursor
            if not cursor:
                break
        return types.ListToolsResult(tools=tools)

    async def call_tool(
        self, _ctx: Any, params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        # send_request, not call_tool: the raw result, whatever it says of itself.
        return await self.live().send_request(
            types.CallToolRequest(params=params), types.CallToolResult
        )


def create_app(command: str) -> Starlette:
    child = Child(command)
    server: Server[object] = Server(
        "stdio-bridge",
        version="0.1.0",
        on_list_tools=child.list_tools,
        on_call_tool=child.call_tool,
    )
    manager = StreamableHTTPSessionManager(app=server)

    @asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        words = shlex.split(command)
        params = StdioServerParameters(
            command=words[0], args=words[1:], env=dict(os.environ), cwd=os.getcwd()
        )
        async with AsyncExitStack() as stack:
            streams = await stack.enter_async_context(stdio_client(params))
            child.session = await stack.enter_async_context(ClientSession(*streams))
            await child.session.initialize()
            await stack.enter_async_context(manager.run())
            yield

    async def healthz(_request: Request) -> Response:
        return JSONResponse({"ok": child.session is not None, "command": command})

    routes = [Route("/mcp", StreamableHTTPASGIApp(manager)), Route("/healthz", healthz)]
    return Starlette(routes=routes, lifespan=lifespan)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--stdio", required=True, help="the stdio server's command line")
    parser.add_argument("--port", type=int, required=True)
    options = parser.parse_args(argv)
    print(f"listening on http://127.0.0.1:{options.port}/mcp", flush=True)
    uvicorn.run(create_app(options.stdio), host="127.0.0.1", port=options.port, log_level="warning")


if __name__ == "__main__":
    main()
