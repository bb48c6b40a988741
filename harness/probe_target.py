"""What a probe drives and how it reads a turn: the target (a started stack or a
``Deployment`` given by ``--target``), the report, and the frame readers every probe uses.

A probe that mints tokens or reads the upstream needs ``--mcp`` (``PROBE_NEEDS`` in
``harness/probes.py``); ``ProbeUnavailable`` says so when it was not given.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol
from urllib.parse import urlsplit

import httpx

from beacon.cli.ask import run_turn
from beacon.wire.sse import SseEvent

HTTP_TIMEOUT_S = 15.0
COUNT_QUESTION = "How many open safety findings are on level 3 of Harbor Tower?"
LIST_QUESTION = "List all panoramas in Harbor Tower"
PHOTO_QUESTION = "Photos of missing hard hats in Harbor Tower"


class ProbeFailed(AssertionError):
    """The probed behaviour did not hold."""


class ProbeUnavailable(ProbeFailed):
    """The probe needs what this target was not given (the stub upstream, the model)."""


class ProbeTarget(Protocol):
    """What a probe drives: ``harness.stack.Stack`` (a fresh ``beacon up``) or a ``Deployment``."""

    @property
    def chat_url(self) -> str: ...

    @property
    def mcp_url(self) -> str: ...

    @property
    def llm_url(self) -> str: ...

    @property
    def mcp_origin(self) -> str: ...

    def token(self, *, sub: str = ..., tiers: tuple[str, ...] = ...) -> str: ...


@dataclass(frozen=True, slots=True)
class Deployment:
    """A chat server somewhere (``--target``), with its stub upstream and model if it has them."""

    chat_url: str
    mcp: str | None = None
    llm: str | None = None
    bearer: str | None = None

    @property
    def mcp_url(self) -> str:
        if self.mcp is None:
            raise ProbeUnavailable("this probe reads the upstream: give --mcp STUB_MCP_URL")
        return self.mcp

    @property
    def llm_url(self) -> str:
        if self.llm is None:
            raise ProbeUnavailable("this probe reads the model server: give --llm URL")
        return self.llm

    @property
    def mcp_origin(self) -> str:
        parts = urlsplit(self.mcp_url)
        return f"{parts.scheme}://{parts.netloc}"

    def token(self, *, sub: str = "dev-user", tiers: tuple[str, ...] = ("enterprise_ai",)) -> str:
        if self.bearer is not None and sub == "dev-user" and tiers == ("enterprise_ai",):
            return self.bearer
        if self.mcp is not None:
            response = httpx.post(
                f"{self.mcp_origin}/dev/tokens",
                json={"sub": sub, "tiers": list(tiers)},
                timeout=HTTP_TIMEOUT_S,
            )
            response.raise_for_status()
            token = response.json()["token"]
            assert isinstance(token, str)
            return token
        raise ProbeUnavailable("this probe mints tokens for other users or tiers: give --mcp")


@dataclass(frozen=True, slots=True)
class ProbeReport:
    name: str
    ok: bool
    seconds: float
    facts: dict[str, Any] = field(default_factory=dict)
    failure: str | None = None


def expect(condition: bool, message: str) -> None:
    if not condition:
        raise ProbeFailed(message)


def ask(
    stack: ProbeTarget,
    message: str,
    *,
    scenario: str | None = None,
    mode: str = "single",
    **extra: Any,
) -> list[SseEvent]:
    return run_turn(
        stack.chat_url,
        {"mode": mode, "message": message, **extra},
        token=stack.token(),
        scenario=scenario,
    )


def frames_of(events: list[SseEvent], kind: str) -> list[dict[str, Any]]:
    return [e.json() for e in events if e.event == kind]


def counts_of(events: list[SseEvent]) -> list[dict[str, Any]]:
    refs = frames_of(events, "references")
    expect(len(refs) == 1, f"expected one references frame, saw {len(refs)}")
    counts = refs[0]["counts"]
    assert isinstance(counts, list)
    return counts


def one_terminal(events: list[SseEvent]) -> str:
    terminals = [e.event for e in events if e.event in ("done", "error")]
    expect(len(terminals) == 1, f"expected exactly one terminal, saw {terminals}")
    expect(events[-1].event == terminals[0], "the terminal is not the last frame")
    return terminals[0]


def optional(read: Callable[[], str]) -> str | None:
    try:
        return read()
    except ProbeUnavailable:
        return None
