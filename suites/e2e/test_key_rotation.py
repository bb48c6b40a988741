"""Key rotation to the end, over real processes on one PostgreSQL database: a server
refuses a ring that lacks a key records still need, naming ``beacon store reseal``;
the reseal runs beside a serving process (a turn in flight, whole turns posted) and
exits 0; after it, a server holding only the new key replays every turn as sent."""

from __future__ import annotations

import subprocess
import threading
from pathlib import Path

import pytest

from beacon.cli.up import free_port
from beacon.store.crypto import new_key_slot
from harness.chat_process import chat_env, chat_process
from harness.stack import Stack, beacon_executable
from harness.turn_streams import PANORAMAS, StreamedTurn, events, post, turn_id_of

pytestmark = [pytest.mark.e2e, pytest.mark.xdist_group("postgres-e2e"), pytest.mark.timeout(240)]


def _env(stack: Stack, url: str, tmp_path: Path, keys: str) -> dict[str, str]:
    # Heartbeats every 0.3 s: the stalled turn writes frames all through the reseal.
    return chat_env(
        stack,
        tmp_path,
        BEACON_DB=url,
        BEACON_KEYS=keys,
        BEACON_HEARTBEAT_S="0.3",
        BEACON_ANSWER_DEADLINE_S="8",
    )


def _beacon(
    env: dict[str, str], *args: str, timeout_s: float = 120
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [beacon_executable(), *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout_s,
        check=False,
    )


def test_a_retired_key_is_dropped_after_a_reseal_made_while_a_server_serves(
    stack: Stack, pg_url: str, tmp_path: Path
) -> None:
    k1, k2 = new_key_slot("k1"), new_key_slot("k2")
    token = stack.token(sub="reseal")
    sent: dict[str, bytes] = {}

    def turn(origin: str) -> None:
        reply = post(origin, token, PANORAMAS)
        assert reply.status_code == 200, reply.text
        sent[turn_id_of(reply)] = reply.content

    with chat_process(_env(stack, pg_url, tmp_path, k1)) as (a, _):
        for _ in range(2):
            turn(a)
    rotated = _env(stack, pg_url, tmp_path, f"{k2},{k1}")
    with chat_process(rotated) as (b, _):
        for _ in range(3):  # the most recent turns open with k2: only the census sees k1
            turn(b)
        # Bounded: a server that wrongly starts would otherwise serve until killed.
        only_k2 = _env(stack, pg_url, tmp_path, k2)
        refused = _beacon(only_k2, "serve", "--port", str(free_port()), timeout_s=60)
        assert refused.returncode == 2, refused.stderr[-2000:]
        lines = refused.stderr.strip().splitlines()
        assert len(lines) == 1, refused.stderr[-2000:]
        assert "lacks keys that still seal records in BEACON_DB: 'k1'" in lines[0]
        assert "run `beacon store reseal`" in lines[0]

        in_flight = StreamedTurn(b, token)
        assert in_flight.seen.wait(30)
        served: list[str] = []
        resealed = threading.Event()

        def serve() -> None:
            while not resealed.is_set():
                turn(b)
                served.append("turn")

        server_side = threading.Thread(target=serve)
        server_side.start()
        done = _beacon(rotated, "store", "reseal", "--batch", "5")
        resealed.set()
        server_side.join(timeout=120)
        live = in_flight.join()
        sent[in_flight.turn_id] = live
    assert done.returncode == 0, done.stdout + done.stderr
    out = done.stdout.splitlines()
    assert out[0] == "re-sealing under key 'k2', 5 records a batch"
    assert [line.split(":")[0] for line in out[1:-1]] == [
        "frames.body",
        "answers.body",
        "answers.sources",
        "messages.body",
        "narrowing.body",
        "pages.body",
        "feedback.body",
        "narration_audit.token",
    ]
    assert out[-1].startswith("done: ") and ", 0 unreadable, in " in out[-1]

    census = _beacon(rotated, "store", "keys")
    assert census.returncode == 0, census.stderr
    assert "k1" not in census.stdout and census.stdout.splitlines()[-1].startswith("total: k2 ")
    with chat_process(_env(stack, pg_url, tmp_path, k2)) as (c, _):
        for turn_id, raw in sent.items():
            replay = events(c, token, turn_id)
            assert replay.status_code == 200, replay.text
            assert replay.content == raw
