"""``--upstream-contract``: the checks ``beacon serve`` and ``beacon up`` make before a
chat server fronts an MCP server Beacon did not write.

The contract must parse (usage, 2); the upstream must answer ``tools/list`` with
the contract's bearer (unreachable, 3); and every fronted tool must still be listed
with the schema the contract was written against (drift, 8). With
``--allow-drift`` the drifted tools are disabled instead — named on stderr and
handed to the server processes in ``BEACON_UPSTREAM_DISABLED``.
"""

from __future__ import annotations

import os

import anyio
import typer

from beacon.cli.errors import Exit, fail
from beacon.server.fronting import check_drift
from beacon.upstream.errors import UpstreamAuthError, UpstreamError
from beacon.wire.contract import ContractError, UpstreamContract, load_contract

DISABLED_ENV = "BEACON_UPSTREAM_DISABLED"


def contract_or_fail(command: str, path: str) -> UpstreamContract:
    try:
        return load_contract(path)
    except ContractError as exc:
        fail(command, str(exc), Exit.USAGE, exc)


def check_upstream(
    command: str,
    contract: UpstreamContract,
    url: str,
    *,
    token: str | None,
    allow_drift: bool,
    timeout_s: float = 30.0,
) -> frozenset[str]:
    """The tools to disable (none unless ``allow_drift``); exits on anything else."""
    try:
        found = anyio.run(lambda: check_drift(contract, url, token=token, timeout_s=timeout_s))
    except UpstreamAuthError as exc:
        fail(command, f"{exc}: give its bearer with --upstream-token", Exit.TOKEN_REFUSED, exc)
    except UpstreamError as exc:
        fail(command, f"cannot check the upstream contract: {exc}", Exit.UNREACHABLE, exc)
    fronted = sorted(n for n, t in contract.tools.items() if t.fronted)
    if not found.drifted:
        typer.echo(
            f"beacon {command}: fronting {url} through its contract: {len(fronted)} tools "
            f"({', '.join(fronted) or 'none: fill in capabilities'})",
            err=True,
        )
        return frozenset()
    if not allow_drift:
        fail(
            command,
            f"the upstream no longer matches its contract ({found.describe()}): review a new "
            "`beacon audit-upstream --contract-out`, or start with --allow-drift to serve "
            "without those tools",
            Exit.CONTRACT_DRIFT,
        )
    disabled = frozenset(found.drifted)
    typer.echo(
        f"beacon {command}: upstream drift ({found.describe()}): serving without "
        f"{', '.join(sorted(disabled))}",
        err=True,
    )
    return disabled


def hand_to_workers(disabled: frozenset[str]) -> None:
    """The server processes read the disabled tools from the environment they inherit."""
    already = {n for n in os.environ.get(DISABLED_ENV, "").split(",") if n}
    if disabled | already:
        os.environ[DISABLED_ENV] = ",".join(sorted(disabled | already))
