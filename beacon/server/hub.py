"""Live turns: one background task per turn, any number of followers.

A turn runs to its terminal whether or not anyone is listening (a client
disconnect never cancels it). Frames are appended to the live log as they are
made and sealed into the store together with the terminal, which is published
last; followers read the log from any seq and wait for more. Followers never
register anything, so an old connection going away cannot unregister a newer
one.
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
        # A turn's frames are published as they are made and saved whole with its
        # terminal, in one commit: the terminal is published only once that
        # commit is in, so a finished turn replays from the store exactly as it
        # streamed, while the turn was live its followers read this log, and a
        # turn costs the store one commit of frames, not one per burst of them.
        held: list[Frame] = []
        try:
            async for frame in frames:
                held.append(frame)
                terminal = frame.type in TERMINAL_FRAMES
                if terminal:
                    await self._save(live, held, persist)
                await live.append(frame.encode(), terminal=terminal)
        finally:
            if held and held[-1].type not in TERMINAL_FRAMES:
                await self._save(live, held, persist)  # ended early: keep what it said
            await live.close()
            self._live.pop(live.turn_id, None)

    @staticmethod
    async def _save(live: LiveTurn, held: list[Frame], persist: Persist) -> None:
        try:
            await persist(held)
        except Exception:
            # The live log still carries the frames: followers must see the
            # terminal even when the store is failing.
            log.exception("turn %s: %d frames not persisted", live.turn_id, len(held))

    async def drain(self, timeout_s: float = 10.0) -> None:
        """Let running turns finish (shutdown), bounded."""
        with anyio.move_on_after(timeout_s):
            for task in list(self._tasks):
                with contextlib.suppress(Exception):
                    await task
