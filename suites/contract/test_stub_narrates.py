"""``scripted:narrates``: the stub model answers with the narration a test registered.

The narration-guard corpus needs a model that says exactly what a case wants
it to say, number split across stream chunks included. Checked over real HTTP
against the installed stub (``beacon stub-llm``), with the official ``openai``
client as the peer: the registered text arrives verbatim, the registered chunks
arrive as exactly those content chunks, planning still behaves like
``beacon-rules``, and an unregistered question is a loud 409, never a default.
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
from stub_server.scenarios import Mode, load_scenario

DIRECTORY = (
    'Turn context (data):\n```json\n{"projects": [{"id": "prj-harbor-tower", '
    '"name": "Harbor Tower"}], "view_context": {}}\n```'
)
ANCHORS = {
    "anchors": [
        {
            "kind": "lower_bound",
            "slot": "c1",
            "tool": "search_photos",
            "project_id": "prj-harbor-tower",
            "subject": "hard hats",
            "aggregate": False,
        }
    ]
}
QUESTION = "Show me photos of hard hats in Harbor Tower"
TOOLS = [
    {"type": "function", "function": {"name": n, "parameters": {"type": "object"}}}
    for n in ("query_data", "search_photos", "list_projects")
]
# The stub's chunk width for every other model, written out here (not imported).
CHUNK_CHARS = 12


@dataclass(frozen=True)
class Streamed:
    chunks: list[str]  # every non-empty content delta, in order
    tool_names: list[str]
    finish: str | None

    @property
    def content(self) -> str:
        return "".join(self.chunks)


@pytest.fixture(scope="module")
def llm() -> Iterator[StubProcess]:
    with running_stub("llm") as running:
        yield running


@pytest.fixture(scope="module")
def client(llm: StubProcess) -> Iterator[openai.OpenAI]:
    peer = openai.OpenAI(base_url=llm.llm_base_url, api_key="local", max_retries=0, timeout=10)
    yield peer
    peer.close()


@pytest.fixture(autouse=True)
def forget(llm: StubProcess) -> Iterator[None]:
    yield
    assert httpx.delete(f"{llm.origin}/dev/narrations", timeout=10).status_code == 204


def register(llm: StubProcess, **body: Any) -> httpx.Response:
    return httpx.post(f"{llm.origin}/dev/narrations", json=body, timeout=10)


def answer_messages(question: str = QUESTION) -> list[dict[str, str]]:
    """What the chat server's tool-free answer call looks like: data blocks, then the question."""
    return [
        {"role": "system", "content": DIRECTORY},
        {"role": "system", "content": "```json\n" + json.dumps(ANCHORS) + "\n```"},
        {"role": "user", "content": question},
    ]


def stream(
    client: openai.OpenAI,
    *,
    scenario: str | None = "model-narrates",
    question: str = QUESTION,
    **kwargs: Any,
) -> Streamed:
    kwargs.setdefault("model", "beacon-rules")
    kwargs.setdefault("messages", answer_messages(question))
    headers = {"X-Beacon-Scenario": scenario} if scenario else None
    chunks: list[str] = []
    names: list[str] = []
    finish = None
    with client.chat.completions.create(stream=True, extra_headers=headers, **kwargs) as events:
        for event in events:
            for choice in event.choices:
                if choice.delta.content:
                    chunks.append(choice.delta.content)
                names += [c.function.name for c in choice.delta.tool_calls or [] if c.function]
                finish = choice.finish_reason or finish
    return Streamed(chunks, [n for n in names if n], finish)


def test_the_registered_text_is_the_answer(llm: StubProcess, client: openai.OpenAI) -> None:
    text = "I found 10 photos that match your question. Harbor Tower has {{count:c1}} photos."
    made = register(llm, question=QUESTION, text=text)
    assert made.status_code == 201
    assert made.json() == {"question": QUESTION, "chars": len(text), "chunks": None}
    got = stream(client)
    assert (got.content, got.tool_names, got.finish) == (text, [], "stop")
    # Without chunks, the text is cut like every other model's answer.
    assert got.chunks == [text[i : i + CHUNK_CHARS] for i in range(0, len(text), CHUNK_CHARS)]


def test_registered_chunks_are_exactly_the_streamed_content_chunks(
    llm: StubProcess, client: openai.OpenAI
) -> None:
    chunks = ["I found 1", "0 photos. ", "Harbor Tower has {{cou", "nt:c1}} photos."]
    assert register(llm, question=QUESTION, chunks=chunks).json()["chunks"] == 4
    got = stream(client)
    assert got.chunks == chunks and got.finish == "stop"


def test_text_and_chunks_together_must_agree(llm: StubProcess, client: openai.OpenAI) -> None:
    agreeing = register(llm, question=QUESTION, text="ab cd.", chunks=["ab", " cd."])
    assert agreeing.status_code == 201
    assert stream(client).chunks == ["ab", " cd."]
    disagreeing = register(llm, question=QUESTION, text="ab cd.", chunks=["ab", "cd."])
    assert disagreeing.status_code == 422 and disagreeing.json()["error"] == "invalid_request"
    assert stream(client).content == "ab cd."  # the refused registration changed nothing


@pytest.mark.parametrize(
    "body",
    [
        pytest.param({"question": QUESTION}, id="neither-text-nor-chunks"),
        pytest.param({"text": "x"}, id="no-question"),
        pytest.param({"question": "   ", "text": "x"}, id="blank-question"),
        pytest.param({"question": QUESTION, "chunks": []}, id="no-chunks"),
        pytest.param({"question": QUESTION, "text": 10}, id="text-not-a-string"),
        pytest.param({"question": QUESTION, "text": "x", "model": "m"}, id="unknown-field"),
    ],
)
def test_a_malformed_registration_is_a_422_naming_the_field(
    llm: StubProcess, body: dict[str, Any]
) -> None:
    refused = register(llm, **body)
    assert refused.status_code == 422
    assert {"error", "field", "message"} <= set(refused.json())


def test_an_unregistered_question_is_a_409_never_a_default(
    llm: StubProcess, client: openai.OpenAI
) -> None:
    register(llm, question="Some other question", text="Not this one.")
    with pytest.raises(openai.ConflictError) as raised:
        stream(client)
    assert raised.value.status_code == 409
    body = raised.value.body
    assert isinstance(body, dict) and body["code"] == "narration_not_registered"
    assert QUESTION in body["message"] and "/dev/narrations" in body["message"]


def test_narrations_are_keyed_by_the_exact_question(
    llm: StubProcess, client: openai.OpenAI
) -> None:
    other = "List all panoramas in Harbor Tower"
    register(llm, question=QUESTION, text="About hard hats.")
    register(llm, question=other, text="About panoramas.")
    assert stream(client).content == "About hard hats."
    assert stream(client, question=other).content == "About panoramas."
    # The last user message is the key, whatever came before it (a chat transcript).
    earlier = [{"role": "user", "content": other}, {"role": "assistant", "content": "ok"}]
    got = stream(client, messages=[*earlier, *answer_messages()])
    assert got.content == "About hard hats."
    listed = httpx.get(f"{llm.origin}/dev/narrations", timeout=10).json()
    assert listed == {"questions": sorted([QUESTION, other])}


def test_delete_forgets_one_question_or_all(llm: StubProcess, client: openai.OpenAI) -> None:
    other = "List all panoramas in Harbor Tower"
    register(llm, question=QUESTION, text="About hard hats.")
    register(llm, question=other, text="About panoramas.")
    one = httpx.delete(f"{llm.origin}/dev/narrations", params={"question": other}, timeout=10)
    assert one.status_code == 204
    assert stream(client).content == "About hard hats."
    with pytest.raises(openai.ConflictError):
        stream(client, question=other)
    assert httpx.delete(f"{llm.origin}/dev/narrations", timeout=10).status_code == 204
    with pytest.raises(openai.ConflictError):
        stream(client)


def test_a_planning_call_plans_like_beacon_rules(llm: StubProcess, client: openai.OpenAI) -> None:
    register(llm, question=QUESTION, text="Never used for planning.")
    planning = [{"role": "system", "content": DIRECTORY}, {"role": "user", "content": QUESTION}]
    got = stream(client, messages=planning, tools=TOOLS)
    # READY beside the calls: they are all the question needs (beacon/loop/gather.py).
    assert (got.content, got.tool_names, got.finish) == ("READY", ["search_photos"], "tool_calls")


def test_the_model_id_and_a_non_streamed_answer_serve_it_too(
    llm: StubProcess, client: openai.OpenAI
) -> None:
    register(llm, question=QUESTION, text="Harbor Tower has {{count:c1}} photos.")
    by_id = stream(client, scenario=None, model="scripted:narrates")
    assert by_id.content == "Harbor Tower has {{count:c1}} photos."
    whole = client.chat.completions.create(
        model="beacon-rules",
        messages=answer_messages(),  # type: ignore[arg-type]
        extra_headers={"X-Beacon-Scenario": "model-narrates"},
    )
    assert whole.choices[0].message.content == "Harbor Tower has {{count:c1}} photos."
    assert whole.choices[0].finish_reason == "stop"


def test_other_models_keep_their_answers_and_chunking(
    llm: StubProcess, client: openai.OpenAI
) -> None:
    register(llm, question=QUESTION, text="Only scripted:narrates says this.")
    rules = stream(client, scenario=None)
    assert "{{count:c1}}" in rules.content and "Only scripted" not in rules.content
    assert all(len(c) <= CHUNK_CHARS for c in rules.chunks)


def test_the_model_is_listed(client: openai.OpenAI) -> None:
    assert "scripted:narrates" in {m.id for m in client.models.list()}


@pytest.mark.parametrize(
    ("scenario", "tool", "mode"),
    [
        pytest.param("model-narrates", "search_photos", Mode.OK, id="ok"),
        pytest.param("model-narrates", "query_data", Mode.OK, id="ok-query"),
        pytest.param("model-narrates-legacy", "query_data", Mode.LEGACY, id="legacy"),
        pytest.param("model-narrates-zero-hits", "search_photos", Mode.ZERO_HITS, id="zero-hits"),
        pytest.param("model-narrates-inband-502", "search_photos", Mode.INBAND_502, id="502"),
    ],
)
def test_the_narrates_scenarios_pair_the_model_with_their_upstream(
    scenario: str, tool: str, mode: Mode
) -> None:
    loaded = load_scenario(scenario)
    assert loaded.model == "scripted:narrates"
    assert loaded.modes_for(tool) == (mode,)
