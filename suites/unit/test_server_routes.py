"""The chat server's rooms (issue 31): one router per resource under
``beacon/server/routes``, sharing one frozen app context, and the event-stream
helpers they serve turns with. The routes' behaviour over HTTP is the e2e suites'."""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator
from pathlib import Path
from types import ModuleType

import httpx
import httpx2
import pytest
from fastapi import FastAPI
from fastapi.routing import APIRoute
from offline_app import offline_app
from starlette.responses import JSONResponse

from beacon import __version__
from beacon.server.context import AppContext
from beacon.server.replies import not_found
from beacon.server.routes import (
    events,
    feedback,
    health,
    pages,
    projects,
    quota,
    root,
    service,
    sessions,
    tickets,
    turns,
)
from beacon.server.sse import RETRY_HINT, stream

# Each resource and the one module that serves it: (method, path, operationId).
ROOMS = [
    pytest.param(health, [("GET", "/healthz", "health")], id="health"),
    pytest.param(turns, [("POST", "/v1/turns", "start_turn")], id="turns"),
    pytest.param(events, [("GET", "/v1/turns/{turn_id}/events", "turn_events")], id="events"),
    pytest.param(pages, [("POST", "/v1/turns/{turn_id}/more", "load_more")], id="pages"),
    pytest.param(feedback, [("POST", "/v1/turns/{turn_id}/feedback", "feedback")], id="feedback"),
    pytest.param(sessions, [("GET", "/v1/sessions/{session_id}", "get_session")], id="sessions"),
    pytest.param(projects, [("GET", "/v1/projects", "get_projects")], id="projects"),
    pytest.param(tickets, [("POST", "/v1/turns/{turn_id}/ticket", "stream_ticket")], id="tickets"),
    pytest.param(quota, [("GET", "/v1/quota/events", "quota_events")], id="quota"),
    pytest.param(service, [("GET", "/v1/service/whoami", "service_whoami")], id="service"),
    pytest.param(root, [("GET", "/", "root")], id="root"),
]


def _served(module: ModuleType) -> list[tuple[str, str, str | None]]:
    return [
        (method, route.path, route.operation_id)
        for route in module.router.routes
        if isinstance(route, APIRoute)
        for method in sorted(route.methods)
    ]


@pytest.mark.parametrize(("module", "expected"), ROOMS)
def test_each_resource_is_served_by_its_own_router_module(
    module: ModuleType, expected: list[tuple[str, str, str]]
) -> None:
    assert _served(module) == expected


def test_the_document_lists_every_routers_operations_in_the_rooms_order(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = offline_app(tmp_path, monkeypatch)
    document = app.openapi()
    published = [
        (method.upper(), path, operation["operationId"])
        for path, item in document["paths"].items()
        for method, operation in item.items()
    ]
    rooms = [row for param in ROOMS for row in param.values[1]]  # type: ignore[union-attr]
    assert published == rooms


@pytest.mark.parametrize(("setting", "served"), [("on", 200), ("off", 404)])
async def test_metrics_are_served_on_the_chat_port_only_when_the_setting_says_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, setting: str, served: int
) -> None:
    app = offline_app(tmp_path, monkeypatch, metrics=setting)
    transport = httpx.ASGITransport(app=app)
    async with (
        app.router.lifespan_context(app),
        httpx.AsyncClient(transport=transport, base_url="http://chat") as client,
    ):
        assert (await client.get("/metrics")).status_code == served
        assert "/metrics" not in app.openapi()["paths"]


async def test_the_routes_read_the_context_create_app_stores_and_the_lifespan_gives_a_client(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = offline_app(tmp_path, monkeypatch)
    built = app.state.context
    assert isinstance(built, AppContext) and built.http is None
    with pytest.raises(RuntimeError, match="lifespan is not running"):
        built.client()
    transport = httpx.ASGITransport(app=app)
    async with (
        app.router.lifespan_context(app),
        httpx.AsyncClient(transport=transport, base_url="http://chat") as client,
    ):
        running = app.state.context
        assert isinstance(running.client(), httpx.AsyncClient)
        assert dataclasses.replace(running, http=None) == built
        # Every turn's MCP session is lent the process's one pool of connections.
        assert built.link.transport is None
        assert isinstance(running.link.transport, httpx2.AsyncBaseTransport)
        health = await client.get("/healthz")
        assert (health.status_code, health.json()) == (200, {"ok": True, "version": __version__})
        moved = await client.get("/?project=p1")
        assert (moved.status_code, moved.headers["location"]) == (307, "/panel/?project=p1")
    assert running.client().is_closed


def test_the_app_context_is_frozen(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    context = offline_app(tmp_path, monkeypatch).state.context
    with pytest.raises(dataclasses.FrozenInstanceError):
        context.hub = None


@pytest.mark.parametrize("state", [None, "not a context"], ids=["none", "not-a-context"])
async def test_a_router_on_an_app_create_app_did_not_build_fails_loudly(state: str | None) -> None:
    app = FastAPI()
    app.include_router(health.router)
    if state is not None:
        app.state.context = state
    transport = httpx.ASGITransport(app=app, raise_app_exceptions=True)
    async with httpx.AsyncClient(transport=transport, base_url="http://bare") as client:
        with pytest.raises(RuntimeError, match="not built by create_app"):
            await client.get("/healthz")


def test_a_missing_turn_and_someone_elses_get_one_404() -> None:
    reply = not_found("turn")
    assert isinstance(reply, JSONResponse) and reply.status_code == 404
    assert reply.body == b'{"error":{"code":"turn_not_found","message":"no such turn"}}'


@pytest.mark.parametrize(
    ("status", "outcome"),
    [
        pytest.param(200, "served", id="200-served"),
        pytest.param(403, "denied", id="403-denied"),
        pytest.param(409, "no_more", id="409-no-more"),
        pytest.param(502, "error", id="502-error"),
        pytest.param(503, "error", id="503-error"),
    ],
)
def test_a_load_more_reply_is_counted_by_its_status(status: int, outcome: str) -> None:
    assert pages.page_outcome(JSONResponse({}, status_code=status)) == outcome


def test_a_load_more_page_that_is_not_a_response_counts_as_served() -> None:
    assert pages.page_outcome({"cards": []}) == "served"


async def _chunks(*items: bytes) -> AsyncIterator[bytes]:
    for item in items:
        yield item


async def _body(chunks: AsyncIterator[bytes], *, hint: bool) -> list[bytes]:
    response = stream(chunks, hint=hint)
    return [bytes(chunk) async for chunk in response.body_iterator]  # type: ignore[arg-type]


async def test_a_ticketed_stream_leads_its_first_frame_with_the_retry_hint_in_one_write() -> None:
    body = await _body(_chunks(b"event: start\n\n", b"event: done\n\n"), hint=True)
    assert body == [RETRY_HINT + b"event: start\n\n", b"event: done\n\n"]


async def test_a_ticketed_stream_with_no_frame_still_sends_the_retry_hint() -> None:
    assert await _body(_chunks(), hint=True) == [RETRY_HINT]


async def test_a_stream_opened_with_a_bearer_is_the_exact_frames() -> None:
    body = await _body(_chunks(b"event: start\n\n"), hint=False)
    assert body == [b"event: start\n\n"]
