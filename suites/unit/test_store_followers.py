"""Waiting for another process's turn to end (a follower whose answer must wait for
the turn's end) reads none of its frames, is woken by the store's announcement,
and tells a store that stayed away from an ended turn."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from typing import cast

from beacon.server.follow import StoreFollowers
from beacon.store.errors import StoreUnavailable
from beacon.store.frames import StoredFrame
from beacon.store.turns import TurnStore


class _Store:
    """A turn another process drives: running until ``end()``; frames_since logged."""

    def __init__(self, *, away: bool = False) -> None:
        self.status = "running"
        self.away = away
        self.reads: list[int] = []
        self.announced: asyncio.Queue[list[str]] = asyncio.Queue()

    def end(self) -> None:
        self.status = "done"
        self.announced.put_nowait(["t1"])

    def frames_since(self, turn_id: str, after: int) -> tuple[str | None, list[StoredFrame]]:
        if self.away:
            raise StoreUnavailable("the store is restarting")
        self.reads.append(after)
        return self.status, [(1, b"event: start\n\n")] if after < 1 else []

    def interrupt_running(self, _: Callable[[str, int], bytes], turn_id: str) -> list[str]:
        return []

    async def notifications(self) -> AsyncIterator[list[str]]:
        while True:
            yield await self.announced.get()


def _followers(store: _Store, **bounds: float) -> StoreFollowers:
    return StoreFollowers(cast(TurnStore, store), lambda _t, _s: b"", **bounds)


async def test_a_wait_for_a_turns_end_returns_once_the_store_says_it_ended() -> None:
    store = _Store()
    followers = _followers(store, poll_s=30.0)  # only the announcement can wake it in time
    followers.start()
    try:
        waiting = asyncio.create_task(followers.until_ended("t1"))
        await asyncio.sleep(0.05)
        assert not waiting.done()
        store.end()
        assert await asyncio.wait_for(waiting, 5) is True
    finally:
        await followers.stop()
    # Each read asked for frames past any seq: none of the turn's was read.
    assert store.reads and all(after > 1_000_000 for after in store.reads)


async def test_a_wait_for_a_turns_end_tells_a_store_that_stayed_away() -> None:
    store = _Store(away=True)
    followers = _followers(store, poll_s=0.01, store_wait_s=0.05)
    assert await asyncio.wait_for(followers.until_ended("t1"), 5) is False
