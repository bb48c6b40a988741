"""The HTTP edge before any route: limits and identity first, work after.

A pure ASGI middleware, so nothing in FastAPI reads a byte of the body before it
has judged, in this order:

1. the declared size: a ``Content-Length`` over the cap is a 413, the body unread;
2. the bearer, for every ``/v1/`` route, from the headers alone: a caller without
   a valid token gets its 401 (or 503 when the key set is down) and the body is
   never read; the verified identity travels to the route in the ASGI scope;
3. the scenario switch: ``X-Beacon-Scenario`` is a 400 unless the server allows
   scenarios (``BEACON_SCENARIOS=allow``, development stacks only);
4. the body, read as it streams and counted: past the cap it is a 413 at that
   chunk, the rest never read;
5. a JSON body is strict JSON in UTF-8: invalid UTF-8 (400), not JSON, ``NaN`` /
   ``Infinity``, a number no float or int can hold, nesting too deep, a lone
   surrogate, a key twice in one object (422) — each with its reason code, never an
   echo of the input (a repeated key is named, cut to a few dozen characters).

Every refusal is ``{"error": {"code", "message"}}`` (plus FastAPI's ``detail``
list for a 422, so the published ``HTTPValidationError`` still describes it).
"""

from __future__ import annotations

import json
import logging
import math
import re
import secrets
from dataclasses import dataclass
from typing import Any

from fastapi.exceptions import RequestValidationError
from fastapi.requests import Request
from fastapi.responses import JSONResponse
from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from beacon.auth.errors import AuthError
from beacon.auth.verify import Identity, Verifier
from beacon.server.headers import headers_for, page_policy
from beacon.server.timing import stamp_arrival
from beacon.wire.headers import SCENARIO_HEADER

log = logging.getLogger(__name__)
PROTECTED_PREFIX = "/v1/"
_IDENTITY = "beacon.identity"
_SURROGATE = re.compile("[\ud800-\udfff]")
EXCERPT_CHARS = 64


class Refusal(Exception):
    """A request refused at the edge: status, reason code, a message with no input in it."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


def excerpt(text: object, limit: int = EXCERPT_CHARS) -> str:
    """At most ``limit`` characters of client-written text, encodable as UTF-8."""
    value = str(text)
    cut = value[:limit] + ("…" if len(value) > limit else "")
    return cut.encode("utf-8", "replace").decode("utf-8")


def error_body(code: str, message: str, detail: list[dict[str, Any]] | None = None) -> bytes:
    body: dict[str, Any] = {"error": {"code": code, "message": message}}
    if detail is not None:
        body["detail"] = detail
    return json.dumps(body).encode()


def verified_identity(scope: Scope) -> Identity:
    """The identity the edge verified for this request (every ``/v1/`` route has one)."""
    identity = scope.get("state", {}).get(_IDENTITY)
    if not isinstance(identity, Identity):
        raise RuntimeError("no verified identity: the request edge is not installed")
    return identity


def _refuse_constant(name: str) -> Any:
    raise Refusal(422, "json_not_strict", f"{name} is not a JSON number")


def _refuse_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    # json.loads keeps the last of two equal keys; a validator and a reader of the
    # raw body would then disagree on which one the request said. Any depth.
    obj: dict[str, Any] = {}
    for key, value in pairs:
        if key in obj:
            message = f"the key {json.dumps(excerpt(key))} appears twice in one object"
            raise Refusal(422, "duplicate_key", message)
        obj[key] = value
    return obj


def _is_json(content_type: str | None) -> bool:
    if content_type is None:
        return True  # FastAPI reads a body without a type as JSON
    media = content_type.partition(";")[0].strip().lower()
    return media == "application/json" or (
        media.startswith("application/") and media.endswith("+json")
    )


def _unrepresentable(value: Any) -> str | None:
    """The reason code for the first value JSON's data model cannot carry here."""
    stack: list[Any] = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if _SURROGATE.search(item):
                return "lone_surrogate"
        elif isinstance(item, float):
            if not math.isfinite(item):  # 1e400 parses as infinity
                return "number_out_of_range"
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return None


_UNREPRESENTABLE = {
    "lone_surrogate": "a string holds a lone UTF-16 surrogate, which is not text",
    "number_out_of_range": "a number is out of range",
}


def check_json(body: bytes) -> None:
    """Raise :class:`Refusal` unless ``body`` is strict JSON in UTF-8."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise Refusal(400, "body_not_utf8", f"the body is not UTF-8 (byte {exc.start})") from None
    try:
        value = json.loads(
            text, parse_constant=_refuse_constant, object_pairs_hook=_refuse_duplicates
        )
    except json.JSONDecodeError as exc:
        message = f"the body is not JSON: {exc.msg} (char {exc.pos})"
        raise Refusal(422, "json_invalid", message) from None
    except RecursionError:
        raise Refusal(422, "json_too_deep", "the body nests too deeply") from None
    except ValueError:  # an integer of more digits than Python converts
        raise Refusal(422, "number_out_of_range", "a number is out of range") from None
    reason = _unrepresentable(value)
    if reason is not None:
        raise Refusal(422, reason, _UNREPRESENTABLE[reason])


@dataclass(frozen=True, slots=True)
class EdgeLimits:
    max_body_bytes: int
    scenarios_allowed: bool


class RequestEdge:
    """Pure ASGI middleware: see the module docstring for the order of its checks."""

    def __init__(self, app: ASGIApp, *, verifier: Verifier, limits: EdgeLimits) -> None:
        self.app = app
        self.verifier = verifier
        self.limits = limits

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        stamp_arrival(scope)
        headers = Headers(scope=scope)
        # Whether a body may follow: if so, a refusal closes the connection after it.
        has_body = "transfer-encoding" in headers or headers.get("content-length", "0") != "0"
        try:
            self._check_declared_length(headers)
            if scope["path"].startswith(PROTECTED_PREFIX):
                await self._identify(scope, headers)
                if headers.get(SCENARIO_HEADER) is not None and not self.limits.scenarios_allowed:
                    raise Refusal(
                        400,
                        "scenarios_disabled",
                        f"{SCENARIO_HEADER} is a development switch this server does not allow",
                    )
            if not has_body:
                await self.app(scope, receive, send)
                return
            body = await self._read_body(receive)
            if body is None:
                return  # the client went away before its body arrived
            has_body = False  # read whole: the connection may be kept
            if body and _is_json(headers.get("content-type")):
                check_json(body)
        except Refusal as refused:
            await _send_refusal(send, refused, close=has_body)
            return
        except AuthError as exc:
            extra = [(b"www-authenticate", b"Bearer")] if exc.http_status == 401 else []
            payload = json.dumps(exc.to_body()).encode()
            await _send(send, exc.http_status, payload, extra, close=has_body)
            return
        await self.app(scope, _replay(body, receive), send)

    def _check_declared_length(self, headers: Headers) -> None:
        raw = headers.get("content-length")
        if raw is None:
            return
        if not raw.isascii() or not raw.isdigit():  # h11 refuses these already
            raise Refusal(400, "bad_content_length", "Content-Length is not a number")
        if len(raw) > 12 or int(raw) > self.limits.max_body_bytes:
            raise self._too_large()

    def _too_large(self) -> Refusal:
        cap = self.limits.max_body_bytes
        return Refusal(413, "body_too_large", f"the body is over the {cap}-byte cap")

    async def _identify(self, scope: Scope, headers: Headers) -> None:
        identity = await self.verifier.verify_header(headers.get("authorization"))
        scope.setdefault("state", {})[_IDENTITY] = identity

    async def _read_body(self, receive: Receive) -> bytes | None:
        body = bytearray()
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return None
            body += message.get("body", b"")
            if len(body) > self.limits.max_body_bytes:
                raise self._too_large()
            if not message.get("more_body", False):
                return bytes(body)


def _replay(body: bytes, receive: Receive) -> Receive:
    """The body once, as one message; then the real channel (for disconnects)."""
    sent = False

    async def replayed() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replayed


async def _send_refusal(send: Send, refused: Refusal, *, close: bool) -> None:
    detail = None
    if refused.status == 422:
        detail = [{"loc": ["body"], "msg": refused.message, "type": refused.code}]
    payload = error_body(refused.code, refused.message, detail)
    await _send(send, refused.status, payload, [], close=close)


async def _send(
    send: Send, status: int, payload: bytes, extra: list[tuple[bytes, bytes]], *, close: bool
) -> None:
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(payload)).encode()),
        *extra,
    ]
    if close:
        # Refused before its body was read: the connection closes after this
        # answer, so a client still uploading is never read any further.
        headers.append((b"connection", b"close"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": payload})


# --- the answers FastAPI would give with the input in them ------------------------

MAX_DETAILS = 20


async def invalid_request(request: Request, exc: Exception) -> JSONResponse:
    """A 422 naming each field and what is wrong with it, without its value: the
    default handler echoes every input (a 100 MB body came back whole) and fails
    outright on one it cannot encode (NaN, a lone surrogate)."""
    errors = exc.errors() if isinstance(exc, RequestValidationError) else []
    detail = [
        {
            "loc": [p if isinstance(p, int) else excerpt(p) for p in error.get("loc", ())],
            "msg": excerpt(error.get("msg", ""), 200),
            "type": excerpt(error.get("type", "invalid"), 64),
        }
        for error in errors[:MAX_DETAILS]
    ]
    message = "; ".join(f"{'.'.join(str(p) for p in d['loc'])}: {d['msg']}" for d in detail[:3])
    body = {"error": {"code": "invalid_request", "message": message}, "detail": detail}
    return JSONResponse(body, status_code=422)


async def unforeseen(request: Request, exc: Exception) -> JSONResponse:
    """Anything no handler foresaw: a coded 500 with a reference, no internals."""
    reference = secrets.token_hex(6)
    log.error("unforeseen error, reference %s", reference, exc_info=exc)
    message = f"the server failed on this request (reference {reference})"
    # Answered outside every middleware (Starlette's outermost handler): the security
    # headers ride here themselves.
    return JSONResponse(
        {"error": {"code": "internal", "message": message}},
        status_code=500,
        headers=headers_for(request.url.path, page_policy()),
    )
