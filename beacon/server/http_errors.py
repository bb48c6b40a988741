"""Starlette's own refusals (an unknown path, a method a path does not serve, a
static file that is not there) in the server's one error format, not
``{"detail": "Not Found"}``; a 405 keeps its ``Allow`` header."""

from __future__ import annotations

from fastapi import Request
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException

_CODES = {
    404: ("not_found", "no such path"),
    405: ("method_not_allowed", "this path does not answer that method"),
}


async def http_error(_: Request, exc: Exception) -> JSONResponse:
    status = exc.status_code if isinstance(exc, HTTPException) else 500
    headers = exc.headers if isinstance(exc, HTTPException) else None
    code, message = _CODES.get(status, (f"http_{status}", "the request was refused"))
    return JSONResponse(
        {"error": {"code": code, "message": message}}, status_code=status, headers=headers
    )
