"""The probes that read the upstream beside the chat server (each needs ``--mcp``
against a deployment): citations against what the upstream returned, its tool
schemas, the row cap, the JWKS token and explicit project scoping.
"""

from __future__ import annotations

from typing import Any

import anyio
import httpx
import jsonschema

from harness.probe_target import (
    COUNT_QUESTION,
    HTTP_TIMEOUT_S,
    LIST_QUESTION,
    PHOTO_QUESTION,
    ProbeFailed,
    ProbeTarget,
    ask,
    counts_of,
    expect,
    frames_of,
)


async def call_upstream(stack: ProbeTarget, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    from beacon.upstream.mcp_client import connect

    async with connect(stack.mcp_url, bearer=stack.token(), timeout_s=HTTP_TIMEOUT_S) as up:
        outcome = await up.call_tool(tool, arguments)
    return outcome.result


def citation_diff(stack: ProbeTarget) -> dict[str, Any]:
    events = ask(stack, PHOTO_QUESTION)
    calls = [c for c in frames_of(events, "tool_call") if c["tool"] == "search_photos"]
    expect(bool(calls), "the turn made no search_photos call")
    cited = {c["id"] for c in frames_of(events, "references")[0]["citations"]}
    upstream: set[str] = set()
    for call in calls:
        result = anyio.run(call_upstream, stack, call["tool"], call["arguments"])
        items = (result.get("structuredContent") or {}).get("items", [])
        upstream |= {i["id"] for i in items}
    expect(bool(cited), "no citations to diff")
    invented = sorted(cited - upstream)
    expect(not invented, f"citations the upstream never returned: {invented[:5]}")
    return {"cited": len(cited), "upstream_ids": len(upstream)}


async def _preflight(stack: ProbeTarget) -> dict[str, Any]:
    from beacon.upstream.mcp_client import connect

    checked: dict[str, int] = {}
    async with connect(stack.mcp_url, bearer=stack.token(), timeout_s=HTTP_TIMEOUT_S) as up:
        tools = {t["name"]: t for t in await up.list_tools()}
        expect(len(tools) == 10, f"the upstream lists {len(tools)} tools, not 10")
        calls = {
            "list_projects": {},
            "list_levels": {"project_id": "prj-maple-clinic"},
            "list_annotations": {"project_id": "prj-maple-clinic"},
            "search_photos": {"project_id": "prj-maple-clinic", "query": "rebar"},
            "get_progress_summary": {"project_id": "prj-maple-clinic"},
        }
        for name, arguments in calls.items():
            schema = tools[name].get("outputSchema")
            if not isinstance(schema, dict):
                raise ProbeFailed(f"{name} declares no outputSchema")
            outcome = await up.call_tool(name, arguments)
            structured = outcome.result.get("structuredContent")
            try:
                jsonschema.validate(structured, schema)
            except jsonschema.ValidationError as exc:
                raise ProbeFailed(f"{name}: {exc.message}") from exc
            checked[name] = outcome.bytes
    return {"tools": sorted(tools), "validated": checked}


def upstream_preflight(stack: ProbeTarget) -> dict[str, Any]:
    result: dict[str, Any] = anyio.run(_preflight, stack)
    return result


def sentinel_saturation(stack: ProbeTarget) -> dict[str, Any]:
    events = ask(stack, LIST_QUESTION)
    calls = [c for c in frames_of(events, "tool_call") if c["tool"] == "query_data"]
    saturated = [c for c in counts_of(events) if c["total"] == 3000]
    expect(bool(saturated), "no count pinned at the 3000 row cap")
    expect(all(c["grade"] == "LOWER_BOUND" and c["has_more"] for c in saturated), f"{saturated}")
    upstream = anyio.run(call_upstream, stack, "query_data", calls[-1]["arguments"])
    said = (upstream.get("structuredContent") or {}).get("has_more")
    return {"counts": saturated, "upstream_has_more": said}


def jwks_token(stack: ProbeTarget) -> dict[str, Any]:
    from beacon.auth import Verifier
    from beacon.policy import TIERS

    verifier = Verifier(
        f"{stack.mcp_origin}/.well-known/jwks.json",
        issuer="beacon-stub",
        audience="beacon",
        known_tiers=frozenset(TIERS),
    )
    identity = anyio.run(verifier.verify, stack.token(sub="probe", tiers=("professional",)))
    expect(identity.sub == "probe", f"subject {identity.sub!r}")
    expect(identity.tiers == frozenset({"professional"}), f"tiers {sorted(identity.tiers)}")
    return {"sub": identity.sub, "tiers": sorted(identity.tiers)}


def explicit_project(stack: ProbeTarget) -> dict[str, Any]:
    log = f"{stack.mcp_origin}/dev/requests"
    before = len(httpx.get(log, timeout=HTTP_TIMEOUT_S).json()["requests"])
    ask(stack, COUNT_QUESTION)
    entries = httpx.get(log, timeout=HTTP_TIMEOUT_S).json()["requests"][before:]
    scoped = [e for e in entries if e["tool"] != "list_projects"]
    expect(bool(scoped), "the turn made no project-scoped call")
    implicit = [e["tool"] for e in scoped if not e["arguments"].get("project_id")]
    expect(not implicit, f"calls that fell back to the upstream focus: {implicit}")
    return {"calls": [e["tool"] for e in entries]}
