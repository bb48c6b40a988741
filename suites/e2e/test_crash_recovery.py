"""A chat server SIGKILLed with turns in flight loses nothing a client saw.

Real processes: twenty turns stream until each client holds its `references`
frame (the model then stalls at the answer, as ``model-stall`` does), the
server is killed with SIGKILL, a new server starts on the same database, and
every turn is reattached from seq 0. Each replays, byte for byte, every frame
its client had received, then ends with exactly one terminal: `interrupted`.
"""

from __future__ import annotations

import os
import signal
import subprocess
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest

from beacon.loop.frames import FrameMaker
from beacon.store.crypto import new_key_slot, parse_keys
from beacon.store.frames import OpenTurn
from beacon.store.sqlite import SqliteStore
from beacon.wire.sse import SseEvent, parse_sse
from harness.chat_process import chat_env, chat_process
from harness.stack import Stack

pytestmark = pytest.mark.e2e
TURNS = 20
QUESTION = "Photos of missing hard hats in Harbor Tower"


def split_frames(raw: bytes) -> list[SseEvent]:
    """The whole SSE frames in ``raw`` (a trailing partial frame is left out)."""
    return list(parse_sse(raw.decode(errors="replace").split("\n")))


def stream_until_references(
    url: str, token: str, seen: dict[str, bytes], ready: threading.Barrier
) -> None:
    """Read one turn's stream until its `references` frame, then wait for the kill."""
    received = b""
    turn_id = ""
    headers = {"Authorization": f"Bearer {token}", "X-Beacon-Scenario": "model-stall"}
    try:
        with httpx.stream(
            "POST",
            f"{url}/v1/turns",
            json={"mode": "single", "message": QUESTION},
            headers=headers,
            timeout=httpx.Timeout(60.0, connect=5.0),
        ) as response:
            for chunk in response.iter_bytes():
                received += chunk
                frames = split_frames(received)
                if frames and not turn_id:
                    turn_id = frames[0].json()["turn_id"]
                if any(f.event == "references" for f in frames):
                    seen[turn_id] = received
                    ready.wait(timeout=60)
                    # Keep reading: whatever else arrives before the kill was seen too.
                    for more in response.iter_bytes():
                        received += more
                        seen[turn_id] = received
    except (httpx.HTTPError, threading.BrokenBarrierError):
        pass  # the server died under us: that is the test
    if turn_id:
        seen[turn_id] = received


def test_a_sigkill_loses_no_frame_a_client_saw_and_every_turn_ends_once(
    stack: Stack, token: str, tmp_path: Path
) -> None:
    env = chat_env(stack, tmp_path, BEACON_KEYS=new_key_slot("crash"), BEACON_SCENARIOS="allow")
    seen: dict[str, bytes] = {}
    ready = threading.Barrier(TURNS + 1)
    with chat_process(env) as (url, proc), ThreadPoolExecutor(TURNS) as pool:
        for _ in range(TURNS):
            pool.submit(stream_until_references, url, token, seen, ready)
        ready.wait(timeout=90)  # every client holds its references frame
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
    assert len(seen) == TURNS
    with chat_process(env) as (url, _):
        for turn_id, received in seen.items():
            replay = httpx.get(
                f"{url}/v1/turns/{turn_id}/events",
                params={"after": 0},
                headers={"Authorization": f"Bearer {token}"},
                timeout=30,
            )
            assert replay.status_code == 200
            # Every byte the client received is replayed as it was sent …
            assert replay.content.startswith(received), turn_id
            frames = split_frames(replay.content)
            assert [f.id for f in frames] == [str(n) for n in range(1, len(frames) + 1)]
            # … and the turn ends exactly once, as interrupted.
            terminals = [f for f in frames if f.event in ("done", "error")]
            assert len(terminals) == 1 and frames[-1] is terminals[0]
            assert terminals[0].json()["code"] == "interrupted"
            # Reattaching again gives the same bytes: the turn was finished once.
            again = httpx.get(
                f"{url}/v1/turns/{turn_id}/events",
                params={"after": 0},
                headers={"Authorization": f"Bearer {token}"},
                timeout=30,
            )
            assert again.content == replay.content


def _stuck_turns(url: str, token: str, proc: subprocess.Popen[bytes], count: int) -> list[str]:
    """``count`` turns streaming until their `references`, then the server SIGKILLed."""
    seen: dict[str, bytes] = {}
    ready = threading.Barrier(count + 1)
    with ThreadPoolExecutor(count) as pool:
        for _ in range(count):
            pool.submit(stream_until_references, url, token, seen, ready)
        ready.wait(timeout=90)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
    return list(seen)


def test_start_up_ends_the_turns_a_killed_process_left_running_before_anyone_asks(
    stack: Stack, token: str, tmp_path: Path
) -> None:
    """The start-up path alone: nobody reattaches, yet each stuck turn is finished."""
    keys = new_key_slot("startup")
    env = chat_env(stack, tmp_path, BEACON_KEYS=keys, BEACON_SCENARIOS="allow")
    with chat_process(env) as (url, proc):
        stuck = _stuck_turns(url, token, proc, 3)
    store = SqliteStore(tmp_path / "beacon.sqlite3", parse_keys(keys))
    before = [store.turn(t) for t in stuck]
    assert all(r is not None and r.status == "running" for r in before)
    with chat_process(env):
        # The server is listening: its start-up has run. No client has asked for a turn.
        for turn_id in stuck:
            record = store.turn(turn_id)
            assert record is not None and record.status == "error", turn_id
            frames = split_frames(b"".join(store.frames_after(turn_id, 0)))
            assert [f.event for f in frames].count("error") == 1
            assert frames[-1].json()["code"] == "interrupted"


def test_reattaching_to_a_turn_its_dead_writer_left_running_ends_it_once(
    stack: Stack, token: str, tmp_path: Path
) -> None:
    """The reattach path alone: the turn went stuck after this server started (another
    writer of the same database died), so start-up never saw it."""
    keys = new_key_slot("reattach")
    env = chat_env(stack, tmp_path, BEACON_KEYS=keys, BEACON_SCENARIOS="allow")
    with chat_process(env) as (url, _):
        writer = SqliteStore(tmp_path / "beacon.sqlite3", parse_keys(keys))
        turn_id = "t_" + "a" * 20
        start = FrameMaker(turn_id).make("start", session_id=None, mode="single")
        writer.append_frames(
            [(turn_id, 1, "start", start.encode())],
            opens=[OpenTurn(turn_id, "dev-user", None, "single")],
        )
        writer.close()  # its process is gone: nothing will ever finish this turn
        replay = httpx.get(
            f"{url}/v1/turns/{turn_id}/events",
            params={"after": 0},
            headers={"Authorization": f"Bearer {token}"},
            timeout=30,
        )
        frames = split_frames(replay.content)
        assert [f.event for f in frames] == ["start", "error"]
        assert frames[-1].json()["code"] == "interrupted"
        again = httpx.get(
            f"{url}/v1/turns/{turn_id}/events",
            params={"after": 0},
            headers={"Authorization": f"Bearer {token}"},
            timeout=30,
        )
        assert again.content == replay.content  # finished once
