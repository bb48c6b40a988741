"""Live turns: one background task per turn, any number of followers.

A turn runs to its terminal whether or not anyone is listening (a client
disconnect never cancels it). Frames are sealed into the store in seq order
and then appended to the live log; followers read the log from any seq and
wait for more. Followers never register anything, so an old connection going
away cannot unregister a newer one.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable

import anyio

from beacon.loop.frames import Frame
from beacon.wire.frames import TERMINAL_FRAMES

log = logging.getLogger(__name__)
# Persisting a frame: an awaitable that resolves once the frame is stored (a
# future, so queueing one costs no task).
Persist = Callable[[Frame], Awaitable[None]]


class LiveTurn:
    def __init__(self, turn_id: str, owner: str) -> None:
        self.turn_id = turn_id
        self.owner = owner
        self._log: list[bytes] = []
        self._closed = False
        self._ended = False  # the terminal frame is in the log
        self._changed = asyncio.Condition()

    async def append(self, encoded: bytes, *, terminal: bool = False) -> None:
        async with self._changed:
            self._log.append(encoded)
            self._ended = self._ended or terminal
            self._changed.notify_all()

    async def close(self) -> None:
        async with self._changed:
            self._closed = True
            self._changed.notify_all()

    async def follow(self, after: int) -> AsyncIterator[bytes]:
        """Frames with seq > ``after`` (seq n is log index n-1), then live ones."""
        index = max(after, 0)
        while True:
            async with self._changed:
                while index >= len(self._log) and not self._closed:
                    await self._changed.wait()
                batch, over = self._log[index:], self._closed or self._ended
            if batch:
                # Frames that arrived together leave in one write: a turn's tail
                # (deltas, done) is one chunk for the socket and the client.
                yield b"".join(batch)
            index += len(batch)
            # A terminal frame is the last one (the frame table allows nothing
            # after it): the stream ends there, without waiting for the turn's
            # own cleanup, such as closing its upstream session.
            if over and index >= len(self._log):
                return


class TurnHub:
    """The live turns of this process, by id; a finished turn is read from the store."""

    def __init__(self) -> None:
        self._live: dict[str, LiveTurn] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    def get(self, turn_id: str) -> LiveTurn | None:
        return self._live.get(turn_id)

    def start(self, live: LiveTurn, frames: AsyncIterator[Frame], persist: Persist) -> None:
        self._live[live.turn_id] = live
        task = asyncio.create_task(self._drive(live, frames, persist), name=live.turn_id)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _drive(self, live: LiveTurn, frames: AsyncIterator[Frame], persist: Persist) -> None:
        # Persisting is pipelined (the writer batches what is queued) while
        # publishing stays in seq order and after each frame's own commit.
        queue: asyncio.Queue[tuple[Frame, asyncio.Future[None]] | None] = asyncio.Queue()

        async def publish() -> None:
            while (item := await queue.get()) is not None:
                frame, stored = item
                try:
                    await stored
                except Exception:
                    # The live log still carries the frame: followers must see the
                    # terminal even when the store is failing.
                    log.exception("turn %s: frame %d not persisted", live.turn_id, frame.seq)
                await live.append(frame.encode(), terminal=frame.type in TERMINAL_FRAMES)

        publisher = asyncio.create_task(publish())
        try:
            async for frame in frames:
                queue.put_nowait((frame, asyncio.ensure_future(persist(frame))))
        finally:
            queue.put_nowait(None)
            await publisher
            await live.close()
            self._live.pop(live.turn_id, None)

    async def drain(self, timeout_s: float = 10.0) -> None:
        """Let running turns finish (shutdown), bounded."""
        with anyio.move_on_after(timeout_s):
            for task in list(self._tasks):
                with contextlib.suppress(Exception):
                    await task
