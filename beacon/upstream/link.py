"""How a process reaches the upstream it fronts, once per turn or load-more.

Beacon's own stub is called with the caller's bearer and the development
scenario header, as SPEC §2 asks. An upstream Beacon did not write is called
through its declared contract (contracted.py), with the deployment's own
service bearer if it needs one: a caller's token is Beacon's credential and is
never handed to a third party, and the scenario switch is the stub's alone.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

import httpx2

from beacon.upstream.contracted import ContractedUpstream
from beacon.upstream.mcp_client import Upstream, connect
from beacon.wire.contract import UpstreamContract


@dataclass(frozen=True, slots=True)
class UpstreamLink:
    url: str
    timeout_s: float = 30.0
    # None: the stub (Beacon's own envelope). Else the contract of a foreign upstream,
    # the tools a start-up drift disabled, and the bearer it is sent (None: none).
    contract: UpstreamContract | None = None
    disabled: frozenset[str] = frozenset()
    token: str | None = None
    # The process's connections to the upstream, lent to each session (reuse.py);
    # set by the server's lifespan, None elsewhere (each session opens its own).
    transport: httpx2.AsyncBaseTransport | None = field(default=None, compare=False)

    @asynccontextmanager
    async def open(
        self, *, bearer: str, scenario: str | None, turn_id: str | None
    ) -> AsyncIterator[Upstream]:
        if self.contract is None:
            async with connect(
                self.url,
                bearer=bearer,
                scenario=scenario,
                timeout_s=self.timeout_s,
                turn_id=turn_id,
                transport=self.transport,
            ) as upstream:
                yield upstream
            return
        async with connect(
            self.url,
            bearer=self.token,
            timeout_s=self.timeout_s,
            turn_id=turn_id,
            transport=self.transport,
        ) as upstream:
            yield ContractedUpstream(upstream, self.contract, self.disabled)
