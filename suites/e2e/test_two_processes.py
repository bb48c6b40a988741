"""Two `beacon serve` processes on one PostgreSQL serve the same users (issue 16).

Real processes, real HTTP, a throwaway PostgreSQL cluster started by the test
session: a turn started on one process replays byte for byte and follows live
on the other (and to a token granting what it may still use: one narrowed
meanwhile is refused on either, then decided by what it used once it ended);
a session written by one is read and continued by the other;
another user gets the same 404 on either; a turn whose process is SIGKILLed
ends with exactly one `interrupted` error when reattached on the survivor (and
a live process's turn is never interrupted); concurrent load-mores of one slot
spread over both processes get different pages; turns spread over both lose
nothing.
"""

from __future__ import annotations

import asyncio
import signal
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest

from beacon.store.crypto import new_key_slot
from harness.chat_process import chat_env, chat_process
from harness.postgres import turn_status
from harness.stack import Stack
from harness.turn_streams import (
    PANORAMAS,
    STALLED,
    StreamedTurn,
    auth,
    events,
    frames_of,
    post,
    turn_id_of,
    whole_frames,
)

pytestmark = [pytest.mark.e2e, pytest.mark.xdist_group("postgres-e2e")]


@pytest.fixture
def shared_env(stack: Stack, pg_url: str, tmp_path: Path) -> dict[str, str]:
    """One database, one key ring: what two processes of one deployment share.
    Heartbeats every 0.3 s, so a stalled turn keeps making frames to follow."""
    return chat_env(
        stack,
        tmp_path,
        BEACON_DB=pg_url,
        BEACON_KEYS=new_key_slot("shared"),
        BEACON_HEARTBEAT_S="0.3",
        BEACON_ANSWER_DEADLINE_S="4",
    )


@pytest.fixture
def two(shared_env: dict[str, str]) -> Iterator[tuple[str, str]]:
    with chat_process(shared_env) as (a, _), chat_process(shared_env) as (b, _):
        yield a, b


def test_a_turn_started_on_one_process_follows_live_on_the_other(
    stack: Stack, two: tuple[str, str]
) -> None:
    a, b = two
    token = stack.token(sub="follower")
    turn = StreamedTurn(a, token)
    assert turn.seen.wait(60) and turn.turn_id
    held_at_attach = turn.raw
    assert all(f.event not in ("done", "error") for f in frames_of(held_at_attach))
    followed = events(b, token, turn.turn_id)  # while A still drives the turn
    original = turn.join()
    assert followed.status_code == 200
    # Byte for byte what A's client received, through to the one terminal, which
    # was made after B attached: B followed it live, not from a finished record.
    assert followed.content == original
    kinds = [f.event for f in frames_of(followed.content)]
    assert kinds.count("heartbeat") >= 2 and kinds[-1] in ("done", "error")
    assert sum(k in ("done", "error") for k in kinds) == 1
    assert len(frames_of(original)) > len(frames_of(held_at_attach))
    # A follower that starts mid-way gets exactly the rest.
    tail = events(b, token, turn.turn_id, after=3)
    assert frames_of(tail.content) == frames_of(original)[3:]


def test_a_running_turn_is_followed_on_either_process_only_by_a_token_granting_what_it_may_use(
    stack: Stack, shared_env: dict[str, str]
) -> None:
    full = stack.token(sub="narrowed")  # enterprise_ai: every capability
    # Core and photos only: enough for what a photo turn uses, not for all it may use.
    photos = stack.token(sub="narrowed", tiers=("essentials", "only:photo_ai"))
    core = stack.token(sub="narrowed", tiers=("essentials",))
    # A deadline far past the test's own steps: the stalled turn is surely still
    # running when the narrowed token asks, however slow the machine.
    held = {**shared_env, "BEACON_ANSWER_DEADLINE_S": "60"}
    with chat_process(held) as (a, proc_a), chat_process(held) as (b, proc_b):
        try:
            turn = StreamedTurn(a, full)
            assert turn.seen.wait(60) and turn.turn_id
            for url in (a, b):  # A drives it (live); B follows it from the store
                refused = events(url, photos, turn.turn_id)
                assert refused.status_code == 403 and refused.json()["error"]["code"] == "denied"
                assert "event:" not in refused.text  # not one frame of it
            assert not turn.finished.is_set()
            # Ended, a turn is decided by what it used: photos (and core) — readable
            # with that token on either process, still refused to one without photos.
            ended = post(a, full, STALLED)
            for url in (a, b):
                replay = events(url, photos, turn_id_of(ended))
                assert replay.status_code == 200 and replay.content == ended.content
                assert events(url, core, turn_id_of(ended)).status_code == 403
        finally:
            for proc in (proc_a, proc_b):  # a graceful stop would wait for the stalled turn
                proc.kill()


def test_a_running_turn_without_a_kept_grant_reaches_a_narrower_token_only_once_ended(
    stack: Stack, shared_env: dict[str, str], pg_url: str
) -> None:
    full = stack.token(sub="upgraded")  # enterprise_ai: every capability
    photos = stack.token(sub="upgraded", tiers=("essentials", "only:photo_ai"))
    core = stack.token(sub="upgraded", tiers=("essentials",))

    def follow(url: str, token: str, turn_id: str) -> tuple[str, int, bytes]:
        """The turn's status when the follower's answer began, its code and body."""
        with httpx.stream(
            "GET",
            f"{url}/v1/turns/{turn_id}/events",
            headers=auth(token),
            timeout=httpx.Timeout(60.0, connect=5.0),
        ) as response:
            began = turn_status(pg_url, turn_id)
            return began, response.status_code, response.read()

    # The shared env's answer deadline (4 s) ends the stalled turn by itself.
    with chat_process(shared_env) as (a, _), chat_process(shared_env) as (b, _):
        turn = StreamedTurn(a, full)
        assert turn.seen.wait(60) and turn.turn_id
        # As a server of the version before ``granted`` was kept had written it.
        with psycopg.connect(pg_url) as conn:
            conn.execute("UPDATE turns SET granted = NULL WHERE id = %s", (turn.turn_id,))
        with ThreadPoolExecutor(max_workers=3) as pool:
            followers = [pool.submit(follow, b, t, turn.turn_id) for t in (full, photos, core)]
            original = turn.join()
            answers = [f.result(timeout=60) for f in followers]
    (live_at, live_code, live), (photos_at, photos_code, replay), (core_at, core_code, _) = answers
    assert frames_of(original)[-1].event in ("done", "error")
    # Every capability granted: nothing to decide, followed live from the store.
    assert (live_at, live_code, live) == ("running", 200, original)
    # Narrower tokens are answered only after the turn ended, by what it used: the
    # photos it searched (readable with photos, refused to core alone).
    assert photos_at != "running" and (photos_code, replay) == (200, original)
    assert core_at != "running" and core_code == 403


def test_another_user_gets_the_same_404_on_either_process(
    stack: Stack, two: tuple[str, str]
) -> None:
    a, b = two
    owner = stack.token(sub="owner-x")
    done = post(a, owner, STALLED, mode="chat")
    turn_id = turn_id_of(done)
    session_id = done.headers["x-beacon-session"]
    stranger = stack.token(sub="stranger-x")
    for url in (a, b):
        assert events(url, owner, turn_id).status_code == 200
        assert events(url, stranger, turn_id).status_code == 404
        session = httpx.get(f"{url}/v1/sessions/{session_id}", headers=auth(stranger), timeout=30)
        assert session.status_code == 404


def test_a_session_written_by_one_process_is_read_and_continued_by_the_other(
    stack: Stack, two: tuple[str, str]
) -> None:
    a, b = two
    token = stack.token(sub="roamer")
    first = post(a, token, "How many open safety findings are in Harbor Tower?", mode="chat")
    assert frames_of(first.content)[-1].event == "done"
    session_id = first.headers["x-beacon-session"]
    read_on_b = httpx.get(f"{b}/v1/sessions/{session_id}", headers=auth(token), timeout=30)
    assert read_on_b.status_code == 200
    assert [m["role"] for m in read_on_b.json()["messages"]] == ["user", "assistant"]
    second = post(b, token, "And on level 3?", mode="chat", session_id=session_id)
    assert frames_of(second.content)[-1].event == "done"
    read_on_a = httpx.get(f"{a}/v1/sessions/{session_id}", headers=auth(token), timeout=30)
    texts = [m["text"] for m in read_on_a.json()["messages"]]
    assert texts[0].startswith("How many") and texts[2] == "And on level 3?"
    assert len(texts) == 4


def test_a_turn_whose_process_is_killed_ends_interrupted_on_the_survivor(
    stack: Stack, shared_env: dict[str, str]
) -> None:
    token = stack.token(sub="survivor")
    with chat_process(shared_env) as (a, proc_a), chat_process(shared_env) as (b, _):
        turn = StreamedTurn(a, token)
        assert turn.seen.wait(60) and turn.turn_id
        # While A lives, a reattach on B must not end A's turn: read a little, let go.
        with httpx.stream(
            "GET", f"{b}/v1/turns/{turn.turn_id}/events", headers=auth(token), timeout=30
        ) as response:
            first = next(response.iter_bytes())
        assert b"interrupted" not in first
        proc_a.send_signal(signal.SIGKILL)
        proc_a.wait(timeout=10)
        received = turn.join()
        replay = events(b, token, turn.turn_id)
    frames = frames_of(replay.content)
    assert replay.content.startswith(b"".join(whole_frames(received)))
    assert [f.event for f in frames].count("error") == 1
    assert frames[-1].event == "error"
    assert frames[-1].json()["code"] == "interrupted"


async def _more_at_once(urls: list[str], token: str, turn_id: str, slot: str) -> list[Any]:
    async with httpx.AsyncClient(timeout=120) as client:
        replies = await asyncio.gather(
            *(
                client.post(
                    f"{url}/v1/turns/{turn_id}/more", json={"slot": slot}, headers=auth(token)
                )
                for url in urls
            )
        )
    assert [r.status_code for r in replies] == [200] * len(urls)
    return [r.json() for r in replies]


def test_load_mores_of_one_slot_spread_over_both_processes_get_different_pages(
    stack: Stack, two: tuple[str, str]
) -> None:
    a, b = two
    token = stack.token(sub="eager-two")
    done = post(a, token, PANORAMAS)
    frames = frames_of(done.content)
    turn_id = turn_id_of(done)
    (references,) = [f.json() for f in frames if f.event == "references"]
    (count,) = references["counts"]
    replies = asyncio.run(_more_at_once([a, b] * 4, token, turn_id, count["slot"]))
    ids = [c["id"] for reply in replies for c in reply["citations"]]
    assert len(ids) == 80 and len(set(ids)) == 80  # no page served twice
    assert sorted(r["count"]["displayed"] for r in replies) == [20, 30, 40, 50, 60, 70, 80, 90]


def test_turns_spread_over_both_processes_lose_nothing_and_replay_anywhere(
    stack: Stack, two: tuple[str, str], pg_url: str
) -> None:
    urls = list(two)
    token = stack.token(sub="spread")

    def spread(n: int) -> tuple[str, bytes]:
        reply = post(urls[n % 2], token, PANORAMAS if n % 3 else STALLED)
        return urls[(n + 1) % 2], reply.content

    with ThreadPoolExecutor(max_workers=20) as pool:
        results = list(pool.map(spread, range(40)))
    for other, raw in results:
        frames = frames_of(raw)
        assert [f.id for f in frames] == [str(n) for n in range(1, len(frames) + 1)]
        assert frames[-1].event == "done"
        turn_id = frames[0].json()["turn_id"]
        assert events(other, token, turn_id).content == raw  # replayed by the other one
    with psycopg.connect(pg_url) as conn:
        row = conn.execute("SELECT COUNT(DISTINCT worker) FROM turns").fetchone()
    assert row == (2,)


def test_one_port_with_two_workers_serves_from_both(
    stack: Stack, shared_env: dict[str, str], pg_url: str
) -> None:
    token = stack.token(sub="workers")
    with chat_process(shared_env, "--workers", "2") as (url, _):

        def last_event(_: int) -> str:
            return frames_of(post(url, token, PANORAMAS).content)[-1].event

        deadline = time.monotonic() + 60
        workers = 0
        while workers < 2 and time.monotonic() < deadline:
            with ThreadPoolExecutor(max_workers=8) as pool:
                assert set(pool.map(last_event, range(16))) == {"done"}
            with psycopg.connect(pg_url) as conn:
                row = conn.execute("SELECT COUNT(DISTINCT worker) FROM turns").fetchone()
            workers = row[0] if row else 0
    assert workers == 2
