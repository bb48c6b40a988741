"""The one real path: three servers as processes, turns over real HTTP.

Every expected figure is computed here from the corpus records, independently
of the SQL the stub runs.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import httpx
import pytest

from beacon.cli.ask import run_turn
from beacon.cli.up import free_port
from beacon.wire.sse import SseEvent
from harness.chat_process import chat_env, running_chat
from harness.stack import Stack
from stub_server.corpus import build_corpus

pytestmark = pytest.mark.e2e
HARBOR = "prj-harbor-tower"


def ask(stack: Stack, token: str, question: str, **extra: object) -> list[SseEvent]:
    return run_turn(stack.chat_url, {"mode": "single", "message": question, **extra}, token=token)


def assert_one_start_one_terminal(events: list[SseEvent]) -> None:
    kinds = [e.event for e in events]
    assert kinds[0] == "start" and kinds.count("start") == 1, kinds
    terminals = [k for k in kinds if k in ("done", "error")]
    assert len(terminals) == 1 and kinds[-1] == terminals[0], kinds
    seqs = [int(e.id or 0) for e in events]
    assert seqs == list(range(1, len(events) + 1)), seqs
    turn_ids = {e.json()["turn_id"] for e in events}
    assert len(turn_ids) == 1


def frames(events: list[SseEvent], kind: str) -> list[dict[str, object]]:
    return [e.json() for e in events if e.event == kind]


def prose(events: list[SseEvent]) -> str:
    return "".join(str(d["text"]) for d in frames(events, "delta"))


def references(events: list[SseEvent]) -> dict[str, object]:
    (refs,) = frames(events, "references")
    return refs


def test_how_many_open_safety_findings_is_exact_and_said_once(stack: Stack, token: str) -> None:
    expected = sum(
        1
        for a in build_corpus().annotations
        if a.project_id == HARBOR
        and a.level_number == 3
        and a.kind == "safety"
        and a.status == "open"
    )
    events = ask(stack, token, "How many open safety findings are on level 3 of Harbor Tower?")
    assert_one_start_one_terminal(events)
    assert events[-1].event == "done"
    counts = references(events)["counts"]
    assert isinstance(counts, list)
    assert counts[0]["grade"] == "EXACT" and counts[0]["total"] == expected
    text = prose(events)
    assert len(re.findall(rf"(?<![\d,]){expected}(?![\d,])", text)) == 1, text


def test_listing_all_panoramas_is_a_saturated_lower_bound(stack: Stack, token: str) -> None:
    assert sum(1 for c in build_corpus().captures if c.project_id == HARBOR) > 3000
    events = ask(stack, token, "List all panoramas in Harbor Tower")
    assert_one_start_one_terminal(events)
    (count,) = references(events)["counts"]  # type: ignore[misc]
    assert count["grade"] == "LOWER_BOUND" and count["total"] == 3000
    assert count["has_more"] is True and count["total_is_lower_bound"] is True
    text = prose(events)
    assert "exactly" not in text.lower()
    mentions = list(re.finditer(r"3,?000", text))
    assert mentions, text
    assert all(text[: m.start()].endswith("at least ") for m in mentions), text


def test_upstream_said_has_more_false_for_the_saturated_page(stack: Stack, token: str) -> None:
    # The override is only meaningful if upstream really sent the false signal.
    import asyncio

    from beacon.upstream.mcp_client import connect

    async def call() -> dict[str, object]:
        async with connect(stack.mcp_url, bearer=token) as upstream:
            outcome = await upstream.call_tool(
                "query_data",
                {"project_id": HARBOR, "question": "List all panoramas in Harbor Tower"},
            )
            return outcome.result

    structured = asyncio.run(call())["structuredContent"]
    assert isinstance(structured, dict)
    assert structured["total"] == 3000 and structured["has_more"] is False


def test_photo_search_is_a_lower_bound(stack: Stack, token: str) -> None:
    events = ask(stack, token, "Photos of missing hard hats in Harbor Tower")
    assert_one_start_one_terminal(events)
    refs = references(events)
    (count,) = refs["counts"]  # type: ignore[misc]
    assert count["grade"] == "LOWER_BOUND" and count["total"] > 0
    cards = refs["citations"]
    assert isinstance(cards, list) and 0 < len(cards) <= 10
    assert count["displayed"] == len(cards)
    assert f"at least {count['total']}" in prose(events)


def test_legacy_upstream_count_is_unknown_and_no_numeral_is_said(
    legacy_stack: Stack,
) -> None:
    events = ask(legacy_stack, legacy_stack.token(), "Photos of missing hard hats in Harbor Tower")
    assert_one_start_one_terminal(events)
    assert events[-1].event == "done"
    (count,) = references(events)["counts"]  # type: ignore[misc]
    assert count["grade"] == "UNKNOWN" and count["total"] is None
    text = prose(events)
    assert text and not re.search(r"\d", text), text


def test_stub_mcp_answers_401_without_a_bearer(stack: Stack) -> None:
    response = httpx.post(
        stack.mcp_url,
        json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
        headers={"Accept": "application/json, text/event-stream"},
        timeout=10,
    )
    assert response.status_code == 401


def test_a_bearer_the_upstream_rejects_ends_in_one_auth_error(stack: Stack, token: str) -> None:
    events = run_turn(
        stack.chat_url,
        {"message": "List all panoramas in Harbor Tower"},
        token=token,
        scenario="upstream-401",
    )
    assert_one_start_one_terminal(events)
    assert events[-1].event == "error"
    assert events[-1].json()["code"] == "upstream_auth"
    assert not frames(events, "done") and not frames(events, "delta")


@pytest.mark.parametrize(
    ("headers", "code"),
    [
        pytest.param({}, "auth_missing_token", id="no-bearer"),
        pytest.param({"Authorization": "Bearer not-a-jwt"}, "auth_malformed", id="garbage"),
        pytest.param({"Authorization": "Basic dXNlcjpwYXNz"}, "auth_malformed", id="basic"),
    ],
)
def test_a_turn_without_a_verified_bearer_is_refused_before_streaming(
    stack: Stack, headers: dict[str, str], code: str
) -> None:
    response = httpx.post(
        f"{stack.chat_url}/v1/turns", json={"message": "hi"}, headers=headers, timeout=10
    )
    assert response.status_code == 401
    assert response.json()["error"]["code"] == code
    assert response.headers["WWW-Authenticate"].startswith("Bearer")


@pytest.mark.parametrize(
    ("body", "field"),
    [
        pytest.param({"message": "hi", "colour": "red"}, "colour", id="unknown-field"),
        pytest.param({"mode": "chat"}, "message", id="missing-message"),
        pytest.param({"message": "hi", "mode": "batch"}, "mode", id="bad-mode"),
        pytest.param({"message": ""}, "message", id="empty-message"),
    ],
)
def test_a_bad_turn_body_is_a_422_naming_the_field(
    stack: Stack, token: str, body: dict[str, object], field: str
) -> None:
    response = httpx.post(
        f"{stack.chat_url}/v1/turns",
        json=body,
        headers={"Authorization": f"Bearer {token}"},
        timeout=10,
    )
    assert response.status_code == 422
    locations = [detail["loc"] for detail in response.json()["detail"]]
    assert any(field in loc for loc in locations), locations


def test_a_body_that_is_not_json_is_a_422(stack: Stack, token: str) -> None:
    response = httpx.post(
        f"{stack.chat_url}/v1/turns",
        content=b"{not json",
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
        timeout=10,
    )
    assert response.status_code == 422


@pytest.fixture(scope="module")
def chat_with_dead_upstream(
    stack: Stack, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    """A chat server whose MCP upstream is a port nobody listens on."""
    dead = f"http://127.0.0.1:{free_port()}/mcp"
    env = chat_env(stack, tmp_path_factory.mktemp("dead"), BEACON_MCP_URL=dead)
    with running_chat(env) as url:
        yield url


def test_an_upstream_that_is_down_ends_in_one_error_frame(
    chat_with_dead_upstream: str, token: str
) -> None:
    events = run_turn(
        chat_with_dead_upstream, {"message": "List all panoramas in Harbor Tower"}, token=token
    )
    assert_one_start_one_terminal(events)
    assert events[-1].event == "error"
    assert events[-1].json()["code"] == "upstream_unavailable"


def test_a_scenario_the_stub_does_not_know_ends_in_one_error_frame(
    stack: Stack, token: str
) -> None:
    events = run_turn(
        stack.chat_url,
        {"message": "List all panoramas in Harbor Tower"},
        token=token,
        scenario="no-such-scenario",
    )
    assert_one_start_one_terminal(events)
    error = events[-1].json()
    assert events[-1].event == "error" and error["code"] == "upstream_protocol"
    assert "HTTP 400" in error["message"]
