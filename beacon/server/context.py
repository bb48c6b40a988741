"""What every route shares: the app's context, built once by ``create_app``.

One frozen record on ``app.state`` (no module globals), read by each route through
the ``Context`` dependency, so the route modules are plain ``APIRouter``s a test
can build an app around. The HTTP client is the lifespan's (one pool per serving
loop): the lifespan stores the context again with it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

import anyio
import httpx
from fastapi import Depends, Request
from fastapi.responses import JSONResponse

from beacon.auth.verify import Identity, bearer_token
from beacon.server.edge import verified_identity
from beacon.server.follow import StoreFollowers
from beacon.server.hub import TurnHub
from beacon.server.quota import Quota
from beacon.server.replies import not_found
from beacon.server.settings import Settings
from beacon.server.slots import SlotLocks
from beacon.server.tickets import TicketKeys
from beacon.server.writer import FrameWriter
from beacon.store.turns import TurnStore
from beacon.upstream.link import UpstreamLink


@dataclass(frozen=True, slots=True)
class AppContext:
    settings: Settings
    link: UpstreamLink
    store: TurnStore
    hub: TurnHub
    # One load-more per (turn, slot) at a time: concurrent calls get the next page.
    slot_locks: SlotLocks
    writer: FrameWriter
    # Turns other processes drive (a shared store), followed from the store.
    followers: StoreFollowers | None
    quota: Quota
    tickets: TicketKeys
    http: httpx.AsyncClient | None = None

    def client(self) -> httpx.AsyncClient:
        """The lifespan's HTTP client (the model's calls go through its pool)."""
        if self.http is None:
            raise RuntimeError("no HTTP client: the app's lifespan is not running")
        return self.http


async def app_context(request: Request) -> AppContext:
    # async: FastAPI runs a plain function dependency on a worker thread, and that hop
    # let a client's half-close be read before the answer was written (no reply at all).
    context = getattr(request.app.state, "context", None)
    if not isinstance(context, AppContext):
        raise RuntimeError("no app context: the app was not built by create_app")
    return context


Context = Annotated[AppContext, Depends(app_context)]


def identify(request: Request) -> Identity:
    return verified_identity(request.scope)


def bearer_of(request: Request) -> str:
    return bearer_token(request.headers.get("authorization"))


async def owned_turn(
    context: AppContext, request: Request, turn_id: str
) -> Identity | JSONResponse:
    """The caller, if the stored turn is theirs; else the same 404 as a missing one."""
    identity = identify(request)
    record = await anyio.to_thread.run_sync(context.store.turn, turn_id)
    if record is None or record.owner != identity.sub:
        return not_found("turn")
    return identity
