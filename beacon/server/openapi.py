"""The chat server's published contract beyond its models: what each route really
answers (every status it serves, no status it does not), one error schema for
every refusal, the stream's frames (OpenAPI 3.2's ``itemSchema``: each event is
``event``/``id``/``data``, the data a frame model), headers and links (a stateful
fuzzer follows them), and the two ways in: the bearer, or a stream ticket on the
event stream.

Who answers what (so a status is listed exactly where it can be served):
every path passes the request edge (400 a bad ``Content-Length`` or a body not
UTF-8, 413 over the cap, 422 a JSON body that is not strict JSON) and may meet
the catch-all 500; every ``/v1/`` route also verifies the bearer (401, or 503
when the key set cannot be fetched) and reads the store (503 while it is away).
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Header, Path, Security
from fastapi.security import APIKeyQuery, HTTPBearer
from pydantic import BaseModel
from pydantic.json_schema import models_json_schema

from beacon.server.replies import Error
from beacon.wire.frames import FRAME_MODELS
from beacon.wire.headers import SCENARIO_HEADER, TURN_HEADER
from beacon.wire.turns import ID_MAX, ID_PATTERN

OPENAPI_VERSION = "3.2.0"  # for the event stream's itemSchema
# A stub scenario name (kebab-case); anything else is a documented 422. Refused
# (400) by a server that does not allow scenarios (``BEACON_SCENARIOS``).
ScenarioHeader = Annotated[
    str | None,
    Header(alias=SCENARIO_HEADER, pattern=r"^[a-z0-9]+(-[a-z0-9]+)*$", max_length=64),
]
# A path id no server ever made (a NUL, a control byte, a slash…) is 422 before any store.
TurnId = Annotated[str, Path(pattern=ID_PATTERN, max_length=ID_MAX)]
SessionId = Annotated[str, Path(pattern=ID_PATTERN, max_length=ID_MAX)]
# The session a chat turn belongs to, beside the turn's id (``X-Beacon-Turn``) on the
# stream's response: a client, or a fuzzer following the links, has both before a frame.
SESSION_HEADER = "X-Beacon-Session"
# The bearer, for the schema: the request edge verifies it before any route runs.
_bearer = HTTPBearer(auto_error=False, scheme_name="bearer", description="RS256 JWT")
AUTH = [Security(_bearer)]
# The event stream also opens with a ticket (beacon/server/tickets.py) in its URL:
# two security requirements are alternatives in OpenAPI.
_ticket = APIKeyQuery(
    name="ticket",
    auto_error=False,
    scheme_name="streamTicket",
    description="a stream ticket from POST /v1/turns/{turn_id}/ticket (this turn, minutes)",
)
TICKET_AUTH = [Security(_bearer), Security(_ticket)]

_WHY: dict[int, str] = {
    400: "A bad Content-Length, a body not UTF-8, or a scenario this server does not allow",
    401: "Missing or rejected bearer (or stream ticket)",
    403: "A token of the other family for this route (wrong_token_family), a service token"
    " without the route's scope (missing_scope), or (a turn) a source the token no"
    " longer grants (one the turn used or, while it runs, may still use)",
    404: "No such turn or session for this caller",
    406: "The Accept header admits nothing this route answers with",
    409: "No further page",
    413: "The body is over the size cap",
    422: "A parameter or body that does not validate, or a body that is not strict JSON",
    429: "Too many turns started: a rate limit (rate_limited); on POST /v1/turns also "
    "the day's question quota spent (quota_exhausted, with error.reset_at)",
    500: "The server failed on this request (a coded error with a reference)",
    502: "The upstream failed",
    503: "The key set cannot be fetched, the turn store is unavailable, or (a new turn) the"
    " process is running its most turns (busy)",
}
_RETRY_AFTER = {
    "description": "whole seconds to wait",
    "schema": {"type": "integer", "minimum": 1},
}


def errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """Error responses, every one the ``Error`` body."""
    out: dict[int | str, dict[str, Any]] = {}
    for status in statuses:
        entry: dict[str, Any] = {"description": _WHY[status], "model": Error}
        if status == 429:
            entry["headers"] = {"Retry-After": {**_RETRY_AFTER, "required": True}}
        elif status == 503:
            entry["headers"] = {"Retry-After": _RETRY_AFTER}
        out[status] = entry
    return out


# Every path: the edge's refusals and the catch-all.
EDGE = (400, 413, 422, 500)
# Every /v1/ route: the bearer, its family (server/access.py), its key set, the store.
GUARDED = (*EDGE, 401, 403, 503)

_STRING = {"schema": {"type": "string"}}
_TURN_LINK = {"turn_id": f"$response.header.{TURN_HEADER}"}
_EVENTS = {"text/event-stream": {"itemSchema": {"$ref": "#/components/schemas/Frame"}}}
SSE: dict[int | str, dict[str, Any]] = {
    200: {"description": "The turn's frames after the given seq", "content": _EVENTS},
    204: {"description": "Nothing follows: the turn ended at or before the given seq"},
}
STARTED: dict[int | str, dict[str, Any]] = {
    200: {
        "description": "The turn's frames, live",
        "content": _EVENTS,
        "headers": {
            TURN_HEADER: {"description": "the turn's id", "required": True, **_STRING},
            "Server-Timing": {
                "description": "where the time went before the stream opened, per phase"
                " (edge, session, quota, start), in ms",
                **_STRING,
            },
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
            "Ticket": {"operationId": "stream_ticket", "parameters": _TURN_LINK},
            "Session": {
                "operationId": "get_session",
                "parameters": {"session_id": f"$response.header.{SESSION_HEADER}"},
            },
        },
    }
}
REDIRECT: dict[int | str, dict[str, Any]] = {
    307: {
        "description": "To the panel, with the query kept",
        "headers": {"Location": {"required": True, **_STRING}},
    }
}
STREAM_HEADERS = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}


def _frame_components() -> tuple[dict[str, Any], dict[str, Any]]:
    """The frame data models as components, and the ``Frame`` event schema over them."""
    models: list[type[BaseModel]] = list(FRAME_MODELS.values())
    _, defs = models_json_schema(
        [(model, "serialization") for model in models],
        ref_template="#/components/schemas/{model}",
    )
    events = [
        {
            "type": "object",
            "required": ["event", "id", "data"],
            "properties": {
                "event": {"const": name},
                "id": {"type": "string", "pattern": "^[1-9][0-9]*$"},
                "data": {
                    "type": "string",
                    "contentMediaType": "application/json",
                    "contentSchema": {"$ref": f"#/components/schemas/{model.__name__}"},
                },
            },
        }
        for name, model in FRAME_MODELS.items()
    ]
    frame = {
        "description": "One server-sent event: `event` is the frame type, `id` its seq, "
        "`data` its JSON. A browser EventSource reports the server's `error` frame and "
        "its own connection errors under the same name: only the frame has `data`.",
        "oneOf": events,
    }
    return defs.get("$defs", {}), frame


def published(document: dict[str, Any]) -> dict[str, Any]:
    """FastAPI's document, made to say what the server does."""
    schemas = document.setdefault("components", {}).setdefault("schemas", {})
    defs, frame = _frame_components()
    for name, schema in defs.items():
        schemas.setdefault(name, schema)
    schemas["Frame"] = frame
    # FastAPI's own 422 body is not what this server sends: the one Error is.
    for name in ("HTTPValidationError", "ValidationError"):
        schemas.pop(name, None)
    return headers_not_nullable(document)


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
