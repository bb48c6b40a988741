"""The stub LLM speaks the OpenAI wire: checked with the official client as a peer."""

from __future__ import annotations

import json
from collections.abc import Iterator

import openai
import pytest

from harness.inproc import serving
from stub_server.llm_app import create_app

DIRECTORY = (
    'Turn context (data):\n```json\n{"projects": [{"id": "prj-harbor-tower", '
    '"name": "Harbor Tower"}], "view_context": {}}\n```'
)
TOOLS = [
    {
        "type": "function",
        "function": {"name": n, "description": n, "parameters": {"type": "object"}},
    }
    for n in ("query_data", "search_photos", "list_projects")
]


@pytest.fixture(scope="module")
def client() -> Iterator[openai.OpenAI]:
    with serving(lambda _origin: create_app()) as origin:
        peer = openai.OpenAI(base_url=f"{origin}/v1", api_key="local", max_retries=0)
        yield peer
        peer.close()


def messages(question: str) -> list[dict[str, str]]:
    return [{"role": "system", "content": DIRECTORY}, {"role": "user", "content": question}]


def test_a_streamed_plan_arrives_as_structured_tool_calls(client: openai.OpenAI) -> None:
    stream = client.chat.completions.create(
        model="beacon-rules",
        messages=messages("Photos of missing hard hats in Harbor Tower"),  # type: ignore[arg-type]
        tools=TOOLS,
        stream=True,
        stream_options={"include_usage": True},  # type: ignore[arg-type]
    )
    names, args, finish, usage = [], [], None, None
    for chunk in stream:
        usage = chunk.usage or usage
        for choice in chunk.choices:
            for call in choice.delta.tool_calls or []:
                if call.function and call.function.name:
                    names.append(call.function.name)
                if call.function and call.function.arguments:
                    args.append(call.function.arguments)
            finish = choice.finish_reason or finish
    assert names == ["search_photos"] and finish == "tool_calls"
    assert json.loads("".join(args)) == {
        "project_id": "prj-harbor-tower",
        "query": "missing hard hats",
        "limit": 10,
    }
    assert usage is not None and usage.total_tokens > 0


def test_how_many_plans_an_aggregate_and_a_listing(client: openai.OpenAI) -> None:
    reply = client.chat.completions.create(
        model="beacon-rules",
        tools=TOOLS,  # type: ignore[arg-type]
        messages=messages("How many open safety findings are on level 3 of Harbor Tower?"),  # type: ignore[arg-type]
    )
    calls = reply.choices[0].message.tool_calls or []
    questions = [json.loads(c.function.arguments)["question"] for c in calls]  # type: ignore[union-attr]
    assert questions[0].startswith("How many") and questions[1].startswith("list")
    assert reply.choices[0].finish_reason == "tool_calls"


def test_narration_uses_slots_and_never_a_number(client: openai.OpenAI) -> None:
    facts = {
        "tool": "search_photos",
        "project_id": "prj-harbor-tower",
        "subject": "missing hard hats",
        "aggregate": False,
    }
    anchors = {
        "anchors": [
            {"kind": "lower_bound", "slot": "c1", **facts},
            {"kind": "shown_subset", "slot": "c1", **facts},
        ]
    }
    reply = client.chat.completions.create(
        model="beacon-rules",
        messages=[
            *messages("Photos of missing hard hats in Harbor Tower"),  # type: ignore[list-item]
            {"role": "system", "content": "```json\n" + json.dumps(anchors) + "\n```"},
        ],
    )
    text = reply.choices[0].message.content or ""
    assert "{{count:c1}}" in text and "{{shown:c1}}" in text
    assert not any(ch.isdigit() for ch in text.replace("c1", ""))
    assert reply.choices[0].finish_reason == "stop"


def test_an_unknown_model_is_a_404_not_a_silent_default(client: openai.OpenAI) -> None:
    with pytest.raises(openai.NotFoundError):
        client.chat.completions.create(model="gpt-nothing", messages=messages("hi"))  # type: ignore[arg-type]


def test_a_missing_api_key_is_a_401() -> None:
    with serving(lambda _origin: create_app()) as origin:
        import httpx

        response = httpx.post(
            f"{origin}/v1/chat/completions",
            json={"model": "beacon-rules", "messages": messages("hi")},
        )
        assert response.status_code == 401


def test_an_unknown_scenario_header_is_a_400_naming_it(client: openai.OpenAI) -> None:
    with pytest.raises(openai.BadRequestError, match="no-such-scenario"):
        client.chat.completions.create(
            model="beacon-rules",
            messages=messages("hi"),  # type: ignore[arg-type]
            extra_headers={"X-Beacon-Scenario": "no-such-scenario"},
        )
