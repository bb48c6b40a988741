"""``beacon ask``: one turn over HTTP, frames printed as they arrive."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import httpx

from beacon.wire.connections import client_tls
from beacon.wire.headers import SCENARIO_HEADER
from beacon.wire.sse import SseEvent, parse_sse

TURN_TIMEOUT_S = 180.0


class AskError(RuntimeError):
    """A one-line reason the command could not do its work: a server that could not be
    reached (bad URL, connection refused, timeout), refused the request, or named no such
    scenario."""


class Unreachable(AskError):
    """The server named could not be reached: no connection, a bad URL, no answer in time."""


class TokenRefused(AskError):
    """The chat server answered 401: the bearer is malformed, expired or signed by another key."""


class UnknownScenario(AskError):
    """The stub names no such scenario: a bad option value (usage), like ``up``'s."""


@contextmanager
def reaching(what: str, url: str) -> Iterator[None]:
    """Turns the HTTP client's failures to reach ``url`` into an ``AskError`` of one line."""
    try:
        yield
    except httpx.UnsupportedProtocol as exc:
        raise Unreachable(f"{what} URL {url!r} is not a usable http:// or https:// URL") from exc
    except httpx.InvalidURL as exc:
        raise Unreachable(f"{what} URL {url!r} is not a valid URL: {exc}") from exc
    except httpx.TimeoutException as exc:
        raise Unreachable(f"{what} at {url} did not answer in time ({type(exc).__name__})") from exc
    except (httpx.HTTPError, OSError) as exc:
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise Unreachable(
            f"cannot reach the {what} at {url}: {reason} (is `beacon up` running? give its URL)"
        ) from exc


def mint_token(
    mcp_origin: str, *, tier: str, sub: str = "dev-user", questions_per_day: int | None = None
) -> str:
    wanted: dict[str, object] = {"sub": sub, "tiers": [tier]}
    if questions_per_day is not None:  # the chat server's question quota claim
        wanted["questions_per_day"] = questions_per_day
    return _minted(mcp_origin, wanted)


def mint_service_token(mcp_origin: str, *, scopes: list[str], sub: str = "dev-service") -> str:
    """A service token (README "Identity"): scopes, no tiers, no user's data."""
    return _minted(mcp_origin, {"sub": sub, "typ": "service", "scopes": scopes})


def _minted(mcp_origin: str, wanted: dict[str, object]) -> str:
    with reaching("stub MCP server", mcp_origin):
        response = httpx.post(
            f"{mcp_origin}/dev/tokens", json=wanted, timeout=10, verify=client_tls()
        )
    if response.status_code != 200:
        raise AskError(f"token endpoint answered {response.status_code}: {response.text[:200]}")
    try:
        token = response.json().get("token")
    except ValueError as exc:
        raise AskError(
            f"{mcp_origin}/dev/tokens answered no JSON: is it a stub MCP server?"
        ) from exc
    if not isinstance(token, str):
        raise AskError("token endpoint answered without a token")
    return token


def check_scenario(mcp_url: str, scenario: str, token: str) -> None:
    """Asks the stub whether it knows ``scenario``; an ``AskError`` of one line if not.

    The stub answers 400 ``unknown_scenario`` to any MCP request naming a scenario it has
    no file for (the product does not know the stub's scenarios; ``beacon stub-mcp --help``
    lists them).
    """
    headers = {
        "Authorization": f"Bearer {token}",
        SCENARIO_HEADER: scenario,
        "Accept": "application/json",
    }
    with reaching("stub MCP server", mcp_url):
        response = httpx.get(mcp_url, headers=headers, timeout=10, verify=client_tls())
    try:
        unknown = response.status_code == 400 and (
            response.json().get("error") == "unknown_scenario"
        )
    except ValueError:
        unknown = False
    if unknown:
        raise UnknownScenario(
            f"unknown scenario {scenario!r} (`beacon stub-mcp --help` lists the scenarios)"
        )


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
    with (
        reaching("chat server", chat_url),
        httpx.stream(
            "POST",
            f"{chat_url}/v1/turns",
            json=body,
            headers=headers,
            timeout=httpx.Timeout(TURN_TIMEOUT_S, connect=5.0),
            verify=client_tls(),
        ) as response,
    ):
        if response.status_code != 200:
            text = " ".join(response.read().decode(errors="replace").split())
            if response.status_code == 401:
                raise TokenRefused(
                    f"the chat server refused the token ({_error_code(text)}): mint one with "
                    "`beacon token --mcp MCP_URL` or leave --token out"
                )
            raise AskError(f"the chat server answered HTTP {response.status_code}: {text[:300]}")
        for event in parse_sse(response.iter_lines()):
            events.append(event)
            if on_event is not None:
                on_event(event)
    return events


def _error_code(body: str) -> str:
    """The server's error code from a JSON error body, never the body itself."""
    try:
        error = json.loads(body).get("error")
        code = error.get("code") if isinstance(error, dict) else error
    except (ValueError, AttributeError):
        code = None
    return code if isinstance(code, str) and code.isidentifier() else "HTTP 401"


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


def turn_error(events: list[SseEvent]) -> str:
    """Why a turn ended without ``done``, in one line."""
    if not events or events[-1].event != "error":
        return "the stream ended without a terminal frame"
    data = events[-1].json()
    return f"error {data.get('code', '?')}: {data.get('message', '')}"
