"""Scripted models of the installed stub LLM, streamed by the official ``openai`` client.

Each misbehaviour of SPEC §2.2 is reachable two ways: by model id
(``scripted:<name>``) and by a scenario whose ``model:`` names it, while the
request still asks for ``beacon-rules`` (as the chat server always does).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import httpx
import openai
import pytest

from harness.stub_process import StubProcess, running_stub
from stub_server.scenarios import available_scenarios, load_scenario
from stub_server.scripted import DSML_BLOCK, UNKNOWN_FINISH, resolve

STALL_S = 20.0  # the process stalls this long; the client gives up long before
CLIENT_DEADLINE_S = 0.5
DIRECTORY = (
    'Turn context (data):\n```json\n{"projects": [{"id": "prj-harbor-tower", '
    '"name": "Harbor Tower"}], "view_context": {}}\n```'
)
_FACTS = {
    "tool": "search_photos",
    "project_id": "prj-harbor-tower",
    "subject": "missing hard hats",
    "aggregate": False,
}
ANCHORS = {
    "anchors": [
        {"kind": "lower_bound", "slot": "c1", **_FACTS},
        {"kind": "shown_subset", "slot": "c1", **_FACTS},
    ]
}
QUESTION = "Photos of missing hard hats in Harbor Tower"
TOOLS = [
    {"type": "function", "function": {"name": n, "parameters": {"type": "object"}}}
    for n in ("query_data", "search_photos", "list_projects")
]


@dataclass(frozen=True)
class Streamed:
    content: str
    tool_names: list[str]
    finish: str | None


@pytest.fixture(scope="module")
def llm() -> Iterator[StubProcess]:
    with running_stub("llm", env={"BEACON_STUB_STALL_S": str(STALL_S)}) as running:
        yield running


@pytest.fixture(scope="module")
def client(llm: StubProcess) -> Iterator[openai.OpenAI]:
    peer = openai.OpenAI(base_url=llm.llm_base_url, api_key="local", max_retries=0, timeout=10)
    yield peer
    peer.close()


def answer_messages() -> list[dict[str, str]]:
    return [
        {"role": "system", "content": DIRECTORY},
        {"role": "user", "content": QUESTION},
        {"role": "system", "content": "```json\n" + json.dumps(ANCHORS) + "\n```"},
    ]


def stream(client: openai.OpenAI, *, scenario: str | None = None, **kwargs: Any) -> Streamed:
    kwargs.setdefault("model", "beacon-rules")
    kwargs.setdefault("messages", answer_messages())
    headers = {"X-Beacon-Scenario": scenario} if scenario else None
    content, names, finish = "", [], None
    with client.chat.completions.create(stream=True, extra_headers=headers, **kwargs) as chunks:
        for chunk in chunks:
            for choice in chunk.choices:
                content += choice.delta.content or ""
                names += [c.function.name for c in choice.delta.tool_calls or [] if c.function]
                finish = choice.finish_reason or finish
    return Streamed(content, [n for n in names if n], finish)


def test_every_scenario_names_a_model_the_stub_serves() -> None:
    for name in available_scenarios():
        resolve(load_scenario(name).model)  # KeyError if not


@pytest.mark.parametrize(
    ("scenario", "model"),
    [
        pytest.param("model-dsml", None, id="dsml-by-scenario"),
        pytest.param(None, "scripted:dsml", id="dsml-by-model-id"),
    ],
)
def test_dsml_arrives_as_content_with_a_stop_and_no_structured_calls(
    client: openai.OpenAI, scenario: str | None, model: str | None
) -> None:
    got = stream(client, scenario=scenario, model=model or "beacon-rules")
    assert got == Streamed(DSML_BLOCK, [], "stop")
    # The measured markup, written out here rather than imported from the stub.
    assert got.content.startswith('<｜DSML｜function_calls>\n<｜DSML｜invoke name="')
    assert got.content.endswith("</｜DSML｜invoke>\n</｜DSML｜function_calls>")


@pytest.mark.parametrize(
    ("scenario", "starts", "contains", "finish"),
    [
        pytest.param(
            "model-narrated-dsml", "Let me check", "\n\n<｜DSML｜function_calls>", "stop",
            id="narration-then-dsml",
        ),
        pytest.param(
            "model-overclaims", "I found 10 photos", "{{count:c1}}", "stop", id="overclaims"
        ),
        pytest.param("model-restates-denial", "Access denied", "licence", "stop", id="denial"),
        pytest.param("model-content-filter", "I can't", "", "content_filter", id="content-filter"),
        pytest.param("model-unknown-finish", "The answer", "", UNKNOWN_FINISH, id="unknown-finish"),
        pytest.param("model-empty", "", "", "stop", id="empty"),
    ],
)  # fmt: skip
def test_a_scripted_answer_has_its_canned_shape(
    client: openai.OpenAI, scenario: str, starts: str, contains: str, finish: str
) -> None:
    got = stream(client, scenario=scenario)
    assert got.content.startswith(starts) and contains in got.content
    assert (got.tool_names, got.finish) == ([], finish)
    if scenario == "model-empty":
        assert got.content == ""


def test_a_scripted_model_plans_like_beacon_rules_where_its_fault_does_not_apply(
    client: openai.OpenAI,
) -> None:
    planning = [{"role": "system", "content": DIRECTORY}, {"role": "user", "content": QUESTION}]
    got = stream(client, scenario="model-dsml", messages=planning, tools=TOOLS)
    assert (got.tool_names, got.finish) == (["search_photos"], "tool_calls")


def test_budget_exhaust_calls_a_tool_again_after_every_tool_result(client: openai.OpenAI) -> None:
    messages: list[dict[str, Any]] = [
        {"role": "system", "content": DIRECTORY},
        {"role": "user", "content": QUESTION},
    ]
    for round_ in range(1, 8):
        got = stream(client, scenario="budget-exhaust", messages=messages, tools=TOOLS)
        assert (got.tool_names, got.finish) == (["search_photos"], "tool_calls"), round_
        call = {"id": f"c{round_}", "type": "function"}
        call["function"] = {"name": "search_photos", "arguments": "{}"}  # type: ignore[assignment]
        messages += [
            {"role": "assistant", "content": None, "tool_calls": [call]},
            {"role": "tool", "tool_call_id": f"c{round_}", "content": "{}"},
        ]
    answer = stream(client, scenario="budget-exhaust", messages=answer_messages())
    assert "{{count:c1}}" in answer.content  # the tool-free answer narrates like beacon-rules


@pytest.mark.parametrize(
    ("model", "error", "status"),
    [
        pytest.param("scripted:http-400", openai.BadRequestError, 400, id="400"),
        pytest.param("scripted:http-401", openai.AuthenticationError, 401, id="401"),
        pytest.param("scripted:http-402", openai.APIStatusError, 402, id="402"),
        pytest.param("scripted:http-403", openai.PermissionDeniedError, 403, id="403"),
        pytest.param("scripted:http-422", openai.UnprocessableEntityError, 422, id="422"),
        pytest.param("scripted:http-429", openai.RateLimitError, 429, id="429"),
    ],
)
def test_http_failures_carry_an_openai_error_body(
    client: openai.OpenAI, model: str, error: type[openai.APIStatusError], status: int
) -> None:
    with pytest.raises(error) as raised:
        stream(client, model=model)
    assert raised.value.status_code == status
    body = raised.value.body
    assert isinstance(body, dict) and {"message", "type", "code"} <= set(body)


def test_model_429_scenario_is_a_rate_limit_with_retry_after(client: openai.OpenAI) -> None:
    with pytest.raises(openai.RateLimitError) as raised:
        stream(client, scenario="model-429")
    assert raised.value.response.headers["retry-after"] == "1"


def test_a_stall_outlasts_the_client_deadline(client: openai.OpenAI) -> None:
    impatient = client.with_options(timeout=CLIENT_DEADLINE_S)
    # Headers arrive, then silence: the stream's read times out mid-body.
    with pytest.raises(httpx.ReadTimeout):
        stream(impatient, scenario="model-stall")
    # The stub is still serving: the abandoned stall did not wedge it.
    assert stream(client).finish == "stop"


def test_an_unknown_scripted_model_is_a_404(client: openai.OpenAI) -> None:
    with pytest.raises(openai.NotFoundError, match="scripted:nope"):
        stream(client, model="scripted:nope")
