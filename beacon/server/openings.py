"""Turns whose stream is opening go ahead of other turns' work.

A turn's first frame needs little (its request read, its bearer checked, its
``start`` stored); its work needs a lot (an upstream session, model requests,
adjudication, ~35 ms of CPU). On one event loop the two share the CPU in
arrival order, so under a burst of turns a late request waits behind the work of
every turn admitted before it, and its first frame comes late for no reason of
its own (issue 32: p95 6× a bare SSE app's).

So a turn is *opening* from its request's arrival until its ``start`` frame is
sent (or it is refused: ``OpeningFirst``), and while any turn is opening, other
turns pause before their next upstream or model request (``wait``). Work
already in flight runs on; only new requests wait, so a paused turn holds no
upstream resource and the pause ends as soon as the last opening does. A turn's
own opening does not hold it back: a lone turn opens its upstream session while
its ``start`` is stored and sent (beacon/loop/orchestrator.py), so the two
overlap instead of adding up.

A burst does not arrive at once: a hundred clients' requests reach the socket over
tens of milliseconds, and in every gap between two of them the turns already
started ran their work, so a request arriving in the gap's wake was not even read
until that work yielded (the concurrency bench's ``queue``, most of its first
frame). So after openings that overlapped (one began while another was opening,
or in the moment after one), the paused turns go on only once no new opening has
begun for ``QUIET_S``, within ``QUIET_MAX_S`` of the moment's start; after it, as
long again without one. A lone turn, or turns arriving one after another, never
overlap and never wait for it.
"""

from __future__ import annotations

import asyncio
import collections

from starlette.types import ASGIApp, Message, Receive, Scope, Send

# An opening holds other turns back for at most this long: a start that cannot be
# stored (the store restarting) must not stall every other turn's work meanwhile.
MAX_HOLD_S = 1.0
# After overlapping openings, how long no new one must begin before the paused turns
# go on: longer than the gaps between a burst's requests on loopback (measured on the
# concurrency bench: first frame p95 of 100 at once 235–388 → 151–262 ms with 10 ms),
# short beside a turn's own work.
QUIET_S = 0.01
# A quiet moment lasts at most this long however many openings begin in it, and
# none begins for as long after it: arrivals that never pause for QUIET_S must not
# hold the started turns' work back for good.
QUIET_MAX_S = 0.1


class Opening:
    """One turn's opening; ``end`` is idempotent (its first bytes sent, its request
    answered and the hold's time limit may all end it)."""

    def __init__(self, openings: Openings, hold_s: float) -> None:
        self._openings: Openings | None = openings
        self._limit = asyncio.get_running_loop().call_later(hold_s, self.end)

    @property
    def active(self) -> bool:
        return self._openings is not None

    def end(self) -> None:
        openings, self._openings = self._openings, None
        if openings is not None:
            self._limit.cancel()
            openings.ended()


class Openings:
    """How many turns are opening now, and a wait for none to be.

    Paused turns are let go one per event-loop pass, oldest first: all at once,
    their next steps would fill one pass, and a request arriving meanwhile would
    wait for all of them before the loop even reads it.
    """

    def __init__(
        self, hold_s: float = MAX_HOLD_S, quiet_s: float = QUIET_S, quiet_max_s: float = QUIET_MAX_S
    ) -> None:
        self._hold_s = hold_s
        self._quiet_s = quiet_s
        self._quiet_max_s = quiet_max_s
        self._count = 0
        self._paused: collections.deque[asyncio.Future[None]] = collections.deque()
        self._releasing = False
        self._overlapped = False  # an opening began while another was opening
        self._quiet: asyncio.TimerHandle | None = None  # the moment after a burst
        self._quiet_began: float | None = None  # when this burst's quiet moment began
        self._no_quiet_until = 0.0  # after a quiet moment, as long again without one

    @property
    def count(self) -> int:
        return self._count

    def begin(self, hold_s: float | None = None) -> Opening:
        """A turn's opening, holding the others back for at most ``hold_s``."""
        if self._count or self._quiet_began is not None:
            self._overlapped = True
        if self._quiet is not None:
            self._quiet.cancel()
            self._quiet = None
        self._count += 1
        return Opening(self, self._hold_s if hold_s is None else hold_s)

    def ended(self) -> None:
        self._count -= 1
        if self._count:
            return
        if self._overlapped and self._quiet_s > 0:
            self._overlapped = False
            loop = asyncio.get_running_loop()
            now = loop.time()
            if now >= self._no_quiet_until:
                if self._quiet_began is None:
                    self._quiet_began = now
                # A new opening in the moment begins it again, never past its bound.
                until = min(now + self._quiet_s, self._quiet_began + self._quiet_max_s)
                if until > now:
                    self._quiet = loop.call_at(until, self._quieted)
                    return
        self._quieted()

    def _quieted(self) -> None:
        if self._quiet_began is not None:
            # Turns paused through a quiet moment go on for as long before another:
            # under arrivals that never pause, they still get half the time.
            self._no_quiet_until = asyncio.get_running_loop().time() + self._quiet_max_s
        self._quiet = None
        self._quiet_began = None
        self._release_next()

    async def wait(self, own: Opening | None = None) -> None:
        """Return once no turn is opening and every turn paused before has gone;
        ``own``, the waiting turn's opening, counts only while others are opening."""
        others = self._count - (1 if own is not None and own.active else 0)
        if not others and not self._paused and self._quiet_began is None:
            return
        paused = asyncio.get_running_loop().create_future()
        self._paused.append(paused)
        # A cancelled wait needs no hand-over: each release queues the next.
        await paused

    def _release_next(self) -> None:
        if self._count or self._releasing or self._quiet_began is not None:
            return
        while self._paused:
            paused = self._paused.popleft()
            if not paused.done():
                paused.set_result(None)
                break
        if self._paused:
            # The next one on the next pass (a callback queued now runs after this
            # pass's), with the loop's I/O polled in between.
            self._releasing = True
            asyncio.get_running_loop().call_soon(self._released)

    def _released(self) -> None:
        self._releasing = False
        self._release_next()


TURNS_PATH = "/v1/turns"
OPENING = "beacon.opening"  # the scope state's key for a turn request's Opening


class OpeningFirst:
    """Pure ASGI, outermost: a ``POST /v1/turns`` is opening from its arrival, so the
    bearer check, the rate limits and the body read go ahead of other turns' work
    too (on PostgreSQL the rate limiter's round trip was most of a burst's wait),
    until the first bytes of its answer leave: a started turn's ``start`` frame (the
    stream sends it once it is stored), or a refusal (a 401, a 429, a bad body).
    """

    def __init__(self, app: ASGIApp, *, openings: Openings) -> None:
        self.app = app
        self.openings = openings

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if not (
            scope["type"] == "http" and scope["method"] == "POST" and scope["path"] == TURNS_PATH
        ):
            await self.app(scope, receive, send)
            return
        opening = self.openings.begin()
        scope.setdefault("state", {})[OPENING] = opening

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.body" and (
                message.get("body") or not message.get("more_body", False)
            ):
                opening.end()
            await send(message)

        try:
            await self.app(scope, receive, sending)
        finally:
            opening.end()  # answered without a body, or the client went away first
