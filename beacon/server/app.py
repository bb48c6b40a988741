"""FastAPI app: ``POST /v1/turns`` as SSE, ``/healthz``, the panel at ``/panel/``."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
from fastapi import FastAPI, Header, Request
from fastapi.responses import JSONResponse, RedirectResponse, StreamingResponse
from fastapi.staticfiles import StaticFiles

from beacon import __version__
from beacon.llm.client import LlmConfig
from beacon.loop.orchestrator import Turn, TurnDeps
from beacon.server.settings import Settings
from beacon.wire.turns import TurnRequest

SCENARIO_HEADER = "X-Beacon-Scenario"
_SCENARIO_NAME = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
_ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {
    401: {"description": "No bearer token", "content": {"application/json": {}}},
    400: {"description": "Malformed scenario header", "content": {"application/json": {}}},
}


def _error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status)


def create_app(settings: Settings) -> FastAPI:
    state: dict[str, httpx.AsyncClient] = {}

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        async with httpx.AsyncClient() as http:
            state["http"] = http
            yield

    app = FastAPI(title="Beacon chat server", version=__version__, lifespan=lifespan)

    @app.get("/healthz")
    async def healthz() -> dict[str, Any]:
        return {"ok": True, "version": __version__}

    @app.post(
        "/v1/turns",
        response_class=StreamingResponse,
        responses={200: {"content": {"text/event-stream": {}}}, **_ERROR_RESPONSES},
    )
    async def post_turn(
        body: TurnRequest,
        authorization: str | None = Header(default=None),
        x_beacon_scenario: str | None = Header(default=None),
    ) -> Any:
        scheme, _, bearer = (authorization or "").partition(" ")
        if scheme.lower() != "bearer" or not bearer.strip():
            return _error(401, "auth_missing", "an Authorization: Bearer token is required")
        if x_beacon_scenario is not None and not _SCENARIO_NAME.match(x_beacon_scenario):
            return _error(400, "bad_scenario", f"{SCENARIO_HEADER} must be a kebab-case name")
        deps = TurnDeps(
            mcp_url=settings.mcp_url,
            llm=LlmConfig(
                settings.llm_base_url,
                settings.llm_api_key,
                settings.llm_model,
                settings.llm_timeout_s,
            ),
            http=state["http"],
            sentinel=settings.sentinel,
            mcp_timeout_s=settings.mcp_timeout_s,
        )
        turn = Turn(body, bearer=bearer.strip(), scenario=x_beacon_scenario, deps=deps)

        async def encoded() -> AsyncIterator[bytes]:
            async for frame in turn.run():
                yield frame.encode()

        return StreamingResponse(
            encoded(),
            media_type="text/event-stream",
            headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
        )

    @app.get("/", include_in_schema=False)
    async def root(request: Request) -> RedirectResponse:
        return RedirectResponse(
            url="/panel/" + (f"?{request.url.query}" if request.url.query else "")
        )

    # The panel is static files beside this package, not a Python package:
    # nothing but HTML, JS and CSS may be served from it.
    panel_dir = str(Path(__file__).resolve().parent.parent / "panel")
    app.mount("/panel", StaticFiles(directory=panel_dir, html=True), name="panel")
    return app


def app_from_env() -> FastAPI:
    """uvicorn factory entry point: ``beacon.server.app:app_from_env``."""
    from beacon.server.settings import settings_from_env

    return create_app(settings_from_env())
