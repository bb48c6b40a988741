"""Following a turn another process drives (a shared store: PostgreSQL).

A reattach may land on any server process. When the turn is not this
process's, its frames are read from the store — first those after the
client's last seq, then each batch as its commit is announced (the store's
``notifications``: NOTIFY, sent in the writing transaction) — until the
terminal. Reading from the store is not a second copy of the truth: what a
follower here receives is byte for byte what the driving process published,
since that process publishes only committed frames.

Every wait is bounded: with no announcement for ``poll_s`` the follower reads
anyway (a lost or late notification costs latency, never frames) and asks the
store whether the driving process is gone; if it is, the turn ends there with
one ``interrupted`` error and the follower reads it like any other frame.

A store that goes away (a restart) is waited for, bounded by ``store_wait_s``;
if it stays away the stream ends with an SSE comment saying so — a cut the
client reconnects from with ``Last-Event-ID``, never a silent end.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Callable

import anyio

from beacon.store.errors import StoreUnavailable
from beacon.store.frames import StoredFrame
from beacon.store.turns import TurnStore
from beacon.wire.turns import MAX_SEQ

log = logging.getLogger(__name__)
POLL_S = 2.0
RECONNECT_S = 1.0
STORE_WAIT_S = 30.0
CUT = b": the turn store is unavailable; reconnect with Last-Event-ID\n\n"
# A follower outlives no turn: the longest a turn may run, with margin.
MAX_FOLLOW_S = 30 * 60.0


class StoreFollowers:
    """This process's followers of turns other processes drive, woken by the store."""

    def __init__(
        self,
        store: TurnStore,
        interrupted: Callable[[str, int], bytes],
        *,
        poll_s: float = POLL_S,
        store_wait_s: float = STORE_WAIT_S,
    ) -> None:
        self._store = store
        self._interrupted = interrupted
        self._poll_s = poll_s
        self._store_wait_s = store_wait_s
        self._waiting: dict[str, set[asyncio.Event]] = {}
        self._listener: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._listener = asyncio.create_task(self._listen(), name="frame-announcements")

    async def stop(self) -> None:
        if self._listener is not None:
            self._listener.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._listener

    async def _listen(self) -> None:
        while True:
            try:
                async for turn_ids in self._store.notifications():
                    for turn_id in turn_ids:
                        for event in self._waiting.get(turn_id, ()):
                            event.set()
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                # Followers keep reading on their own timer meanwhile.
                log.warning("frame announcements lost (%r); listening again", exc)
            await asyncio.sleep(RECONNECT_S)

    async def _read(self, turn_id: str, after: int) -> tuple[str | None, list[StoredFrame]] | None:
        """The turn's status and frames after ``after``; None if the store stays away."""
        give_up = time.monotonic() + self._store_wait_s
        while True:
            try:
                return await anyio.to_thread.run_sync(self._store.frames_since, turn_id, after)
            except StoreUnavailable:
                if time.monotonic() >= give_up:
                    return None
                await asyncio.sleep(min(RECONNECT_S, self._poll_s))

    async def until_ended(self, turn_id: str) -> bool:
        """Until the turn no longer runs, reading none of its frames, every wait
        bounded as ``follow``'s; False if the store stayed away meanwhile."""
        async for chunk in self.follow(turn_id, MAX_SEQ):
            if chunk == CUT:
                return False
        return True

    async def follow(
        self,
        turn_id: str,
        after: int,
        first: tuple[str | None, list[StoredFrame]] | None = None,
    ) -> AsyncIterator[bytes]:
        """Frames with seq > ``after`` until the terminal, as they are committed
        (``first``: the route's own first read, when it made one)."""
        event = asyncio.Event()
        self._waiting.setdefault(turn_id, set()).add(event)
        index = after
        deadline = time.monotonic() + MAX_FOLLOW_S
        try:
            while time.monotonic() < deadline:
                event.clear()  # before reading: an announcement after the read wakes us
                read: tuple[str | None, list[StoredFrame]] | None = first
                first = None
                if read is None:
                    read = await self._read(turn_id, index)
                if read is None:
                    yield CUT
                    return
                status, frames = read
                if frames:
                    yield b"".join(body for _, body in frames)
                    index = frames[-1][0]
                if status != "running":
                    return  # read after the status: the terminal was among the frames
                try:
                    await asyncio.wait_for(event.wait(), self._poll_s)
                except TimeoutError:
                    # Quiet for a while: is the process driving it still there?
                    with contextlib.suppress(StoreUnavailable):
                        await anyio.to_thread.run_sync(
                            self._store.interrupt_running, self._interrupted, turn_id
                        )
        finally:
            waiting = self._waiting.get(turn_id, set())
            waiting.discard(event)
            if not waiting:
                self._waiting.pop(turn_id, None)
