"""A network's and a model's pace for the stubs, from the environment (bench/paced.py).

The stubs answer as fast as the machine runs them: a whole turn in ~35 ms, a
model's answer in ~3 ms. A real upstream is a round trip away and a real model
takes hundreds of milliseconds to its first token, so a figure taken only at the
stubs' pace says what a turn costs the CPU, not what a user waits for. With a pace
set, the stubs wait as a real peer would, before doing the same work:

- ``BEACON_STUB_MCP_DELAY_MS``: every request to the MCP endpoint (``initialize``,
  ``tools/list``, each ``tools/call``, the session's close) waits this long first;
- ``BEACON_STUB_LLM_FIRST_MS``: a completion's first chunk waits this long (time
  to first token; a completion that is not streamed waits it before its body);
- ``BEACON_STUB_LLM_CHUNK_MS``: each later chunk of a streamed completion waits
  this long.

Unset or ``0``: no wait (the default; every test but the paced bench's). A value
that is not a number of milliseconds from 0 to 60,000 stops the stub at start
with one line naming the variable.
"""

from __future__ import annotations

import os
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass

import anyio
from starlette.types import ASGIApp, Receive, Scope, Send

MCP_DELAY_ENV = "BEACON_STUB_MCP_DELAY_MS"
LLM_FIRST_ENV = "BEACON_STUB_LLM_FIRST_MS"
LLM_CHUNK_ENV = "BEACON_STUB_LLM_CHUNK_MS"
MAX_MS = 60_000.0

Sleep = Callable[[float], Awaitable[None]]


class PaceError(ValueError):
    """A pace variable that is not a number of milliseconds in range."""


@dataclass(frozen=True, slots=True)
class Pace:
    mcp_s: float = 0.0
    first_s: float = 0.0
    chunk_s: float = 0.0


def _ms(env: Mapping[str, str], name: str) -> float:
    raw = env.get(name, "").strip()
    if not raw:
        return 0.0
    try:
        value = float(raw)
    except ValueError:
        raise PaceError(f"{name}={raw!r} is not a number of milliseconds") from None
    if not 0.0 <= value <= MAX_MS:  # also refuses nan
        raise PaceError(f"{name}={raw!r} is outside 0..{MAX_MS:,.0f} ms")
    return value / 1000


def pace_from_env(env: Mapping[str, str] | None = None) -> Pace:
    values = os.environ if env is None else env
    return Pace(_ms(values, MCP_DELAY_ENV), _ms(values, LLM_FIRST_ENV), _ms(values, LLM_CHUNK_ENV))


class Delayed:
    """``app`` with every HTTP request waiting ``delay_s`` before it is served. (A
    class, not a closure: Starlette serves a plain function as a request handler.)"""

    def __init__(self, app: ASGIApp, delay_s: float, sleep: Sleep = anyio.sleep) -> None:
        self.app, self.delay_s, self.sleep = app, delay_s, sleep

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and self.delay_s > 0:
            await self.sleep(self.delay_s)
        await self.app(scope, receive, send)
