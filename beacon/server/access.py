"""Which token family each route takes: one table, keyed by operationId.

The edge (``edge.py``) verifies the bearer and stays the one place identity is
established; this only reads the identity it left in the scope and asks whether
its family (and, for a service route, its scope) is the one the route was
declared for. It runs as an app-wide dependency, so a route cannot opt out: a
route the table does not name fails closed (500), and a test walks the OpenAPI
document so that never ships. README "Identity" has the table as a reader sees it.
"""

from __future__ import annotations

from dataclasses import dataclass

from fastapi import Request
from fastapi.responses import JSONResponse

from beacon.auth.families import Family
from beacon.server.edge import Refusal, verified_identity
from beacon.server.replies import error

WRONG_FAMILY = "wrong_token_family"
MISSING_SCOPE = "missing_scope"


@dataclass(frozen=True, slots=True)
class Access:
    """None: no bearer at all (outside ``/v1/``); else the family, and a scope it must hold."""

    family: Family | None
    scope: str | None = None


OPEN = Access(None)
USER = Access(Family.USER)
# Every route that reads or writes a user's turns, sessions, quota or projects is
# USER: a service token is a machine's credential and never stands in for a person.
ROUTE_ACCESS: dict[str, Access] = {
    "health": OPEN,
    "root": OPEN,
    # BEACON_METRICS=on serves it unauthenticated beside /healthz (README "Metrics").
    "metrics": OPEN,
    "start_turn": USER,
    "turn_events": USER,
    "load_more": USER,
    "feedback": USER,
    "get_session": USER,
    "get_projects": USER,
    "stream_ticket": USER,
    "quota_events": USER,
    "service_whoami": Access(Family.SERVICE, "probe"),
}


def access_of(operation_id: str | None) -> Access:
    access = ROUTE_ACCESS.get(operation_id or "")
    if access is None:
        raise RuntimeError(f"route {operation_id!r} declares no token family (server/access.py)")
    return access


async def admit(request: Request) -> None:
    """The app-wide dependency: refuse a token of the other family, or short of the scope."""
    access = access_of(getattr(request.scope.get("route"), "operation_id", None))
    if access.family is None:
        return
    identity = verified_identity(request.scope)
    if identity.family is not access.family:
        raise Refusal(403, WRONG_FAMILY, f"this route takes {access.family} tokens only")
    if access.scope is not None and access.scope not in identity.scopes:
        raise Refusal(403, MISSING_SCOPE, f"this route needs the {access.scope!r} scope")


async def refused(_: Request, exc: Exception) -> JSONResponse:
    if not isinstance(exc, Refusal):
        raise TypeError("registered for Refusal only")
    return error(exc.status, exc.code, exc.message)
