"""Canned turns for the panel's routed tests: frames as the server writes them, and
the steps that ask a question and wait for the turn to settle.

The ``routed_turn`` fixture (``conftest.py``) answers ``/v1/turns`` with these bodies,
so the panel's logic is pinned without a chat server.
"""

from __future__ import annotations

import json
import re
from typing import Any

from playwright.sync_api import Page, Request, expect

SETTLED = re.compile("^(complete|complete-sample|empty-with-standing|unknown|denied|failed)$")
QUESTION = "How many open safety findings are on level 3 of Harbor Tower?"
ROUTED_TOKEN = "routed-test-bearer-7f3a"

# A 1×1 grey PNG: thumbnails must not need the network.
PIXEL = (
    "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR4"
    "nGNgYAAAAAMAASsJTYQAAAAASUVORK5CYII="
)


def citation(i: int) -> dict[str, Any]:
    return {
        "id": f"ann-{i:04d}",
        "source": "query_data",
        "kind": "annotation",
        "title": f"Open safety finding #{i}: missing guardrail at stair core",
        "deep_link": f"beacon:annotation/ann-{i:04d}?project=prj-harbor-tower",
        "target": {
            "kind": "annotation",
            "id": f"ann-{i:04d}",
            "project_id": "prj-harbor-tower",
            "level_number": 3,
            "panorama_id": "cap-000003",
        },
        "thumbnail": PIXEL if i % 2 == 0 else None,
        "level": "Level 3",
        "date": f"2026-11-{i + 1:02d}",
    }


def count(grade: str, total: int | None, displayed: int = 0) -> dict[str, Any]:
    return {
        "source": "query_data",
        "slot": "c1",
        "displayed": displayed,
        "total": total,
        "total_is_lower_bound": grade == "LOWER_BOUND",
        "has_more": grade == "LOWER_BOUND",
        "grade": grade,
    }


def plan_and_gather() -> list[tuple[str, dict[str, Any]]]:
    arguments = {"project_id": "prj-harbor-tower", "sql": "SELECT count(*) …"}
    return [
        (
            "plan",
            {
                "round": 1,
                "purpose": "gather",
                "calls": [
                    {"call_id": "call-1", "tool": "query_data", "arguments": arguments},
                ],
            },
        ),
        ("tool_call", {"call_id": "call-1", "tool": "query_data", "arguments": arguments}),
        (
            "tool_result",
            {
                "call_id": "call-1",
                "tool": "query_data",
                "status": "ok",
                "grade": "EXACT",
                "emptiness": "non_empty",
                "returned": 1,
                "bytes": 120,
            },
        ),
    ]


def references(counts: list[dict[str, Any]], cited: int) -> tuple[str, dict[str, Any]]:
    return (
        "references",
        {
            "citations": [citation(i) for i in range(cited)],
            "counts": counts,
            "complete": True,
        },
    )


def done(answer: str = "") -> tuple[str, dict[str, Any]]:
    return ("done", {"finish_reason": "stop", "answer": answer})


def sse_body(frames: list[tuple[str, dict[str, Any]]], turn_id: str = "turn-routed-1") -> str:
    """Frames as the server writes them; `start` is not implied."""
    lines = []
    for seq, (event, data) in enumerate(frames, start=1):
        payload = {"turn_id": turn_id, "seq": seq, **data}
        lines.append(f"event: {event}\r\nid: {seq}\r\ndata: {json.dumps(payload)}\r\n\r\n")
    return ": stream opened\r\n\r\n" + "".join(lines)


START: tuple[str, dict[str, Any]] = ("start", {"session_id": None, "mode": "single"})


def request_body(request: Request) -> dict[str, Any]:
    body = request.post_data_json
    assert isinstance(body, dict), body
    return body


def ask(page: Page, question: str = QUESTION) -> None:
    page.get_by_test_id("question").fill(question)
    with page.expect_response("**/v1/turns"):
        page.get_by_test_id("send").click()
    wait_for_the_turn_to_end(page)


def wait_for_the_turn_to_end(page: Page) -> None:
    expect(page.get_by_test_id("status")).to_have_attribute("data-phase", SETTLED)
