"""Safety filters over real HTTP: a ``beacon serve`` process configured with the example
filters (``harness/example_filters.py``, named by ``BEACON_FILTERS``) beside the stack's
stubs, whose request logs say what the blocked turns reached. A blocked question reaches
no model and no upstream; a blocked answer is neither streamed nor saved; each turn ends
in one ``error`` (code ``blocked``) after a ``blocked`` notice, and the store's audit
names the filter and the stage."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from beacon.store.crypto import new_key_slot
from beacon.store.sqlite import SqliteStore
from harness.chat_process import chat_with_open_store
from harness.example_filters import ANSWER_MARKER, BOTH, QUESTION_MARKER
from harness.stack import Stack, beacon_executable
from harness.turn_streams import auth, events, frames_of

pytestmark = pytest.mark.e2e
PHOTOS = "Photos of missing hard hats in Harbor Tower"
# Registered with the stub model (scripted:narrates) for this question only.
NARRATED_QUESTION = "Photos of missing hard hats in Harbor Tower, for the filter check"
NARRATION = f"Here are the {ANSWER_MARKER} photos from Harbor Tower."


@pytest.fixture(scope="module")
def filtered(
    stack: Stack, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[str, SqliteStore]]:
    data = tmp_path_factory.mktemp("filtered")
    with chat_with_open_store(stack, data, "filt1", BEACON_FILTERS=BOTH) as running:
        yield running


def _turn(chat: str, token: str, message: str, scenario: str | None = None, **body: str) -> bytes:
    reply = httpx.post(
        f"{chat}/v1/turns",
        json={"mode": "single", "message": message, **body},
        headers=auth(token, scenario) | {"Accept": "text/event-stream"},
        timeout=120,
    )
    assert reply.status_code == 200, reply.text
    return reply.content


def _requests(origin: str, turn_id: str) -> list[dict[str, Any]]:
    entries = httpx.get(f"{origin}/dev/requests", timeout=10).json()["requests"]
    return [e for e in entries if e["turn"] == turn_id]


def test_a_blocked_question_reaches_no_model_and_no_upstream(
    stack: Stack, filtered: tuple[str, SqliteStore]
) -> None:
    chat, store = filtered
    token = stack.token()
    raw = _turn(chat, token, f"{PHOTOS} ({QUESTION_MARKER})", locale="de")
    frames = frames_of(raw)
    turn_id = frames[0].json()["turn_id"]
    assert [f.event for f in frames] == ["start", "notice", "error"]
    notice, error = frames[1].json(), frames[2].json()
    assert notice["kind"] == "blocked"
    assert "Sicherheitsfilter" in notice["text"]  # the turn's locale, code's own words
    assert QUESTION_MARKER not in notice["text"]
    assert (error["code"], error["message"]) == (
        "blocked",
        "a safety filter stopped this turn's input",
    )
    assert _requests(stack.llm_url.removesuffix("/v1"), turn_id) == []
    assert _requests(stack.mcp_origin, turn_id) == []
    assert store.narration_drops(turn_id) == [
        {
            "kind": "filter_blocked",
            "rule": "input:harness.example_filters:MARKED_QUESTIONS",
            "token": "marked_question",
        }
    ]
    assert events(chat, token, turn_id).content == raw


def test_a_blocked_answer_publishes_none_of_it(
    stack: Stack, filtered: tuple[str, SqliteStore]
) -> None:
    chat, store = filtered
    token = stack.token()
    llm = stack.llm_url.removesuffix("/v1")
    registered = httpx.post(
        f"{llm}/dev/narrations",
        json={"question": NARRATED_QUESTION, "text": NARRATION},
        timeout=10,
    )
    assert registered.status_code == 201, registered.text
    try:
        raw = _turn(chat, token, NARRATED_QUESTION, scenario="model-narrates", locale="en")
    finally:
        httpx.delete(f"{llm}/dev/narrations", params={"question": NARRATED_QUESTION}, timeout=10)
    frames = frames_of(raw)
    turn_id = frames[0].json()["turn_id"]
    kinds = [f.event for f in frames]
    # The turn ran (the model wrote the answer), but nothing of the answer went out.
    assert "references" in kinds and "delta" not in kinds and "done" not in kinds
    assert kinds[-2:] == ["notice", "error"]
    assert frames[-2].json()["kind"] == "blocked"
    assert frames[-2].json()["text"] == (
        "The answer was stopped by a safety filter, so none of it is shown. "
        "Rephrase the question or ask your administrator."
    )
    assert frames[-1].json()["code"] == "blocked"
    assert ANSWER_MARKER.encode() not in raw
    assert [e["turn"] for e in _requests(llm, turn_id)]  # the model was asked
    assert store.answer(turn_id) is None
    assert {
        "kind": "filter_blocked",
        "rule": "output:harness.example_filters:MARKED_ANSWERS",
        "token": "marked_answer",
    } in store.narration_drops(turn_id)
    # The replay is what was streamed, frame for frame: nothing was saved beside it.
    assert events(chat, token, turn_id).content == raw


def test_a_question_no_filter_blocks_is_answered_as_before(
    stack: Stack, filtered: tuple[str, SqliteStore]
) -> None:
    chat, _ = filtered
    frames = frames_of(_turn(chat, stack.token(), PHOTOS))
    assert frames[-1].event == "done"
    assert all(f.json().get("kind") != "blocked" for f in frames if f.event == "notice")


def test_a_filter_name_that_does_not_resolve_is_a_one_line_start_error(tmp_path: Path) -> None:
    env = {
        "PATH": "/usr/bin:/bin",
        "BEACON_MCP_URL": "http://127.0.0.1:9/mcp",
        "BEACON_LLM_BASE_URL": "http://127.0.0.1:9/v1",
        "BEACON_JWKS": "http://127.0.0.1:9/jwks.json",
        "BEACON_DB": str(tmp_path / "beacon.sqlite3"),
        "BEACON_KEYS": new_key_slot("bad1"),
        "BEACON_FILTERS": "harness.example_filters:NO_SUCH_FILTER",
    }
    done = subprocess.run(
        [beacon_executable(), "serve", "--port", "0"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        "beacon serve: BEACON_FILTERS: 'harness.example_filters' has no 'NO_SUCH_FILTER': "
        "name an object it defines"
    ]
