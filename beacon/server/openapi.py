"""The chat server's published contract beyond its models: error responses, the
stream's headers and links (a stateful fuzzer follows them), the bearer scheme.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Header, Security
from fastapi.security import HTTPBearer

from beacon.wire.headers import SCENARIO_HEADER, TURN_HEADER

# A stub scenario name (kebab-case); anything else is a documented 422. Refused
# (400) by a server that does not allow scenarios (``BEACON_SCENARIOS``).
ScenarioHeader = Annotated[
    str | None,
    Header(alias=SCENARIO_HEADER, pattern=r"^[a-z0-9]+(-[a-z0-9]+)*$", max_length=64),
]
# The session a chat turn belongs to, beside the turn's id (``X-Beacon-Turn``) on the
# stream's response: a client, or a fuzzer following the links, has both before a frame.
SESSION_HEADER = "X-Beacon-Session"
# The bearer, for the schema: the request guard verifies it before any route runs.
_bearer = HTTPBearer(auto_error=False, scheme_name="bearer", description="RS256 JWT")
AUTH = [Security(_bearer)]
_JSON: dict[str, Any] = {"application/json": {}}
ERRORS: dict[int | str, dict[str, Any]] = {
    400: {
        "description": "The body is not UTF-8, or a scenario was sent to a server that allows none",
        "content": _JSON,
    },
    401: {"description": "Missing or rejected bearer", "content": _JSON},
    403: {"description": "The caller's token no longer grants this source", "content": _JSON},
    404: {"description": "No such turn or session for this caller", "content": _JSON},
    409: {"description": "No further page", "content": _JSON},
    413: {"description": "The body is over the size cap", "content": _JSON},
    # Starting a turn and load-more only (beacon/server/ratelimit.py).
    429: {
        "description": "Too many turns started: a rate limit (rate_limited)",
        "content": _JSON,
        "headers": {
            "Retry-After": {
                "description": "whole seconds until a turn may start",
                "required": True,
                "schema": {"type": "integer", "minimum": 1},
            }
        },
    },
    502: {"description": "The upstream failed", "content": _JSON},
    503: {"description": "The key set cannot be fetched", "content": _JSON},
}
_STRING = {"schema": {"type": "string"}}
_TURN_LINK = {"turn_id": f"$response.header.{TURN_HEADER}"}
SSE: dict[int | str, dict[str, Any]] = {200: {"content": {"text/event-stream": {}}}}
STARTED: dict[int | str, dict[str, Any]] = {
    200: {
        "content": {"text/event-stream": {}},
        "headers": {
            TURN_HEADER: {"description": "the turn's id", "required": True, **_STRING},
            SESSION_HEADER: {"description": "the chat session's id (chat mode)", **_STRING},
        },
        # The stateful phase of a fuzzer follows these, so the ids it sends are real.
        "links": {
            "Events": {"operationId": "turn_events", "parameters": _TURN_LINK},
            # "c1": the first counted source, when the turn has one (else a 409).
            "More": {
                "operationId": "load_more",
                "parameters": _TURN_LINK,
                "requestBody": {"slot": "c1"},
            },
            "Feedback": {"operationId": "feedback", "parameters": _TURN_LINK},
            "Session": {
                "operationId": "get_session",
                "parameters": {"session_id": f"$response.header.{SESSION_HEADER}"},
            },
        },
    }
}
STREAM_HEADERS = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}


def headers_not_nullable(document: dict[str, Any]) -> dict[str, Any]:
    """An optional header is absent or a string; never JSON ``null`` (which a client
    can only send as the four letters "null"). FastAPI publishes ``str | None`` as
    "string or null"; a fuzzer then sends ``Last-Event-ID: null`` and calls the
    422 a rejected valid request."""
    for path in document.get("paths", {}).values():
        for operation in path.values():
            for parameter in operation.get("parameters", []):
                options = parameter.get("schema", {}).get("anyOf")
                if parameter.get("in") != "header" or not options:
                    continue
                kept = [o for o in options if o.get("type") != "null"]
                if len(kept) == 1:
                    title = parameter["schema"].get("title")
                    parameter["schema"] = {**kept[0], **({"title": title} if title else {})}
    return document
