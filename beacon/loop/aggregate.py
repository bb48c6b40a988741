"""A "how many …?" question is answered by a single-value aggregate, decided in code (SPEC §3).

A planner may count by listing; a listing stops at the upstream's row cap, so
its count is at best a bound. The question's intent is read here, not left to
the planner: when a count question's planner stops and the evidence holds no
exact single-value aggregate, the loop sends **one** corrective planner round
naming the aggregate route. It fits inside the round budget or is not sent (a
seventh tool-bearing request is never made), and only when the caller's catalog
offers the aggregate tool. A planner that ignores it leaves the listing's honest
grade, never an error. Once a correction earned its aggregate, that count leads
the evidence: it is the answer, a listing only supplies the cards.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from beacon.adjudication import Basis, Grade, wants_aggregate
from beacon.loop.evidence import Evidence
from beacon.loop.prompts import AGGREGATE_CORRECTION
from beacon.wire.tools import tool_with_role

log = logging.getLogger(__name__)

Purpose = Literal["gather", "correct_aggregate"]


def offers(tools: Sequence[dict[str, Any]], name: str) -> bool:
    """Whether the (scoped, OpenAI-shaped) catalog offers the tool ``name``."""
    return any(t.get("function", {}).get("name") == name for t in tools)


def is_exact_aggregate(item: Evidence) -> bool:
    return (
        not item.failed
        and not item.denied
        and item.verdict.basis is Basis.AGGREGATE
        and item.verdict.grade is Grade.EXACT
    )


def asked_for_aggregate(item: Evidence) -> bool:
    """The planner already took the aggregate route (whatever the upstream made of it)."""
    question = item.arguments.get("question")
    aggregate = tool_with_role("aggregate")
    return item.tool == aggregate and isinstance(question, str) and wants_aggregate(question)


@dataclass(frozen=False, slots=True)  # sent_before is set when the correction goes out
class AggregateCorrection:
    """One turn's corrective round: at most one, and only where it can help."""

    question: str
    offered: bool
    sent_before: int | None = None  # the round whose request carried the correction

    @classmethod
    def for_turn(cls, question: str, tools: Sequence[dict[str, Any]]) -> AggregateCorrection:
        aggregate = tool_with_role("aggregate")
        return cls(question, aggregate is not None and offers(tools, aggregate))

    def needed(self, round_no: int, max_rounds: int, evidence: Sequence[Evidence]) -> bool:
        """After the planner stopped in ``round_no``: is one corrective round due?"""
        return (
            self.sent_before is None
            and self.offered
            and round_no < max_rounds  # the corrective request is round_no + 1, within budget
            and wants_aggregate(self.question)
            and not any(is_exact_aggregate(e) or asked_for_aggregate(e) for e in evidence)
        )

    def after_stop(
        self, round_no: int, max_rounds: int, evidence: Sequence[Evidence], content: str
    ) -> list[dict[str, Any]]:
        """The messages that precede one more planner round, or ``[]``: the planner is done."""
        if not self.needed(round_no, max_rounds, evidence):
            return []
        self.sent_before = round_no + 1
        log.info("how-many question without an aggregate: corrective round %d", round_no + 1)
        said = [{"role": "assistant", "content": content}] if content else []
        return [*said, {"role": "system", "content": AGGREGATE_CORRECTION}]

    def purpose(self, round_no: int) -> Purpose:
        """The plan frame's purpose: the corrective round says what it is."""
        return "correct_aggregate" if round_no == self.sent_before else "gather"

    def ordered(self, evidence: list[Evidence]) -> list[Evidence]:
        """After a correction, its exact aggregate leads (a stable partition)."""
        if self.sent_before is None:
            return evidence
        return sorted(evidence, key=lambda e: not is_exact_aggregate(e))
