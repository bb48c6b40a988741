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
from typing import Any

import httpx

from beacon.cli.ask import AskError, run_turn
from beacon.wire.sse import SseEvent, parse_sse
from harness.probe_target import (
    COUNT_QUESTION,
    HTTP_TIMEOUT_S,
    LIST_QUESTION,
    PHOTO_QUESTION,
    Deployment,
    ProbeFailed,
    ProbeReport,
    ProbeTarget,
    ask,
    counts_of,
    expect,
    frames_of,
    one_terminal,
    optional,
)
from harness.probes_upstream import (
    citation_diff,
    explicit_project,
    jwks_token,
    sentinel_saturation,
    upstream_preflight,
)

ROUND_TRIP_ROUNDS = 3
COLD_FIRST_FRAME_CEILING_S = 15.0


def boot_smoke(stack: ProbeTarget) -> dict[str, Any]:
    urls = {"chat": f"{stack.chat_url}/healthz", "panel": f"{stack.chat_url}/panel/"}
    # a deployment checks the services it was given; a started stack has all three
    if (mcp := optional(lambda: stack.mcp_origin)) is not None:
        urls["mcp"] = f"{mcp}/healthz"
    if (llm := optional(lambda: stack.llm_url)) is not None:
        urls["llm"] = llm.removesuffix("/v1") + "/healthz"
    statuses = {
        name: httpx.get(url, timeout=HTTP_TIMEOUT_S).status_code for name, url in urls.items()
    }
    expect(all(s == 200 for s in statuses.values()), f"not every service is up: {statuses}")
    return {"statuses": statuses}


def sse_client(stack: ProbeTarget) -> dict[str, Any]:
    events = ask(stack, COUNT_QUESTION)
    expect(events[0].event == "start", f"the first frame is {events[0].event}")
    seqs = [int(e.id or "0") for e in events]
    expect(seqs == list(range(1, len(events) + 1)), f"seq is not 1..n: {seqs}")
    expect(all(e.json()["seq"] == int(e.id or "0") for e in events), "data.seq differs from id")
    turn_ids = {e.json()["turn_id"] for e in events}
    expect(len(turn_ids) == 1, f"frames carry several turn ids: {turn_ids}")
    return {"frames": len(events), "terminal": one_terminal(events)}


def turn_loop(stack: ProbeTarget) -> dict[str, Any]:
    events = ask(stack, COUNT_QUESTION)
    plans = frames_of(events, "plan")
    rounds = [p["round"] for p in plans if p["purpose"] == "gather"]
    expect(plans[0]["purpose"] == "context", "round 0 is not the context round")
    expect(bool(rounds) and max(rounds) <= 6, f"gathering rounds out of bounds: {rounds}")
    calls = {f["call_id"] for f in frames_of(events, "tool_call")}
    results = {f["call_id"] for f in frames_of(events, "tool_result")}
    expect(calls == results, f"calls without results: {sorted(calls ^ results)}")
    order = [e.event for e in events]
    expect(order.index("references") < order.index("delta"), "narration before references")
    return {"rounds": rounds, "calls": len(calls), "terminal": one_terminal(events)}


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
    expect(first < COLD_FIRST_FRAME_CEILING_S, f"first frame after {first:.2f}s")
    return {
        "first_frame_s": round(first, 3),
        "turn_s": round(total, 3),
        "terminal": one_terminal(events),
    }


def auth_matrix(stack: ProbeTarget) -> dict[str, Any]:
    body = {"mode": "single", "message": COUNT_QUESTION}
    missing = httpx.post(f"{stack.chat_url}/v1/turns", json=body, timeout=HTTP_TIMEOUT_S)
    expect(missing.status_code == 401, f"no bearer answered {missing.status_code}")
    headers = {"Authorization": "Bearer not-a-token"}
    bad = httpx.post(
        f"{stack.chat_url}/v1/turns", json=body, headers=headers, timeout=HTTP_TIMEOUT_S
    )
    if bad.status_code == 200:  # a server that defers the bearer to the upstream
        errors = [e for e in parse_sse(bad.text.split("\n")) if e.event == "error"]
        expect([e.json()["code"] for e in errors] == ["upstream_auth"], f"bad bearer: {bad.text}")
        malformed = "upstream_auth"
    else:
        expect(bad.status_code == 401, f"a malformed bearer answered {bad.status_code}")
        malformed = str(bad.json()["error"]["code"])
    cells: dict[str, str] = {"missing": str(missing.status_code), "malformed": malformed}
    for tier in ("essentials", "professional", "enterprise", "enterprise_ai"):
        events = run_turn(stack.chat_url, body, token=stack.token(tiers=(tier,)))
        expect(events[0].event == "start", f"{tier}: no start frame")
        cells[tier] = one_terminal(events)
    return {"cells": cells}


def _shape(events: list[SseEvent]) -> list[Any]:
    counts = counts_of(events)
    return [[e.event for e in events], [(c["source"], c["grade"], c["total"]) for c in counts]]


def round_trip(stack: ProbeTarget) -> dict[str, Any]:
    shapes = [_shape(ask(stack, COUNT_QUESTION)) for _ in range(ROUND_TRIP_ROUNDS)]
    expect(all(s == shapes[0] for s in shapes), "rounds disagree on frames or counts")
    return {"rounds": ROUND_TRIP_ROUNDS, "counts": shapes[0][1]}


def full_scenario(stack: ProbeTarget) -> dict[str, Any]:
    grades = {}
    for question, wanted in (
        (COUNT_QUESTION, "EXACT"),
        (LIST_QUESTION, "LOWER_BOUND"),
        (PHOTO_QUESTION, "LOWER_BOUND"),
    ):
        events = ask(stack, question)
        expect(one_terminal(events) == "done", f"{question!r} did not finish")
        seen = [c["grade"] for c in counts_of(events)]
        expect(wanted in seen, f"{question!r} graded {seen}, wanted {wanted}")
        grades[question] = seen
    return {"grades": grades}


def legacy_unknown(stack: ProbeTarget) -> dict[str, Any]:
    events = ask(stack, LIST_QUESTION, scenario="legacy-upstream")
    grades = {c["grade"] for c in counts_of(events)}
    expect(grades == {"UNKNOWN"}, f"legacy upstream graded {grades}")
    answer = "".join(f["text"] for f in frames_of(events, "delta"))
    expect(not re.search(r"\d", answer), f"a numeral was said: {answer!r}")
    return {"grades": sorted(grades)}


def inband_502(stack: ProbeTarget) -> dict[str, Any]:
    events = ask(stack, PHOTO_QUESTION, scenario="inband-502")
    results = [r for r in frames_of(events, "tool_result") if r["tool"] == "search_photos"]
    expect(bool(results) and all(r["status"] == "failure" for r in results), f"{results}")
    notices = [n["kind"] for n in frames_of(events, "notice")]
    expect("failure" in notices, f"no failure notice: {notices}")
    return {"notices": notices}


def zero_hits(stack: ProbeTarget) -> dict[str, Any]:
    events = ask(stack, PHOTO_QUESTION, scenario="zero-hits")
    results = [r for r in frames_of(events, "tool_result") if r["tool"] == "search_photos"]
    expect(bool(results), "no search_photos result")
    expect(all(r["emptiness"] == "empty" for r in results), f"{results}")
    return {"emptiness": [r["emptiness"] for r in results]}


def model_refusal(stack: ProbeTarget) -> dict[str, Any]:
    events = ask(stack, COUNT_QUESTION, scenario="model-429")
    expect(one_terminal(events) == "error", "a 429 ended in done")
    codes = [e["code"] for e in frames_of(events, "error")]
    expect(codes == ["llm_refused"], f"error codes {codes}")
    return {"codes": codes}


def unknown_scenario(stack: ProbeTarget) -> dict[str, Any]:
    events = ask(stack, COUNT_QUESTION, scenario="no-such-scenario")
    expect(one_terminal(events) == "error", "an unknown scenario ended in done")
    return {"codes": [e["code"] for e in frames_of(events, "error")]}


def chat_session(stack: ProbeTarget) -> dict[str, Any]:
    first = ask(stack, COUNT_QUESTION, mode="chat")
    start = frames_of(first, "start")[0]
    expect(start["session_id"] is not None, "chat mode started no session")
    single = frames_of(ask(stack, COUNT_QUESTION), "start")[0]
    expect(single["session_id"] is None, "single mode carries a session id")
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
