"""Who may see what, over HTTP: every bearer rejection, sessions bound to owners,
and the lowest tier asking for photos."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from beacon.auth import Reason
from beacon.cli.ask import run_turn
from beacon.store.turns import TurnStore
from harness.chat_process import chat_env, chat_with_open_store, running_chat
from harness.forged_tokens import KEY_1, REJECTIONS, jwks, mint
from harness.stack import Stack

pytestmark = pytest.mark.e2e
PHOTOS = "Photos of missing hard hats in Harbor Tower"


@pytest.fixture(scope="module")
def own_key_chat(stack: Stack, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A chat server trusting a JWKS *file* with a key the tests hold."""
    data = tmp_path_factory.mktemp("own-key")
    keyset = data / "jwks.json"
    keyset.write_text(json.dumps(jwks((KEY_1, "k1"))))
    with running_chat(chat_env(stack, data, BEACON_JWKS=str(keyset))) as url:
        yield url


def post(chat: str, token: str, body: dict[str, Any] | None = None) -> httpx.Response:
    return httpx.post(
        f"{chat}/v1/turns",
        json=body or {"message": "hi"},
        headers={"Authorization": f"Bearer {token}"},
        timeout=30,
    )


# An empty token cannot even be sent ("Bearer " is not a valid header value);
# the verifier's unit table covers it.
SENDABLE = [p for p in REJECTIONS if p.id != "empty-string"]


@pytest.mark.parametrize(("make", "reason"), SENDABLE)
def test_every_bad_token_is_a_401_with_its_reason_code(
    own_key_chat: str, make: Any, reason: Reason
) -> None:
    response = post(own_key_chat, make())
    assert response.status_code == 401
    assert response.json()["error"]["code"] == f"auth_{reason.value}"
    assert response.headers["WWW-Authenticate"].startswith("Bearer")


def test_a_good_token_of_the_file_key_is_accepted(own_key_chat: str) -> None:
    with httpx.stream(
        "POST",
        f"{own_key_chat}/v1/turns",
        json={"message": "hi"},
        headers={"Authorization": f"Bearer {mint()}"},
        timeout=30,
    ) as response:
        assert response.status_code == 200


def test_a_session_is_bound_to_its_owner(stack: Stack) -> None:
    owner, stranger = stack.token(sub="owner"), stack.token(sub="stranger")
    events = run_turn(stack.chat_url, {"mode": "chat", "message": PHOTOS}, token=owner)
    session_id = events[0].json()["session_id"]
    assert session_id and events[-1].event == "done"
    mine = httpx.get(
        f"{stack.chat_url}/v1/sessions/{session_id}",
        headers={"Authorization": f"Bearer {owner}"},
        timeout=10,
    )
    assert [m["role"] for m in mine.json()["messages"]] == ["user", "assistant"]
    assert mine.json()["messages"][1]["text"] == events[-1].json()["answer"]
    theirs = httpx.get(
        f"{stack.chat_url}/v1/sessions/{session_id}",
        headers={"Authorization": f"Bearer {stranger}"},
        timeout=10,
    )
    nobody = httpx.get(
        f"{stack.chat_url}/v1/sessions/s_missing",
        headers={"Authorization": f"Bearer {stranger}"},
        timeout=10,
    )
    assert theirs.status_code == nobody.status_code == 404 and theirs.json() == nobody.json()
    hijack = post(
        stack.chat_url, stranger, {"mode": "chat", "session_id": session_id, "message": "continue"}
    )
    assert hijack.status_code == 404 and hijack.json()["error"]["code"] == "session_not_found"


def test_single_mode_keeps_no_transcript(stack: Stack) -> None:
    events = run_turn(stack.chat_url, {"mode": "single", "message": PHOTOS}, token=stack.token())
    assert events[0].json()["session_id"] is None


def test_the_lowest_tier_asking_for_photos_gets_one_denial_and_no_data(stack: Stack) -> None:
    token = stack.token(sub="basic-user", tiers=("essentials",))
    events = run_turn(
        stack.chat_url, {"message": PHOTOS, "capability_hint": ["photo_ai"]}, token=token
    )
    assert events[-1].event == "done"
    denials = [e.json() for e in events if e.event == "notice" and e.json()["kind"] == "denied"]
    assert len(denials) == 1 and denials[0]["text"]
    refs = next(e.json() for e in events if e.event == "references")
    assert refs["citations"] == []  # no card, so no thumbnail
    assert all(c["total"] is None and c["grade"] == "UNKNOWN" for c in refs["counts"])
    assert not re.search(r"\d", events[-1].json()["answer"])
    turn_id = events[0].json()["turn_id"]
    log = httpx.get(f"{stack.mcp_origin}/dev/requests", timeout=10).json()["requests"]
    assert not [e for e in log if e["turn"] == turn_id and e["tool"] == "search_photos"]
    assert not [e for e in events if e.event == "tool_call" and e.json()["tool"] == "search_photos"]


@pytest.mark.parametrize("locale", ["en", "ko", "ja", "de", "es"])
def test_the_denial_is_structured_copy_in_the_callers_locale(stack: Stack, locale: str) -> None:
    token = stack.token(sub="basic-user", tiers=("essentials",))
    events = run_turn(stack.chat_url, {"message": PHOTOS, "locale": locale}, token=token)
    (denial,) = [
        e.json()["text"] for e in events if e.event == "notice" and e.json()["kind"] == "denied"
    ]
    from beacon.policy.notices import denial_notice

    assert denial == denial_notice("photo_ai", locale)


@pytest.fixture(scope="module")
def known_store_chat(
    stack: Stack, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[str, TurnStore]]:
    """A chat server whose database and keys the test can open afterwards."""
    with chat_with_open_store(stack, tmp_path_factory.mktemp("known-store"), "audit1") as chat:
        yield chat


def test_every_verdict_leaves_an_audit_row(
    stack: Stack, known_store_chat: tuple[str, TurnStore]
) -> None:
    chat, store = known_store_chat
    token = stack.token(sub="audited", tiers=("essentials",))
    events = run_turn(chat, {"message": PHOTOS, "capability_hint": ["photo_ai"]}, token=token)
    rows = store.audit_rows(events[0].json()["turn_id"])
    by_tool = {r.tool: r for r in rows}
    assert not by_tool["search_photos"].allowed and by_tool["search_photos"].hint_present
    assert by_tool["list_projects"].allowed
    assert all(r.sub == "audited" for r in rows)


def test_feedback_is_the_owners_and_sealed(
    stack: Stack, known_store_chat: tuple[str, TurnStore]
) -> None:
    chat, store = known_store_chat
    owner = stack.token(sub="rater")
    events = run_turn(chat, {"message": PHOTOS}, token=owner)
    turn_id = events[0].json()["turn_id"]
    url = f"{chat}/v1/turns/{turn_id}/feedback"
    mine = httpx.post(
        url,
        json={"rating": "down", "comment": "wrong level"},
        headers={"Authorization": f"Bearer {owner}"},
        timeout=10,
    )
    theirs = httpx.post(
        url,
        json={"rating": "up"},
        headers={"Authorization": f"Bearer {stack.token(sub='x')}"},
        timeout=10,
    )
    bad = httpx.post(
        url, json={"rating": "meh"}, headers={"Authorization": f"Bearer {owner}"}, timeout=10
    )
    assert (mine.status_code, theirs.status_code, bad.status_code) == (204, 404, 422)
    assert store.feedback(turn_id) == ("down", "wrong level")
