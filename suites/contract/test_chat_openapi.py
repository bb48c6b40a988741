"""The chat server keeps its own OpenAPI promises under generated input.

The schemathesis CLI reads `/openapi.json` from the running chat server
(started by `beacon up`) and sends it generated requests with a real bearer,
with every check it has (status codes, content types, response headers and
schemas, negative data rejected, positive data accepted, auth not ignored, …),
in its coverage, fuzzing and stateful phases: a bad body or header is a
documented 4xx, never a 500 or a surprise. The stateful phase follows the links
`POST /v1/turns` publishes (the turn's id and session in response headers) to
the turn's events, load-more, feedback and session, so the ids it sends are real.
The quota stream, which never ends by itself, is read to its first event
(``schemathesis.toml`` beside this file), which is still checked against its schema.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from harness.stack import Stack

pytestmark = pytest.mark.e2e
LINKS = ("Events", "More", "Feedback", "Ticket", "Session")


def test_every_operation_answers_as_documented(stack: Stack, token: str) -> None:
    cli = Path(sys.executable).with_name("schemathesis")
    done = subprocess.run(
        [
            str(cli),
            "--config-file",
            str(Path(__file__).with_name("schemathesis.toml")),
            "run",
            f"{stack.chat_url}/openapi.json",
            "-H",
            f"Authorization: Bearer {token}",
            "--checks",
            "all",
            "--phases",
            "coverage,fuzzing,stateful",
            "--max-examples",
            "25",
            "--seed",
            "7",
            "--no-color",
        ],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    report = done.stdout[-6000:] + done.stderr[-2000:]
    assert done.returncode == 0, report
    # The stateful phase ran and followed the turn's links (Session only resolves
    # for a chat-mode turn, so at least the other three).
    covered = re.search(r"API Links:\s+(\d+) covered", done.stdout)
    assert covered is not None and int(covered.group(1)) >= 3, report


def test_a_started_turn_links_its_events_more_feedback_and_session(stack: Stack) -> None:
    document = httpx.get(f"{stack.chat_url}/openapi.json", timeout=10).json()
    started = document["paths"]["/v1/turns"]["post"]["responses"]["200"]
    assert set(started["links"]) == set(LINKS)
    assert {"X-Beacon-Turn", "X-Beacon-Session"} <= set(started["headers"])
    operations = {op["operationId"] for path in document["paths"].values() for op in path.values()}
    assert {link["operationId"] for link in started["links"].values()} <= operations


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
