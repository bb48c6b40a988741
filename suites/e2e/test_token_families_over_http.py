"""Two token families over real HTTP: every route × {user, service with the route's
scope, service without it}, each expected status and code written by hand; and the
mint path, from the stub's dev endpoint and from ``beacon token --service``."""

from __future__ import annotations

import subprocess
from typing import Any

import httpx
import pytest

from harness.stack import Stack, beacon_executable

pytestmark = pytest.mark.e2e
GHOST = "no-such-turn"  # a well-formed id nobody made: a user reaches the route's 404


def service_token(stack: Stack, *scopes: str) -> str:
    body = {"sub": "probe-1", "typ": "service", "scopes": list(scopes)}
    reply = httpx.post(f"{stack.mcp_origin}/dev/tokens", json=body, timeout=10)
    assert reply.status_code == 200, reply.text
    token = reply.json()["token"]
    assert isinstance(token, str)
    return token


def call(stack: Stack, method: str, path: str, token: str, body: Any) -> tuple[int, str | None]:
    headers = {"Authorization": f"Bearer {token}"}
    with httpx.stream(
        method, f"{stack.chat_url}{path}", json=body, headers=headers, timeout=30
    ) as reply:
        # A stream answers its status first; its body is not waited for.
        code = None
        if reply.headers.get("content-type", "").startswith("application/json"):
            reply.read()
            code = reply.json().get("error", {}).get("code") if reply.content else None
        return reply.status_code, code


WRONG = (403, "wrong_token_family")
# route, then (status, code) for: a user token; a service token with the probe scope;
# a service token with the verify scope only. Written by hand, not read from the table.
ROWS = [
    ("GET", "/healthz", None, (200, None), (200, None), (200, None), "health"),
    ("GET", "/metrics", None, (200, None), (200, None), (200, None), "metrics"),
    ("GET", "/", None, (307, None), (307, None), (307, None), "root"),
    ("POST", "/v1/turns", {"message": "hi"}, (200, None), WRONG, WRONG, "start-turn"),
    ("GET", f"/v1/turns/{GHOST}/events", None, (404, "turn_not_found"), WRONG, WRONG, "events"),
    (
        "POST",
        f"/v1/turns/{GHOST}/more",
        {"slot": "c1"},
        (404, "turn_not_found"),
        WRONG,
        WRONG,
        "load-more",
    ),
    (
        "POST",
        f"/v1/turns/{GHOST}/feedback",
        {"rating": "up"},
        (404, "turn_not_found"),
        WRONG,
        WRONG,
        "feedback",
    ),
    ("GET", f"/v1/sessions/{GHOST}", None, (404, "session_not_found"), WRONG, WRONG, "session"),
    ("GET", "/v1/projects", None, (200, None), WRONG, WRONG, "projects"),
    ("POST", f"/v1/turns/{GHOST}/ticket", None, (404, "turn_not_found"), WRONG, WRONG, "ticket"),
    ("GET", "/v1/quota/events", None, (200, None), WRONG, WRONG, "quota"),
    ("GET", "/v1/service/whoami", None, WRONG, (200, None), (403, "missing_scope"), "whoami"),
]


@pytest.mark.parametrize(
    ("method", "path", "body", "user", "probe", "verify"),
    [pytest.param(*row[:6], id=row[6]) for row in ROWS],
)
def test_each_route_answers_each_token_family_as_declared(
    stack: Stack,
    method: str,
    path: str,
    body: Any,
    user: tuple[int, str | None],
    probe: tuple[int, str | None],
    verify: tuple[int, str | None],
) -> None:
    assert call(stack, method, path, stack.token(sub="family-user"), body) == user
    assert call(stack, method, path, service_token(stack, "probe"), body) == probe
    assert call(stack, method, path, service_token(stack, "verify"), body) == verify


def test_whoami_answers_a_probe_its_own_family_and_scopes(stack: Stack) -> None:
    token = service_token(stack, "probe", "metrics")
    reply = httpx.get(
        f"{stack.chat_url}/v1/service/whoami",
        headers={"Authorization": f"Bearer {token}"},
        timeout=10,
    )
    assert reply.status_code == 200
    whoami = reply.json()
    assert (whoami["sub"], whoami["family"], whoami["scopes"]) == (
        "probe-1",
        "service",
        ["metrics", "probe"],
    )


def test_whoami_without_a_bearer_is_refused_at_the_edge(stack: Stack) -> None:
    reply = httpx.get(f"{stack.chat_url}/v1/service/whoami", timeout=10)
    assert (reply.status_code, reply.json()["error"]["code"]) == (401, "auth_missing_token")


def test_beacon_token_service_mints_a_token_whoami_accepts(stack: Stack) -> None:
    done = subprocess.run(
        [beacon_executable(), "token", "--service", "--scope", "probe", "--mcp", stack.mcp_url],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    reply = httpx.get(
        f"{stack.chat_url}/v1/service/whoami",
        headers={"Authorization": f"Bearer {done.stdout.strip()}"},
        timeout=10,
    )
    assert reply.status_code == 200
    assert (reply.json()["sub"], reply.json()["scopes"]) == ("dev-service", ["probe"])


@pytest.mark.parametrize(
    "args",
    [
        pytest.param(["--service"], id="service-without-scope"),
        pytest.param(["--service", "--scope", "admin"], id="unknown-scope"),
        pytest.param(["--scope", "probe"], id="scope-without-service"),
    ],
)
def test_beacon_token_refuses_a_service_token_it_cannot_mint_as_a_usage_error(
    stack: Stack, args: list[str]
) -> None:
    done = subprocess.run(
        [beacon_executable(), "token", *args, "--mcp", stack.mcp_url],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert (done.returncode, done.stdout) == (2, "")
    assert "--s" in done.stderr
