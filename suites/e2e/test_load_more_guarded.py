"""Load-more decides every page for the token as it stands now, one call per slot
at a time (real HTTP, issue 15): a downgraded token gets a denial, never the
cards the turn already holds; eight calls at once get eight different pages. A
replay is decided the same way — also in the moment after a turn's terminal while
its process still holds it live (its cleanup running: the upstream session's close)."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest

from beacon.cli.ask import run_turn
from beacon.server.app import create_app
from beacon.server.hub import LiveTurn
from beacon.server.settings import settings_from_env
from harness.chat_process import chat_env
from harness.inproc import serving
from harness.stack import Stack

pytestmark = pytest.mark.e2e
# A saturated analytics query: its first page is in hand, ten cards shown.
PANORAMAS = "List all panoramas in Harbor Tower"


def saturated_turn(stack: Stack, token: str) -> tuple[str, dict[str, Any]]:
    events = run_turn(stack.chat_url, {"message": PANORAMAS}, token=token)
    assert events[-1].event == "done"
    (references,) = [e.json() for e in events if e.event == "references"]
    (count,) = references["counts"]
    assert count["more"] is True and count["displayed"] == 10
    return events[0].json()["turn_id"], count


def upstream_calls(stack: Stack, turn_id: str) -> int:
    log = httpx.get(f"{stack.mcp_origin}/dev/requests", timeout=10).json()["requests"]
    return sum(1 for entry in log if entry["turn"] == turn_id)


def more(stack: Stack, token: str, turn_id: str, slot: str) -> httpx.Response:
    return httpx.post(
        f"{stack.chat_url}/v1/turns/{turn_id}/more",
        json={"slot": slot},
        headers={"Authorization": f"Bearer {token}"},
        timeout=60,
    )


def test_a_downgraded_token_is_denied_the_cards_the_turn_already_holds(stack: Stack) -> None:
    turn_id, count = saturated_turn(stack, stack.token(sub="downgraded"))
    calls = upstream_calls(stack, turn_id)
    essentials = stack.token(sub="downgraded", tiers=("essentials",))
    denied = more(stack, essentials, turn_id, count["slot"])
    assert denied.status_code == 403
    assert denied.json()["error"]["code"] == "denied"
    assert "Analytics" in denied.json()["error"]["message"]  # the denial copy, in en
    assert "citations" not in denied.json()
    # The cards were there to take: the same user at full tier gets the next ten
    # from the page in hand, with no upstream call.
    granted = more(stack, stack.token(sub="downgraded"), turn_id, count["slot"])
    assert granted.status_code == 200 and len(granted.json()["citations"]) == 10
    assert upstream_calls(stack, turn_id) == calls


async def _at_once(stack: Stack, token: str, turn_id: str, slot: str, n: int) -> list[Any]:
    async with httpx.AsyncClient(timeout=120) as client:
        replies = await asyncio.gather(
            *(
                client.post(
                    f"{stack.chat_url}/v1/turns/{turn_id}/more",
                    json={"slot": slot},
                    headers={"Authorization": f"Bearer {token}"},
                )
                for _ in range(n)
            )
        )
    assert [r.status_code for r in replies] == [200] * n
    return [r.json() for r in replies]


def test_concurrent_load_mores_on_one_slot_each_get_the_next_page(stack: Stack) -> None:
    token = stack.token(sub="eager")
    turn_id, count = saturated_turn(stack, token)
    replies = asyncio.run(_at_once(stack, token, turn_id, count["slot"], 8))
    ids = [c["id"] for reply in replies for c in reply["citations"]]
    assert len(ids) == 80 and len(set(ids)) == 80  # no page served twice
    displayed = sorted(reply["count"]["displayed"] for reply in replies)
    assert displayed == [20, 30, 40, 50, 60, 70, 80, 90]


def test_a_downgraded_token_replays_no_turn_and_reads_no_answer_it_can_no_longer_see(
    stack: Stack,
) -> None:
    full = stack.token(sub="relapsed")
    events = run_turn(stack.chat_url, {"message": PANORAMAS, "mode": "chat"}, token=full)
    assert events[-1].event == "done"
    start = events[0].json()
    turn_id, session_id = start["turn_id"], start["session_id"]
    answer = events[-1].json()["answer"]

    def read(token: str) -> tuple[httpx.Response, httpx.Response]:
        headers = {"Authorization": f"Bearer {token}"}
        replay = httpx.get(
            f"{stack.chat_url}/v1/turns/{turn_id}/events", headers=headers, timeout=60
        )
        session = httpx.get(
            f"{stack.chat_url}/v1/sessions/{session_id}", headers=headers, timeout=60
        )
        return replay, session

    replay, session = read(stack.token(sub="relapsed", tiers=("essentials",)))
    assert replay.status_code == 403 and replay.json()["error"]["code"] == "denied"
    assert "Analytics" in replay.json()["error"]["message"]
    assert "event:" not in replay.text  # not one frame of the turn
    messages = session.json()["messages"]
    assert [m["role"] for m in messages] == ["user", "assistant"]  # order and count kept
    assert messages[0]["text"] == PANORAMAS  # the question is the caller's own
    assert "Analytics" in messages[1]["text"] and messages[1]["text"] != answer
    replay, session = read(full)  # the same user at full tier reads it all again
    assert replay.status_code == 200 and "event: done" in replay.text
    assert session.json()["messages"][1]["text"] == answer


@pytest.fixture
def held_cleanup(
    stack: Stack, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[tuple[str, Any, threading.Event]]:
    """A chat server in this process whose turns, once their terminal is out, stay
    live until ``release`` is set: the window a busy machine stretches (the turn's
    cleanup, its upstream session's close, still running)."""
    release = threading.Event()
    close = LiveTurn.close

    async def held(live: LiveTurn) -> None:
        await anyio.to_thread.run_sync(release.wait, 60)
        await close(live)

    monkeypatch.setattr(LiveTurn, "close", held)
    app = create_app(settings_from_env(chat_env(stack, tmp_path)))
    with serving(lambda _origin: app) as origin:
        try:
            yield origin, app, release
        finally:
            release.set()


def test_a_turn_still_held_live_after_its_terminal_is_decided_for_the_token_as_it_stands(
    stack: Stack, held_cleanup: tuple[str, Any, threading.Event]
) -> None:
    origin, app, release = held_cleanup
    full = stack.token(sub="lingering")
    events = run_turn(origin, {"message": PANORAMAS}, token=full)
    assert events[-1].event == "done"
    turn_id = events[0].json()["turn_id"]
    assert app.state.context.hub.get(turn_id) is not None  # ended, still live here
    url = f"{origin}/v1/turns/{turn_id}/events"
    downgraded = stack.token(sub="lingering", tiers=("essentials",))
    replay = httpx.get(url, headers={"Authorization": f"Bearer {downgraded}"}, timeout=60)
    assert replay.status_code == 403 and replay.json()["error"]["code"] == "denied"
    assert "event:" not in replay.text
    # Decided by what it used (analytics), not by all its starter was granted.
    for reader in (full, stack.token(sub="lingering", tiers=("essentials", "only:analytics"))):
        replay = httpx.get(url, headers={"Authorization": f"Bearer {reader}"}, timeout=60)
        assert replay.status_code == 200 and "event: done" in replay.text
    release.set()
