"""``beacon ask``: one turn over HTTP, frames printed as they arrive."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import httpx

from beacon.wire.headers import SCENARIO_HEADER
from beacon.wire.sse import SseEvent, parse_sse

TURN_TIMEOUT_S = 180.0


class AskError(RuntimeError):
    """The chat server refused the turn before streaming (status + body)."""


def mint_token(mcp_origin: str, *, tier: str, sub: str = "dev-user") -> str:
    response = httpx.post(
        f"{mcp_origin}/dev/tokens", json={"sub": sub, "tiers": [tier]}, timeout=10
    )
    if response.status_code != 200:
        raise AskError(f"token endpoint answered {response.status_code}: {response.text[:200]}")
    token = response.json().get("token")
    if not isinstance(token, str):
        raise AskError("token endpoint answered without a token")
    return token


def run_turn(
    chat_url: str,
    body: dict[str, Any],
    *,
    token: str,
    scenario: str | None = None,
    on_event: Callable[[SseEvent], None] | None = None,
) -> list[SseEvent]:
    headers = {"Authorization": f"Bearer {token}", "Accept": "text/event-stream"}
    if scenario:
        headers[SCENARIO_HEADER] = scenario
    events: list[SseEvent] = []
    with httpx.stream(
        "POST",
        f"{chat_url}/v1/turns",
        json=body,
        headers=headers,
        timeout=httpx.Timeout(TURN_TIMEOUT_S, connect=5.0),
    ) as response:
        if response.status_code != 200:
            raise AskError(f"HTTP {response.status_code}: {response.read().decode()[:500]}")
        for event in parse_sse(response.iter_lines()):
            events.append(event)
            if on_event is not None:
                on_event(event)
    return events


def describe(event: SseEvent) -> str:
    data = event.json()
    shown = {k: v for k, v in data.items() if k not in ("turn_id", "seq")}
    if event.event == "delta":
        return f"[{event.id}] delta {shown['text']!r}"
    if event.event == "references":
        counts = json.dumps(shown["counts"], ensure_ascii=False)
        return f"[{event.id}] references {len(shown['citations'])} citations, counts={counts}"
    return f"[{event.id}] {event.event} {json.dumps(shown, ensure_ascii=False)[:300]}"


def final_answer(events: list[SseEvent]) -> str:
    return "".join(e.json()["text"] for e in events if e.event == "delta")
