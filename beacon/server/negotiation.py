"""Content negotiation: a route that can answer in one media type only says so
with a 406 when the request's ``Accept`` admits none of it, rather than sending
an event stream to a client that asked for JSON (and would then wait on it).

No ``Accept`` (or ``*/*``) admits everything; a range with ``q=0`` refuses its
type; a malformed range is skipped, and an ``Accept`` of nothing but malformed
ranges is treated as absent (be liberal in what you accept from a header).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from fastapi import Request
from fastapi.responses import JSONResponse

EVENT_STREAM = "text/event-stream"
JSON = "application/json"


class NotAcceptable(Exception):
    def __init__(self, media: str) -> None:
        super().__init__(media)
        self.media = media


def _ranges(accept: str) -> list[tuple[str, str, float]]:
    ranges = []
    for item in accept.split(","):
        media, *params = (part.strip() for part in item.split(";"))
        kind, slash, sub = media.lower().partition("/")
        if not slash or not kind or not sub:
            continue
        quality = 1.0
        for param in params:
            name, _, value = param.partition("=")
            if name.strip().lower() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 1.0
        ranges.append((kind, sub, quality))
    return ranges


def admits(accept: str | None, media: str) -> bool:
    """Whether an ``Accept`` value admits ``media`` (the most specific range decides)."""
    if accept is None:
        return True
    ranges = _ranges(accept)
    if not ranges:
        return True
    kind, _, sub = media.partition("/")
    best: tuple[int, float] | None = None
    for r_kind, r_sub, quality in ranges:
        if r_kind == "*" and r_sub == "*":
            rank = 0
        elif r_kind == kind and r_sub == "*":
            rank = 1
        elif (r_kind, r_sub) == (kind, sub):
            rank = 2
        else:
            continue
        if best is None or rank > best[0]:
            best = (rank, quality)
    return best is not None and best[1] > 0


def serves(media: str) -> Callable[[Request], Awaitable[None]]:
    """A route dependency: 406 unless the request admits ``media``."""

    async def negotiate(request: Request) -> None:
        if not admits(request.headers.get("accept"), media):
            raise NotAcceptable(media)

    return negotiate


async def not_acceptable(_: Request, exc: Exception) -> JSONResponse:
    media = exc.media if isinstance(exc, NotAcceptable) else "another media type"
    message = f"this route answers {media} only; send an Accept that admits it"
    return JSONResponse({"error": {"code": "not_acceptable", "message": message}}, 406)
