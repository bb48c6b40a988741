"""One audit row per PEP verdict; built here, persisted by the store's caller.

The hint's *presence* is recorded, never its content: it is client-written
text, and whether it was sent is all an auditor needs to see it changed nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from beacon.policy.pep import Decision


@dataclass(frozen=True, slots=True)
class AuditRow:
    turn_id: str
    sub: str
    tool: str
    capability: str | None
    allowed: bool
    reason: str
    hint_present: bool
    at: datetime

    def as_record(self) -> dict[str, Any]:
        """Column values for persistence (``at`` as ISO 8601)."""
        return {
            "turn_id": self.turn_id,
            "sub": self.sub,
            "tool": self.tool,
            "capability": self.capability,
            "allowed": self.allowed,
            "reason": self.reason,
            "hint_present": self.hint_present,
            "at": self.at.isoformat(),
        }


def audit_row(decision: Decision, *, turn_id: str, sub: str, at: datetime) -> AuditRow:
    """Pure: the caller supplies the time, so a row is reproducible in a test."""
    if at.tzinfo is None:
        raise ValueError("audit time must be timezone-aware")
    return AuditRow(
        turn_id=turn_id,
        sub=sub,
        tool=decision.tool,
        capability=decision.capability,
        allowed=decision.allowed,
        reason=decision.reason.value,
        hint_present=decision.hint_present,
        at=at,
    )
