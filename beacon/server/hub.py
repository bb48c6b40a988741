"""Live turns: one background task per turn, any number of followers.

A turn runs to its terminal whether or not anyone is listening (a client
disconnect never cancels it). Nothing is published before it is durable: each
frame is handed to the process's frame writer as it is made (which commits
every waiting frame of every turn together), and appended to the live log
only once its commit is in. So a client never holds a frame a crash could
take back: after a SIGKILL, every frame any client saw replays from the store,
and the turn is finished there with one ``interrupted`` error. Followers read
the log from any seq and wait for more; they never register anything, so an
old connection going away cannot unregister a newer one.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence

import anyio

from beacon.loop.frames import Frame
from beacon.wire.frames import TERMINAL_FRAMES

log = logging.getLogger(__name__)
# Persisting a turn's frames: an awaitable that resolves once they are stored.
Persist = Callable[[Sequence[Frame]], Awaitable[None]]
# Made when a frame cannot be stored: the turn ends here, in the store and live alike.
SaveFailed = Callable[[int], Frame]


class LiveTurn:
    def __init__(self, turn_id: str, owner: str) -> None:
        self.turn_id = turn_id
        self.owner = owner
        self._log: list[bytes] = []
        self._closed = False
        self._ended = False  # the terminal frame is in the log
        self._changed = asyncio.Condition()

    @property
    def published(self) -> int:
        """How many frames followers can read now."""
        return len(self._log)

    async def append(self, encoded: bytes, *, terminal: bool = False) -> None:
        async with self._changed:
            self._log.append(encoded)
            self._ended = self._ended or terminal
            self._changed.notify_all()

    async def wait_published(self, count: int, publisher: asyncio.Future[None]) -> None:
        """Until ``count`` frames are in the log, or the publisher stopped (a frame
        the store refused ends the turn there)."""
        async with self._changed:
            while len(self._log) < count and not self._ended and not publisher.done():
                await self._changed.wait()

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

    def start(
        self,
        live: LiveTurn,
        frames: AsyncIterator[Frame],
        persist: Persist,
        failed: SaveFailed,
    ) -> None:
        self._live[live.turn_id] = live
        task = asyncio.create_task(self._drive(live, frames, persist, failed), name=live.turn_id)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _drive(
        self, live: LiveTurn, frames: AsyncIterator[Frame], persist: Persist, failed: SaveFailed
    ) -> None:
        # Two halves joined by a queue: the turn never waits on the store, and the
        # publisher stores whatever the turn made since its last commit as one batch
        # (the writer joins it with other turns' batches), then publishes it.
        made: asyncio.Queue[Frame | None] = asyncio.Queue()
        publisher = asyncio.create_task(self._publish(live, made, persist, failed))
        try:
            async for frame in frames:
                made.put_nowait(frame)
                if frame.seq == 1:
                    # The turn's work starts once its `start` is published (stored, in
                    # the log its followers read): under a burst of turns, every start
                    # goes out ahead of the work the turns queue on the event loop.
                    await live.wait_published(1, publisher)
        finally:
            made.put_nowait(None)
            await publisher
            await live.close()
            self._live.pop(live.turn_id, None)

    @staticmethod
    async def _publish(
        live: LiveTurn, made: asyncio.Queue[Frame | None], persist: Persist, failed: SaveFailed
    ) -> None:
        ended = False
        while not ended:
            batch: list[Frame] = []
            item = await made.get()
            while item is not None:
                batch.append(item)
                if made.empty():
                    break
                item = made.get_nowait()
            ended = item is None
            if not batch:
                continue
            try:
                await persist(batch)
            except Exception:
                log.exception("turn %s: frames from %d not stored", live.turn_id, batch[0].seq)
                # Nothing after a refused frame is stored or published: the turn ends there.
                await TurnHub._end_unstored(live, batch[0].seq, persist, failed)
                return
            for frame in batch:
                await live.append(frame.encode(), terminal=frame.type in TERMINAL_FRAMES)

    @staticmethod
    async def _end_unstored(live: LiveTurn, seq: int, persist: Persist, failed: SaveFailed) -> None:
        """A frame the store refused ends the turn at that seq with ``save_failed``:
        stored if the store takes it (then live and replay agree), published anyway,
        since a follower must see a terminal."""
        error = failed(seq)
        try:
            await persist([error])
        except Exception:
            log.exception("turn %s: the save_failed terminal was not stored", live.turn_id)
        await live.append(error.encode(), terminal=True)

    async def drain(self, timeout_s: float = 10.0) -> None:
        """Let running turns finish (shutdown), bounded."""
        with anyio.move_on_after(timeout_s):
            for task in list(self._tasks):
                with contextlib.suppress(Exception):
                    await task
