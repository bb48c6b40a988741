"""Faults an operator meets in the first week, on real PostgreSQL and real processes:
a process's liveness connection terminated, PostgreSQL restarted mid-turn, a
process started with another key ring, a row handed to another owner.

Each asserts one terminal everywhere (the driving process's live stream, a
follower on another process, replay on both), no 500, and that the next turns
succeed without anyone stepping in.
"""

from __future__ import annotations

import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import psycopg
import pytest

from beacon.cli.up import free_port
from beacon.store.crypto import new_key_slot
from beacon.store.postgres import WORKER_LOCKS
from harness.chat_process import chat_env, chat_process
from harness.postgres import Cluster, restart, throwaway_cluster, turn_status
from harness.stack import Stack, beacon_executable
from harness.turn_streams import (
    PANORAMAS,
    StreamedTurn,
    auth,
    events,
    frames_of,
    post,
    turn_id_of,
)

pytestmark = [pytest.mark.e2e, pytest.mark.xdist_group("postgres-e2e"), pytest.mark.timeout(240)]
TERMINALS = ("done", "error")


def _env(stack: Stack, url: str, tmp_path: Path, keys: str) -> dict[str, str]:
    # Heartbeats every 0.3 s keep a stalled turn writing while the fault happens.
    return chat_env(
        stack,
        tmp_path,
        BEACON_DB=url,
        BEACON_KEYS=keys,
        BEACON_HEARTBEAT_S="0.3",
        BEACON_ANSWER_DEADLINE_S="6",
        BEACON_STORE_RETRY_S="20",
    )


def _one_terminal_last(raw: bytes) -> str:
    kinds = [f.event for f in frames_of(raw)]
    assert sum(k in TERMINALS for k in kinds) == 1, kinds
    assert kinds[-1] in TERMINALS, kinds
    return kinds[-1]


def _healthy_again(url: str, within_s: float = 30.0) -> None:
    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{url}/healthz", timeout=2).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.2)
    raise AssertionError(f"{url} did not become ready again within {within_s:g}s")


def _liveness_locks(url: str) -> int:
    with psycopg.connect(url) as conn:
        row = conn.execute(
            "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted "
            "AND classid = %s::oid AND objsubid = 2",
            (WORKER_LOCKS,),
        ).fetchone()
    return int(row[0]) if row else 0


class Follow:
    """A reattach read to its end in a thread (a follower on another process)."""

    def __init__(self, url: str, token: str, turn_id: str) -> None:
        self.raw = b""
        self.status = 0
        self._thread = threading.Thread(target=self._read, args=(url, token, turn_id))
        self._thread.start()

    def _read(self, url: str, token: str, turn_id: str) -> None:
        with httpx.stream(
            "GET",
            f"{url}/v1/turns/{turn_id}/events",
            headers=auth(token),
            timeout=httpx.Timeout(90.0, connect=5.0),
        ) as response:
            self.status = response.status_code
            for chunk in response.iter_bytes():
                self.raw += chunk

    def join(self) -> bytes:
        self._thread.join(120)
        assert not self._thread.is_alive(), "the follower never ended"
        return self.raw


def test_a_process_whose_lock_connection_is_terminated_takes_it_back_and_ends_its_turn_once(
    stack: Stack, pg_url: str, tmp_path: Path
) -> None:
    env = _env(stack, pg_url, tmp_path, new_key_slot("shared"))
    token = stack.token(sub="lock-loss")
    with chat_process(env) as (a, _), chat_process(env) as (b, _):
        turn = StreamedTurn(a, token)
        assert turn.seen.wait(60) and turn.turn_id
        with psycopg.connect(pg_url, autocommit=True) as conn:
            (worker,) = conn.execute(
                "SELECT worker FROM turns WHERE id = %s", (turn.turn_id,)
            ).fetchone() or (None,)
            killed = conn.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' "
                "AND classid = %s::oid AND objid = %s::oid AND objsubid = 2",
                (WORKER_LOCKS, worker),
            ).fetchall()
        assert killed == [(True,)]
        # At once, while A's lock is gone: B may finish A's live turn, or follow it.
        followed = events(b, token, turn.turn_id)
        live = turn.join()
        _one_terminal_last(live)
        assert followed.status_code == 200 and followed.content == live
        for url in (a, b):
            assert events(url, token, turn.turn_id).content == live  # replay agrees
        # Both processes hold a liveness lock again (A's keep-alive runs every second;
        # /healthz may still say ok in the instant before it has noticed).
        deadline = time.monotonic() + 30
        while _liveness_locks(pg_url) != 2 and time.monotonic() < deadline:
            time.sleep(0.2)
        assert _liveness_locks(pg_url) == 2
        _healthy_again(a)
        for _ in range(3):  # and A's later turns do not fail the same way
            assert _one_terminal_last(post(a, token, PANORAMAS).content) == "done"


@pytest.fixture
def own_cluster() -> Iterator[Cluster]:
    """A cluster of this test's own: restarting it disturbs no other test."""
    with throwaway_cluster() as cluster:
        yield cluster


def test_a_postgresql_restart_mid_turn_ends_the_turn_once_everywhere_and_the_next_turns_work(
    stack: Stack, own_cluster: Cluster, tmp_path: Path
) -> None:
    url = own_cluster.create_database("faults")
    env = _env(stack, url, tmp_path, new_key_slot("shared"))
    token = stack.token(sub="restart")
    with chat_process(env) as (a, _), chat_process(env) as (b, _):
        turn = StreamedTurn(a, token)
        assert turn.seen.wait(60) and turn.turn_id
        follower = Follow(b, token, turn.turn_id)
        time.sleep(0.5)  # the follower is attached and reading
        restart(own_cluster.directory)
        live = turn.join()
        followed = follower.join()
        _one_terminal_last(live)
        assert follower.status == 200 and followed == live
        _healthy_again(a)
        _healthy_again(b)
        assert turn_status(url, turn.turn_id) != "running"
        for origin in (a, b):
            replay = events(origin, token, turn.turn_id)
            assert replay.status_code == 200 and replay.content == live
        for origin in (a, b, a, b):
            reply = post(origin, token, PANORAMAS)
            assert reply.status_code == 200, reply.text
            assert _one_terminal_last(reply.content) == "done"


def test_a_process_with_another_key_ring_refuses_to_start_in_one_line(
    stack: Stack, pg_url: str, tmp_path: Path
) -> None:
    with chat_process(_env(stack, pg_url, tmp_path, new_key_slot("k1"))) as (a, _):
        token = stack.token(sub="keys")
        for _ in range(2):
            assert _one_terminal_last(post(a, token, PANORAMAS).content) == "done"
    stranger = _env(stack, pg_url, tmp_path, new_key_slot("k9"))
    done = subprocess.run(
        [beacon_executable(), "serve", "--port", str(free_port())],
        env=stranger,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 2, done.stderr[-2000:]
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr[-2000:]
    assert "BEACON_KEYS opens 0 of the 2 most recent turns in BEACON_DB" in lines[0]


def test_a_record_this_process_cannot_open_is_a_coded_error_and_never_written_into(
    stack: Stack, pg_url: str, tmp_path: Path
) -> None:
    right, wrong = new_key_slot("k1"), new_key_slot("k9")
    token = stack.token(sub="two-rings")
    # B starts on an empty store (nothing to check its ring against), then A writes.
    with chat_process(_env(stack, pg_url, tmp_path / "b", wrong)) as (b, _):
        with chat_process(_env(stack, pg_url, tmp_path / "a", right)) as (a, proc_a):
            finished = turn_id_of(post(a, token, PANORAMAS))
            turn = StreamedTurn(a, token)
            assert turn.seen.wait(60) and turn.turn_id
            proc_a.kill()
            proc_a.wait(timeout=10)
        for turn_id in (finished, turn.turn_id):
            reply = events(b, token, turn_id)
            assert reply.status_code == 500
            assert reply.json()["error"]["code"] == "record_unreadable"
            assert "k1" not in reply.text and "k9" not in reply.text
        assert turn_status(pg_url, turn.turn_id) == "running"  # B wrote nothing into it
    with chat_process(_env(stack, pg_url, tmp_path / "c", right)) as (c, _):
        replay = events(c, token, turn.turn_id)
        assert replay.status_code == 200
        frames = frames_of(replay.content)
        assert frames[-1].event == "error" and frames[-1].json()["code"] == "interrupted"
        _one_terminal_last(replay.content)
