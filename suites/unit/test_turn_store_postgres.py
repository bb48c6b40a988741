"""The shared turn store (PostgreSQL): several processes on one database — a
load-more slot held across processes and freed when its holder dies, and frames
announced to the listeners of another store once the LISTEN is in place (an
event, never a sleep)."""

from __future__ import annotations

import asyncio
import signal
import subprocess
import sys
import threading

import pytest

from beacon.store.crypto import format_key, generate_key, parse_keys
from beacon.store.frames import OpenTurn
from beacon.store.opening import open_store
from beacon.store.records import SessionNotOwned

K1 = format_key("k1", generate_key())


def test_a_load_more_slot_held_by_one_store_waits_for_its_release_in_another(
    pg_url: str,
) -> None:
    first, second = (open_store(pg_url, parse_keys(K1)) for _ in range(2))
    try:
        held = first.lock_slot("t1", "search#1")
        other_slot = second.lock_slot("t1", "search#2")  # another slot: no wait
        other_slot.release()
        got: list[float] = []
        waiter = threading.Thread(
            target=lambda: (second.lock_slot("t1", "search#1").release(), got.append(1.0))
        )
        waiter.start()
        waiter.join(timeout=0.5)
        assert got == []  # still waiting on the first store's hold
        held.release()
        waiter.join(timeout=10)
        assert got == [1.0]
    finally:
        first.close()
        second.close()


def test_a_slot_held_by_a_process_that_is_killed_is_free_at_once(pg_url: str) -> None:
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time\n"
            "from beacon.store.opening import open_store\n"
            "from beacon.store.crypto import parse_keys\n"
            "held = open_store(sys.argv[1], parse_keys(sys.argv[2])).lock_slot('t1', 'search#1')\n"
            "print('held', flush=True)\n"
            "time.sleep(60)\n",
            pg_url,
            K1,
        ],
        stdout=subprocess.PIPE,
    )
    second = open_store(pg_url, parse_keys(K1))
    try:
        assert holder.stdout is not None and holder.stdout.readline() == b"held\n"
        got: list[int] = []
        waiter = threading.Thread(
            target=lambda: (second.lock_slot("t1", "search#1"), got.append(1))
        )
        waiter.start()
        waiter.join(timeout=0.5)
        assert got == []  # the live holder keeps it
        holder.send_signal(signal.SIGKILL)
        waiter.join(timeout=10)
        assert got == [1]  # its connection died with it, and the lock with that
    finally:
        holder.kill()
        holder.wait(timeout=10)
        assert holder.stdout is not None
        holder.stdout.close()
        second.close()


def test_frames_committed_by_one_store_are_announced_to_listeners_of_another(
    pg_url: str,
) -> None:
    writer, listener = (open_store(pg_url, parse_keys(K1)) for _ in range(2))

    async def first_announcement() -> list[str]:
        listening = asyncio.Event()
        notes = listener.notifications(listening.set)
        pending = asyncio.ensure_future(anext(notes))
        await asyncio.wait_for(listening.wait(), 10)
        # A rolled-back write announces nothing; the committed one does.
        with pytest.raises(SessionNotOwned):
            await asyncio.to_thread(
                writer.append_frames,
                [("t0", 1, "start", b"x")],
                [OpenTurn("t0", "eve", "s1", "chat")],
            )
        await asyncio.to_thread(writer.append_frames, [("t1", 1, "start", b"a")])
        try:
            return await asyncio.wait_for(pending, 10)
        finally:
            await notes.aclose()

    try:
        writer.open_turn("t1", owner="u", session_id="s1", mode="chat")
        assert asyncio.run(first_announcement()) == ["t1"]
    finally:
        writer.close()
        listener.close()
