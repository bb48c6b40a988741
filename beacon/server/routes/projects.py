"""``GET /v1/projects``: the projects the caller can see, for a client's opening page.

The panel builds its example questions from these names ("How many open
findings are in Harbor Tower?") instead of naming projects the caller may not
have. The list comes from the upstream's own ``list_projects`` under the
caller's bearer, through the PEP like any call; an upstream without projects
(one fronted through its contract) or a caller the PEP refuses gets an empty
list, never an error — the page still opens.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel

from beacon.loop.context import project_directory
from beacon.policy.pep import decide
from beacon.server.context import Context, bearer_of, identify
from beacon.server.negotiation import JSON, serves
from beacon.server.openapi import AUTH, GUARDED, errors
from beacon.upstream.errors import UpstreamError
from beacon.wire.tools import tool_with_role


class Project(BaseModel):
    id: str
    name: str


class Projects(BaseModel):
    projects: list[Project]


router = APIRouter()


@router.get(
    "/v1/projects",
    operation_id="get_projects",
    responses={200: {"model": Projects}, **errors(*GUARDED, 406, 502)},
    dependencies=[*AUTH, Depends(serves(JSON))],
)
async def projects(request: Request, context: Context) -> Any:
    identity = identify(request)
    directory_tool = tool_with_role("context")
    if directory_tool is None:
        return {"projects": []}
    if not decide(directory_tool, identity.tiers, capability_hint=None).allowed:
        return {"projects": []}
    try:
        async with context.link.open(bearer=bearer_of(request), scenario=None, turn_id=None) as up:
            outcome = await up.call_tool(directory_tool, {})
    except UpstreamError as exc:
        body = {"error": {"code": exc.code, "message": str(exc)}}
        return JSONResponse(body, status_code=502)
    found = [] if outcome.result.get("isError") else project_directory(outcome.result)
    return {"projects": [{"id": p["id"], "name": p["name"]} for p in found]}
