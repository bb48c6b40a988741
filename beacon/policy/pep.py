"""The policy enforcement point: may this verified caller make this tool call?

Called by dispatch *before* the MCP request is made, so a denied call sends
nothing upstream and no byte of its data can reach a frame. The verdict reads
verified tiers only; the client's capability hint is recorded (``hint_present``)
because it shapes the UI, and is otherwise ignored — a hint is a claim, not proof.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from beacon.policy.capabilities import granted_capabilities
from beacon.wire.tools import tool_spec


class DecisionReason(StrEnum):
    GRANTED = "granted"
    CAPABILITY_MISSING = "capability_missing"
    UNKNOWN_TOOL = "unknown_tool"


@dataclass(frozen=True, slots=True)
class Decision:
    allowed: bool
    tool: str
    capability: str | None  # None only for a tool outside the tool table
    reason: DecisionReason
    hint_present: bool


def decide(tool: str, identity_tiers: Iterable[object], *, capability_hint: object) -> Decision:
    """The verdict for a caller whose tiers came from a verified token."""
    return decide_granted(
        tool, granted_capabilities(identity_tiers), capability_hint=capability_hint
    )


def decide_granted(tool: str, granted: frozenset[str], *, capability_hint: object) -> Decision:
    """The verdict from granted capabilities (the matrix tests cells of one capability)."""
    hint_present = capability_hint is not None
    # ``tool`` may be anything the model wrote; only an exact string key is looked up.
    spec = tool_spec(tool)
    if spec is None:
        return Decision(False, str(tool), None, DecisionReason.UNKNOWN_TOOL, hint_present)
    needed = spec.capability
    if needed in granted:
        return Decision(True, tool, needed, DecisionReason.GRANTED, hint_present)
    return Decision(False, tool, needed, DecisionReason.CAPABILITY_MISSING, hint_present)
