"""Every scripted model behaviour and upstream fault ends in exactly its terminal.

Each row runs a real turn over HTTP against the stack, selected by the
`X-Beacon-Scenario` header, and counts the physical LLM requests at the stub.
Nothing may be published that was not saved: the live frames must equal the
stored frames byte for byte, and an error turn publishes no narration.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from beacon.cli.ask import run_turn
from beacon.wire.sse import SseEvent
from harness.stack import Stack, running_stack

pytestmark = pytest.mark.e2e
PHOTOS = "Photos of missing hard hats in Harbor Tower"
DEADLINE_S = "3"


@pytest.fixture(scope="module")
def short_deadline_stack() -> Iterator[Stack]:
    # A 3 s answer deadline (instead of 120 s) so the stall row ends quickly.
    env = {
        "BEACON_ANSWER_DEADLINE_S": DEADLINE_S,
        "BEACON_STUB_STALL_S": "30",
        "BEACON_HEARTBEAT_S": "1",
    }
    with running_stack("default", extra_env=env) as stack:
        yield stack


def llm_requests(stack: Stack, turn_id: str) -> list[dict[str, Any]]:
    origin = stack.llm_url.removesuffix("/v1")
    entries = httpx.get(f"{origin}/dev/requests", timeout=10).json()["requests"]
    return [e for e in entries if e["turn"] == turn_id]


def mcp_requests(stack: Stack, turn_id: str) -> list[dict[str, Any]]:
    entries = httpx.get(f"{stack.mcp_origin}/dev/requests", timeout=10).json()["requests"]
    return [e for e in entries if e["turn"] == turn_id]


def replay(stack: Stack, token: str, turn_id: str, after: int = 0) -> bytes:
    response = httpx.get(
        f"{stack.chat_url}/v1/turns/{turn_id}/events",
        params={"after": after},
        headers={"Authorization": f"Bearer {token}"},
        timeout=30,
    )
    assert response.status_code == 200
    return response.content


def encode(events: list[SseEvent]) -> bytes:
    return b"".join(f"event: {e.event}\nid: {e.id}\ndata: {e.data}\n\n".encode() for e in events)


ROWS = [
    # scenario, terminal, error code, LLM requests (plans + answers), notice kinds. The stub
    # planner writes READY beside calls that are all a question needs: one plan, then the
    # answer (a repair is one answer more).
    pytest.param("default", "done", None, 2, ["disclosure"], id="well-behaved"),
    pytest.param(
        "model-dsml", "error", "answer_rejected", 3, ["disclosure"], id="dsml-rejected-twice"
    ),
    pytest.param("model-dsml-once", "done", None, 3, ["disclosure"], id="dsml-repaired-once"),
    pytest.param(
        "model-narrated-dsml",
        "error",
        "answer_rejected",
        3,
        ["disclosure"],
        id="narration-then-bare-dsml-rejected",
    ),
    pytest.param(
        "model-dsml-fenced", "done", None, 2, ["disclosure"], id="fenced-example-published"
    ),
    # The overclaim is dropped and audited: suites/e2e/test_model_overclaims.py reads the row.
    pytest.param(
        "model-overclaims", "done", None, 2, ["disclosure"], id="overclaim-dropped-slots-kept"
    ),
    pytest.param("model-empty", "error", "answer_rejected", 3, ["disclosure"], id="empty-twice"),
    pytest.param(
        "model-content-filter", "error", "answer_filtered", 2, ["disclosure"], id="content-filter"
    ),
    pytest.param(
        "model-unknown-finish", "error", "answer_unfinished", 2, ["disclosure"], id="unknown-finish"
    ),
    pytest.param(
        "model-stall", "error", "answer_deadline", 2, ["disclosure"], id="stall-past-deadline"
    ),
    pytest.param("model-429", "error", "llm_refused", 1, [], id="http-429-not-retried"),
    pytest.param("model-401", "error", "llm_refused", 1, [], id="http-401-not-retried"),
    pytest.param("model-402", "error", "llm_refused", 1, [], id="http-402-not-retried"),
    pytest.param(
        "budget-exhaust",
        "done",
        None,
        7,
        ["disclosure", "disclosure"],
        id="budget-exhausted-six-plans-one-answer",
    ),
    pytest.param("inband-502", "done", None, 2, ["failure"], id="disguised-502"),
    # These two bend every tool, the context call too: with no project directory
    # the planner has nothing to call, and the answer says so.
    pytest.param("auth-empty", "done", None, 2, ["failure"], id="braces-after-401"),
    pytest.param("prose-reply", "done", None, 2, ["failure"], id="prose-reply"),
    pytest.param("legacy-upstream", "done", None, 2, [], id="legacy-no-accounting"),
    pytest.param("zero-hits", "done", None, 2, ["absence"], id="zero-hits-from-the-start"),
    pytest.param("upstream-401", "error", "upstream_auth", 0, [], id="upstream-refuses-bearer"),
    pytest.param(
        "jsonrpc-error", "error", "upstream_protocol", 0, [], id="jsonrpc-error-at-context"
    ),
]


@pytest.mark.parametrize(("scenario", "terminal", "code", "llm_calls", "notices"), ROWS)
def test_each_behaviour_ends_in_its_one_terminal(
    short_deadline_stack: Stack,
    scenario: str,
    terminal: str,
    code: str | None,
    llm_calls: int,
    notices: list[str],
) -> None:
    stack = short_deadline_stack
    token = stack.token()
    events = run_turn(stack.chat_url, {"message": PHOTOS}, token=token, scenario=scenario)
    kinds = [e.event for e in events]
    assert kinds[0] == "start" and kinds.count("start") == 1
    assert [k for k in kinds if k in ("done", "error")] == [terminal] and kinds[-1] == terminal
    turn_id = events[0].json()["turn_id"]
    if code is not None:
        assert events[-1].json()["code"] == code
        assert "delta" not in kinds  # nothing of an unsaved answer was published
    else:
        answer = "".join(e.json()["text"] for e in events if e.event == "delta")
        assert answer and answer == events[-1].json()["answer"]
    assert len(llm_requests(stack, turn_id)) == llm_calls
    assert [e.json()["kind"] for e in events if e.event == "notice"] == notices
    assert replay(stack, token, turn_id) == encode(events)  # published == saved


def test_the_seventh_tool_bearing_request_never_goes_out(short_deadline_stack: Stack) -> None:
    stack = short_deadline_stack
    events = run_turn(
        stack.chat_url, {"message": PHOTOS}, token=stack.token(), scenario="budget-exhaust"
    )
    turn_id = events[0].json()["turn_id"]
    requests = llm_requests(stack, turn_id)
    assert [r["tools"] for r in requests] == [True] * 6 + [False]
    # The answer call carries evidence as data: no tool or assistant protocol roles.
    assert set(requests[-1]["roles"]) <= {"system", "user"}
    assert len([e for e in events if e.event == "plan" and e.json()["purpose"] == "gather"]) == 6
    assert len(mcp_requests(stack, turn_id)) == 1 + 6  # the context call, then one per round


def test_a_repair_carries_the_same_evidence_without_the_rejected_text(
    short_deadline_stack: Stack,
) -> None:
    stack = short_deadline_stack
    events = run_turn(
        stack.chat_url, {"message": PHOTOS}, token=stack.token(), scenario="model-dsml-once"
    )
    first, repair = [r for r in llm_requests(stack, events[0].json()["turn_id"]) if not r["tools"]]
    assert repair["messages"] == first["messages"] + 1  # one repair instruction, nothing else
    assert set(repair["roles"]) <= {"system", "user"}


def test_a_fenced_example_is_published_unchanged(short_deadline_stack: Stack) -> None:
    stack = short_deadline_stack
    events = run_turn(
        stack.chat_url, {"message": PHOTOS}, token=stack.token(), scenario="model-dsml-fenced"
    )
    answer = events[-1].json()["answer"]
    assert "```\n<｜DSML｜function_calls>" in answer and answer.startswith("Nothing was called")


def test_a_waiting_turn_sends_heartbeats_until_its_terminal(short_deadline_stack: Stack) -> None:
    stack = short_deadline_stack
    events = run_turn(
        stack.chat_url, {"message": PHOTOS}, token=stack.token(), scenario="model-stall"
    )
    kinds = [e.event for e in events]
    assert kinds.count("heartbeat") >= 1 and kinds[-1] == "error"
    assert kinds.index("heartbeat") > kinds.index("references")
