"""``GET /`` (to the panel) and the static files: the panel and its demo hosts."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import RedirectResponse
from fastapi.staticfiles import StaticFiles

from beacon.server.openapi import EDGE, REDIRECT, errors

router = APIRouter()
_BEACON = Path(__file__).resolve().parent.parent.parent


@router.get(
    "/",
    operation_id="root",
    response_class=RedirectResponse,
    status_code=307,
    responses={**REDIRECT, **errors(*EDGE)},
)
async def root(request: Request) -> RedirectResponse:
    return _redirect(request, "/panel/")


async def _into_folder(request: Request) -> RedirectResponse:
    return _redirect(request, request.url.path + "/")


def _redirect(request: Request, path: str) -> RedirectResponse:
    """A 307 to ``path``, the request's query kept (the panel reads ``?lang=``)."""
    query = f"?{request.url.query}" if request.url.query else ""
    return RedirectResponse(url=path + query, status_code=307)


def mount_static(app: FastAPI) -> None:
    # The panel is static files beside the server package, not a Python package:
    # nothing but HTML, JS and CSS may be served from it. Two demo hosts embed the
    # panel through its host adapter; the server itself stays host-blind (no per-host
    # branch anywhere in it). The router adds no slashes (`app.py`), so a folder's
    # bare name is led into it here.
    for name in ("panel", "hosts"):
        app.add_route(f"/{name}", _into_folder, include_in_schema=False)
        app.mount(f"/{name}", StaticFiles(directory=str(_BEACON / name), html=True), name=name)
