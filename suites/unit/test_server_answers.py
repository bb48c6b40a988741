"""What every chat-server answer carries, piece by piece: the security headers by
path (``headers.py``), Starlette's own refusals in the one error shape
(``http_errors.py``), and the published document's error and header entries
(``openapi.py``). The same over HTTP: suites/e2e/test_security_headers.py and
suites/contract/test_openapi_served_statuses.py."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException

from beacon.server.headers import API_POLICY, SecurityHeaders, origin_of
from beacon.server.http_errors import http_error
from beacon.server.openapi import errors, headers_not_nullable


def _app() -> FastAPI:
    app = FastAPI()
    app.add_exception_handler(HTTPException, http_error)

    @app.get("/v1/thing")
    async def thing() -> dict[str, str]:
        return {"ok": "yes"}

    @app.get("/panel/index.html")
    async def page() -> dict[str, str]:
        return {"page": "yes"}

    @app.get("/framed")
    async def framed() -> JSONResponse:
        return JSONResponse({}, headers={"X-Frame-Options": "SAMEORIGIN"})

    return app


async def _answers(*requests: tuple[str, str]) -> list[httpx.Response]:
    edge = SecurityHeaders(_app(), image_origins=(origin_of("http://127.0.0.1:8001/mcp"),))
    transport = httpx.ASGITransport(app=edge)
    async with httpx.AsyncClient(transport=transport, base_url="http://chat") as client:
        return [await client.request(method, path) for method, path in requests]


async def test_an_api_answer_may_not_run_or_be_framed() -> None:
    (answer,) = await _answers(("GET", "/v1/thing"))
    assert answer.headers["content-security-policy"] == API_POLICY
    assert answer.headers["x-frame-options"] == "DENY"
    assert answer.headers["x-content-type-options"] == "nosniff"
    assert answer.headers["referrer-policy"] == "no-referrer"


async def test_a_panel_page_loads_its_own_scripts_and_the_upstreams_images() -> None:
    (page,) = await _answers(("GET", "/panel/index.html"))
    policy = page.headers["content-security-policy"]
    assert "script-src 'self'" in policy and "frame-ancestors 'self'" in policy
    assert "img-src 'self' data: https: http://127.0.0.1:8001" in policy
    assert page.headers["x-frame-options"] == "SAMEORIGIN"


async def test_a_header_the_route_set_itself_is_kept() -> None:
    (framed,) = await _answers(("GET", "/framed"))
    assert framed.headers["x-frame-options"] == "SAMEORIGIN"


async def test_an_unknown_path_and_a_wrong_method_are_the_one_error_with_their_headers() -> None:
    missing, wrong = await _answers(("GET", "/nowhere"), ("DELETE", "/v1/thing"))
    assert (missing.status_code, missing.json()) == (
        404,
        {"error": {"code": "not_found", "message": "no such path"}},
    )
    assert wrong.status_code == 405
    assert wrong.json()["error"]["code"] == "method_not_allowed"
    assert wrong.headers["allow"] == "GET"
    assert wrong.headers["x-frame-options"] == "DENY"  # a refusal is an answer too


def test_a_429_promises_retry_after_and_a_503_may_send_it() -> None:
    published = errors(429, 503, 404)
    assert published[429]["headers"]["Retry-After"]["required"] is True
    assert "required" not in published[503]["headers"]["Retry-After"]
    assert "headers" not in published[404]


@pytest.mark.parametrize(
    ("schema", "published"),
    [
        pytest.param(
            {"anyOf": [{"type": "string"}, {"type": "null"}], "title": "Last-Event-Id"},
            {"type": "string", "title": "Last-Event-Id"},
            id="optional-header-is-a-string",
        ),
        pytest.param(
            {"anyOf": [{"type": "string"}, {"type": "integer"}, {"type": "null"}]},
            {"anyOf": [{"type": "string"}, {"type": "integer"}, {"type": "null"}]},
            id="two-kinds-left-alone",
        ),
    ],
)
def test_an_optional_header_is_published_absent_or_a_string_never_null(
    schema: dict[str, Any], published: dict[str, Any]
) -> None:
    document = {
        "paths": {
            "/x": {
                "get": {
                    "parameters": [
                        {"in": "header", "name": "h", "schema": schema},
                        {"in": "query", "name": "q", "schema": dict(schema)},
                    ]
                }
            }
        }
    }
    parameters = headers_not_nullable(document)["paths"]["/x"]["get"]["parameters"]
    assert parameters[0]["schema"] == published
    assert parameters[1]["schema"] == schema  # only headers: a query may say null
