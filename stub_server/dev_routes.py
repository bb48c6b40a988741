"""Plain HTTP routes beside the MCP endpoint: dev tokens, JWKS, the request log, thumbnails.

The ``/dev`` routes and the JWKS answer loopback clients only (403 otherwise):
they mint credentials and expose every call, which no remote peer may reach.
"""

from __future__ import annotations

import json
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from stub_server.catalog import StubTools
from stub_server.tokens import DEFAULT_TTL_S, MAX_TTL_S, TokenIssuer

_LOOPBACK = ("127.", "::1", "localhost")


class TokenRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    sub: str = Field(min_length=1, max_length=200)
    # A user token carries tiers; a service token (``typ: service``) scopes and no tiers.
    tiers: list[str] | None = Field(default=None, max_length=16)
    ttl_s: int = Field(default=DEFAULT_TTL_S, ge=1, le=MAX_TTL_S)
    # A token that expired this many seconds ago (instead of ttl_s): a verifier's expiry
    # check is tested at once, not after a short life and the verifier's leeway run out.
    expired_s: int | None = Field(default=None, ge=1, le=MAX_TTL_S)
    questions_per_day: int | None = Field(default=None, ge=0, le=1_000_000)
    typ: Literal["user", "service"] = "user"
    scopes: list[str] = Field(default_factory=list, max_length=16)

    @model_validator(mode="after")
    def _one_family(self) -> TokenRequest:
        # Unknown scope names are minted as asked: the chat server's refusal is under test.
        if self.typ == "service" and (self.tiers or self.questions_per_day is not None):
            raise ValueError("a service token carries scopes, not tiers or a quota")
        if self.typ == "service" and not self.scopes:
            raise ValueError("a service token carries at least one scope")
        if self.typ == "user" and (self.scopes or self.tiers is None):
            raise ValueError("a user token carries tiers and no scopes (scopes: typ service)")
        if self.expired_s is not None and "ttl_s" in self.model_fields_set:
            raise ValueError("a token has either a ttl_s or an expired_s, not both")
        return self


def _is_loopback(request: Request) -> bool:
    host = request.client.host if request.client else ""
    return host.startswith(_LOOPBACK)


def _forbidden() -> JSONResponse:
    return JSONResponse(
        {"error": "forbidden", "message": "dev endpoints answer loopback clients only"}, 403
    )


def _unprocessable(field: str, message: str) -> JSONResponse:
    return JSONResponse({"error": "invalid_request", "field": field, "message": message}, 422)


def thumbnail_svg(item_id: str) -> str:
    # Deterministic: the hue comes from the id, so the same id always draws the same tile.
    # A small generated picture (a sky, ground, a camera mark), never the id printed as
    # a headline; the id stays only as the image's <title>, which nobody sees.
    hue = sum(item_id.encode()) % 360
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" width="160" height="120" viewBox="0 0 160 120">'
        f"<title>{item_id}</title>"
        f'<rect width="160" height="120" fill="hsl({hue},35%,86%)"/>'
        '<path d="M0 88 L46 58 L78 80 L112 50 L160 86 L160 120 L0 120 Z" '
        f'fill="hsl({hue},30%,62%)"/>'
        '<g fill="none" stroke="rgba(0,0,0,0.35)" stroke-width="3">'
        '<rect x="62" y="26" width="36" height="26" rx="4"/><circle cx="80" cy="39" r="7"/></g>'
        "</svg>"
    )


def dev_routes(tools: StubTools, issuer: TokenIssuer) -> list[Route]:
    known_ids = {p.id for p in tools.ctx.corpus.photos} | {c.id for c in tools.ctx.corpus.captures}

    async def jwks(request: Request) -> Response:
        return JSONResponse(issuer.jwks()) if _is_loopback(request) else _forbidden()

    async def mint(request: Request) -> Response:
        if not _is_loopback(request):
            return _forbidden()
        try:
            body: Any = json.loads(await request.body())
        except ValueError:
            return _unprocessable("(body)", "the body must be a JSON object")
        try:
            wanted = TokenRequest.model_validate(body)
        except ValidationError as exc:
            first = exc.errors()[0]
            field = ".".join(str(part) for part in first["loc"]) or "(body)"
            return _unprocessable(field, first["msg"])
        # An expired token's life ends expired_s ago: ttl_s negative, as the issuer counts.
        ttl_s = -wanted.expired_s if wanted.expired_s is not None else wanted.ttl_s
        if wanted.typ == "service":
            return JSONResponse({"token": issuer.mint_service(wanted.sub, wanted.scopes, ttl_s)})
        return JSONResponse(
            {"token": issuer.mint(wanted.sub, wanted.tiers or [], ttl_s, wanted.questions_per_day)}
        )

    async def requests(request: Request) -> Response:
        if not _is_loopback(request):
            return _forbidden()
        if request.method == "DELETE":
            tools.log.clear()
            tools.counter.reset()  # per-call scenario sequences restart with the log
            return Response(status_code=204)
        return JSONResponse({"requests": tools.log.entries()})

    async def thumb(request: Request) -> Response:
        item_id = request.path_params["item_id"]
        if item_id not in known_ids:
            return JSONResponse({"error": "not_found", "id": item_id}, 404)
        return Response(thumbnail_svg(item_id), media_type="image/svg+xml")

    async def healthz(_request: Request) -> Response:
        return JSONResponse({"ok": True})

    return [
        Route("/.well-known/jwks.json", jwks, methods=["GET"]),
        Route("/dev/tokens", mint, methods=["POST"]),
        Route("/dev/requests", requests, methods=["GET", "DELETE"]),
        Route("/thumbs/{item_id}.svg", thumb, methods=["GET"]),
        Route("/healthz", healthz, methods=["GET"]),
    ]
