"""The chat server's app: its context, lifespan, edge and routers.

Identity comes from a verified bearer only (``edge.py``). Each resource is one
router under ``routes/``, reading what it shares from the app's context
(``context.py``); a turn runs as a background task (a disconnect never cancels
it), its frames sealed into the store and served live to any follower of its owner.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import gc
import logging
import sys
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Any

import anyio
import httpx
from fastapi import Depends, FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException

from beacon import __version__
from beacon.auth.verify import Verifier
from beacon.policy.capabilities import TIERS, development_tiers
from beacon.server.access import admit, refused
from beacon.server.context import AppContext
from beacon.server.edge import EdgeLimits, Refusal, invalid_request, unforeseen
from beacon.server.follow import StoreFollowers
from beacon.server.fronting import upstream_link
from beacon.server.headers import SecurityHeaders, origin_of
from beacon.server.http_errors import http_error
from beacon.server.hub import TurnHub
from beacon.server.negotiation import NotAcceptable, not_acceptable
from beacon.server.openapi import OPENAPI_VERSION, published
from beacon.server.openings import OpeningFirst
from beacon.server.quota import Quota
from beacon.server.ratelimit import RateLimit, TurnRateLimits, rate_limits_from
from beacon.server.replies import error, store_unavailable
from beacon.server.retention import PruningTask
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
from beacon.server.settings import Settings
from beacon.server.slots import SlotLocks
from beacon.server.sse import interrupted
from beacon.server.ticket_edge import TicketEdge
from beacon.server.tickets import TicketKeys
from beacon.server.warm import warm_process
from beacon.server.writer import FrameWriter
from beacon.store.errors import SealedRecordError, StoreError, StoreUnavailable
from beacon.store.opening import open_store
from beacon.store.quota import open_quota
from beacon.store.reseal import refuse_missing_keys
from beacon.store.retention import retention_from_env
from beacon.store.turns import TurnStore
from beacon.telemetry import metrics
from beacon.telemetry.tracing import configure_tracing, shutdown_tracing
from beacon.upstream.reuse import shared_connections
from beacon.wire.connections import (
    IDLE_CONNECTION_S,
    SHARED_MAX_CONNECTIONS,
    SHARED_MAX_IDLE,
    client_tls,
)

log = logging.getLogger(__name__)
# In the document's order: its paths are listed as the routers are included.
ROUTERS = (
    health.router,
    turns.router,
    events.router,
    pages.router,
    feedback.router,
    sessions.router,
    projects.router,
    tickets.router,
    quota.router,
    service.router,
)


async def _unavailable(_: Request, exc: Exception) -> JSONResponse:
    log.warning("store unavailable: %s", exc)
    return store_unavailable()


async def _unreadable(_: Request, exc: Exception) -> JSONResponse:
    # Which key or why is the operator's to read in the log, never the client's.
    log.error("a stored record does not open here: %s", exc)
    return error(500, "record_unreadable", "this server cannot open that record")


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
    context = _open_context(settings)
    rate_limits = rate_limits_from(settings)
    pruning = PruningTask(context.store, retention_from_env())  # README "Retention"
    # Operations (README "Metrics and traces"): BEACON_METRICS and the OTEL_* variables.
    exposition = metrics.metrics_setting()
    configure_tracing()
    lifespan = _lifespan(context, rate_limits, pruning, exposition)
    # Every route, by its operationId, takes one token family (beacon/server/access.py).
    app = FastAPI(
        title="Beacon chat server",
        version=__version__,
        lifespan=lifespan,
        dependencies=[Depends(admit)],
        # An API path with a trailing slash is no route: a 404, not a 307 to the path
        # without it (an id ending in an escaped "/" was redirected onto its route).
        redirect_slashes=False,
    )
    app.openapi_version = OPENAPI_VERSION
    app.state.context = context
    # Limits and the bearer before any body is read (beacon/server/edge.py); what
    # FastAPI would answer with the input echoed, or fail on, is answered without it.
    limits = EdgeLimits(settings.max_body_bytes, settings.scenarios_allowed)
    # Rate limits inside the edge (its identity, its strict body), before any route's work.
    app.add_middleware(RateLimit, limits=rate_limits)
    # The edge also opens the event stream to a stream ticket (EventSource sends no header).
    verifier = _verifier(settings)
    app.add_middleware(TicketEdge, verifier=verifier, limits=limits, tickets=context.tickets)
    # Every answer, the edge's refusals too, carries the security headers.
    app.add_middleware(SecurityHeaders, image_origins=(origin_of(settings.mcp_url),))
    # Outermost: a turn's request goes ahead of other turns' work from its arrival.
    app.add_middleware(OpeningFirst, openings=context.hub.openings)
    app.add_exception_handler(RequestValidationError, invalid_request)
    app.add_exception_handler(HTTPException, http_error)
    app.add_exception_handler(NotAcceptable, not_acceptable)
    app.add_exception_handler(Refusal, refused)
    app.add_exception_handler(StoreUnavailable, _unavailable)
    app.add_exception_handler(SealedRecordError, _unreadable)
    app.add_exception_handler(Exception, unforeseen)

    publish_schema = app.openapi

    def openapi() -> dict[str, Any]:
        return published(publish_schema())

    app.openapi = openapi  # type: ignore[method-assign]
    for router in ROUTERS:
        app.include_router(router)
    if exposition.route:
        app.include_router(health.metrics_router)
    app.include_router(root.router)
    root.mount_static(app)
    return app


def _open_context(settings: Settings) -> AppContext:
    # First: a contract's tool table is what every decision below reads.
    link = upstream_link(settings)
    store = open_store(settings.db, settings.keyring)
    try:
        # A ring that opens none of the store's recent turns would answer every
        # reattach with an error and seal new frames no other process can read.
        store.check_keys()
        # A key gone from the ring while records still need it: those would be
        # record_unreadable for as long as this serves (`beacon store reseal` first).
        refuse_missing_keys(store)
    except StoreError:
        store.close()
        raise
    return AppContext(
        settings=settings,
        link=link,
        store=store,
        hub=TurnHub(),
        slot_locks=SlotLocks(),
        writer=FrameWriter(store),
        followers=StoreFollowers(store, interrupted) if store.shared else None,
        # The question quota's count lives where the turns do (shared on PostgreSQL).
        quota=Quota(open_quota(settings.db), settings.quota_per_day),
        tickets=TicketKeys(settings.keyring),
    )


def _verifier(settings: Settings) -> Verifier:
    return Verifier(
        settings.jwks,
        issuer=settings.jwt_issuer,
        audience=settings.jwt_audience,
        # `only:<capability>` tiers exist for the test matrix, on a development server only.
        known_tiers=frozenset(TIERS) | development_tiers(settings.scenarios_allowed),
        max_lifetime_s=settings.token_max_lifetime_s,
    )


def _lifespan(
    context: AppContext,
    rate_limits: TurnRateLimits,
    pruning: PruningTask,
    exposition: metrics.MetricsSetting,
) -> Callable[[FastAPI], AbstractAsyncContextManager[None]]:
    store = context.store

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        warm_process()  # before the first request: no user's turn pays for it
        # Turns a dead process left running end now, each with one `interrupted` error
        # (a turn another live process drives is left to it).
        stuck = await anyio.to_thread.run_sync(store.interrupt_running, interrupted)
        if stuck:
            log.warning("finished %d turn(s) a stopped process left running", len(stuck))
        followers = context.followers
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
        limits = httpx.Limits(
            max_connections=SHARED_MAX_CONNECTIONS,
            max_keepalive_connections=SHARED_MAX_IDLE,
            keepalive_expiry=IDLE_CONNECTION_S,
        )
        timeout = httpx.Timeout(context.settings.llm_timeout_s)
        async with (
            httpx.AsyncClient(limits=limits, timeout=timeout, verify=client_tls()) as http,
            shared_connections(context.link.url) as lent,
        ):
            link = dataclasses.replace(context.link, transport=lent)
            app.state.context = dataclasses.replace(context, http=http, link=link)
            yield
            if watch is not None:
                watch.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await watch
            await context.hub.drain()
            await context.writer.close()
            if followers is not None:
                await followers.stop()
            rate_limits.close()
            await pruning.stop()
            await context.quota.stop()
            context.quota.close()
            store.close()
            if scrape is not None:
                scrape.shutdown()
            shutdown_tracing()

    return lifespan


def app_from_env() -> FastAPI:
    """uvicorn factory entry point: ``beacon.server.app:app_from_env``."""
    from beacon.server.settings import settings_from_env

    try:
        app = create_app(settings_from_env())
    except StoreError as exc:
        # One line naming the fix, not uvicorn's traceback of the factory.
        print(f"beacon serve: {exc}", file=sys.stderr, flush=True)
        raise SystemExit(2) from None
    settle_collector()
    return app


# A young generation of 20,000 objects, not 700: a turn allocates tens of
# thousands that die young (its frames, models and JSON), and the default ran
# ~8 collections a turn, each walking whatever had survived the last one.
YOUNG_GENERATION = 20_000


def settle_collector() -> None:
    """The serving process's start-up heap (~150k objects: modules, pydantic's and
    the SDK's models, the app) leaves the collector's sight, and young collections
    run less often: in the turn-overhead bench the server's collections cost twice
    the relay's per turn, and the old heap's full collections (~50 ms each) landed
    inside turns. Only in `beacon serve`'s processes, not in an importer's."""
    gc.collect()
    gc.freeze()
    _, middle, old = gc.get_threshold()
    gc.set_threshold(YOUNG_GENERATION, middle, old)
