"""The turn's two filter checkpoints (``beacon.loop.filters``), and what a block does.

A block is said by code, never by the filter: a ``blocked`` notice in the turn's
locale, one ``narration_audit`` row naming the filter and the stage (written with
the turn's other rows when it ends), then ``TurnBlocked``, which the orchestrator
turns into the one ``error`` terminal, code ``blocked``. An ``error``, not a
``done``: it is legal both before ``references`` (an input block) and after it
(an output block), the panel shows a turn that ended in one as failed with its
code, and a ``done`` would claim a saved answer that does not exist.
"""

from __future__ import annotations

from typing import NoReturn

from beacon.lexicon.copy import BLOCKED, say
from beacon.loop.filters import (
    Blocked,
    TurnBlocked,
    first_block_of_answer,
    first_block_of_question,
)
from beacon.loop.state import TurnState
from beacon.wire.audit import AuditKind


def audit_record(blocked: Blocked) -> dict[str, str]:
    """The row's rule says where and which filter; its token, the filter's reason code."""
    return {
        "kind": AuditKind.FILTER_BLOCKED,
        "rule": f"{blocked.stage}:{blocked.name}",
        "token": blocked.reason,
    }


def stop(state: TurnState, blocked: Blocked) -> NoReturn:
    state.emit("notice", kind="blocked", text=say(BLOCKED[blocked.stage], state.locale))
    state.filter_audit.append(audit_record(blocked))
    raise TurnBlocked(f"a safety filter stopped this turn's {blocked.stage}")


async def screen_question(state: TurnState) -> None:
    """Before the turn's first model or upstream call: a blocked question stops here."""
    filters = state.deps.filters.inputs
    if filters:
        found = await first_block_of_question(filters, state.request.message, state.locale)
        if found is not None:
            stop(state, found)


async def screen_answer(state: TurnState, text: str) -> None:
    """After the narration guard, before the save: a blocked answer is never published."""
    filters = state.deps.filters.outputs
    if filters:
        found = await first_block_of_answer(filters, text, state.request.message, state.locale)
        if found is not None:
            stop(state, found)
