"""GET /v1/projects: the projects the caller's own token sees upstream, for a client's
opening page; nothing from another caller's view, and a refused bearer is a 401."""

from __future__ import annotations

import httpx
import pytest

from harness.stack import Stack
from stub_server.corpus import build_corpus

pytestmark = pytest.mark.e2e


def test_the_caller_gets_the_projects_the_upstream_lists_for_it(stack: Stack) -> None:
    reply = httpx.get(
        f"{stack.chat_url}/v1/projects",
        headers={"Authorization": f"Bearer {stack.token()}"},
        timeout=30,
    )
    assert reply.status_code == 200, reply.text
    names = {p["name"] for p in reply.json()["projects"]}
    # The corpus's own projects, read independently of the route.
    assert names == {p.name for p in build_corpus().projects}
    assert "Harbor Tower" in names


def test_no_bearer_is_refused_before_the_upstream_is_asked(stack: Stack) -> None:
    reply = httpx.get(f"{stack.chat_url}/v1/projects", timeout=30)
    assert reply.status_code == 401
    assert reply.json()["error"]["code"].startswith("auth_")
