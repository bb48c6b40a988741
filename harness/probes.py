"""One-command reproductions (``beacon probe NAME``), each against a running stack.

A probe drives the real servers over loopback HTTP — the same stack ``beacon
up`` starts — and checks one measured behaviour end to end. Each is bounded
in time by its HTTP timeouts; none sleeps.

``beacon probe NAME --target URL`` runs one against a deployment instead: a
``Deployment`` names the chat server, and the stub upstream (``--mcp``) and
model (``--llm``) when it has them, or a bearer (``--token``). A probe that
mints tokens or reads the upstream needs ``--mcp`` (``PROBE_NEEDS``).
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol
from urllib.parse import urlsplit

import anyio
import httpx
import jsonschema

from beacon.cli.ask import AskError, run_turn
from beacon.wire.sse import SseEvent, parse_sse

HTTP_TIMEOUT_S = 15.0
ROUND_TRIP_ROUNDS = 3
COLD_FIRST_FRAME_CEILING_S = 15.0
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


@dataclass
class ProbeReport:
    name: str
    ok: bool
    seconds: float
    facts: dict[str, Any] = field(default_factory=dict)
    failure: str | None = None


def _expect(condition: bool, message: str) -> None:
    if not condition:
        raise ProbeFailed(message)


def _turn(
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


def _frames(events: list[SseEvent], kind: str) -> list[dict[str, Any]]:
    return [e.json() for e in events if e.event == kind]


def _counts(events: list[SseEvent]) -> list[dict[str, Any]]:
    refs = _frames(events, "references")
    _expect(len(refs) == 1, f"expected one references frame, saw {len(refs)}")
    counts = refs[0]["counts"]
    assert isinstance(counts, list)
    return counts


def _one_terminal(events: list[SseEvent]) -> str:
    terminals = [e.event for e in events if e.event in ("done", "error")]
    _expect(len(terminals) == 1, f"expected exactly one terminal, saw {terminals}")
    _expect(events[-1].event == terminals[0], "the terminal is not the last frame")
    return terminals[0]


def _optional(read: Callable[[], str]) -> str | None:
    try:
        return read()
    except ProbeUnavailable:
        return None


def boot_smoke(stack: ProbeTarget) -> dict[str, Any]:
    urls = {"chat": f"{stack.chat_url}/healthz", "panel": f"{stack.chat_url}/panel/"}
    # a deployment checks the services it was given; a started stack has all three
    if (mcp := _optional(lambda: stack.mcp_origin)) is not None:
        urls["mcp"] = f"{mcp}/healthz"
    if (llm := _optional(lambda: stack.llm_url)) is not None:
        urls["llm"] = llm.removesuffix("/v1") + "/healthz"
    statuses = {
        name: httpx.get(url, timeout=HTTP_TIMEOUT_S).status_code for name, url in urls.items()
    }
    _expect(all(s == 200 for s in statuses.values()), f"not every service is up: {statuses}")
    return {"statuses": statuses}


def sse_client(stack: ProbeTarget) -> dict[str, Any]:
    events = _turn(stack, COUNT_QUESTION)
    _expect(events[0].event == "start", f"the first frame is {events[0].event}")
    seqs = [int(e.id or "0") for e in events]
    _expect(seqs == list(range(1, len(events) + 1)), f"seq is not 1..n: {seqs}")
    _expect(all(e.json()["seq"] == int(e.id or "0") for e in events), "data.seq differs from id")
    turn_ids = {e.json()["turn_id"] for e in events}
    _expect(len(turn_ids) == 1, f"frames carry several turn ids: {turn_ids}")
    return {"frames": len(events), "terminal": _one_terminal(events)}


def turn_loop(stack: ProbeTarget) -> dict[str, Any]:
    events = _turn(stack, COUNT_QUESTION)
    plans = _frames(events, "plan")
    rounds = [p["round"] for p in plans if p["purpose"] == "gather"]
    _expect(plans[0]["purpose"] == "context", "round 0 is not the context round")
    _expect(bool(rounds) and max(rounds) <= 6, f"gathering rounds out of bounds: {rounds}")
    calls = {f["call_id"] for f in _frames(events, "tool_call")}
    results = {f["call_id"] for f in _frames(events, "tool_result")}
    _expect(calls == results, f"calls without results: {sorted(calls ^ results)}")
    order = [e.event for e in events]
    _expect(order.index("references") < order.index("delta"), "narration before references")
    return {"rounds": rounds, "calls": len(calls), "terminal": _one_terminal(events)}


async def _call_upstream(
    stack: ProbeTarget, tool: str, arguments: dict[str, Any]
) -> dict[str, Any]:
    from beacon.upstream.mcp_client import connect

    async with connect(stack.mcp_url, bearer=stack.token(), timeout_s=HTTP_TIMEOUT_S) as up:
        outcome = await up.call_tool(tool, arguments)
    return outcome.result


def citation_diff(stack: ProbeTarget) -> dict[str, Any]:
    events = _turn(stack, PHOTO_QUESTION)
    calls = [c for c in _frames(events, "tool_call") if c["tool"] == "search_photos"]
    _expect(bool(calls), "the turn made no search_photos call")
    cited = {c["id"] for c in _frames(events, "references")[0]["citations"]}
    upstream: set[str] = set()
    for call in calls:
        result = anyio.run(_call_upstream, stack, call["tool"], call["arguments"])
        items = (result.get("structuredContent") or {}).get("items", [])
        upstream |= {i["id"] for i in items}
    _expect(bool(cited), "no citations to diff")
    invented = sorted(cited - upstream)
    _expect(not invented, f"citations the upstream never returned: {invented[:5]}")
    return {"cited": len(cited), "upstream_ids": len(upstream)}


def cold_latency(stack: ProbeTarget) -> dict[str, Any]:
    started = time.perf_counter()
    first: float | None = None

    def on_event(_event: SseEvent) -> None:
        nonlocal first
        if first is None:
            first = time.perf_counter() - started

    events = run_turn(
        stack.chat_url,
        {"mode": "single", "message": LIST_QUESTION},
        token=stack.token(),
        on_event=on_event,
    )
    total = time.perf_counter() - started
    assert first is not None
    _expect(first < COLD_FIRST_FRAME_CEILING_S, f"first frame after {first:.2f}s")
    return {
        "first_frame_s": round(first, 3),
        "turn_s": round(total, 3),
        "terminal": _one_terminal(events),
    }


def auth_matrix(stack: ProbeTarget) -> dict[str, Any]:
    body = {"mode": "single", "message": COUNT_QUESTION}
    missing = httpx.post(f"{stack.chat_url}/v1/turns", json=body, timeout=HTTP_TIMEOUT_S)
    _expect(missing.status_code == 401, f"no bearer answered {missing.status_code}")
    headers = {"Authorization": "Bearer not-a-token"}
    bad = httpx.post(
        f"{stack.chat_url}/v1/turns", json=body, headers=headers, timeout=HTTP_TIMEOUT_S
    )
    if bad.status_code == 200:  # a server that defers the bearer to the upstream
        errors = [e for e in parse_sse(bad.text.split("\n")) if e.event == "error"]
        _expect([e.json()["code"] for e in errors] == ["upstream_auth"], f"bad bearer: {bad.text}")
        malformed = "upstream_auth"
    else:
        _expect(bad.status_code == 401, f"a malformed bearer answered {bad.status_code}")
        malformed = str(bad.json()["error"]["code"])
    cells: dict[str, str] = {"missing": str(missing.status_code), "malformed": malformed}
    for tier in ("essentials", "professional", "enterprise", "enterprise_ai"):
        events = run_turn(stack.chat_url, body, token=stack.token(tiers=(tier,)))
        _expect(events[0].event == "start", f"{tier}: no start frame")
        cells[tier] = _one_terminal(events)
    return {"cells": cells}


async def _preflight(stack: ProbeTarget) -> dict[str, Any]:
    from beacon.upstream.mcp_client import connect

    checked: dict[str, int] = {}
    async with connect(stack.mcp_url, bearer=stack.token(), timeout_s=HTTP_TIMEOUT_S) as up:
        tools = {t["name"]: t for t in await up.list_tools()}
        _expect(len(tools) == 10, f"the upstream lists {len(tools)} tools, not 10")
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


def _shape(events: list[SseEvent]) -> list[Any]:
    counts = _counts(events)
    return [[e.event for e in events], [(c["source"], c["grade"], c["total"]) for c in counts]]


def round_trip(stack: ProbeTarget) -> dict[str, Any]:
    shapes = [_shape(_turn(stack, COUNT_QUESTION)) for _ in range(ROUND_TRIP_ROUNDS)]
    _expect(all(s == shapes[0] for s in shapes), "rounds disagree on frames or counts")
    return {"rounds": ROUND_TRIP_ROUNDS, "counts": shapes[0][1]}


def full_scenario(stack: ProbeTarget) -> dict[str, Any]:
    grades = {}
    for question, wanted in (
        (COUNT_QUESTION, "EXACT"),
        (LIST_QUESTION, "LOWER_BOUND"),
        (PHOTO_QUESTION, "LOWER_BOUND"),
    ):
        events = _turn(stack, question)
        _expect(_one_terminal(events) == "done", f"{question!r} did not finish")
        seen = [c["grade"] for c in _counts(events)]
        _expect(wanted in seen, f"{question!r} graded {seen}, wanted {wanted}")
        grades[question] = seen
    return {"grades": grades}


def legacy_unknown(stack: ProbeTarget) -> dict[str, Any]:
    events = _turn(stack, LIST_QUESTION, scenario="legacy-upstream")
    grades = {c["grade"] for c in _counts(events)}
    _expect(grades == {"UNKNOWN"}, f"legacy upstream graded {grades}")
    answer = "".join(f["text"] for f in _frames(events, "delta"))
    _expect(not re.search(r"\d", answer), f"a numeral was said: {answer!r}")
    return {"grades": sorted(grades)}


def inband_502(stack: ProbeTarget) -> dict[str, Any]:
    events = _turn(stack, PHOTO_QUESTION, scenario="inband-502")
    results = [r for r in _frames(events, "tool_result") if r["tool"] == "search_photos"]
    _expect(bool(results) and all(r["status"] == "failure" for r in results), f"{results}")
    notices = [n["kind"] for n in _frames(events, "notice")]
    _expect("failure" in notices, f"no failure notice: {notices}")
    return {"notices": notices}


def sentinel_saturation(stack: ProbeTarget) -> dict[str, Any]:
    events = _turn(stack, LIST_QUESTION)
    calls = [c for c in _frames(events, "tool_call") if c["tool"] == "query_data"]
    saturated = [c for c in _counts(events) if c["total"] == 3000]
    _expect(bool(saturated), "no count pinned at the 3000 row cap")
    _expect(all(c["grade"] == "LOWER_BOUND" and c["has_more"] for c in saturated), f"{saturated}")
    upstream = anyio.run(_call_upstream, stack, "query_data", calls[-1]["arguments"])
    said = (upstream.get("structuredContent") or {}).get("has_more")
    return {"counts": saturated, "upstream_has_more": said}


def zero_hits(stack: ProbeTarget) -> dict[str, Any]:
    events = _turn(stack, PHOTO_QUESTION, scenario="zero-hits")
    results = [r for r in _frames(events, "tool_result") if r["tool"] == "search_photos"]
    _expect(bool(results), "no search_photos result")
    _expect(all(r["emptiness"] == "empty" for r in results), f"{results}")
    return {"emptiness": [r["emptiness"] for r in results]}


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
    _expect(identity.sub == "probe", f"subject {identity.sub!r}")
    _expect(identity.tiers == frozenset({"professional"}), f"tiers {sorted(identity.tiers)}")
    return {"sub": identity.sub, "tiers": sorted(identity.tiers)}


def explicit_project(stack: ProbeTarget) -> dict[str, Any]:
    log = f"{stack.mcp_origin}/dev/requests"
    before = len(httpx.get(log, timeout=HTTP_TIMEOUT_S).json()["requests"])
    _turn(stack, COUNT_QUESTION)
    entries = httpx.get(log, timeout=HTTP_TIMEOUT_S).json()["requests"][before:]
    scoped = [e for e in entries if e["tool"] != "list_projects"]
    _expect(bool(scoped), "the turn made no project-scoped call")
    implicit = [e["tool"] for e in scoped if not e["arguments"].get("project_id")]
    _expect(not implicit, f"calls that fell back to the upstream focus: {implicit}")
    return {"calls": [e["tool"] for e in entries]}


def model_refusal(stack: ProbeTarget) -> dict[str, Any]:
    events = _turn(stack, COUNT_QUESTION, scenario="model-429")
    _expect(_one_terminal(events) == "error", "a 429 ended in done")
    codes = [e["code"] for e in _frames(events, "error")]
    _expect(codes == ["llm_refused"], f"error codes {codes}")
    return {"codes": codes}


def unknown_scenario(stack: ProbeTarget) -> dict[str, Any]:
    events = _turn(stack, COUNT_QUESTION, scenario="no-such-scenario")
    _expect(_one_terminal(events) == "error", "an unknown scenario ended in done")
    return {"codes": [e["code"] for e in _frames(events, "error")]}


def chat_session(stack: ProbeTarget) -> dict[str, Any]:
    first = _turn(stack, COUNT_QUESTION, mode="chat")
    start = _frames(first, "start")[0]
    _expect(start["session_id"] is not None, "chat mode started no session")
    single = _frames(_turn(stack, COUNT_QUESTION), "start")[0]
    _expect(single["session_id"] is None, "single mode carries a session id")
    return {"session_id": start["session_id"]}


PROBES: dict[str, Callable[[ProbeTarget], dict[str, Any]]] = {
    "boot-smoke": boot_smoke,
    "sse-client": sse_client,
    "turn-loop": turn_loop,
    "citation-diff": citation_diff,
    "cold-latency": cold_latency,
    "auth-matrix": auth_matrix,
    "upstream-preflight": upstream_preflight,
    "round-trip": round_trip,
    "full-scenario": full_scenario,
    "legacy-unknown": legacy_unknown,
    "inband-502": inband_502,
    "sentinel-saturation": sentinel_saturation,
    "zero-hits": zero_hits,
    "jwks-token": jwks_token,
    "explicit-project": explicit_project,
    "model-refusal": model_refusal,
    "unknown-scenario": unknown_scenario,
    "chat-session": chat_session,
}


# What a probe needs beyond the chat server and a bearer, when run against a deployment.
PROBE_NEEDS: dict[str, tuple[str, ...]] = {
    "citation-diff": ("mcp",),
    "auth-matrix": ("mcp",),
    "upstream-preflight": ("mcp",),
    "sentinel-saturation": ("mcp",),
    "jwks-token": ("mcp",),
    "explicit-project": ("mcp",),
}


def missing_needs(name: str, target: Deployment) -> list[str]:
    """The options a probe needs that this deployment was not given (``--mcp``, ``--llm``)."""
    given = {"mcp": target.mcp, "llm": target.llm}
    return [f"--{need}" for need in PROBE_NEEDS.get(name, ()) if given[need] is None]


def run_probe(name: str, stack: ProbeTarget) -> ProbeReport:
    started = time.perf_counter()
    try:
        facts = PROBES[name](stack)
    except (ProbeFailed, AskError, httpx.HTTPError, OSError, ValueError, KeyError) as exc:
        seconds = round(time.perf_counter() - started, 3)
        return ProbeReport(name, False, seconds, failure=f"{type(exc).__name__}: {exc}")
    return ProbeReport(name, True, round(time.perf_counter() - started, 3), facts)
