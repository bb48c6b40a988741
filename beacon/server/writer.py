"""One frame writer per process: batches every pending turn's frames into one commit.

A hundred concurrent turns each writing through its own SQLite transaction
queue up behind the write lock; one writer draining a queue commits them
together. A turn hands over its frames whole, with its terminal, and the
terminal is published only after that commit, so a finished turn always
replays exactly what its client saw.

The commit runs on the event loop (it takes tens of microseconds: less than a
hop to a worker thread, which also made the two threads trade the GIL on every
frame); the WAL checkpoint, which syncs the database file, is the one slow
step, and it runs in a worker thread now and then.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Sequence

import anyio

from beacon.loop.frames import Frame
from beacon.store.turns import TurnStore

MAX_BATCH = 500


class FrameWriter:
    def __init__(self, store: TurnStore) -> None:
        self._store = store
        self._queue: asyncio.Queue[tuple[str, Sequence[Frame], asyncio.Future[None]]] = (
            asyncio.Queue()
        )
        self._task: asyncio.Task[None] | None = None
        self._checkpoint: asyncio.Task[None] | None = None

    def submit(self, turn_id: str, frames: Sequence[Frame]) -> asyncio.Future[None]:
        """Queue a turn's frames; the future resolves when their batch is committed."""
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._drain(), name="frame-writer")
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait((turn_id, list(frames), done))
        return done

    async def _drain(self) -> None:
        while True:
            batch = [await self._queue.get()]
            size = len(batch[0][1])
            while not self._queue.empty() and size < MAX_BATCH:
                batch.append(self._queue.get_nowait())
                size += len(batch[-1][1])
            rows = [(turn_id, f.seq, f.type, f.encode()) for turn_id, fs, _ in batch for f in fs]
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
