"""A turn whose stream is opening goes ahead of other turns' work (issue 32): while
one is opening, a started turn sends no upstream or model request, and it goes on
once the opening ends. The chat server runs in this process (so the test can hold
an opening open on its event loop); the stubs are the stack's processes."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from beacon.server.app import create_app
from beacon.server.openings import Opening
from beacon.server.settings import settings_from_env
from harness.chat_process import chat_env
from harness.inproc import serving
from harness.stack import Stack
from harness.turn_streams import frames_of

pytestmark = pytest.mark.e2e
QUESTION = "How many open safety findings are on level 3 of Harbor Tower?"


def _held_openings(app: FastAPI) -> Any:
    """The app behind paths that begin, end and count openings on the server's own
    loop, as a request between its arrival and its published start does."""
    held: list[Opening] = []

    async def wrapped(scope: Any, receive: Any, send: Any) -> None:
        path = scope.get("path") if scope["type"] == "http" else None
        if path not in ("/test/hold", "/test/release", "/test/count"):
            return await app(scope, receive, send)
        openings = app.state.context.hub.openings
        if path == "/test/hold":
            held.append(openings.begin(hold_s=60))  # past the test's own waits
        while path == "/test/release" and held:
            held.pop().end()
        body = json.dumps({"opening": openings.count}).encode()
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": body})

    return wrapped


@pytest.fixture
def chat(stack: Stack, tmp_path: Path) -> Iterator[str]:
    settings = settings_from_env(chat_env(stack, tmp_path))
    with serving(lambda _origin: _held_openings(create_app(settings))) as origin:
        yield origin


def _requests(origin: str, turn_id: str) -> list[dict[str, Any]]:
    entries = httpx.get(f"{origin}/dev/requests", timeout=10).json()["requests"]
    return [e for e in entries if e["turn"] == turn_id]


def test_a_started_turn_waits_for_another_turns_opening_before_any_upstream_request(
    stack: Stack, chat: str
) -> None:
    assert httpx.post(f"{chat}/test/hold", timeout=10).json() == {"opening": 1}
    raw = bytearray()
    started, finished = threading.Event(), threading.Event()

    def read() -> None:
        headers = {"Authorization": f"Bearer {stack.token()}", "Accept": "text/event-stream"}
        body = {"mode": "single", "message": QUESTION, "locale": "en"}
        with httpx.stream("POST", f"{chat}/v1/turns", json=body, headers=headers, timeout=60) as r:
            for chunk in r.iter_bytes():
                raw.extend(chunk)
                if b"event: start" in raw:
                    started.set()
        finished.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        assert started.wait(30), "the turn's own start must not wait for the other opening"
        # Its own opening ended as its start left: only the held one is opening.
        assert httpx.post(f"{chat}/test/count", timeout=10).json() == {"opening": 1}
        # Unpaused, the turn plans, calls and ends in well under a second.
        assert not finished.wait(1.5), "the turn ran while another turn was opening"
        frames = frames_of(bytes(raw))
        assert [f.event for f in frames] == ["start"]
        turn_id = frames[0].json()["turn_id"]
        assert _requests(stack.mcp_origin, turn_id) == []
        assert _requests(stack.llm_url.removesuffix("/v1"), turn_id) == []
    finally:
        released = httpx.post(f"{chat}/test/release", timeout=10).json()
    assert released == {"opening": 0}
    assert finished.wait(30), "the turn did not go on once the opening ended"
    reader.join(5)
    frames = frames_of(bytes(raw))
    assert frames[-1].event == "done"
    assert [e["tool"] for e in _requests(stack.mcp_origin, turn_id)][:1] == ["list_projects"]


def test_a_turn_request_refused_at_the_edge_or_the_route_leaves_nothing_opening(
    stack: Stack, chat: str
) -> None:
    turns = f"{chat}/v1/turns"
    sse = {"Accept": "text/event-stream"}
    body = {"mode": "single", "message": QUESTION}
    bad_bearer = httpx.post(turns, json=body, headers=sse | {"Authorization": "Bearer x"})
    assert bad_bearer.status_code == 401
    no_message = httpx.post(
        turns, json={"mode": "single"}, headers=sse | {"Authorization": f"Bearer {stack.token()}"}
    )
    assert no_message.status_code == 422
    # Were either still opening, every other turn would wait for it (up to its time limit).
    assert httpx.post(f"{chat}/test/release", timeout=10).json() == {"opening": 0}
