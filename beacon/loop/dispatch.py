"""Dispatch: the PEP, its audit row, the call, its adjudication and its frames.

A call the caller may not make is blocked here, before it goes out: the
upstream never sees it, and the turn gets a denial notice instead of data.
A call that goes out is adjudicated at once — graded for good, promotion of a
complete narrowed page included — so its ``tool_result`` frame already shows
the grade ``references`` will show.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

from beacon.adjudication import Grade
from beacon.adjudication.added import added_filters
from beacon.adjudication.constraints import judge_scope
from beacon.adjudication.record_kinds import counted_kinds, of_records
from beacon.lexicon.copy import FAILURE, say
from beacon.loop.citations import MAX_CARDS_PER_SOURCE
from beacon.loop.evidence import Evidence, adjudicate, denied_evidence
from beacon.loop.intent import intent_tools
from beacon.loop.sets import enumerate_field
from beacon.loop.state import TurnState
from beacon.policy.audit import audit_row
from beacon.policy.notices import denial_notice
from beacon.policy.pep import Decision, decide
from beacon.telemetry import metrics
from beacon.telemetry.tracing import TOOL_SPAN, TURN_ID, tracer
from beacon.upstream.errors import UpstreamError
from beacon.upstream.mcp_client import Upstream
from beacon.wire.tools import tool_spec

# A narrowed scope may come back whole: show every card of it, not a sample.
NARROWED_CARDS = 50


def _decide(state: TurnState, tool: str) -> Decision:
    """The PEP's verdict from verified claims only (the hint changes no verdict)."""
    return decide(tool, state.identity.tiers, capability_hint=state.request.capability_hint)


def _audit(state: TurnState, decision: Decision) -> None:
    row = audit_row(decision, turn_id=state.turn_id, sub=state.identity.sub, at=datetime.now(UTC))
    state.audit.append(row)
    metrics.permission_verdict(decision.capability, decision.allowed)


def deny(
    state: TurnState,
    tool: str,
    arguments: dict[str, Any],
    call_id: str,
    slot: str,
    capability: str | None,
) -> Evidence:
    # Blocked before it goes out: the upstream never sees the request.
    state.emit("notice", kind="denied", text=denial_notice(capability, state.locale))
    state.emit(
        "tool_result",
        call_id=call_id,
        tool=tool,
        status="denied",
        grade="UNKNOWN",
        emptiness="unknown",
        returned=None,
        bytes=0,
    )
    state.made.append(denied_evidence(tool, arguments, call_id=call_id, slot=slot))
    return state.made[-1]


def deny_needed_tools(state: TurnState, needed: Sequence[str]) -> list[str]:
    """Of the tools the question needs (``intent.needed_tools``, read with the question),
    those the caller lacks: one denial each. Returns the capabilities they need (what a
    partial-entitlement offer names)."""
    lacking = []
    for tool in needed:
        decision = _decide(state, tool)
        if decision.allowed:
            continue
        _audit(state, decision)
        slot = state.next_slot()
        state.evidence.append(deny(state, tool, {}, f"intent_{tool}", slot, decision.capability))
        if decision.capability is not None:
            lacking.append(decision.capability)
    return lacking


def lacks_intent_tool(state: TurnState, text: str) -> bool:
    """``text`` asks for a tool no other can stand in for, and the caller lacks it."""
    return any(not _decide(state, tool).allowed for tool in intent_tools(text))


async def call(
    state: TurnState,
    upstream: Upstream,
    tool: str,
    arguments: dict[str, Any],
    call_id: str,
    slot: str,
) -> tuple[Evidence, dict[str, Any]]:
    """One tool call through the PEP: its evidence and the raw result (for the digest).
    Its span and series carry the envelope verdict and grade, never an argument."""
    label = metrics.tool_label(tool, fronted=tool_spec(tool) is not None)
    attributes = {TURN_ID: state.turn_id, "beacon.tool": label}
    with tracer().start_as_current_span(TOOL_SPAN, attributes=attributes) as span:
        evidence, raw = await _call(state, upstream, tool, arguments, call_id, slot, label)
        span.set_attribute("beacon.verdict", evidence.envelope)
        span.set_attribute("beacon.grade", evidence.verdict.grade.value)
        return evidence, raw


async def _call(
    state: TurnState,
    upstream: Upstream,
    tool: str,
    arguments: dict[str, Any],
    call_id: str,
    slot: str,
    label: str,
) -> tuple[Evidence, dict[str, Any]]:
    decision = _decide(state, tool)
    _audit(state, decision)
    if not decision.allowed:
        return deny(state, tool, arguments, call_id, slot, decision.capability), {}
    state.emit("tool_call", call_id=call_id, tool=tool, arguments=arguments)
    await state.deps.pause()
    started = time.perf_counter()
    try:
        with state.holding(upstream.next_call_written()):
            outcome = await upstream.call_tool(tool, arguments)
    except UpstreamError:
        metrics.tool_called(label, "error", time.perf_counter() - started)
        raise
    project_id = arguments.get("project_id")
    narrowed = state.narrowing.active and tool == state.narrowing.tool
    evidence = adjudicate(
        outcome,
        call_id=call_id,
        slot=slot,
        sentinel=state.deps.sentinel,
        project_id=project_id if isinstance(project_id, str) else None,
        narrowed=narrowed,
        card_limit=NARROWED_CARDS if narrowed else MAX_CARDS_PER_SOURCE,
    )
    # The asked set against the arguments that went out (the narrowing scope included).
    scope = judge_scope(state.constraints, tool, arguments)
    # And the records it counted against the ones asked for ("findings" counted as photos).
    cited = (citation.kind for citation in evidence.citations)
    scope = of_records(scope, state.asked_records, counted_kinds(cited, outcome.result))
    if not narrowed and evidence.verdict.grade is Grade.EXACT:
        # And what it sent that the question never named — nor, in a chat's follow-up,
        # the questions before it (a chat question with a subject of its own starts a
        # new set: "Where is Maple Clinic?" counted for an earlier question's level 3 and
        # status open was stated as its answer). Only an exact count (or none) of a
        # narrower set is another set's: "at least 200 photos" matching a query stays
        # true of every photo.
        view = state.request.view_context
        shown = view.model_dump(exclude_none=True) if view is not None else {}
        scope = replace(scope, added=added_filters(state.constraints, tool, arguments, shown))
    evidence = replace(evidence, scope=scope)
    evidence = replace(evidence, duration_s=time.perf_counter() - started)
    asked = state.field_asked
    if asked is not None and evidence.counted and not evidence.failed:
        complete = evidence.verdict.complete
        reducer = asked.reducer
        named = next((c.value for c in state.constraints if c.axis == "project"), None)
        found = enumerate_field(
            tool,
            outcome.result,
            asked.field,
            complete=complete,
            reducer=reducer,
            record_id=named if reducer == "where" else None,
        )
        evidence = replace(evidence, enumeration=found)
        if reducer == "where" and found is not None and found.leaders:
            # Code read the named project's own row: the answer is of the asked project.
            evidence = replace(evidence, scope=evidence.scope.applying("project"))
    metrics.tool_called(label, evidence.envelope, evidence.duration_s or 0.0)
    if evidence.counted:
        metrics.count_graded(evidence.verdict.grade.value)
    if evidence.counted and (evidence.cursor or evidence.pending) and not evidence.failed:
        state.paged[slot] = evidence  # its page record is saved with the answer, in one commit
    state.emit(
        "tool_result",
        call_id=call_id,
        tool=tool,
        status="failure" if evidence.failed else "ok",
        grade=evidence.verdict.grade.value,
        emptiness=evidence.emptiness,
        returned=evidence.returned,
        bytes=evidence.bytes,
    )
    if evidence.failed:
        state.emit("notice", kind="failure", text=say(FAILURE, state.locale, tool=tool))
    state.made.append(evidence)
    return evidence, outcome.result
