"""The host's view list is disclosed as possibly cut short only when the answer used it.

The viewer sends its panorama's annotation list (up to the wire cap of 50) with every
turn; the "the 50 shown may not be all" card once appeared on every turn, even one
about photos on another level. Each test is one real turn through the stack.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from beacon.cli.ask import run_turn
from beacon.wire.sse import SseEvent
from harness.stack import Stack

pytestmark = pytest.mark.e2e

FULL_LIST = 50  # the wire's cap, written out: the test does not read it from the code
UNRELATED = "How many photos are on level 2 of Harbor Tower?"
ABOUT_THE_LIST = "Which finding on this panorama needs attention first?"


def view_context(size: int) -> dict[str, Any]:
    return {
        "project_id": "prj-harbor-tower",
        "level_number": 3,
        "annotations": [
            {"id": f"ann-view-{n:03d}", "title": f"Loose rebar cap number {n}"}
            for n in range(1, size + 1)
        ],
    }


def view_disclosures(events: list[SseEvent]) -> list[str]:
    """Disclosure notices about the on-screen list (a narrowing hint is one too)."""
    notices = [e.json() for e in events if e.event == "notice"]
    texts = [str(n["text"]) for n in notices if n.get("kind") == "disclosure"]
    return [t for t in texts if "may not be all" in t]


@pytest.fixture
def narration(stack: Stack) -> Iterator[str]:
    """The scripted model's answer to ABOUT_THE_LIST: it names a listed annotation."""
    origin = stack.llm_url.removesuffix("/v1")
    text = "Loose rebar cap number 7 is the one to look at first."
    body = {"question": ABOUT_THE_LIST, "text": text}
    assert httpx.post(f"{origin}/dev/narrations", json=body, timeout=10).status_code == 201
    yield text
    httpx.delete(f"{origin}/dev/narrations", params={"question": ABOUT_THE_LIST}, timeout=10)


def test_a_full_view_list_is_not_disclosed_on_a_turn_that_never_used_it(stack: Stack) -> None:
    body = {"mode": "single", "message": UNRELATED, "view_context": view_context(FULL_LIST)}
    events = run_turn(stack.chat_url, body, token=stack.token())
    assert events[-1].event == "done"
    assert view_disclosures(events) == []


def test_a_full_view_list_is_disclosed_when_the_answer_names_one_of_its_items(
    stack: Stack, narration: str
) -> None:
    body = {"mode": "single", "message": ABOUT_THE_LIST, "view_context": view_context(FULL_LIST)}
    events = run_turn(stack.chat_url, body, token=stack.token(), scenario="model-narrates")
    assert events[-1].event == "done" and "number 7" in str(events[-1].json()["answer"])
    (said,) = view_disclosures(events)
    assert f"the {FULL_LIST} shown" in said


def test_a_short_view_list_is_never_disclosed_even_when_used(stack: Stack, narration: str) -> None:
    body = {"mode": "single", "message": ABOUT_THE_LIST, "view_context": view_context(12)}
    events = run_turn(stack.chat_url, body, token=stack.token(), scenario="model-narrates")
    assert events[-1].event == "done" and "number 7" in str(events[-1].json()["answer"])
    assert view_disclosures(events) == []
