"""Rate limits on what costs model and upstream calls: starting a turn and load-more.

A pure ASGI middleware inside the request edge (so the bearer is verified and the
body is strict JSON before a token is spent) and before the routes (so a refusal
comes before any model or upstream call): the process's bucket first, then the
user's (its verified ``sub``), each a token bucket (``beacon/store/buckets.py``);
on PostgreSQL the user's is shared by every process. A refusal is a 429 with
``Retry-After`` in whole seconds and ``{"error": {"code": "rate_limited", …}}``.

A request the route answers with a 4xx did no work (a 422 body, another user's
turn, no further page): its tokens are given back, so only the turns that started
and the pages that were fetched count.
"""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

import anyio
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from beacon.server.edge import verified_identity
from beacon.server.settings import Settings
from beacon.store.buckets import Buckets, MemoryBuckets, Rate, Take, open_buckets
from beacon.store.errors import StoreError

RATE_LIMITED = "rate_limited"
# The routes that start work: POST /v1/turns and POST /v1/turns/{turn_id}/more.
_COSTLY = re.compile(r"^/v1/turns(/[^/]+/more)?$")
_PROCESS_KEY = "process"
T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Verdict:
    take: Take
    # Whose bucket refused: "user" or "process" (None when granted).
    refused_by: str | None = None


class TurnRateLimits:
    """The buckets a request to start work is judged by; either may be off (None)."""

    def __init__(self, *, process: Buckets | None, users: Buckets | None) -> None:
        self.process = process
        self.users = users

    async def admit(self, sub: str) -> Verdict:
        if self.process is not None:
            taken = await _call(self.process, self.process.take, _PROCESS_KEY)
            if not taken.granted:
                return Verdict(taken, "process")
        if self.users is not None:
            taken = await _call(self.users, self.users.take, sub)
            if not taken.granted:
                await self._give_back(None, process=True)  # the process's token went unused
                return Verdict(taken, "user")
        return Verdict(Take(True))

    async def refund(self, sub: str) -> None:
        await self._give_back(sub, process=True)

    async def _give_back(self, sub: str | None, *, process: bool) -> None:
        if process and self.process is not None:
            await _call(self.process, self.process.refund, _PROCESS_KEY)
        if sub is not None and self.users is not None:
            await _call(self.users, self.users.refund, sub)

    def close(self) -> None:
        for buckets in (self.process, self.users):
            if buckets is not None:
                buckets.close()


async def _call(buckets: Buckets, method: Callable[[str], T], key: str) -> T:
    # PostgreSQL's buckets are a round trip: off the event loop, like the store's reads.
    if buckets.blocking:
        return await anyio.to_thread.run_sync(method, key)
    return method(key)


def rate_limits_from(settings: Settings) -> TurnRateLimits:
    """The limits ``settings`` name; the user's bucket lives where the store does."""
    process = Rate(settings.rate_process_turns_per_minute, settings.rate_process_turns_burst)
    user = Rate(settings.rate_turns_per_minute, settings.rate_turns_burst)
    return TurnRateLimits(
        process=MemoryBuckets(process) if process.limited else None,
        users=open_buckets(settings.db, user) if user.limited else None,
    )


def is_costly(scope: Scope) -> bool:
    return scope["method"] == "POST" and _COSTLY.match(scope["path"]) is not None


class RateLimit:
    """Pure ASGI middleware; see the module docstring."""

    def __init__(self, app: ASGIApp, *, limits: TurnRateLimits) -> None:
        self.app = app
        self.limits = limits

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not is_costly(scope):
            await self.app(scope, receive, send)
            return
        sub = verified_identity(scope).sub
        try:
            verdict = await self.limits.admit(sub)
        except StoreError:
            # The shared buckets cannot be read: no turn starts uncounted.
            await _refuse(send, 503, "rate_limits_unavailable", "the rate limits cannot be read", 1)
            return
        if not verdict.take.granted:
            seconds = verdict.take.retry_after
            whose = "this server is" if verdict.refused_by == "process" else "you are"
            message = f"{whose} starting turns too fast: try again in {seconds} s"
            await _refuse(send, 429, RATE_LIMITED, message, seconds)
            return
        await self.app(scope, receive, self._refunding(sub, send))

    def _refunding(self, sub: str, send: Send) -> Send:
        async def watched(message: Message) -> None:
            if message["type"] == "http.response.start" and 400 <= message["status"] < 500:
                # A token not given back is a limit a little stricter, no more.
                with contextlib.suppress(StoreError):
                    await self.limits.refund(sub)
            await send(message)

        return watched


async def _refuse(send: Send, status: int, code: str, message: str, retry_after: int) -> None:
    payload = json.dumps({"error": {"code": code, "message": message}}).encode()
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(payload)).encode()),
        (b"retry-after", str(retry_after).encode()),
    ]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": payload})
