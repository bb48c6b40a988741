"""The view in the link, across the real wires: the stub's MCP tool results go
through the real chat server's citation builder, and each card's target carries
the camera view, BIM reference and host scope the stub gave that record — on the
references frame and on the load-more cards kept packed in the store.

What each record carries is read from the stub's corpus, not from the frames.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import httpx
import pytest

from beacon.cli.ask import run_turn
from beacon.wire.sse import SseEvent
from harness.stack import Stack
from stub_server.corpus import build_corpus
from stub_server.records import Bim, View

pytestmark = pytest.mark.e2e
PHOTOS = "Photos of missing hard hats in Harbor Tower"
FINDINGS = "List open quality findings on level 3 of Harbor Tower"
# A query_data listing of findings: the cards past the first ten wait in the store, packed.
LISTED = "List all findings by Keystone Concrete in Harbor Tower"


@cache
def _views() -> dict[str, View]:
    return dict(build_corpus().places.views)


@cache
def _bims() -> dict[str, Bim]:
    return dict(build_corpus().places.bims)


def _as_wire(view: View) -> dict[str, list[float]]:
    return {
        "position": list(view.position),
        "look_at": list(view.look_at),
        "direction": list(view.direction),
    }


def _citations(events: list[SseEvent]) -> list[dict[str, Any]]:
    (refs,) = [e.json() for e in events if e.event == "references"]
    cards = refs["citations"]
    assert isinstance(cards, list) and cards
    return cards


def test_each_photo_card_carries_the_view_the_stub_gave_that_photo(stack: Stack) -> None:
    events = run_turn(stack.chat_url, {"message": PHOTOS}, token=stack.token())
    for card in _citations(events):
        target = card["target"]
        assert card["kind"] == "photo"
        assert target["view"] == _as_wire(_views()[card["id"]]), card["id"]
        assert target["bim"] is None  # a photo is pinned to no element
        assert (target["organisation"], target["project"], target["team"]) == (
            "Northline Builders",
            "Harbor Tower",
            "Harbor Tower site team",
        )
        assert target["review"] is None


def test_a_finding_card_carries_its_bim_reference_and_its_review(stack: Stack) -> None:
    events = run_turn(stack.chat_url, {"message": FINDINGS}, token=stack.token())
    cards = _citations(events)
    assert {card["kind"] for card in cards} == {"annotation"}
    for card in cards:
        target = card["target"]
        assert target["view"] == _as_wire(_views()[card["id"]]), card["id"]
        assert target["review"] == "Monthly quality review"
        bim = _bims().get(card["id"])
        expected = (
            None
            if bim is None
            else {"model": bim.model, "element": bim.element, "level": bim.level}
        )
        assert target["bim"] == expected, card["id"]
    assert any(card["target"]["bim"] for card in cards)


def test_the_cards_a_load_more_serves_from_the_store_keep_each_cards_view(stack: Stack) -> None:
    token = stack.token(sub="view-pager")
    events = run_turn(stack.chat_url, {"message": LISTED}, token=token)
    for card in _citations(events):
        assert card["target"]["view"] == _as_wire(_views()[card["id"]]), card["id"]
    turn_id = events[0].json()["turn_id"]
    (refs,) = [e.json() for e in events if e.event == "references"]
    more = httpx.post(
        f"{stack.chat_url}/v1/turns/{turn_id}/more",
        json={"slot": refs["counts"][0]["slot"]},
        headers={"Authorization": f"Bearer {token}"},
        timeout=30,
    )
    assert more.status_code == 200
    cards = more.json()["citations"]
    assert len(cards) == 10 and {card["kind"] for card in cards} == {"annotation"}
    for card in cards:
        assert card["target"]["view"] == _as_wire(_views()[card["id"]]), card["id"]
