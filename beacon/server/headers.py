"""Security headers on every response, outermost (the edge's refusals get them too).

The panel and the demo hosts are pages: same-origin module scripts and
stylesheets, no inline script or style attribute (the viewer's pins are placed
through CSSOM, which a policy does not govern), ``fetch`` to this origin only (the
stream is read from a fetch body, no EventSource), and thumbnails from the
upstream (any https origin, or the upstream's own origin over http on a
development stack). The hosts mount the panel in their own document; a page may
be framed by this origin only. The API answers data: nothing in it may run or frame.
FastAPI's ``/docs`` and ``/redoc`` load their viewers from a CDN with inline
script, so they get no policy, only the other headers.
"""

from __future__ import annotations

from collections.abc import Iterable
from urllib.parse import urlsplit

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

PAGE_PREFIXES = ("/panel", "/hosts")
DOC_PATHS = ("/docs", "/redoc")
COMMON = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}
API_POLICY = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"


def page_policy(image_origins: Iterable[str] = ()) -> str:
    images = " ".join(["'self'", "data:", "https:", *image_origins])
    return "; ".join(
        (
            "default-src 'none'",
            "script-src 'self'",
            "style-src 'self'",
            f"img-src {images}",
            "connect-src 'self'",
            "base-uri 'none'",
            "form-action 'self'",
            "frame-ancestors 'self'",
        )
    )


def origin_of(url: str) -> str:
    """``scheme://host[:port]`` of ``url``."""
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def headers_for(path: str, page_csp: str) -> dict[str, str]:
    if path.startswith(PAGE_PREFIXES):
        return {**COMMON, "Content-Security-Policy": page_csp, "X-Frame-Options": "SAMEORIGIN"}
    if path.startswith(DOC_PATHS):
        return {**COMMON, "X-Frame-Options": "DENY"}
    return {**COMMON, "Content-Security-Policy": API_POLICY, "X-Frame-Options": "DENY"}


class SecurityHeaders:
    """Pure ASGI middleware: adds each header a response does not already carry."""

    def __init__(self, app: ASGIApp, *, image_origins: Iterable[str] = ()) -> None:
        self.app = app
        self.page_csp = page_policy(image_origins)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        wanted = headers_for(scope["path"], self.page_csp)

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message.setdefault("headers", [])
                headers = MutableHeaders(scope=message)
                for name, value in wanted.items():
                    if name not in headers:
                        headers[name] = value
            await send(message)

        await self.app(scope, receive, send_with_headers)
