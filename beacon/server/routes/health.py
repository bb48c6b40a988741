"""``GET /healthz`` (is this process ready for turns) and ``GET /metrics``."""

from __future__ import annotations

from typing import Any

import anyio
from fastapi import APIRouter, Depends
from fastapi.responses import JSONResponse, Response

from beacon import __version__
from beacon.server.context import Context
from beacon.server.negotiation import JSON, serves
from beacon.server.openapi import EDGE, errors
from beacon.server.replies import Health
from beacon.telemetry import metrics

router = APIRouter()
# Included only when the exposition is served on the chat port (BEACON_METRICS=on).
metrics_router = APIRouter()


@router.get(
    "/healthz",
    operation_id="health",
    response_model=Health,
    response_model_exclude_unset=True,
    responses=errors(*EDGE, 406, 503),
    dependencies=[Depends(serves(JSON))],
)
async def healthz(context: Context) -> Any:
    # Not ready while the store connection or the liveness lock is lost: a
    # balancer sends new turns elsewhere until this process has them back.
    if not context.store.ready():
        return JSONResponse(
            {"ok": False, "version": __version__, "store": "unavailable"}, status_code=503
        )
    return {"ok": True, "version": __version__}


@metrics_router.get("/metrics", operation_id="metrics", include_in_schema=False)
async def prometheus_metrics() -> Response:
    """Prometheus text: this process's series, or every worker's summed."""
    body = await anyio.to_thread.run_sync(metrics.render)
    return Response(body, media_type=metrics.CONTENT_TYPE)
