"""The question's own limits (issue 19): a blank question and a too-long one are
refused with 422 before any work, and the refusal never carries the question back.
The turn request model and the edge's 422 handler are the real ones, on a
one-route app (over HTTP against the chat server: suites/e2e/test_question_refusals.py)."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from fastapi.exceptions import RequestValidationError

from beacon.server.edge import invalid_request
from beacon.wire.turns import TurnRequest

# The contract's bound, written out (SPEC §4 wire bounds): not read from the model under test.
LONGEST = 4000
MARKER = "scaffold-tie-off-7Q"


def _app() -> FastAPI:
    app = FastAPI()
    app.add_exception_handler(RequestValidationError, invalid_request)

    @app.post("/v1/turns")
    async def turns(body: TurnRequest) -> dict[str, Any]:
        return {"accepted": body.message}

    return app


async def _post(message: str) -> httpx.Response:
    transport = httpx.ASGITransport(app=_app())
    async with httpx.AsyncClient(transport=transport, base_url="http://edge") as client:
        return await client.post("/v1/turns", json={"mode": "single", "message": message})


@pytest.mark.parametrize(
    "blank",
    [
        pytest.param("   ", id="spaces"),
        pytest.param("\n\t \r\n", id="tabs-and-line-breaks"),
        pytest.param("\u3000\u3000", id="ideographic-spaces"),
        pytest.param("\u00a0 \u2009", id="no-break-and-thin-spaces"),
    ],
)
async def test_a_whitespace_only_question_is_refused_with_422(blank: str) -> None:
    response = await _post(blank)
    assert response.status_code == 422, response.text
    error = response.json()["error"]
    assert error["code"] == "invalid_request"
    assert "message" in error["message"] and "blank" in error["message"]


async def test_a_question_with_text_between_spaces_is_accepted_as_written() -> None:
    response = await _post("  Who raised findings on level 2?\n")
    assert response.status_code == 200, response.text
    assert response.json() == {"accepted": "  Who raised findings on level 2?\n"}


async def test_a_question_of_exactly_the_longest_length_is_accepted() -> None:
    question = ("Which photos show " + MARKER + " ")[:LONGEST].ljust(LONGEST, "x")
    response = await _post(question)
    assert response.status_code == 200, response.text


@pytest.mark.parametrize("extra", [1, 50_000], ids=["one-over", "far-over"])
async def test_a_too_long_question_is_refused_with_422_without_echoing_it(extra: int) -> None:
    question = (f"Which photos show {MARKER} near the stair core? " * 2000)[: LONGEST + extra]
    assert len(question) == LONGEST + extra
    response = await _post(question)
    assert response.status_code == 422
    assert response.json()["error"]["code"] == "invalid_request"
    assert MARKER not in response.text
    assert "stair core" not in response.text
    # The answer names the field and the bound, and is small whatever was sent.
    assert re.search(r"\b4000\b", response.json()["error"]["message"])
    assert len(response.content) < 1000
