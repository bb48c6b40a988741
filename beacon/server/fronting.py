"""Fronting the upstream the settings name: the stub, or a server Beacon did not write.

With a declared contract (BEACON_UPSTREAM_CONTRACT) the process's tool table is
the contract's rows — capabilities for the PEP, result kinds for adjudication,
constraint axes for the scope check — minus the tools a drift disabled, and each
call goes through the contract (beacon/upstream/contracted.py). Before a server
with a contract serves, ``beacon serve`` compares the contract with the live
``tools/list`` (``check_drift``): a tool gone or a schema changed refuses the
start, or with ``--allow-drift`` starts with those tools disabled, and says so.
"""

from __future__ import annotations

from beacon.server.settings import Settings
from beacon.upstream.link import UpstreamLink
from beacon.upstream.mcp_client import connect
from beacon.wire.contract import Drift, UpstreamContract, drift, tool_specs_of
from beacon.wire.tools import front_tool_table


def upstream_link(settings: Settings) -> UpstreamLink:
    """How this process reaches its upstream; fronts a contract's tool table when given."""
    contract = settings.upstream_contract
    if contract is None:
        return UpstreamLink(settings.mcp_url, settings.mcp_timeout_s)
    disabled = settings.upstream_disabled
    front_tool_table(row for row in tool_specs_of(contract) if row.name not in disabled)
    return UpstreamLink(
        settings.mcp_url,
        settings.mcp_timeout_s,
        contract=contract,
        disabled=disabled,
        token=settings.upstream_token,
    )


async def check_drift(
    contract: UpstreamContract, url: str, *, token: str | None, timeout_s: float = 30.0
) -> Drift:
    """The contract against the upstream's live ``tools/list`` (UpstreamError when it
    cannot be reached or refuses the bearer)."""
    async with connect(url, bearer=token, timeout_s=timeout_s) as upstream:
        listed = await upstream.list_tools()
    return drift(contract, listed)
