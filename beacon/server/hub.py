"""Live turns: one background task per turn, any number of followers.

A turn runs to its terminal whether or not anyone is listening (a client
disconnect never cancels it). Nothing is published before it is durable: each
frame is handed to the process's frame writer as it is made (which commits it
at once on SQLite, and with every waiting frame of every turn on PostgreSQL), and
appended to the live log
only once its commit is in. So a client never holds a frame a crash could
take back: after a SIGKILL, every frame any client saw replays from the store,
and the turn is finished there with one ``interrupted`` error. Followers read
the log from any seq and wait for more; they never register anything, so an
old connection going away cannot unregister a newer one.

When a store write fails because the store is unreachable (a restart, a lost
connection) the publisher does not guess: it waits for the store, bounded by
``Recovery.window_s``, and then publishes what the store holds — its own batch
if that commit landed after all, another process's terminal if one finished
the turn meanwhile — and carries on or ends there. Only when the store stays
away past the window does the turn end with ``save_failed`` live, and that
terminal is written once the store is back, so replay ends the same way.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass
from enum import Enum

import anyio

from beacon.loop.frames import Frame
from beacon.server.openings import Openings
from beacon.telemetry import metrics
from beacon.wire.frames import TERMINAL_FRAMES

log = logging.getLogger(__name__)
# Persisting a turn's frames: an awaitable that resolves once they are stored.
Persist = Callable[[Sequence[Frame]], Awaitable[None]]
# Made when a frame cannot be stored: the turn ends here, in the store and live alike.
SaveFailed = Callable[[int], Frame]
# The turn's stored frames after a seq: (seq, encoded, is it a terminal).
StoredAfter = Callable[[int], Awaitable[list[tuple[int, bytes, bool]]]]
DEFERRED_TERMINAL_S = 600.0  # how long a live save_failed waits to be stored


@dataclass(frozen=True, slots=True)
class Recovery:
    """How a turn's publisher rides out a store that went away."""

    # Worth waiting for: the store is unreachable, or another process took the turn.
    recoverable: Callable[[BaseException], bool]
    stored_after: StoredAfter
    window_s: float = 30.0


class _Outcome(Enum):
    GOING = "going"  # what the store holds is published; the turn goes on
    ENDED = "ended"  # a terminal is published
    LOST = "lost"  # the store stayed away: the turn ends with save_failed


class LiveTurn:
    def __init__(self, turn_id: str, owner: str, granted: frozenset[str] = frozenset()) -> None:
        self.turn_id = turn_id
        self.owner = owner
        # What the starter's token granted: all this turn may use while it runs.
        self.granted = granted
        self._log: list[bytes] = []
        self._closed = False
        self._ended = False  # the terminal frame is in the log
        self._publishing = True  # its publisher still runs
        self.terminal: bytes | None = None  # that frame, as published
        self._changed = asyncio.Condition()

    @property
    def ended(self) -> bool:
        """Its terminal is published (so its answer and audit rows are stored)."""
        return self._ended

    @property
    def published(self) -> int:
        """How many frames followers can read now."""
        return len(self._log)

    async def append(self, encoded: bytes, *, terminal: bool = False) -> None:
        async with self._changed:
            self._log.append(encoded)
            self._ended = self._ended or terminal
            if terminal and self.terminal is None:
                self.terminal = encoded
            self._changed.notify_all()

    async def wait_published(self, count: int, publisher: asyncio.Future[None]) -> None:
        """Until ``count`` frames are in the log, or the publisher stopped (a frame
        the store refused ends the turn there)."""
        async with self._changed:
            while len(self._log) < count and not self._ended and not publisher.done():
                await self._changed.wait()

    async def wait_ended(self) -> bool:
        """Until the terminal is in the log, or nothing more will be (the publisher
        stopped: a frame the store refused ends the turn without it). Whether it
        ended in ``done``: only then is the answer stored (in the commit of ``done``)."""
        async with self._changed:
            while not self._ended and self._publishing and not self._closed:
                await self._changed.wait()
        # Its followers, woken by the same append, write the terminal first.
        await asyncio.sleep(0)
        return self.terminal is not None and terminal_of(self.terminal)[0] == "done"

    async def publishing_stopped(self) -> None:
        async with self._changed:
            self._publishing = False
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


def _answer_open(batch: Sequence[Frame]) -> bool:
    """The batch carries an answer (``Frame.saves``) but not yet its terminal: the
    answer, its sentences and its ``done`` are stored in one commit, so none of them
    is published without the others."""
    return batch[-1].type not in TERMINAL_FRAMES and any(f.saves is not None for f in batch)


def terminal_of(encoded: bytes) -> tuple[str, str | None]:
    """A published terminal frame's type and, for an ``error``, its code."""
    head, _, rest = encoded.partition(b"\n")
    kind = head.removeprefix(b"event: ").decode("ascii", "replace")
    if kind != "error":
        return kind, None
    for line in rest.split(b"\n"):
        if line.startswith(b"data: "):
            code = json.loads(line[6:]).get("code")
            return kind, code if isinstance(code, str) else None
    return kind, None


class TurnHub:
    """The live turns of this process, by id; a finished turn is read from the store."""

    def __init__(self) -> None:
        self._live: dict[str, LiveTurn] = {}
        # Turns whose stream is opening (server/openings.py: OpeningFirst counts them).
        self.openings = Openings()
        self._tasks: set[asyncio.Task[None]] = set()

    def get(self, turn_id: str) -> LiveTurn | None:
        return self._live.get(turn_id)

    def running(self) -> int:
        """How many turns this process is running now (admission control reads it).

        A turn whose terminal is published is not one: its client has its answer and
        may ask again at once, while the turn still closes its upstream session."""
        return sum(not live.ended for live in self._live.values())

    def start(
        self,
        live: LiveTurn,
        frames: AsyncIterator[Frame],
        persist: Persist,
        failed: SaveFailed,
        recovery: Recovery | None = None,
    ) -> None:
        self._live[live.turn_id] = live
        metrics.turn_started()
        task = asyncio.create_task(
            self._drive(live, frames, persist, failed, recovery, time.perf_counter()),
            name=live.turn_id,
        )
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _drive(
        self,
        live: LiveTurn,
        frames: AsyncIterator[Frame],
        persist: Persist,
        failed: SaveFailed,
        recovery: Recovery | None,
        began: float,
    ) -> None:
        # Two halves joined by a queue: the turn never waits on the store, and the
        # publisher stores whatever the turn made since its last commit as one batch
        # (the writer joins it with other turns' batches), then publishes it.
        made: asyncio.Queue[Frame | None] = asyncio.Queue()
        publish = self._publish(live, made, persist, failed, recovery)
        publisher = asyncio.create_task(self._publishing(live, publish, began))
        try:
            async for frame in frames:
                if publisher.done():
                    break  # the turn ended in the store (save_failed, or another's terminal)
                made.put_nowait(frame)
                if frame.seq == 1:
                    # The turn's work starts once its `start` is published (stored, in
                    # the log its followers read): under a burst of turns, every start
                    # goes out ahead of the work the turns queue on the event loop.
                    await live.wait_published(1, publisher)
                    if live.published:
                        metrics.first_frame(time.perf_counter() - began)
        finally:
            made.put_nowait(None)
            await publisher
            # A turn that ended early in the store stops here: its cleanup runs now.
            close = getattr(frames, "aclose", None)
            if close is not None:
                with contextlib.suppress(Exception):
                    await close()
            await live.close()
            self._live.pop(live.turn_id, None)

    @staticmethod
    async def _publishing(live: LiveTurn, publish: Awaitable[None], began: float) -> None:
        try:
            await publish
        finally:
            # Counted before any follower writes the terminal: a client that saw
            # `done` and scrapes /metrics finds its turn ended, though the turn's
            # own cleanup (its upstream session's close) may still be running.
            if live.terminal is not None:
                metrics.turn_ended(*terminal_of(live.terminal), time.perf_counter() - began)
            # The turn waits for its terminal before closing its upstream session:
            # a publisher that stopped short of one must not leave it waiting.
            await live.publishing_stopped()

    @staticmethod
    async def _publish(
        live: LiveTurn,
        made: asyncio.Queue[Frame | None],
        persist: Persist,
        failed: SaveFailed,
        recovery: Recovery | None = None,
    ) -> None:
        ended = False
        while not ended:
            batch: list[Frame] = []
            item = await made.get()
            while item is not None:
                batch.append(item)
                if made.empty() and not _answer_open(batch):
                    break
                item = await made.get()  # at once when one is queued
            ended = item is None
            if not batch:
                continue
            try:
                await persist(batch)
            except Exception as exc:
                outcome = _Outcome.LOST
                if recovery is not None and recovery.recoverable(exc):
                    log.warning("turn %s: store unavailable (%s); waiting", live.turn_id, exc)
                    outcome = await TurnHub._recover(live, batch, persist, recovery)
                if outcome is _Outcome.GOING:
                    continue
                if outcome is _Outcome.ENDED:
                    return
                log.error("turn %s: frames from %d not stored: %r", live.turn_id, batch[0].seq, exc)
                # Nothing after a refused frame is stored or published: the turn ends there.
                seq = live.published + 1
                await TurnHub._end_unstored(live, seq, persist, failed, recovery)
                return
            for frame in batch:
                await live.append(frame.encode(), terminal=frame.type in TERMINAL_FRAMES)
            if any(frame.type in TERMINAL_FRAMES for frame in batch):
                return

    @staticmethod
    async def _recover(
        live: LiveTurn, batch: list[Frame], persist: Persist, recovery: Recovery
    ) -> _Outcome:
        """Wait (bounded) for the store, then publish what it holds after what is
        published, and store the rest of ``batch`` — unless a terminal came first."""
        deadline = time.monotonic() + recovery.window_s
        delay = 0.1
        while time.monotonic() < deadline:
            await asyncio.sleep(delay)
            delay = min(delay * 2, 1.0)
            try:
                stored = await recovery.stored_after(live.published)
            except Exception as exc:
                if not recovery.recoverable(exc):
                    return _Outcome.LOST
                continue
            for _, encoded, terminal in stored:
                await live.append(encoded, terminal=terminal)
                if terminal:
                    return _Outcome.ENDED
            rest = [frame for frame in batch if frame.seq > live.published]
            if not rest:
                return _Outcome.GOING
            try:
                await persist(rest)
            except Exception as exc:
                if not recovery.recoverable(exc):
                    return _Outcome.LOST
                continue
            for frame in rest:
                await live.append(frame.encode(), terminal=frame.type in TERMINAL_FRAMES)
            ended = any(frame.type in TERMINAL_FRAMES for frame in rest)
            return _Outcome.ENDED if ended else _Outcome.GOING
        return _Outcome.LOST

    @staticmethod
    async def _end_unstored(
        live: LiveTurn, seq: int, persist: Persist, failed: SaveFailed, recovery: Recovery | None
    ) -> None:
        """A frame the store refused ends the turn at that seq with ``save_failed``:
        stored if the store takes it (then live and replay agree), published anyway,
        since a follower must see a terminal. When the store was away, the terminal
        is stored once it is back (bounded), so replay ends the same way."""
        error = failed(seq)
        try:
            await persist([error])
        except Exception as exc:
            await live.append(error.encode(), terminal=True)
            if recovery is None or not recovery.recoverable(exc):
                log.error("turn %s: the save_failed terminal was not stored", live.turn_id)
                return
            deadline = time.monotonic() + DEFERRED_TERMINAL_S
            while time.monotonic() < deadline:
                await asyncio.sleep(1.0)
                try:
                    await persist([error])
                    return
                except Exception as again:
                    if not recovery.recoverable(again):
                        return  # taken by another process, or refused: its terminal stands
            return
        await live.append(error.encode(), terminal=True)

    async def drain(self, timeout_s: float = 10.0) -> None:
        """Let running turns finish (shutdown), bounded."""
        with anyio.move_on_after(timeout_s):
            for task in list(self._tasks):
                with contextlib.suppress(Exception):
                    await task
