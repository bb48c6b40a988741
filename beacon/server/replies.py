"""The JSON bodies the chat server answers with, as published in its OpenAPI
document (the frames are ``beacon.wire.frames``'; the turn request is
``beacon.wire.turns``'). Models for the schema only: the routes build plain dicts,
and their refusals with ``error``, ``not_found`` and ``store_unavailable`` below.

Every refusal, whoever sends it (the request edge, a route, the rate limit, a
404 for an unknown path, a 405, the catch-all 500), is one shape: ``Error``.
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field


class _Reply(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ErrorDetail(_Reply):
    """A reason code and a message that never echoes the input."""

    code: str = Field(pattern=r"^[a-z0-9_]+$")
    message: str
    # On a quota_exhausted 429 only: when the day's questions come back (UTC).
    reset_at: datetime | None = None


class FieldProblem(_Reply):
    loc: list[str | int]
    msg: str
    type: str


class Error(_Reply):
    """Every error body. ``detail`` rides on a 422 only: each field and what is wrong."""

    error: ErrorDetail
    detail: list[FieldProblem] = Field(default_factory=list, max_length=20)


class StreamTicket(_Reply):
    """A ticket for ``GET /v1/turns/{turn_id}/events?ticket=…`` (EventSource)."""

    ticket: str = Field(max_length=1024)
    expires_in: int = Field(ge=0, description="seconds the ticket stays valid")


class SessionMessage(_Reply):
    turn_id: str
    role: Literal["user", "assistant"]
    text: str


class Session(_Reply):
    session_id: str
    messages: list[SessionMessage]


class Health(_Reply):
    ok: bool
    version: str
    store: Literal["unavailable"] = "unavailable"  # only when not ready


def error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status)


def not_found(what: str) -> JSONResponse:
    # The same answer for "missing" and "someone else's": a stranger learns nothing.
    return error(404, f"{what}_not_found", f"no such {what}")


def store_unavailable() -> JSONResponse:
    reply = error(503, "store_unavailable", "the turn store is unavailable; try again shortly")
    reply.headers["Retry-After"] = "1"
    return reply


def busy(running: int) -> JSONResponse:
    """Admission control's answer: at once, so a client retries rather than waits."""
    reply = error(
        503,
        "busy",
        f"this server is running its most turns ({running}); try again in a second",
    )
    reply.headers["Retry-After"] = "1"
    return reply
