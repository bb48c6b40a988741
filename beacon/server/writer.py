"""One frame writer per process: batches every pending frame into one commit.

A hundred concurrent turns each writing its frames through its own SQLite
transaction queue up behind the write lock; one writer draining a queue
commits them together. A frame is published only after its batch commits,
so what a client sees is always what a reattach will replay.

The commit runs on the event loop (it takes tens of microseconds: less than a
hop to a worker thread, which also made the two threads trade the GIL on every
frame); the WAL checkpoint, which syncs the database file, is the one slow
step, and it runs in a worker thread now and then.
"""

from __future__ import annotations

import asyncio
import contextlib

import anyio

from beacon.loop.frames import Frame
from beacon.store.turns import TurnStore

MAX_BATCH = 500


class FrameWriter:
    def __init__(self, store: TurnStore) -> None:
        self._store = store
        self._queue: asyncio.Queue[tuple[str, Frame, asyncio.Future[None]]] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        self._checkpoint: asyncio.Task[None] | None = None

    def submit(self, turn_id: str, frame: Frame) -> asyncio.Future[None]:
        """Queue a frame; the future resolves when its batch is committed. A plain
        future, not a task per frame: a turn's frames cost no task switches."""
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._drain(), name="frame-writer")
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait((turn_id, frame, done))
        return done

    async def write(self, turn_id: str, frame: Frame) -> None:
        await self.submit(turn_id, frame)

    async def _drain(self) -> None:
        while True:
            batch = [await self._queue.get()]
            while not self._queue.empty() and len(batch) < MAX_BATCH:
                batch.append(self._queue.get_nowait())
            rows = [(turn_id, f.seq, f.type, f.encode()) for turn_id, f, _ in batch]
            try:
                self._store.append_frames(rows)
            except Exception as exc:
                for _, _, done in batch:
                    if not done.done():
                        done.set_exception(exc)
                continue
            for _, _, done in batch:
                if not done.done():
                    done.set_result(None)
            self._maybe_checkpoint()

    def _maybe_checkpoint(self) -> None:
        if self._checkpoint is not None and not self._checkpoint.done():
            return
        if self._store.checkpoint_due():
            self._checkpoint = asyncio.create_task(
                anyio.to_thread.run_sync(self._store.checkpoint), name="wal-checkpoint"
            )

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        if self._checkpoint is not None:
            await self._checkpoint
