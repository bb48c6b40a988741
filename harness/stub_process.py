"""Run one installed stub (``beacon stub-mcp`` / ``beacon stub-llm``) as a process.

The stub's own contract tests talk to the installed entry point over real HTTP,
not to an in-process app: what they prove is what ``beacon up`` runs.
"""

from __future__ import annotations

import os
import signal
import subprocess
import threading
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass

import httpx
from starlette.applications import Starlette
from starlette.background import BackgroundTask
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route

from beacon.cli.up import HOST, beacon_command, free_port, wait_healthy

STOP_TIMEOUT_S = 10.0


@dataclass(frozen=True, slots=True)
class StubProcess:
    origin: str
    pid: int

    @property
    def mcp_url(self) -> str:
        return f"{self.origin}/mcp"

    @property
    def llm_base_url(self) -> str:
        return f"{self.origin}/v1"

    def token(
        self, *, sub: str = "contract-user", tiers: tuple[str, ...] = ("enterprise_ai",)
    ) -> str:
        response = httpx.post(
            f"{self.origin}/dev/tokens", json={"sub": sub, "tiers": list(tiers)}, timeout=10.0
        )
        response.raise_for_status()
        token = response.json()["token"]
        assert isinstance(token, str)
        return token


@contextmanager
def running_stub(
    kind: str, *, scenario: str | None = None, env: dict[str, str] | None = None
) -> Iterator[StubProcess]:
    """``kind`` is ``"mcp"`` or ``"llm"``; yields once ``/healthz`` answers 200."""
    if kind not in {"mcp", "llm"}:
        raise ValueError(f"unknown stub kind {kind!r}")
    port = free_port()
    args = [*beacon_command(), f"stub-{kind}", "--port", str(port)]
    if scenario is not None:
        args += ["--scenario", scenario]
    proc = subprocess.Popen(
        args,
        env={**os.environ, **(env or {})},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    origin = f"http://{HOST}:{port}"
    try:
        wait_healthy(f"{origin}/healthz", proc, threading.Event())
        yield StubProcess(origin, proc.pid)
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=STOP_TIMEOUT_S)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=5)


def bearer_proxy(upstream_origin: str, token: str) -> Starlette:
    """A loopback pass-through that adds our bearer: for outside peers with no auth option.

    The conformance suite cannot send an ``Authorization`` header, and the stub
    fails closed without one; the proxy keeps Host/Origin as sent, so the stub's
    DNS-rebinding checks still see the peer's own headers.
    """
    client = httpx.AsyncClient(base_url=upstream_origin, timeout=30.0)

    async def forward(request: Request) -> Response:
        headers = {k: v for k, v in request.headers.items() if k.lower() != "content-length"}
        headers["authorization"] = f"Bearer {token}"
        outgoing = client.build_request(
            request.method,
            request.url.path + (f"?{request.url.query}" if request.url.query else ""),
            headers=headers,
            content=await request.body(),
        )
        upstream = await client.send(outgoing, stream=True)
        kept = {
            k: v
            for k, v in upstream.headers.items()
            if k.lower() not in {"content-length", "transfer-encoding", "connection"}
        }
        return StreamingResponse(
            upstream.aiter_raw(),
            status_code=upstream.status_code,
            headers=kept,
            background=BackgroundTask(upstream.aclose),
        )

    @asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        async with client:
            yield

    route = Route("/{path:path}", forward, methods=["GET", "POST", "DELETE", "OPTIONS"])
    return Starlette(routes=[route], lifespan=lifespan)
