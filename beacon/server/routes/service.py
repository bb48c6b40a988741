"""``GET /v1/service/whoami``: the one route a service token (scope ``probe``) reads.

A probe proves a deployed server accepts its service credential end to end (key
set, issuer, audience, family, scope) without touching any user's data: it learns
only what its own token says, as the server verified it.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from fastapi import APIRouter, Depends, Request
from pydantic import BaseModel, ConfigDict, Field

from beacon.auth.families import Family
from beacon.server.context import identify
from beacon.server.negotiation import JSON, serves
from beacon.server.openapi import AUTH, GUARDED, errors

router = APIRouter()


class Whoami(BaseModel):
    model_config = ConfigDict(extra="forbid")

    sub: str = Field(description="the token's subject (the service's name)")
    family: Family = Field(description="always `service` here: user tokens are refused (403)")
    scopes: list[str] = Field(description="the token's scopes, sorted")
    expires_at: datetime


@router.get(
    "/v1/service/whoami",
    operation_id="service_whoami",
    response_model=Whoami,
    responses=errors(*GUARDED, 406),
    dependencies=[*AUTH, Depends(serves(JSON))],
)
async def whoami(request: Request) -> Any:
    identity = identify(request)
    return Whoami(
        sub=identity.sub,
        family=identity.family,
        scopes=sorted(identity.scopes),
        expires_at=identity.expires_at,
    )
