"""Gathering: the context round, then at most six planner rounds with the caller's catalog.

Round 0 is context, not evidence: the planner needs project ids to pass
explicitly (the upstream's remembered "current project" is a trap), and that
count answers nothing. Each gathering round's calls go through dispatch; the
planner reads a count-free digest of each result, never the page. A "how
many" question the planner answered with a listing gets one corrective round
naming the aggregate, inside the budget. A seventh tool-bearing request is
never made: the budget's end is disclosed instead.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from beacon.adjudication.conversation import Asked, asked_set, on_view
from beacon.lexicon.clock import today
from beacon.lexicon.copy import BUDGET, say
from beacon.llm.client import Completion, stream_completion
from beacon.loop.aggregate import AggregateCorrection
from beacon.loop.beside import beside
from beacon.loop.catalog import openai_tools, working_set
from beacon.loop.citations import records_of
from beacon.loop.context import project_directory
from beacon.loop.dispatch import call, deny_needed_tools, lacks_intent_tool
from beacon.loop.evidence import digest
from beacon.loop.intent import needed_tools
from beacon.loop.narrowing_state import scoped_arguments
from beacon.loop.offers import (
    Offer,
    comparison_offer,
    one_sided_level,
    partial_offer,
    portfolio_offer,
)
from beacon.loop.prompts import PLANNER_PROMPT, model_json, turn_block
from beacon.loop.scope import ScopeCorrection
from beacon.loop.sets import Extreme, field_question
from beacon.loop.state import TurnState
from beacon.policy.capabilities import granted_capabilities
from beacon.policy.catalog import scope_catalog
from beacon.telemetry.tracing import ROUND_SPAN, TURN_ID, tracer
from beacon.upstream.mcp_client import Upstream
from beacon.wire.frames import PlannedCall
from beacon.wire.tools import tool_with_role

MAX_GATHER_ROUNDS = 6


async def _context(state: TurnState, upstream: Upstream) -> None:
    directory_tool = tool_with_role("context")
    if directory_tool is None:
        # An upstream without projects (one fronted through its contract): no directory.
        return
    state.emit(
        "plan",
        round=0,
        purpose="context",
        calls=[PlannedCall(call_id="ctx_1", tool=directory_tool, arguments={})],
    )
    context, raw = await call(state, upstream, directory_tool, {}, "ctx_1", "c0")
    state.directory = project_directory(raw) if not (context.failed or context.denied) else []


def _turn_context(state: TurnState) -> None:
    """The per-turn block (projects, view, narrowing). The view list's disclosure is the
    answer's to make, once it knows whether the narration used the list (view_list.py)."""
    view = state.request.view_context
    narrowing = state.narrowing
    active = (
        {"tool": narrowing.tool, "arguments": narrowing.arguments, "scope": narrowing.scope}
        if narrowing.active
        else None
    )
    state.turn_block = turn_block(
        state.directory,
        view.model_dump(exclude_none=True) if view else None,
        active,
        locale=state.locale,
    )


async def plan(
    state: TurnState, messages: list[dict[str, Any]], tools: list[dict[str, Any]]
) -> Completion:
    await state.deps.pause()
    async for event in stream_completion(
        state.deps.http,
        state.deps.llm,
        messages,
        tools=tools,
        scenario=state.scenario,
        turn_id=state.turn_id,
    ):
        if isinstance(event, Completion):
            return event
    raise AssertionError("stream_completion always ends with a Completion")


def _assistant_turn(completion: Completion) -> dict[str, Any]:
    return {
        "role": "assistant",
        "content": completion.content or None,
        "tool_calls": [
            {
                "id": c.id,
                "type": "function",
                "function": {"name": c.name, "arguments": model_json(c.arguments)},
            }
            for c in completion.tool_calls
        ],
    }


def _ask_first(state: TurnState, lacking: list[str], granted: frozenset[str]) -> Offer | None:
    """A counter-question the question earns before any planning (offers.py): the
    feasible part when the plan covers only part of it; the project when a fresh
    conversation's question names none and several are visible."""
    question, locale = state.request.message, state.locale
    if lacking:
        return partial_offer(
            question,
            locale,
            denied=lacking,
            granted=granted,
            constraints=state.constraints,
            projects={p["id"]: p["name"] for p in state.directory},
            needs_denied=lambda part: lacks_intent_tool(state, part),
        )
    view = state.request.view_context
    # A single question has no conversation to lean on: it is always fresh. Each option's
    # reply is a whole question ("… — in Harbor Tower"), so it works sent on its own.
    single = state.request.mode == "single"
    fresh = single or (state.session_id is not None and not state.history)
    if not fresh or (view is not None and view.project_id):
        return None
    return portfolio_offer(
        question, locale, constraints=state.constraints, directory=state.directory
    )


async def _other_side(state: TurnState, upstream: Upstream) -> Offer | None:
    """A comparison that names one level of a named project: the levels it has (a
    context call, as round 0's, never evidence) become the options for the other side."""
    side = one_sided_level(state.request.message, state.constraints)
    project = next((c.value for c in state.constraints if c.axis == "project"), None)
    levels_tool = tool_with_role("levels")
    if side is None or project is None or levels_tool is None:
        return None
    arguments = {"project_id": project}
    state.emit(
        "plan",
        round=0,
        purpose="context",
        calls=[PlannedCall(call_id="ctx_2", tool=levels_tool, arguments=arguments)],
    )
    found, raw = await call(state, upstream, levels_tool, arguments, "ctx_2", "c0")
    if found.failed or found.denied:
        return None
    levels = [
        r["number"]
        for r in records_of(raw)
        if isinstance(r.get("number"), int) and not isinstance(r.get("number"), bool)
    ]
    return comparison_offer(state.request.message, state.locale, side=side, levels=levels)


def said_ready(content: str) -> bool:
    """The planner wrote READY beside its calls: they are all the question needs, so no
    request follows only to hear it say so (one model request fewer per one-round turn)."""
    return content.strip().rstrip(".!").upper() == "READY"


async def _run_calls(
    state: TurnState,
    upstream: Upstream,
    completion: Completion,
    round_no: int,
    purpose: str,
    messages: list[dict[str, Any]],
) -> None:
    """One round's calls, each through dispatch, their digests appended for the planner."""
    calls = completion.tool_calls
    state.emit(
        "plan",
        round=round_no,
        purpose=purpose,
        calls=[PlannedCall(call_id=c.id, tool=c.name, arguments=c.arguments) for c in calls],
    )
    messages.append(_assistant_turn(completion))
    for planned in calls:
        slot = state.next_slot()
        scoped = scoped_arguments(planned.name, planned.arguments, state.narrowing)
        evidence, raw = await call(state, upstream, planned.name, scoped, planned.id, slot)
        state.evidence.append(evidence)
        messages.append(
            {
                "role": "tool",
                "tool_call_id": planned.id,
                "content": model_json(digest(evidence, raw)),
            }
        )


def _round(state: TurnState, round_no: int) -> Any:
    """A gathering round's span (round 0: context), a child of the turn's."""
    attributes: dict[str, str | int] = {TURN_ID: state.turn_id, "beacon.round": round_no}
    return tracer().start_as_current_span(ROUND_SPAN, attributes=attributes)


@dataclass(frozen=True, slots=True)
class _Reading:
    """The question read against one directory: what ``_question`` keeps of it."""

    directory: list[dict[str, str]]
    asked: Asked
    field: Extreme | None
    needed: tuple[str, ...]  # the tools the question's intent needs (the PEP's to deny)


def _read(state: TurnState, directory: list[dict[str, str]]) -> _Reading:
    # A chat's follow-up asks about the earlier question's set, moved or narrowed
    # (conversation.py): what it carries is judged like what it names.
    earlier = [m["content"] for m in state.history if m["role"] == "user"]
    asked = asked_set(earlier, state.request.message, projects=directory, today=today())
    question = state.request.message
    return _Reading(directory, asked, field_question(question), needed_tools(question))


# The directory each caller's last context call returned (a user's projects rarely
# change between turns): the question is read against it while this turn's context
# call is out, and that reading is kept when the directory comes back the same.
_DIRECTORIES: OrderedDict[str, list[dict[str, str]]] = OrderedDict()
_DIRECTORIES_MAX = 1024


def _read_ahead(state: TurnState) -> _Reading | None:
    """The question read against the caller's last directory, or None (none seen yet).
    Run while the context call is in flight: ~0.5–0.8 ms of reading a question no
    longer sits between the directory's arrival and the planner's request."""
    last = _DIRECTORIES.get(state.identity.sub)
    return _read(state, last) if last is not None else None


def _remember(state: TurnState) -> None:
    _DIRECTORIES[state.identity.sub] = state.directory
    _DIRECTORIES.move_to_end(state.identity.sub)
    while len(_DIRECTORIES) > _DIRECTORIES_MAX:
        _DIRECTORIES.popitem(last=False)


async def _question(
    state: TurnState, upstream: Upstream, ahead: _Reading | None = None
) -> frozenset[str] | None:
    """The question read against the directory: its constraints, the field it asks
    for, and the capabilities granted — or None once it earned a counter-question.
    A reading made ahead against an equal directory is that reading (a pure function
    of the question, the chat, the day and the directory)."""
    reading = ahead if ahead is not None and ahead.directory == state.directory else None
    if reading is None:
        reading = _read(state, state.directory)
    _remember(state)
    asked = reading.asked
    view = state.request.view_context
    state.constraints = on_view(asked.constraints, view.level_number if view else None)
    state.asked_records = asked.records
    state.field_asked = reading.field
    lacking = deny_needed_tools(state, reading.needed)
    granted = granted_capabilities(state.identity.tiers)
    state.offer = _ask_first(state, lacking, granted) or await _other_side(state, upstream)
    if state.offer is not None:
        # Neither a blanket refusal nor a silent partial run: nothing runs until chosen.
        state.emit("notice", **state.offer.notice())
        return None
    return granted


async def gather(state: TurnState, upstream: Upstream) -> None:
    # The catalog is asked for first and read once the question is: the upstream
    # lists its tools while the context call runs beside it, the question is read
    # ahead (against the caller's last directory) while both are out, and any
    # counter-question is worked out here — no round trip waits for another, nor
    # for Beacon's reading (a turn that ends in a counter-question leaves the
    # listing unread).
    await state.deps.pause()
    async with beside(upstream.list_tools()) as listing:
        with _round(state, 0):
            written = upstream.next_call_written()
            async with beside(_context(state, upstream)) as context:
                # Read ahead only once the context call is out (never holding it back),
                # and only while it is: a round that already ended needs no guess.
                await asyncio.wait((context, written), return_when=asyncio.FIRST_COMPLETED)
                written.cancel()
                ahead = None if context.done() else _read_ahead(state)
                await context
        granted = await _question(state, upstream, ahead)
        if granted is None:
            return
        tools = openai_tools(scope_catalog(await listing, granted))
    _turn_context(state)
    messages: list[dict[str, Any]] = [
        {"role": "system", "content": PLANNER_PROMPT},
        *state.history,
        {"role": "system", "content": state.turn_block},
        {"role": "user", "content": state.request.message},
    ]
    # "How many" is the aggregate's, decided here: one corrective round at most.
    correction = AggregateCorrection.for_turn(state.request.message, tools)
    # A filter the planner dropped is asked for once too (scope.py), in the same budget.
    scope_correction = ScopeCorrection()
    # The tools the turn has reached for: a later round carries only these (catalog.py).
    reached: set[str] = set()
    for round_no in range(1, MAX_GATHER_ROUNDS + 1):
        with _round(state, round_no):
            offered = tools if round_no == 1 else working_set(tools, reached)
            completion = await plan(state, messages, offered)
            said = completion.content
            if completion.tool_calls:
                purpose = (
                    "correct_scope"
                    if round_no == scope_correction.sent_before
                    else correction.purpose(round_no)
                )
                await _run_calls(state, upstream, completion, round_no, purpose, messages)
                reached.update(c.name for c in completion.tool_calls)
                state.evidence = scope_correction.ordered(correction.ordered(state.evidence))
                if not said_ready(completion.content):
                    continue
                said = ""  # already in the transcript, with the calls it came with
            # The planner is done: one correction may still be due, inside the budget.
            nudge = correction.after_stop(
                round_no, MAX_GATHER_ROUNDS, state.evidence, said
            ) or scope_correction.after_stop(round_no, MAX_GATHER_ROUNDS, state.evidence, said)
            if not nudge:
                return
            aggregate = tool_with_role("aggregate")
            if correction.sent_before == round_no + 1 and aggregate is not None:
                reached.add(aggregate)  # the tool the correction names
            messages.extend(nudge)
    # The budget is spent: the seventh tool-bearing request is never made.
    state.emit("notice", kind="disclosure", text=say(BUDGET, state.locale, n=MAX_GATHER_ROUNDS))
