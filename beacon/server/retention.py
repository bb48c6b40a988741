"""The server's pruning task: the retention rules (``beacon.store.retention``)
applied every ``BEACON_PRUNE_INTERVAL_S`` (the first pass within a minute of the
start), in a worker thread, in bounded batches, beside live turns.

Several processes may run it on one PostgreSQL store: one pass at a time holds
the prune lock, the others skip theirs. A failed pass is logged and tried again
at the next interval; shutting down ends a pass after the batch in hand.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sys
import threading
from collections.abc import Callable

import anyio

from beacon.store.retention import PruneReport, Retention, prune, retention_now
from beacon.store.turns import TurnStore

FIRST_PASS_S = 60.0
log = logging.getLogger(__name__)


class PruningTask:
    def __init__(
        self,
        store: TurnStore,
        retention: Retention,
        *,
        now: Callable[[], float] = retention_now,
    ) -> None:
        self.store = store
        self.retention = retention
        self.now = now
        self.passes: list[PruneReport] = []  # the last few, for tests and a debugger
        self._stop = threading.Event()
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        # The start-up line: the process stands (its store opened, its keys checked).
        print(self.retention.describe(), file=sys.stderr, flush=True)
        if self.retention.interval_s > 0 and self._task is None:
            self._task = asyncio.create_task(self._run())

    async def _run(self) -> None:
        wait = min(self.retention.interval_s, FIRST_PASS_S)
        while True:
            await asyncio.sleep(wait)
            wait = self.retention.interval_s
            try:
                done = await anyio.to_thread.run_sync(self._pass)
            except Exception:
                log.exception("the retention pass failed; trying again in %gs", wait)
                continue
            self.passes = [*self.passes[-9:], done]
            if done.pruned:
                log.info("retention: pruned %d rows", done.pruned)

    def _pass(self) -> PruneReport:
        return prune(self.store, self.retention, now=self.now, stop=self._stop)

    async def stop(self) -> None:
        self._stop.set()
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
