"""The live question quota: how many questions a user may still ask today.

A user's limit is their token's ``questions_per_day`` claim, else the server's
``BEACON_QUOTA_PER_DAY``, else none (unlimited). A day is the UTC day; the count
resets at 00:00 UTC.

* ``Quota.admit`` runs in ``POST /v1/turns`` once the request is known good and
  before the turn starts: it spends one question (``beacon/store/quota.py``, one
  statement, shared by every process on PostgreSQL) or refuses with a 429
  ``quota_exhausted``, ``Retry-After`` and ``error.reset_at`` — before any model or
  upstream call. No limit: nothing is read or written.
* ``GET /v1/quota/events`` (``routes/quota.py``) is an event stream of ``quota``
  events: the remaining count at once on connect, then a new one whenever a
  question is spent (at once for a spend in this process; within ``POLL_S`` for a
  spend in another process sharing the database) and at the day's reset; a
  comment line every ``KEEP_ALIVE_S`` keeps proxies from closing it. Unlimited is
  one event, ``{"remaining": null}``. Its bearer is the ``Authorization`` header
  (a browser reads it with ``fetch`` and a body reader, as the panel does).

The stream ends when the server is asked to stop (SIGTERM/SIGINT), so a graceful
shutdown never waits on a panel left open.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import signal
import threading
from collections.abc import AsyncGenerator, Callable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from types import FrameType
from typing import Any

import anyio
from fastapi.responses import JSONResponse

from beacon.auth.verify import Identity
from beacon.store.errors import StoreError
from beacon.store.quota import QuotaCounts

log = logging.getLogger(__name__)
QUOTA_EXHAUSTED = "quota_exhausted"
QUOTA_UNAVAILABLE = "quota_unavailable"
KEEP_ALIVE_S = 15.0
POLL_S = 1.0
KEEP_ALIVE = b": keep-alive\n\n"


def utc_now() -> datetime:
    return datetime.now(UTC)


def day_of(now: datetime) -> date:
    return now.astimezone(UTC).date()


def reset_after(day: date) -> datetime:
    """00:00 UTC after ``day``: when its count no longer counts."""
    return datetime(day.year, day.month, day.day, tzinfo=UTC) + timedelta(days=1)


def stamp(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def payload(limit: int | None, spent: int, day: date) -> dict[str, Any]:
    if limit is None:
        return {"remaining": None}
    return {
        "remaining": max(0, limit - spent),
        "limit": limit,
        "reset_at": stamp(reset_after(day)),
    }


def quota_frame(data: dict[str, Any]) -> bytes:
    return f"event: quota\ndata: {json.dumps(data, separators=(',', ':'))}\n\n".encode()


# Mutable: the publisher overwrites ``latest`` in place for the stream to read on waking.
@dataclass(frozen=False, eq=False, slots=True)
class _Watch:
    """One open stream's mailbox: the latest (day, spent) published for its user."""

    wake: asyncio.Event = field(default_factory=asyncio.Event)
    latest: tuple[date, int] | None = None


class Quota:
    """The quota of one process: its count, its watchers, its poll of a shared count."""

    def __init__(
        self,
        counts: QuotaCounts,
        per_day: int | None,
        *,
        now: Callable[[], datetime] = utc_now,
        poll_s: float = POLL_S,
        keep_alive_s: float = KEEP_ALIVE_S,
    ) -> None:
        self.counts = counts
        self.per_day = per_day
        self._now = now
        self._poll_s = poll_s
        self._keep_alive_s = keep_alive_s
        self._watchers: dict[str, set[_Watch]] = {}
        self._poller: asyncio.Task[None] | None = None
        self._stopping: asyncio.Event | None = None

    def limit_for(self, identity: Identity) -> int | None:
        claimed = identity.questions_per_day
        return claimed if claimed is not None else self.per_day

    async def admit(self, identity: Identity) -> JSONResponse | None:
        """Spend one of the caller's questions; a refusal to send instead, or None."""
        limit = self.limit_for(identity)
        if limit is None:
            return None
        now = self._now()
        day = day_of(now)
        try:
            spent = await anyio.to_thread.run_sync(self.counts.spend, identity.sub, day, limit)
        except StoreError as exc:
            log.warning("the question quota cannot be read: %s", exc)
            return quota_unavailable()
        if spent is None:
            reset = reset_after(day)
            seconds = max(1, math.ceil((reset - now).total_seconds()))
            message = (
                f"today's {limit} question(s) are asked: "
                f"the quota resets at {stamp(reset)} (in {seconds} s)"
            )
            refusal = {"code": QUOTA_EXHAUSTED, "message": message, "reset_at": stamp(reset)}
            body = {"error": refusal}
            return JSONResponse(body, status_code=429, headers={"Retry-After": str(seconds)})
        self._publish(identity.sub, day, spent)
        return None

    async def first(self, identity: Identity) -> dict[str, Any]:
        """The stream's first event (read before its headers: a failure is a 503)."""
        limit = self.limit_for(identity)
        day = day_of(self._now())
        if limit is None:
            return payload(None, 0, day)
        return payload(limit, await self._spent(identity.sub, day), day)

    async def _spent(self, sub: str, day: date) -> int:
        return (await anyio.to_thread.run_sync(self.counts.spent, [sub], day))[sub]

    async def events(
        self, identity: Identity, first: dict[str, Any]
    ) -> AsyncGenerator[bytes, None]:
        """The event stream after ``first``: a push per spend and at the reset."""
        stopping = self._stop_signal()
        limit = self.limit_for(identity)
        watch = _Watch()
        day, spent = day_of(self._now()), 0
        try:
            if limit is not None:
                # Watch, then read: a spend after the read is pushed, one before is in it.
                self._watch(identity.sub, watch)
                try:
                    spent = await self._spent(identity.sub, day)
                    first = payload(limit, spent, day)
                except StoreError:
                    spent = limit - (first["remaining"] or 0)  # the route's read stands
            yield quota_frame(first)
            last = first
            while not stopping.is_set():
                wait = self._keep_alive_s
                if limit is not None:
                    until_reset = (reset_after(day) - self._now()).total_seconds()
                    wait = max(0.05, min(wait, until_reset))
                waker = asyncio.ensure_future(watch.wake.wait())
                stopper = asyncio.ensure_future(stopping.wait())
                try:
                    done, _ = await asyncio.wait(
                        {waker, stopper}, timeout=wait, return_when=asyncio.FIRST_COMPLETED
                    )
                finally:
                    # Also when the stream is cancelled here (its client went away):
                    # left pending, each would wait on its event until the process
                    # stops — one more on the stop signal per disconnect.
                    waker.cancel()
                    stopper.cancel()
                if stopping.is_set() or limit is None:
                    if not done:
                        yield KEEP_ALIVE
                    continue
                watch.wake.clear()
                today = day_of(self._now())
                if today != day:  # the reset: a new day's count
                    try:
                        spent = await self._spent(identity.sub, today)
                    except StoreError as exc:
                        log.warning("the question quota cannot be read: %s", exc)
                        continue  # tried again at the next wake
                    day = today
                elif watch.latest is not None and watch.latest[0] == day:
                    spent = max(spent, watch.latest[1])  # a day's count only grows
                current = payload(limit, spent, day)
                if current != last:
                    last = current
                    yield quota_frame(current)
                elif not done:
                    yield KEEP_ALIVE
        finally:
            self._unwatch(identity.sub, watch)

    def _publish(self, sub: str, day: date, spent: int) -> None:
        for watch in self._watchers.get(sub, ()):
            if watch.latest is None or watch.latest < (day, spent):
                watch.latest = (day, spent)
            watch.wake.set()

    def _watch(self, sub: str, watch: _Watch) -> None:
        self._watchers.setdefault(sub, set()).add(watch)
        # Another process may spend from a shared count: read it while anyone watches.
        if self.counts.shared and (self._poller is None or self._poller.done()):
            self._poller = asyncio.get_running_loop().create_task(self._poll())

    def _unwatch(self, sub: str, watch: _Watch) -> None:
        watchers = self._watchers.get(sub)
        if watchers is not None:
            watchers.discard(watch)
            if not watchers:
                del self._watchers[sub]

    async def _poll(self) -> None:
        while self._watchers:
            await asyncio.sleep(self._poll_s)
            day = day_of(self._now())
            try:
                subs = list(self._watchers)
                counts = await anyio.to_thread.run_sync(self.counts.spent, subs, day)
            except StoreError as exc:
                log.warning("the question quota cannot be read: %s", exc)
                continue
            for sub, spent in counts.items():
                self._publish(sub, day, spent)

    def _stop_signal(self) -> asyncio.Event:
        """An event set when the process is asked to stop: the streams end, so uvicorn's
        graceful shutdown (which waits for every open response) is not held open."""
        if self._stopping is None:
            self._stopping = asyncio.Event()
            _chain_stop_signals(asyncio.get_running_loop(), self._stopping)
        return self._stopping

    async def stop(self) -> None:
        if self._stopping is not None:
            self._stopping.set()
        if self._poller is not None:
            self._poller.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._poller

    def close(self) -> None:
        self.counts.close()


def _chain_stop_signals(loop: asyncio.AbstractEventLoop, stopping: asyncio.Event) -> None:
    """Run the current SIGTERM/SIGINT handler (uvicorn's), then set ``stopping``."""
    if threading.current_thread() is not threading.main_thread():
        return  # an in-process test client: nothing to chain
    for sig in (signal.SIGTERM, signal.SIGINT):
        previous = signal.getsignal(sig)
        if callable(previous):
            signal.signal(sig, _then_stop(previous, loop, stopping))


def _then_stop(
    previous: Callable[[int, FrameType | None], Any],
    loop: asyncio.AbstractEventLoop,
    stopping: asyncio.Event,
) -> Callable[[int, FrameType | None], None]:
    def handler(signum: int, frame: FrameType | None) -> None:
        previous(signum, frame)
        with contextlib.suppress(RuntimeError):  # a loop closed already (a test's)
            loop.call_soon_threadsafe(stopping.set)

    return handler


def quota_unavailable() -> JSONResponse:
    body = {"error": {"code": QUOTA_UNAVAILABLE, "message": "the question quota cannot be read"}}
    return JSONResponse(body, status_code=503, headers={"Retry-After": "1"})
