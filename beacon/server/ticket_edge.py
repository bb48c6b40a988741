"""The request edge, with one more way in: a stream ticket on the event stream.

``GET /v1/turns/{turn_id}/events?ticket=…`` is identified by its ticket (bound to
that turn, minutes long: ``tickets.py``) instead of a bearer header, because a
browser's ``EventSource`` can send no header. Everything else the edge does (size
caps, the scenario switch, strict JSON) is unchanged, and every other route
still wants the bearer header. A ticket, when present, decides alone: a request
with a bad ticket is refused even if it also carries a good header.

A bearer in a URL is refused on every ``/v1/`` route (``access_token``, RFC 6750's
query form, or a JWT where the ticket belongs): it has leaked into a log already.
"""

from __future__ import annotations

import re
from urllib.parse import parse_qs

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Scope

from beacon.auth.verify import Verifier
from beacon.server.edge import _IDENTITY, EdgeLimits, RequestEdge
from beacon.server.tickets import TicketKeys, TicketRejected

_EVENTS = re.compile(r"^/v1/turns/([^/]+)/events$")
TICKET_PARAM = "ticket"
_BEARER_PARAMS = ("access_token",)


class TicketEdge(RequestEdge):
    def __init__(
        self, app: ASGIApp, *, verifier: Verifier, limits: EdgeLimits, tickets: TicketKeys
    ) -> None:
        super().__init__(app, verifier=verifier, limits=limits)
        self.tickets = tickets

    async def _identify(self, scope: Scope, headers: Headers) -> None:
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"), keep_blank_values=True)
        if any(name in query for name in _BEARER_PARAMS):
            raise TicketRejected(
                "bearer_in_query",
                "a bearer token is never accepted in a URL; send it as 'Authorization: Bearer'",
            )
        events = _EVENTS.match(scope["path"])
        given = query.get(TICKET_PARAM)
        if given is None or events is None or scope["method"] not in ("GET", "HEAD"):
            await super()._identify(scope, headers)
            return
        if len(given) != 1:
            raise TicketRejected("ticket_invalid", "send one stream ticket")
        identity = self.tickets.open(given[0], events.group(1))
        scope.setdefault("state", {})[_IDENTITY] = identity
