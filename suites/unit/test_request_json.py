"""What a request body may say once (issue 27): a key twice in one JSON object is
refused at the edge, at any depth; a ``session_id`` in a ``single`` turn is refused
by the request model, never ignored."""

from __future__ import annotations

import json

import httpx
import pytest
from fastapi import FastAPI
from fastapi.exceptions import RequestValidationError
from pydantic import ValidationError

from beacon.auth.verify import Verifier
from beacon.server.edge import EdgeLimits, Refusal, RequestEdge, check_json, invalid_request
from beacon.wire.turns import TurnRequest


@pytest.mark.parametrize(
    ("body", "key"),
    [
        pytest.param('{"mode": "chat", "mode": "single"}', "mode", id="top-level"),
        pytest.param(
            '{"view_context": {"annotations": [{"id": "a", "id": "b"}]}}', "id", id="nested"
        ),
        pytest.param('[{"a": 1}, {"b": 1, "b": 1}]', "b", id="in-an-array-same-value"),
        pytest.param('{"m\\u0065ssage": "x", "message": "y"}', "message", id="escaped-spelling"),
    ],
)
def test_a_key_twice_in_one_object_is_refused_and_named(body: str, key: str) -> None:
    with pytest.raises(Refusal) as refused:
        check_json(body.encode())
    assert (refused.value.status, refused.value.code) == (422, "duplicate_key")
    assert json.dumps(key) in refused.value.message


def test_the_same_key_in_two_objects_is_no_duplicate() -> None:
    check_json(b'{"a": {"id": 1}, "b": {"id": 1}, "c": [{"id": 2}, {"id": 2}]}')


def test_a_repeated_key_is_named_only_in_part() -> None:
    long_key = "k" * 5000
    with pytest.raises(Refusal) as refused:
        check_json(json.dumps({long_key: 1}).replace("}", f', "{long_key}": 2}}').encode())
    assert len(refused.value.message) < 200


async def test_the_edge_answers_a_repeated_key_with_a_coded_422_before_any_route() -> None:
    reached: list[object] = []
    app = FastAPI()

    @app.post("/echo")
    async def echo(body: dict[str, object]) -> dict[str, object]:
        reached.append(body)
        return body

    verifier = Verifier("/dev/null", issuer="i", audience="a", known_tiers=frozenset())
    guarded = RequestEdge(app, verifier=verifier, limits=EdgeLimits(1024, False))
    transport = httpx.ASGITransport(app=guarded)
    async with httpx.AsyncClient(transport=transport, base_url="http://edge") as client:
        response = await client.post(
            "/echo", content=b'{"a": 1, "a": 2}', headers={"content-type": "application/json"}
        )
    assert response.status_code == 422
    assert response.json()["error"] == {
        "code": "duplicate_key",
        "message": 'the key "a" appears twice in one object',
    }
    assert response.json()["detail"][0]["type"] == "duplicate_key"
    assert reached == []


def test_a_session_id_in_a_single_turn_is_refused_by_the_model() -> None:
    for body in (
        {"message": "How many?", "session_id": "s_1"},
        {"message": "How many?", "session_id": "s_1", "mode": "single"},
    ):
        with pytest.raises(ValidationError) as refused:
            TurnRequest.model_validate(body)
        assert [e["type"] for e in refused.value.errors()] == ["session_in_single_mode"]


def test_a_chat_turn_may_name_its_session_and_a_single_turn_may_name_none() -> None:
    assert TurnRequest.model_validate({"message": "q", "session_id": "s_1", "mode": "chat"})
    assert TurnRequest.model_validate({"message": "q", "session_id": None})
    assert TurnRequest.model_validate({"message": "q", "mode": "single"})


def test_the_published_schema_says_a_session_needs_chat_mode() -> None:
    import jsonschema

    schema = TurnRequest.model_json_schema()
    jsonschema.validate({"message": "q", "mode": "chat", "session_id": "s_1"}, schema)
    jsonschema.validate({"message": "q"}, schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"message": "q", "session_id": "s_1"}, schema)


async def test_a_session_in_a_single_turn_is_the_servers_coded_validation_422() -> None:
    app = FastAPI()
    app.add_exception_handler(RequestValidationError, invalid_request)

    @app.post("/v1/turns")
    async def start(body: TurnRequest) -> dict[str, str]:
        return {"started": "yes"}

    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://edge") as client:
        response = await client.post("/v1/turns", json={"message": "q", "session_id": "s_9"})
    assert response.status_code == 422
    body = response.json()
    assert body["error"]["code"] == "invalid_request"
    assert "single" in body["error"]["message"]
    assert [d["type"] for d in body["detail"]] == ["session_in_single_mode"]
    assert "s_9" not in response.text
