"""FastAPI app: turns as SSE (start, reattach), sessions, health, the panel.

Identity comes from a verified bearer only. A turn runs as a background task
(a disconnect never cancels it); its frames are sealed into the store and
served live to any follower of its owner.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any

import anyio
import httpx
from fastapi import FastAPI, Header, Query, Request
from fastapi.responses import JSONResponse, RedirectResponse, Response, StreamingResponse
from fastapi.staticfiles import StaticFiles

from beacon import __version__
from beacon.auth.errors import AuthError
from beacon.auth.verify import Identity, Verifier
from beacon.llm.client import LlmConfig
from beacon.loop.frames import Frame, terminal_error
from beacon.loop.orchestrator import Turn, TurnDeps, new_turn_id
from beacon.loop.pages import fetch_more, has_more, serve_pending
from beacon.policy.capabilities import TIERS
from beacon.policy.pep import decide
from beacon.server.hub import LiveTurn, TurnHub
from beacon.server.settings import Settings
from beacon.server.writer import FrameWriter
from beacon.store.turns import SessionNotOwned, TurnStore
from beacon.upstream.errors import UpstreamError
from beacon.upstream.mcp_client import connect
from beacon.wire.frames import MoreReply
from beacon.wire.headers import SCENARIO_HEADER
from beacon.wire.turns import FeedbackRequest, MoreRequest, TurnRequest

# A stub scenario name (kebab-case); anything else is a documented 422.
ScenarioHeader = Annotated[
    str | None,
    Header(alias=SCENARIO_HEADER, pattern=r"^[a-z0-9]+(-[a-z0-9]+)*$", max_length=64),
]
_JSON: dict[str, Any] = {"application/json": {}}
_ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"description": "The body could not be read (not UTF-8 JSON)", "content": _JSON},
    401: {"description": "Missing or rejected bearer", "content": _JSON},
    404: {"description": "No such turn or session for this caller", "content": _JSON},
    409: {"description": "No further page", "content": _JSON},
    502: {"description": "The upstream failed", "content": _JSON},
    503: {"description": "The key set cannot be fetched", "content": _JSON},
}
_SSE: dict[int | str, dict[str, Any]] = {200: {"content": {"text/event-stream": {}}}}
_STREAM_HEADERS = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}


log = logging.getLogger(__name__)


def _interrupted(turn_id: str, seq: int) -> bytes:
    message = "the server process running this turn stopped before it finished"
    return terminal_error(turn_id, seq, "interrupted", message).encode()


def _error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status)


def _not_found(what: str) -> JSONResponse:
    # The same answer for "missing" and "someone else's": a stranger learns nothing.
    return _error(404, f"{what}_not_found", f"no such {what}")


def create_app(settings: Settings) -> FastAPI:
    store = TurnStore(settings.db_path, settings.keyring)
    verifier = Verifier(
        settings.jwks,
        issuer=settings.jwt_issuer,
        audience=settings.jwt_audience,
        known_tiers=frozenset(TIERS),
    )
    hub = TurnHub()
    writer = FrameWriter(store)
    state: dict[str, httpx.AsyncClient] = {}

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        # Turns a dead process left running end now, each with one `interrupted` error.
        stuck = await anyio.to_thread.run_sync(store.interrupt_running, _interrupted)
        if stuck:
            log.warning("finished %d turn(s) a stopped process left running", len(stuck))
        # Every turn in flight may hold one model stream: httpx's default pool (100
        # connections, 5 s to get one) turned a busy minute into llm_unavailable
        # errors that were Beacon's, not the model's. The pool waits as long as a call may.
        limits = httpx.Limits(max_connections=1000, max_keepalive_connections=100)
        async with httpx.AsyncClient(
            limits=limits, timeout=httpx.Timeout(settings.llm_timeout_s)
        ) as http:
            state["http"] = http
            yield
            await hub.drain()
            await writer.close()
            store.close()

    app = FastAPI(title="Beacon chat server", version=__version__, lifespan=lifespan)

    async def identify(authorization: str | None) -> Identity | JSONResponse:
        try:
            return await verifier.verify_header(authorization)
        except AuthError as exc:
            response = JSONResponse(exc.to_body(), status_code=exc.http_status)
            if exc.http_status == 401:
                response.headers["WWW-Authenticate"] = "Bearer"
            return response

    async def owned_turn(authorization: str | None, turn_id: str) -> Identity | JSONResponse:
        """The caller, if the stored turn is theirs; else the same 404 as a missing one."""
        identity = await identify(authorization)
        if isinstance(identity, JSONResponse):
            return identity
        record = await anyio.to_thread.run_sync(store.turn, turn_id)
        if record is None or record.owner != identity.sub:
            return _not_found("turn")
        return identity

    def persist(turn_id: str, frames: Sequence[Frame]) -> asyncio.Future[None]:
        return writer.submit(turn_id, frames)

    def stream(chunks: AsyncIterator[bytes]) -> StreamingResponse:
        return StreamingResponse(chunks, media_type="text/event-stream", headers=_STREAM_HEADERS)

    @app.get("/healthz")
    async def healthz() -> dict[str, Any]:
        return {"ok": True, "version": __version__}

    @app.post("/v1/turns", response_class=StreamingResponse, responses={**_SSE, **_ERRORS})
    async def post_turn(
        body: TurnRequest,
        authorization: Annotated[str | None, Header()] = None,
        x_beacon_scenario: ScenarioHeader = None,
    ) -> Any:
        identity = await identify(authorization)
        if isinstance(identity, JSONResponse):
            return identity
        session_id = None
        if body.mode == "chat":
            session_id = body.session_id or f"s_{new_turn_id()[2:]}"
        turn_id = new_turn_id()
        try:
            store.open_turn(turn_id, owner=identity.sub, session_id=session_id, mode=body.mode)
        except SessionNotOwned:
            return _not_found("session")
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
            store=store,
            mcp_timeout_s=settings.mcp_timeout_s,
            answer_deadline_s=settings.answer_deadline_s,
            heartbeat_s=settings.heartbeat_s,
        )
        bearer = (authorization or "").partition(" ")[2].strip()
        turn = Turn(
            body,
            identity=identity,
            bearer=bearer,
            scenario=x_beacon_scenario,
            deps=deps,
            turn_id=turn_id,
            session_id=session_id,
        )
        live = LiveTurn(turn_id, identity.sub)
        hub.start(
            live,
            turn.run(),
            lambda frames: persist(turn_id, frames),
            lambda seq: terminal_error(turn_id, seq, "save_failed", "the turn could not be saved"),
        )
        return stream(live.follow(0))

    @app.get(
        "/v1/turns/{turn_id}/events",
        response_class=StreamingResponse,
        responses={**_SSE, **_ERRORS},
    )
    async def turn_events(
        turn_id: str,
        after: Annotated[int, Query(ge=0)] = 0,
        authorization: Annotated[str | None, Header()] = None,
        last_event_id: Annotated[str | None, Header()] = None,
    ) -> Any:
        identity = await identify(authorization)
        if isinstance(identity, JSONResponse):
            return identity
        if last_event_id is not None and last_event_id.isdigit():
            after = max(after, int(last_event_id))
        live = hub.get(turn_id)
        if live is not None:
            if live.owner != identity.sub:
                return _not_found("turn")
            return stream(live.follow(after))
        record = await anyio.to_thread.run_sync(store.turn, turn_id)
        if record is None or record.owner != identity.sub:
            return _not_found("turn")
        if record.status == "running":
            # Stored as running, driven by no process here: its process died. It ends
            # now, once, after every frame its clients received.
            await anyio.to_thread.run_sync(store.interrupt_running, _interrupted, turn_id)
        frames = await anyio.to_thread.run_sync(store.frames_after, turn_id, after)

        async def replay() -> AsyncIterator[bytes]:
            for encoded in frames:
                yield encoded

        return stream(replay())

    @app.post("/v1/turns/{turn_id}/more", response_model=MoreReply, responses=_ERRORS)
    async def more(
        turn_id: str,
        body: MoreRequest,
        authorization: Annotated[str | None, Header()] = None,
        x_beacon_scenario: ScenarioHeader = None,
    ) -> Any:
        """The next page of one counted source of a finished turn (load more): its
        cards, the slot's new count entry, and a notice when the page was set aside."""
        identity = await owned_turn(authorization, turn_id)
        if isinstance(identity, JSONResponse):
            return identity
        pages = await anyio.to_thread.run_sync(store.load_pages, turn_id, body.slot)
        if pages is None or not has_more(pages):
            return _error(409, "no_more", "this source has no further page")
        served = serve_pending(pages, turn_id=turn_id, slot=body.slot)
        if served is not None:
            await anyio.to_thread.run_sync(store.save_pages, turn_id, body.slot, served[1])
            return served[0]
        if not decide(pages["tool"], identity.tiers, capability_hint=None).allowed:
            return _not_found("turn")
        bearer = (authorization or "").partition(" ")[2].strip()
        try:
            async with connect(
                settings.mcp_url,
                bearer=bearer,
                turn_id=turn_id,
                scenario=x_beacon_scenario,
                timeout_s=settings.mcp_timeout_s,
            ) as upstream:
                reply, updated = await fetch_more(
                    upstream, pages, turn_id=turn_id, slot=body.slot, sentinel=settings.sentinel
                )
        except UpstreamError as exc:
            return _error(502, exc.code, str(exc))
        await anyio.to_thread.run_sync(store.save_pages, turn_id, body.slot, updated)
        return reply

    @app.post(
        "/v1/turns/{turn_id}/feedback",
        status_code=204,
        response_class=Response,
        response_model=None,
        responses=_ERRORS,
    )
    async def feedback(
        turn_id: str,
        body: FeedbackRequest,
        authorization: Annotated[str | None, Header()] = None,
    ) -> Any:
        """Thumbs up or down on an answer, with an optional comment (sealed at rest)."""
        identity = await owned_turn(authorization, turn_id)
        if isinstance(identity, JSONResponse):
            return identity
        await anyio.to_thread.run_sync(
            lambda: store.save_feedback(
                turn_id, owner=identity.sub, rating=body.rating, comment=body.comment
            )
        )
        return Response(status_code=204)

    @app.get("/v1/sessions/{session_id}", responses=_ERRORS)
    async def get_session(
        session_id: str, authorization: Annotated[str | None, Header()] = None
    ) -> Any:
        identity = await identify(authorization)
        if isinstance(identity, JSONResponse):
            return identity
        owner = await anyio.to_thread.run_sync(store.session_owner, session_id)
        if owner != identity.sub:
            return _not_found("session")
        messages = await anyio.to_thread.run_sync(store.transcript, session_id)
        return {
            "session_id": session_id,
            "messages": [{"turn_id": m.turn_id, "role": m.role, "text": m.text} for m in messages],
        }

    @app.get("/", include_in_schema=False)
    async def root(request: Request) -> RedirectResponse:
        query = f"?{request.url.query}" if request.url.query else ""
        return RedirectResponse(url="/panel/" + query)

    # The panel is static files beside this package, not a Python package:
    # nothing but HTML, JS and CSS may be served from it.
    panel_dir = str(Path(__file__).resolve().parent.parent / "panel")
    app.mount("/panel", StaticFiles(directory=panel_dir, html=True), name="panel")
    # Two demo hosts embedding the panel through its host adapter; the server
    # itself stays host-blind (no per-host branch anywhere in it).
    hosts_dir = str(Path(__file__).resolve().parent.parent / "hosts")
    app.mount("/hosts", StaticFiles(directory=hosts_dir, html=True), name="hosts")
    return app


def app_from_env() -> FastAPI:
    """uvicorn factory entry point: ``beacon.server.app:app_from_env``."""
    from beacon.server.settings import settings_from_env

    return create_app(settings_from_env())
