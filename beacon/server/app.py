"""FastAPI app: turns as SSE (start, reattach), sessions, health, the panel.

Identity comes from a verified bearer only. A turn runs as a background task
(a disconnect never cancels it); its frames are sealed into the store and
served live to any follower of its owner.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sys
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path as FilePath
from typing import Annotated, Any

import anyio
import httpx
from fastapi import Depends, FastAPI, Header, Path, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, RedirectResponse, Response, StreamingResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException

from beacon import __version__
from beacon.auth.verify import Identity, Verifier, bearer_token
from beacon.llm.client import LlmConfig
from beacon.loop.frames import Frame, terminal_error
from beacon.loop.orchestrator import Turn, TurnDeps, new_turn_id
from beacon.loop.pages import decide_page, fetch_more, has_more, serve_pending
from beacon.policy.capabilities import TIERS, development_tiers, withheld_capability
from beacon.policy.notices import denial_notice
from beacon.server.edge import EdgeLimits, invalid_request, unforeseen, verified_identity
from beacon.server.follow import StoreFollowers
from beacon.server.fronting import upstream_link
from beacon.server.headers import SecurityHeaders, origin_of
from beacon.server.http_errors import http_error
from beacon.server.hub import LiveTurn, Recovery, TurnHub
from beacon.server.negotiation import EVENT_STREAM, JSON, NotAcceptable, not_acceptable, serves
from beacon.server.openapi import (
    AUTH,
    EDGE,
    GUARDED,
    OPENAPI_VERSION,
    REDIRECT,
    SESSION_HEADER,
    SSE,
    STARTED,
    STREAM_HEADERS,
    TICKET_AUTH,
    ScenarioHeader,
    errors,
    published,
)
from beacon.server.projects import add_projects_route
from beacon.server.quota import Quota, add_quota_route
from beacon.server.ratelimit import RateLimit, rate_limits_from
from beacon.server.replies import Health, Session, StreamTicket
from beacon.server.retention import PruningTask
from beacon.server.settings import Settings
from beacon.server.slots import SlotLocks
from beacon.server.ticket_edge import TICKET_PARAM, TicketEdge
from beacon.server.tickets import TicketKeys
from beacon.server.writer import FrameWriter
from beacon.store.backends import open_store
from beacon.store.errors import SealedRecordError, StoreError, StoreUnavailable, TurnTaken
from beacon.store.quota import open_quota
from beacon.store.retention import retention_from_env
from beacon.store.turns import OpenTurn, TurnStore
from beacon.telemetry import metrics
from beacon.telemetry.tracing import configure_tracing, extract, shutdown_tracing
from beacon.upstream.errors import UpstreamError
from beacon.wire.frames import MoreReply
from beacon.wire.headers import TURN_HEADER
from beacon.wire.turns import (
    ID_MAX,
    ID_PATTERN,
    LAST_EVENT_ID_PATTERN,
    MAX_SEQ,
    FeedbackRequest,
    MoreRequest,
    TurnRequest,
)

log = logging.getLogger(__name__)
# A reconnecting EventSource waits this long (ms) after a cut; after the terminal
# it is answered 204, which ends its reconnecting for good. Sent on the streams a
# ticket opens, the only ones an EventSource can open (it sends no header): a
# client with a bearer header reads frames from a fetch body and reconnects by its
# own rule, and its stream stays the exact frames, so a cut stream and the rest
# after it join byte for byte into the saved turn.
RETRY_HINT = b"retry: 1000\n\n"
# A path id no server ever made (a NUL, a control byte, a slash…) is 422 before any store.
TurnId = Annotated[str, Path(pattern=ID_PATTERN, max_length=ID_MAX)]
SessionId = Annotated[str, Path(pattern=ID_PATTERN, max_length=ID_MAX)]


def _interrupted(turn_id: str, seq: int) -> bytes:
    message = "the server process running this turn stopped before it finished"
    return terminal_error(turn_id, seq, "interrupted", message).encode()


def _error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status)


def _not_found(what: str) -> JSONResponse:
    # The same answer for "missing" and "someone else's": a stranger learns nothing.
    return _error(404, f"{what}_not_found", f"no such {what}")


def _store_unavailable() -> JSONResponse:
    reply = _error(503, "store_unavailable", "the turn store is unavailable; try again shortly")
    reply.headers["Retry-After"] = "1"
    return reply


async def _unavailable(_: Request, exc: Exception) -> JSONResponse:
    log.warning("store unavailable: %s", exc)
    return _store_unavailable()


async def _unreadable(_: Request, exc: Exception) -> JSONResponse:
    # Which key or why is the operator's to read in the log, never the client's.
    log.error("a stored record does not open here: %s", exc)
    return _error(500, "record_unreadable", "this server cannot open that record")


def _recoverable(exc: BaseException) -> bool:
    return isinstance(exc, (StoreUnavailable, TurnTaken))


def _stored_after(store: TurnStore, turn_id: str) -> Callable[[int], Awaitable[Any]]:
    """The turn's stored frames after a seq, the last marked terminal when the turn
    is no longer running (the status is read before the frames)."""

    async def read(after: int) -> list[tuple[int, bytes, bool]]:
        status, frames = await anyio.to_thread.run_sync(store.frames_since, turn_id, after)
        ended = status not in (None, "running")
        last = len(frames) - 1
        return [(seq, body, ended and i == last) for i, (seq, body) in enumerate(frames)]

    return read


KEEP_ALIVE_S = 1.0


async def _keep_alive(store: TurnStore) -> None:
    """Every second: is the store's liveness connection (and lock) still ours?"""
    while True:
        await asyncio.sleep(KEEP_ALIVE_S)
        try:
            ready = await anyio.to_thread.run_sync(store.keep_alive)
        except Exception:
            log.exception("the store's keep-alive failed")
            continue
        if not ready:
            log.warning("the store is not ready: no new turns until it is back")


def create_app(settings: Settings) -> FastAPI:
    # First: a contract's tool table is what every decision below reads.
    link = upstream_link(settings)
    store = open_store(settings.db, settings.keyring)
    try:
        # A ring that opens none of the store's recent turns would answer every
        # reattach with an error and seal new frames no other process can read.
        store.check_keys()
    except StoreError:
        store.close()
        raise
    verifier = Verifier(
        settings.jwks,
        issuer=settings.jwt_issuer,
        audience=settings.jwt_audience,
        # `only:<capability>` tiers exist for the test matrix, on a development server only.
        known_tiers=frozenset(TIERS) | development_tiers(settings.scenarios_allowed),
        max_lifetime_s=settings.token_max_lifetime_s,
    )
    hub = TurnHub()
    # One load-more per (turn, slot) at a time: concurrent calls get the next page.
    slot_locks = SlotLocks()
    writer = FrameWriter(store)
    # Turns other processes drive (a shared store), followed from the store.
    followers = StoreFollowers(store, _interrupted) if store.shared else None
    rate_limits = rate_limits_from(settings)
    pruning = PruningTask(store, retention_from_env())  # README "Retention"
    # Operations (README "Metrics and traces"): BEACON_METRICS and the OTEL_* variables.
    exposition = metrics.metrics_setting()
    configure_tracing()
    # The question quota's count lives where the turns do (shared on PostgreSQL).
    quota = Quota(open_quota(settings.db), settings.quota_per_day)
    state: dict[str, httpx.AsyncClient] = {}

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        # Turns a dead process left running end now, each with one `interrupted` error
        # (a turn another live process drives is left to it).
        stuck = await anyio.to_thread.run_sync(store.interrupt_running, _interrupted)
        if stuck:
            log.warning("finished %d turn(s) a stopped process left running", len(stuck))
        if followers is not None:
            followers.start()
        watch = asyncio.create_task(_keep_alive(store)) if store.shared else None
        pruning.start()
        # BEACON_METRICS=PORT: served there; with several workers `beacon serve` does it.
        scrape = None
        if exposition.port is not None and not metrics.multiprocess():
            scrape = metrics.serve_port(exposition)
        # Every turn in flight may hold one model stream: httpx's default pool (100
        # connections, 5 s to get one) turned a busy minute into llm_unavailable
        # errors that were Beacon's, not the model's. The pool waits as long as a call may.
        limits = httpx.Limits(max_connections=1000, max_keepalive_connections=100)
        async with httpx.AsyncClient(
            limits=limits, timeout=httpx.Timeout(settings.llm_timeout_s)
        ) as http:
            state["http"] = http
            yield
            if watch is not None:
                watch.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await watch
            await hub.drain()
            await writer.close()
            if followers is not None:
                await followers.stop()
            rate_limits.close()
            await pruning.stop()
            await quota.stop()
            quota.close()
            store.close()
            if scrape is not None:
                scrape.shutdown()
            shutdown_tracing()

    app = FastAPI(title="Beacon chat server", version=__version__, lifespan=lifespan)
    app.openapi_version = OPENAPI_VERSION
    # Limits and the bearer before any body is read (beacon/server/edge.py); what
    # FastAPI would answer with the input echoed, or fail on, is answered without it.
    limits = EdgeLimits(settings.max_body_bytes, settings.scenarios_allowed)
    # Rate limits inside the edge (its identity, its strict body), before any route's work.
    app.add_middleware(RateLimit, limits=rate_limits)
    # The edge also opens the event stream to a stream ticket (EventSource sends no header).
    tickets = TicketKeys(settings.keyring)
    app.add_middleware(TicketEdge, verifier=verifier, limits=limits, tickets=tickets)
    # Outermost: every answer, the edge's refusals too, carries the security headers.
    app.add_middleware(SecurityHeaders, image_origins=(origin_of(settings.mcp_url),))
    app.add_exception_handler(RequestValidationError, invalid_request)
    app.add_exception_handler(HTTPException, http_error)
    app.add_exception_handler(NotAcceptable, not_acceptable)
    app.add_exception_handler(StoreUnavailable, _unavailable)
    app.add_exception_handler(SealedRecordError, _unreadable)
    app.add_exception_handler(Exception, unforeseen)

    publish_schema = app.openapi

    def openapi() -> dict[str, Any]:
        return published(publish_schema())

    app.openapi = openapi  # type: ignore[method-assign]

    def identify(request: Request) -> Identity:
        return verified_identity(request.scope)

    def bearer_of(request: Request) -> str:
        return bearer_token(request.headers.get("authorization"))

    async def owned_turn(request: Request, turn_id: str) -> Identity | JSONResponse:
        """The caller, if the stored turn is theirs; else the same 404 as a missing one."""
        identity = identify(request)
        record = await anyio.to_thread.run_sync(store.turn, turn_id)
        if record is None or record.owner != identity.sub:
            return _not_found("turn")
        return identity

    def persister(opening: OpenTurn) -> Callable[[Sequence[Frame]], Awaitable[None]]:
        """A turn's frames to the writer; its row goes with the batch holding seq 1
        (its ``start``, or the error that ends a turn whose start the store refused),
        so nothing is committed for it before that frame."""

        def persist(frames: Sequence[Frame]) -> Awaitable[None]:
            first = any(frame.seq == 1 for frame in frames)
            return writer.submit(opening.turn_id, frames, opening if first else None)

        return persist

    def stream(
        chunks: AsyncIterator[bytes],
        headers: dict[str, str] | None = None,
        *,
        hint: bool = False,
        route: str = "events",
    ) -> StreamingResponse:
        return StreamingResponse(
            _counted(_with_retry_hint(chunks) if hint else chunks, route),
            media_type="text/event-stream",
            headers={**STREAM_HEADERS, **(headers or {})},
        )

    async def ended_before(turn_id: str, after: int) -> bool:
        """Whether the turn has ended and its client already has every frame: a
        reconnect after the terminal, answered 204 so EventSource stops."""
        status, frames = await anyio.to_thread.run_sync(store.frames_since, turn_id, after)
        return status not in (None, "running") and not frames

    @app.get(
        "/healthz",
        operation_id="health",
        response_model=Health,
        response_model_exclude_unset=True,
        responses=errors(*EDGE, 406, 503),
        dependencies=[Depends(serves(JSON))],
    )
    async def healthz() -> Any:
        # Not ready while the store connection or the liveness lock is lost: a
        # balancer sends new turns elsewhere until this process has them back.
        if not store.ready():
            return JSONResponse(
                {"ok": False, "version": __version__, "store": "unavailable"}, status_code=503
            )
        return {"ok": True, "version": __version__}

    @app.post(
        "/v1/turns",
        operation_id="start_turn",
        response_class=StreamingResponse,
        responses={**STARTED, **errors(*GUARDED, 404, 406, 429)},
        dependencies=[*AUTH, Depends(serves(EVENT_STREAM))],
    )
    async def post_turn(
        request: Request, body: TurnRequest, x_beacon_scenario: ScenarioHeader = None
    ) -> Any:
        identity = identify(request)
        if not store.ready():
            return _store_unavailable()
        session_id = None
        if body.mode == "chat":
            if body.session_id is None:
                session_id = f"s_{new_turn_id()[2:]}"
            else:
                # Session ids are the server's: one nobody started is as unknown as
                # another user's, so no client can plant or claim a name.
                owner = await anyio.to_thread.run_sync(store.session_owner, body.session_id)
                if owner != identity.sub:
                    return _not_found("session")
                session_id = body.session_id
        # Last before the turn starts (a request refused above spent nothing), and
        # before any model or upstream call: a question of the day's quota.
        refused = await quota.admit(identity)
        if refused is not None:
            if refused.status_code == 429:
                metrics.quota_refused()
            return refused
        turn_id = new_turn_id()
        deps = TurnDeps(
            upstream=link,
            llm=LlmConfig(
                settings.llm_base_url,
                settings.llm_api_key,
                settings.llm_model,
                settings.llm_timeout_s,
            ),
            http=state["http"],
            sentinel=settings.sentinel,
            store=store,
            answer_deadline_s=settings.answer_deadline_s,
            heartbeat_s=settings.heartbeat_s,
        )
        turn = Turn(
            body,
            identity=identity,
            bearer=bearer_of(request),
            scenario=x_beacon_scenario,
            deps=deps,
            turn_id=turn_id,
            session_id=session_id,
            # A W3C traceparent on the request is the turn span's parent.
            trace_parent=extract(request.headers),
        )
        live = LiveTurn(turn_id, identity.sub)
        hub.start(
            live,
            turn.run(),
            persister(OpenTurn(turn_id, identity.sub, session_id, body.mode)),
            lambda seq: terminal_error(turn_id, seq, "save_failed", "the turn could not be saved"),
            Recovery(_recoverable, _stored_after(store, turn_id), settings.store_retry_s),
        )
        ids = {TURN_HEADER: turn_id} | ({SESSION_HEADER: session_id} if session_id else {})
        return stream(live.follow(0), ids, route="turn")

    @app.get(
        "/v1/turns/{turn_id}/events",
        operation_id="turn_events",
        response_class=StreamingResponse,
        responses={**SSE, **errors(*GUARDED, 403, 404, 406)},
        dependencies=[*TICKET_AUTH, Depends(serves(EVENT_STREAM))],
    )
    async def turn_events(
        request: Request,
        turn_id: TurnId,
        after: Annotated[int, Query(ge=0, le=MAX_SEQ)] = 0,
        last_event_id: Annotated[
            str | None, Header(pattern=LAST_EVENT_ID_PATTERN, max_length=9)
        ] = None,
    ) -> Any:
        identity = identify(request)
        # Present only if the edge opened it (a ticket, when sent, decides alone).
        ticketed = TICKET_PARAM in request.query_params
        if last_event_id is not None:  # ASCII digits only: "³" is a digit to str.isdigit
            after = max(after, int(last_event_id))
        live = hub.get(turn_id)
        if live is not None:
            if live.owner != identity.sub:
                return _not_found("turn")
            if after and await ended_before(turn_id, after):
                return Response(status_code=204)
            return stream(live.follow(after), hint=ticketed)
        record = await anyio.to_thread.run_sync(store.turn, turn_id)
        if record is None or record.owner != identity.sub:
            return _not_found("turn")
        if record.status == "running":
            # Stored as running, driven by no process here. If its process died, it
            # ends now, once, after every frame its clients received; if another
            # process drives it (a shared store), it is followed from the store.
            await anyio.to_thread.run_sync(store.interrupt_running, _interrupted, turn_id)
            if followers is not None:
                # The first read here: a record this process cannot open is a coded
                # error now, not a stream cut after its headers.
                first = await anyio.to_thread.run_sync(store.frames_since, turn_id, after)
                if first[0] != "running" and not first[1]:
                    return Response(status_code=204)
                return stream(followers.follow(turn_id, after, first), hint=ticketed)
        # A finished turn is decided again for the token as it stands, like load-more:
        # a replay is all or nothing (its bytes are the live stream's), so a turn
        # that used a capability the caller has lost is refused whole.
        used = await anyio.to_thread.run_sync(store.capabilities_used, [turn_id])
        lost = withheld_capability(used.get(turn_id, ()), identity.tiers)
        if lost is not None:
            return _error(403, "denied", denial_notice(lost))
        frames = await anyio.to_thread.run_sync(store.frames_after, turn_id, after)
        if not frames:
            # Ended, and every frame is the client's already: nothing will ever follow.
            return Response(status_code=204)

        async def replay() -> AsyncIterator[bytes]:
            for encoded in frames:
                yield encoded

        return stream(replay(), hint=ticketed)

    @app.post(
        "/v1/turns/{turn_id}/more",
        operation_id="load_more",
        response_model=MoreReply,
        responses=errors(*GUARDED, 403, 404, 406, 409, 429, 502),
        dependencies=[*AUTH, Depends(serves(JSON))],
    )
    async def more(
        request: Request,
        turn_id: TurnId,
        body: MoreRequest,
        x_beacon_scenario: ScenarioHeader = None,
    ) -> Any:
        """The next page of one counted source of a finished turn (load more): its
        cards, the slot's new count entry, and a notice when the page was set aside.
        Every page is decided again for the caller's token as it is now; calls on one
        slot take turns, so each gets the next page and none a page already served."""
        identity = await owned_turn(request, turn_id)
        if isinstance(identity, JSONResponse):
            return identity
        async with slot_locks.hold(turn_id, body.slot):
            # Then across processes (a shared store holds a lock per slot).
            held = await anyio.to_thread.run_sync(store.lock_slot, turn_id, body.slot)
            try:
                reply = await next_page(request, identity, turn_id, body.slot, x_beacon_scenario)
            finally:
                await anyio.to_thread.run_sync(held.release)
        metrics.load_more_page(_page_outcome(reply))
        return reply

    async def next_page(
        request: Request, identity: Identity, turn_id: str, slot: str, scenario: str | None
    ) -> Any:
        pages = await anyio.to_thread.run_sync(store.load_page_record, turn_id, slot)
        if pages is None:
            return _error(409, "no_more", "this source has no further page")
        permission = decide_page(pages, identity.tiers, turn_id=turn_id, sub=identity.sub)
        await anyio.to_thread.run_sync(store.record_audit, [permission.audit])
        metrics.permission_verdict(permission.decision.capability, permission.decision.allowed)
        if not permission.decision.allowed:
            return _error(403, "denied", permission.denial)
        if not has_more(pages):
            return _error(409, "no_more", "this source has no further page")
        served = serve_pending(pages, turn_id=turn_id, slot=slot)
        if served is not None:
            await anyio.to_thread.run_sync(store.save_pages, turn_id, slot, served[1])
            return served[0]
        try:
            async with link.open(
                bearer=bearer_of(request), scenario=scenario, turn_id=turn_id
            ) as upstream:
                reply, updated = await fetch_more(
                    upstream, pages, turn_id=turn_id, slot=slot, sentinel=settings.sentinel
                )
        except UpstreamError as exc:
            metrics.upstream_error("mcp", exc.code)
            return _error(502, exc.code, str(exc))
        await anyio.to_thread.run_sync(store.save_pages, turn_id, slot, updated)
        return reply

    @app.post(
        "/v1/turns/{turn_id}/feedback",
        operation_id="feedback",
        status_code=204,
        response_class=Response,
        response_model=None,
        responses=errors(*GUARDED, 404),
        dependencies=AUTH,
    )
    async def feedback(request: Request, turn_id: TurnId, body: FeedbackRequest) -> Any:
        """Thumbs up or down on an answer, with an optional comment (sealed at rest)."""
        identity = await owned_turn(request, turn_id)
        if isinstance(identity, JSONResponse):
            return identity
        await anyio.to_thread.run_sync(
            lambda: store.save_feedback(
                turn_id, owner=identity.sub, rating=body.rating, comment=body.comment
            )
        )
        return Response(status_code=204)

    @app.get(
        "/v1/sessions/{session_id}",
        operation_id="get_session",
        responses={200: {"model": Session}, **errors(*GUARDED, 404, 406)},
        dependencies=[*AUTH, Depends(serves(JSON))],
    )
    async def get_session(request: Request, session_id: SessionId) -> Any:
        identity = identify(request)
        owner = await anyio.to_thread.run_sync(store.session_owner, session_id)
        if owner != identity.sub:
            return _not_found("session")
        messages = await anyio.to_thread.run_sync(store.transcript, session_id)
        used = await anyio.to_thread.run_sync(
            store.capabilities_used, sorted({m.turn_id for m in messages})
        )

        def shown(turn_id: str, role: str, text: str) -> str:
            # The answer of a turn that used a capability the caller has lost becomes
            # its denial; the question is the caller's own. Order and count unchanged.
            lost = withheld_capability(used.get(turn_id, ()), identity.tiers)
            return denial_notice(lost) if lost is not None and role == "assistant" else text

        return {
            "session_id": session_id,
            "messages": [
                {"turn_id": m.turn_id, "role": m.role, "text": shown(m.turn_id, m.role, m.text)}
                for m in messages
            ],
        }

    add_projects_route(app, link, identify, bearer_of)

    @app.post(
        "/v1/turns/{turn_id}/ticket",
        operation_id="stream_ticket",
        response_model=StreamTicket,
        responses=errors(*GUARDED, 404, 406),
        dependencies=[*AUTH, Depends(serves(JSON))],
    )
    async def stream_ticket(request: Request, turn_id: TurnId) -> Any:
        """A short-lived ticket to follow one turn the caller owns with a browser's
        EventSource: ``GET /v1/turns/{turn_id}/events?ticket=…`` (it sends no
        Authorization header). Never the bearer in a URL: a URL is logged."""
        identity = await owned_turn(request, turn_id)
        if isinstance(identity, JSONResponse):
            return identity
        minted = tickets.mint(identity, turn_id)
        return JSONResponse(
            {"ticket": minted.ticket, "expires_in": minted.expires_in},
            headers={"Cache-Control": "no-store"},
        )

    add_quota_route(app, quota)

    if exposition.route:

        @app.get("/metrics", include_in_schema=False)
        async def prometheus_metrics() -> Response:
            """Prometheus text: this process's series, or every worker's summed."""
            body = await anyio.to_thread.run_sync(metrics.render)
            return Response(body, media_type=metrics.CONTENT_TYPE)

    @app.get(
        "/",
        operation_id="root",
        response_class=RedirectResponse,
        status_code=307,
        responses={**REDIRECT, **errors(*EDGE)},
    )
    async def root(request: Request) -> RedirectResponse:
        query = f"?{request.url.query}" if request.url.query else ""
        return RedirectResponse(url="/panel/" + query)

    # The panel is static files beside this package, not a Python package:
    # nothing but HTML, JS and CSS may be served from it.
    panel_dir = str(FilePath(__file__).resolve().parent.parent / "panel")
    app.mount("/panel", StaticFiles(directory=panel_dir, html=True), name="panel")
    # Two demo hosts embedding the panel through its host adapter; the server
    # itself stays host-blind (no per-host branch anywhere in it).
    hosts_dir = str(FilePath(__file__).resolve().parent.parent / "hosts")
    app.mount("/hosts", StaticFiles(directory=hosts_dir, html=True), name="hosts")
    return app


def _page_outcome(reply: Any) -> str:
    """A load-more reply as the series counts it: served, denied, no_more or error."""
    status = getattr(reply, "status_code", 200)
    return {200: "served", 403: "denied", 409: "no_more"}.get(status, "error")


async def _counted(chunks: AsyncIterator[bytes], route: str) -> AsyncIterator[bytes]:
    """An SSE stream's chunks, counted in ``beacon_sse_streams_active`` while served."""
    metrics.stream_opened(route)
    try:
        async for chunk in chunks:
            yield chunk
    finally:
        metrics.stream_closed(route)


async def _with_retry_hint(chunks: AsyncIterator[bytes]) -> AsyncIterator[bytes]:
    """The stream's chunks, the first one led by the reconnect hint (in one write,
    so the first frame arrives no later than before)."""
    hint = RETRY_HINT
    async for chunk in chunks:
        yield hint + chunk
        hint = b""
    if hint:
        yield hint


def app_from_env() -> FastAPI:
    """uvicorn factory entry point: ``beacon.server.app:app_from_env``."""
    from beacon.server.settings import settings_from_env

    try:
        return create_app(settings_from_env())
    except StoreError as exc:
        # One line naming the fix, not uvicorn's traceback of the factory.
        print(f"beacon serve: {exc}", file=sys.stderr, flush=True)
        raise SystemExit(2) from None
