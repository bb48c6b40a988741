"""One load-more per (turn, slot) at a time, in this process.

A page is read from the store, served and written back; two calls doing that at
once both read the same record and both served the same cards. Calls on one slot
take turns: each reads what the one before it wrote, so it gets the next page
(or a 409 when there is none), never a page already served.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager


class SlotLocks:
    def __init__(self) -> None:
        # A lock lives while someone holds or waits for it: the map never outgrows
        # the load-mores in flight.
        self._locks: dict[tuple[str, str], tuple[asyncio.Lock, int]] = {}

    def __len__(self) -> int:
        return len(self._locks)

    @asynccontextmanager
    async def hold(self, turn_id: str, slot: str) -> AsyncIterator[None]:
        key = (turn_id, slot)
        lock, users = self._locks.get(key, (asyncio.Lock(), 0))
        self._locks[key] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._locks[key]
            if users == 1:
                del self._locks[key]
            else:
                self._locks[key] = (lock, users - 1)
