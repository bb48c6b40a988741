"""One frame writer per process: stores each turn's frames before they are published.

A turn's row rides in the same commit as its ``start`` frame (``opening``), so a
turn costs no commit of its own before its first frame is out, and an answer rides
in the commit of the frames that publish it (``Frame.saves``). Frames are published
only after their commit, so a finished turn always replays exactly what its client
saw.

With SQLite a batch is committed at once, on the event loop, in the publisher's own
step (tens of microseconds: less than a hop to a worker thread, which also made the
two threads trade the GIL on every frame, and less than a hop to a writer task, which
cost every batch two passes of the loop — ~0.5 ms of a turn's tail at the stubs'
pace, and the ``start`` commit of a burst of a hundred turns waited behind them); the
WAL checkpoint, which syncs the file, runs in a worker thread now and then. With
PostgreSQL the commit is a round trip and runs in a worker thread (``call_write``):
there a hundred concurrent turns each writing through its own transaction would
queue up behind the row locks, so one writer draining a queue commits every pending
turn's frames together while the next batch gathers.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Sequence

import anyio

from beacon.loop.frames import Frame
from beacon.store.frames import FrameRow, OpenTurn
from beacon.store.records import AnswerRows
from beacon.store.turns import TurnStore, call_write

MAX_BATCH = 500
Pending = tuple[str, Sequence[Frame], OpenTurn | None, "asyncio.Future[None]"]


class FrameWriter:
    def __init__(self, store: TurnStore) -> None:
        self._store = store
        self._queue: asyncio.Queue[Pending] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        self._checkpoint: asyncio.Task[None] | None = None

    def submit(
        self, turn_id: str, frames: Sequence[Frame], opening: OpenTurn | None = None
    ) -> asyncio.Future[None]:
        """A turn's frames (with its row, for its first ones) to be stored; the future
        resolves when their batch is committed — at once, for a store written on the
        event loop."""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        pending = (turn_id, list(frames), opening, done)
        if self._store.writes_on_loop:
            try:
                self._store.append_frames(*_batch_rows([pending]))
            except Exception as exc:
                done.set_exception(exc)
            else:
                done.set_result(None)
            self._maybe_checkpoint()
            return done
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._drain(), name="frame-writer")
        self._queue.put_nowait(pending)
        return done

    async def _drain(self) -> None:
        while True:
            batch = [await self._queue.get()]
            size = len(batch[0][1])
            while not self._queue.empty() and size < MAX_BATCH:
                batch.append(self._queue.get_nowait())
                size += len(batch[-1][1])
            try:
                await self._commit(batch)
            except Exception:
                # One turn's refused write must not fail the others it was batched
                # with: each is tried alone, and only its own future fails.
                for pending in batch if len(batch) > 1 else ():
                    with contextlib.suppress(Exception):
                        await self._commit([pending])
            self._maybe_checkpoint()

    async def _commit(self, batch: Sequence[Pending]) -> None:
        try:
            await call_write(self._store, self._store.append_frames, *_batch_rows(batch))
        except Exception as exc:
            if len(batch) == 1:
                _settle(batch[0][3], exc)
            raise
        for *_, done in batch:
            _settle(done, None)

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


def _batch_rows(
    batch: Sequence[Pending],
) -> tuple[list[FrameRow], list[OpenTurn], list[AnswerRows]]:
    """``append_frames``' arguments for a batch: its frames, the rows of the turns it
    opens, and the answers its frames publish, each only with its turn's ``done`` (an
    answer is stored exactly when its ``done`` is: one whose turn ended otherwise, a
    bug's ``internal`` error after its sentences, is not)."""
    rows = [(turn_id, f.seq, f.type, f.encode()) for turn_id, fs, _, _ in batch for f in fs]
    opens = [opening for _, _, opening, _ in batch if opening is not None]
    answers = [
        f.saves
        for _, fs, _, _ in batch
        if any(f.type == "done" for f in fs)
        for f in fs
        if f.saves is not None
    ]
    return rows, opens, answers


def _settle(done: asyncio.Future[None], error: Exception | None) -> None:
    if done.done():
        return
    if error is None:
        done.set_result(None)
    else:
        done.set_exception(error)
