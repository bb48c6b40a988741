"""A recorded exchange: what a running chat server really sent, for the sweep.

The chat server, the stub MCP server and the stub model are served on loopback
ports in this process (``harness.inproc``), and a few turns are asked over real
HTTP, with a heartbeat interval short enough that every turn's waits beat: one
that gathers, counts, cites and answers, one whose search finds nothing (an
absence notice) and one whose model refuses (an ``error``). Kept: the SSE frames,
the ``/openapi.json`` the server served and every request body it sent the model.
The sweep checks the pinned wire schemas against these, not against our models.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import httpx

from harness.inproc import serving

# (scenario, question): together they make every frame type of SPEC §4.
TURNS: tuple[tuple[str, str], ...] = (
    ("default", "How many open findings are in Harbor Tower?"),
    ("zero-hits", "Show me photos of hard hats in Harbor Tower"),
    ("model-401", "How many open findings are in Harbor Tower?"),
)
HEARTBEAT_S = "0.05"


@dataclass(frozen=True, slots=True)
class RecordedFrame:
    scenario: str
    event: str
    data: dict[str, Any]


def _tapped(app: Any, bodies: list[bytes]) -> Any:
    """The stub model's ASGI app, keeping each chat-completion request body as it arrived:
    what the chat server's LLM client really sent, not what the stub's model accepts."""

    async def tap_app(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope["path"] != "/v1/chat/completions":
            await app(scope, receive, send)
            return
        chunks: list[bytes] = []

        async def tap() -> Any:
            message = await receive()
            if message["type"] == "http.request":
                chunks.append(message.get("body", b""))
                if not message.get("more_body", False):
                    bodies.append(b"".join(chunks))
            return message

        await app(scope, tap, send)

    return tap_app


@contextmanager
def _chat_beside_stubs(data_dir: Path, bodies: list[bytes]) -> Iterator[tuple[str, str]]:
    """(chat origin, stub MCP origin), every server on a loopback port of this process."""
    from beacon.server.app import create_app as chat_app
    from beacon.server.settings import settings_from_env
    from beacon.store.crypto import new_key_slot
    from stub_server.llm_app import create_app as llm_app
    from stub_server.mcp_app import create_app as mcp_app

    with ExitStack() as stack:
        mcp = stack.enter_context(serving(lambda origin: mcp_app(public_origin=origin)))
        llm = stack.enter_context(serving(lambda _origin: _tapped(llm_app(stall_s=0.0), bodies)))
        env = {
            "BEACON_MCP_URL": f"{mcp}/mcp",
            "BEACON_LLM_BASE_URL": f"{llm}/v1",
            "BEACON_JWKS": f"{mcp}/.well-known/jwks.json",
            "BEACON_DB": str(data_dir / "recorded.sqlite3"),
            "BEACON_KEYS": new_key_slot("rec1"),
            "BEACON_SCENARIOS": "allow",
            "BEACON_HEARTBEAT_S": HEARTBEAT_S,
        }
        settings = settings_from_env(env)
        chat = stack.enter_context(serving(lambda _origin: chat_app(settings)))
        yield chat, mcp


@dataclass(frozen=True, slots=True)
class Exchange:
    frames: tuple[RecordedFrame, ...]
    openapi: dict[str, Any]
    llm_requests: tuple[dict[str, Any], ...]  # every body the chat server sent the model


@cache
def _exchange() -> Exchange:
    """Every frame of the recorded turns, in order, the OpenAPI document the same server
    served and the request bodies it sent the model; made once per process."""
    from beacon.cli.ask import run_turn

    frames: list[RecordedFrame] = []
    bodies: list[bytes] = []
    with (
        tempfile.TemporaryDirectory(prefix="beacon-recorded-") as tmp,
        _chat_beside_stubs(Path(tmp), bodies) as (chat, mcp),
    ):
        served = httpx.get(f"{chat}/openapi.json", timeout=10)
        served.raise_for_status()
        minted = httpx.post(
            f"{mcp}/dev/tokens", json={"sub": "sweep", "tiers": ["enterprise_ai"]}, timeout=10
        )
        minted.raise_for_status()
        token = minted.json()["token"]
        for scenario, question in TURNS:
            events = run_turn(chat, {"message": question}, token=token, scenario=scenario)
            frames += [RecordedFrame(scenario, e.event, e.json()) for e in events]
    document = served.json()
    assert isinstance(document, dict)
    return Exchange(tuple(frames), document, tuple(json.loads(b) for b in bodies))


def recorded_frames() -> tuple[RecordedFrame, ...]:
    return _exchange().frames


def served_openapi() -> dict[str, Any]:
    """The chat server's ``/openapi.json`` as it served it (a copy: callers may not edit it)."""
    return dict(_exchange().openapi)


def llm_requests() -> tuple[dict[str, Any], ...]:
    return _exchange().llm_requests


def first_frame(event: str) -> dict[str, Any]:
    """The first recorded frame of one type, as ``{"scenario", "data"}``; an absent type
    is ``{"missing": event}``, which no frame schema accepts."""
    found = next((f for f in recorded_frames() if f.event == event), None)
    if found is None:
        return {"missing": event}
    return {"scenario": found.scenario, "data": found.data}
