"""The harness's own lifecycle as a transition table: 6 states × 6 events = 36 rows.

Rows are data; every (state, event) pair not listed as legal is illegal, and
the illegal orderings worth a name are the ones that make evidence lie (a
gate deciding before the suite finished, a second report for one run).

The gates run on it (``walk``): a gate gives one step per state, and which step
runs next is the row the last event picked, so a wrong row changes what the gate
does and decides (``harness/gating.py``), never only a trail.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum

from beacon.adjudication.tables import build_rows


class HarnessState(StrEnum):
    STUBS_STARTING = "stubs_starting"
    STUBS_READY = "stubs_ready"
    SUITE_RUNNING = "suite_running"
    EVIDENCE_COLLECTING = "evidence_collecting"
    GATE_DECIDING = "gate_deciding"
    REPORTED = "reported"


class HarnessEvent(StrEnum):
    HEALTHY = "healthy"  # every stub answered its health check
    RUN = "run"  # the suite (or probe set) starts
    FINISHED = "finished"  # the suite exited; its output is on disk
    COLLECTED = "collected"  # sweep record and JUnit read
    DECIDED = "decided"  # the gate mapped the evidence to its exit code
    ABORT = "abort"  # something died: report what is known, as a failure


@dataclass(frozen=True, slots=True)
class HarnessRow:
    id: str
    source: HarnessState
    event: HarnessEvent
    target: HarnessState
    legal: bool


class IllegalTransition(RuntimeError):
    def __init__(self, row: HarnessRow) -> None:
        super().__init__(f"illegal harness transition {row.id}: {row.source} + {row.event}")
        self.row = row


S, E = HarnessState, HarnessEvent
LEGAL_ROWS: tuple[tuple[str, HarnessState, HarnessEvent, HarnessState], ...] = (
    ("starting-healthy", S.STUBS_STARTING, E.HEALTHY, S.STUBS_READY),
    ("starting-abort-reports", S.STUBS_STARTING, E.ABORT, S.REPORTED),
    ("ready-run", S.STUBS_READY, E.RUN, S.SUITE_RUNNING),
    ("ready-abort-reports", S.STUBS_READY, E.ABORT, S.REPORTED),
    ("running-finished", S.SUITE_RUNNING, E.FINISHED, S.EVIDENCE_COLLECTING),
    ("running-abort-reports", S.SUITE_RUNNING, E.ABORT, S.REPORTED),
    ("collecting-collected", S.EVIDENCE_COLLECTING, E.COLLECTED, S.GATE_DECIDING),
    ("collecting-abort-reports", S.EVIDENCE_COLLECTING, E.ABORT, S.REPORTED),
    ("deciding-decided", S.GATE_DECIDING, E.DECIDED, S.REPORTED),
    ("deciding-abort-reports", S.GATE_DECIDING, E.ABORT, S.REPORTED),
)
NAMED_ILLEGAL: dict[tuple[HarnessState, HarnessEvent], str] = {
    (S.STUBS_STARTING, E.RUN): "suite-before-stubs-ready",
    (S.STUBS_READY, E.DECIDED): "decision-without-a-suite",
    (S.SUITE_RUNNING, E.DECIDED): "decision-before-the-suite-finished",
    (S.SUITE_RUNNING, E.COLLECTED): "evidence-before-the-suite-finished",
    (S.EVIDENCE_COLLECTING, E.DECIDED): "decision-on-half-collected-evidence",
    (S.GATE_DECIDING, E.RUN): "rerun-while-the-gate-decides",
    (S.REPORTED, E.DECIDED): "second-decision-for-one-run",
    (S.REPORTED, E.ABORT): "abort-after-the-report",
    (S.REPORTED, E.RUN): "reuse-of-a-reported-run",
}


def _table() -> tuple[HarnessRow, ...]:
    legal = {(src, ev): (row_id, dst) for row_id, src, ev, dst in LEGAL_ROWS}
    return build_rows(HarnessState, HarnessEvent, legal, NAMED_ILLEGAL, HarnessRow)


HARNESS_TABLE: tuple[HarnessRow, ...] = _table()
_INDEX = {(row.source, row.event): row for row in HARNESS_TABLE}


def harness_step(state: HarnessState, event: HarnessEvent) -> HarnessRow:
    return _INDEX[(state, event)]


class Lifecycle:
    """One harness run; an illegal event raises and leaves the state unchanged."""

    def __init__(self, state: HarnessState = HarnessState.STUBS_STARTING) -> None:
        self.state = state
        self.trail: list[str] = []

    def fire(self, event: HarnessEvent) -> HarnessState:
        row = harness_step(self.state, event)
        if not row.legal:
            raise IllegalTransition(row)
        self.trail.append(row.id)
        self.state = row.target
        return self.state


Step = Callable[[], HarnessEvent]


@dataclass(frozen=True)
class Walk:
    """Where a walk ended and how: the rows it took, and what went wrong on the way."""

    state: HarnessState
    trail: list[str] = field(default_factory=list)
    events: list[HarnessEvent] = field(default_factory=list)
    problem: str | None = None

    @property
    def reported_on_a_decision(self) -> bool:
        """The run was reported by a decision, the only ending that can open a gate."""
        return (
            self.problem is None
            and self.state is HarnessState.REPORTED
            and self.events[-1:] == [HarnessEvent.DECIDED]
        )


def walk(steps: Mapping[HarnessState, Step], start: HarnessState) -> Walk:
    """Run the step of each state the table leads to, from ``start`` until REPORTED.

    Each step does its work and names the event that happened; the table picks the
    next state. A state without a step, an illegal event or a walk that goes round
    (more steps than states) ends the walk with a ``problem``, never a decision.
    """
    life = Lifecycle(start)
    events: list[HarnessEvent] = []
    for _ in range(len(HarnessState)):
        if life.state is HarnessState.REPORTED:
            return Walk(life.state, life.trail, events)
        step = steps.get(life.state)
        if step is None:
            problem = f"the lifecycle led to {life.state.value}, a state this gate has no step for"
            return Walk(life.state, life.trail, events, problem)
        event = step()
        events.append(event)
        try:
            life.fire(event)
        except IllegalTransition as exc:
            return Walk(life.state, life.trail, events, str(exc))
    if life.state is HarnessState.REPORTED:
        return Walk(life.state, life.trail, events)
    return Walk(life.state, life.trail, events, f"no report after {len(HarnessState)} steps")
