"""The chat server keeps its own OpenAPI promises under generated input.

The schemathesis CLI reads `/openapi.json` from the running chat server
(started by `beacon up`) and sends it generated requests with a real bearer:
every answer must be a status the schema documents with a body that matches
it — a bad body or header is a documented 422, never a 500 or a surprise 400.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from harness.stack import Stack

pytestmark = pytest.mark.e2e


def test_every_operation_answers_as_documented(stack: Stack, token: str) -> None:
    cli = Path(sys.executable).with_name("schemathesis")
    done = subprocess.run(
        [
            str(cli),
            "run",
            f"{stack.chat_url}/openapi.json",
            "-H",
            f"Authorization: Bearer {token}",
            "--max-examples",
            "10",
            "--seed",
            "7",
            "--no-color",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]


def _keys(node: object) -> set[str]:
    if isinstance(node, dict):
        return set(node) | {k for v in node.values() for k in _keys(v)}
    if isinstance(node, list):
        return {k for v in node for k in _keys(v)}
    return set()


def test_every_bound_the_server_enforces_is_in_its_published_schema(stack: Stack) -> None:
    # A bound pydantic cannot place on the integer is published as a bare "le",
    # which JSON Schema ignores: a client (or a fuzzer) then sends level 11978
    # believing it valid. Found by schemathesis's stateful phase.
    document = httpx.get(f"{stack.chat_url}/openapi.json", timeout=10.0).json()
    assert not _keys(document) & {"ge", "le", "gt", "lt", "min_length", "max_length"}
    view = document["components"]["schemas"]["ViewContext"]["properties"]["level_number"]
    (bounded,) = [v for v in view["anyOf"] if v.get("type") == "integer"]
    assert (bounded["minimum"], bounded["maximum"]) == (-10, 300)
