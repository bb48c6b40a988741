"""What an analyst asks of the store, summarised (``beacon report``): turns, errors
by cause, count grades, narration-guard drops, permission verdicts, tool calls by
envelope verdict, and the waits (p50/p95).

Read from the rows kept in the clear for this purpose — ``turns`` (status, code,
times), ``tool_calls``, ``audit``, ``narration_audit`` — and never from sealed
content: a report needs no key. The time to first frame is the wait for the
answer's first frame (``turns.first_answer_at``: the commit of its first
``delta``, or of its terminal); the ``start`` frame is committed with the turn's
row, so ``created_at`` is when the turn began.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from beacon.store.backends import Tx
from beacon.store.turns import TurnStore
from beacon.wire.audit import AuditKind

DROPPED = AuditKind.NARRATION_DROPPED


def percentile(values: Sequence[float], q: float) -> float | None:
    """Nearest-rank percentile (``q`` in (0, 100]); None for no values."""
    if not values:
        return None
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[rank - 1]


@dataclass(frozen=True, slots=True)
class Report:
    since: float
    until: float
    turns: dict[str, int] = field(default_factory=dict)  # by status, and "total"
    errors: dict[str, int] = field(default_factory=dict)  # by code
    first_frame_ms: dict[str, float | None] = field(default_factory=dict)  # p50, p95
    duration_ms: dict[str, float | None] = field(default_factory=dict)
    tool_calls: dict[str, int] = field(default_factory=dict)  # by envelope verdict, "total"
    tools: dict[str, dict[str, int]] = field(default_factory=dict)  # tool -> verdict -> n
    tool_ms: dict[str, float | None] = field(default_factory=dict)
    grades: dict[str, int] = field(default_factory=dict)
    drops: dict[str, int] = field(default_factory=dict)  # guard drops by rule
    narration: dict[str, int] = field(default_factory=dict)  # every narration row by kind
    verdicts: dict[str, dict[str, int]] = field(
        default_factory=dict
    )  # capability -> allowed/denied

    def as_json(self) -> dict[str, Any]:
        def iso(t: float) -> str:
            return datetime.fromtimestamp(t, UTC).isoformat(timespec="seconds")

        return {
            "since": iso(self.since),
            "until": iso(self.until),
            "turns": self.turns,
            "errors_by_cause": self.errors,
            "first_frame_ms": self.first_frame_ms,
            "turn_duration_ms": self.duration_ms,
            "tool_calls": self.tool_calls,
            "tool_calls_by_tool": self.tools,
            "tool_call_ms": self.tool_ms,
            "grades": self.grades,
            "guard_drops": self.drops,
            "narration_rows": self.narration,
            "permission_verdicts": self.verdicts,
        }

    def rows(self) -> list[tuple[str, str, str, float | int | None]]:
        """(section, key, detail, value): one row per figure (the CSV)."""
        out: list[tuple[str, str, str, float | int | None]] = []
        out += [("turns", k, "", v) for k, v in self.turns.items()]
        out += [("errors_by_cause", k, "", v) for k, v in self.errors.items()]
        out += [("first_frame_ms", k, "", v) for k, v in self.first_frame_ms.items()]
        out += [("turn_duration_ms", k, "", v) for k, v in self.duration_ms.items()]
        out += [("tool_calls", k, "", v) for k, v in self.tool_calls.items()]
        out += [
            ("tool_calls_by_tool", tool, verdict, n)
            for tool, verdicts in self.tools.items()
            for verdict, n in verdicts.items()
        ]
        out += [("tool_call_ms", k, "", v) for k, v in self.tool_ms.items()]
        out += [("grades", k, "", v) for k, v in self.grades.items()]
        out += [("guard_drops", k, "", v) for k, v in self.drops.items()]
        out += [("narration_rows", k, "", v) for k, v in self.narration.items()]
        out += [
            ("permission_verdicts", cap, decision, n)
            for cap, decisions in self.verdicts.items()
            for decision, n in decisions.items()
        ]
        return out


def _ms(values: Sequence[float]) -> dict[str, float | None]:
    def at(q: float) -> float | None:
        found = percentile(values, q)
        return None if found is None else round(found * 1000, 1)

    return {"p50": at(50), "p95": at(95)}


def _sorted(counter: Counter[str]) -> dict[str, int]:
    return dict(sorted(counter.items()))


def summarise(store: TurnStore, *, since: float, until: float) -> Report:
    """Every figure over the rows made in [since, until)."""
    since_iso = datetime.fromtimestamp(since, UTC).isoformat(timespec="microseconds")
    until_iso = datetime.fromtimestamp(until, UTC).isoformat(timespec="microseconds")

    def read(tx: Tx) -> tuple[list[Any], ...]:
        window = (since, until)
        return (
            tx.execute(
                "SELECT status, code, created_at, first_answer_at, ended_at FROM turns "
                "WHERE created_at >= ? AND created_at < ?",
                window,
            ).fetchall(),
            tx.execute(
                "SELECT tool, verdict, grade, duration_ms FROM tool_calls WHERE at >= ? AND at < ?",
                window,
            ).fetchall(),
            tx.execute(
                "SELECT kind, rule FROM narration_audit WHERE at >= ? AND at < ?", window
            ).fetchall(),
            tx.execute(
                "SELECT capability, allowed FROM audit WHERE at >= ? AND at < ?",
                (since_iso, until_iso),
            ).fetchall(),
        )

    turns, calls, narration, audit = store.read(read)
    statuses = Counter(str(r[0]) for r in turns)
    by_tool: dict[str, Counter[str]] = {}
    for tool, verdict, _, _ in calls:
        by_tool.setdefault(str(tool), Counter())[str(verdict)] += 1
    verdicts: dict[str, Counter[str]] = {}
    for capability, allowed in audit:
        verdicts.setdefault(str(capability or "none"), Counter())[
            "allowed" if allowed else "denied"
        ] += 1
    return Report(
        since=since,
        until=until,
        turns={"total": len(turns), **_sorted(statuses)},
        errors=_sorted(Counter(str(r[1] or "unknown") for r in turns if r[0] == "error")),
        first_frame_ms=_ms([r[3] - r[2] for r in turns if r[3] is not None]),
        duration_ms=_ms([r[4] - r[2] for r in turns if r[4] is not None]),
        tool_calls={"total": len(calls), **_sorted(Counter(str(r[1]) for r in calls))},
        tools={tool: _sorted(c) for tool, c in sorted(by_tool.items())},
        tool_ms=_ms([r[3] / 1000 for r in calls if r[3] is not None]),
        grades=_sorted(Counter(str(r[2]) for r in calls if r[1] != "denied")),
        drops=_sorted(Counter(str(r[1]) for r in narration if r[0] == DROPPED)),
        narration=_sorted(Counter(str(r[0]) for r in narration)),
        verdicts={cap: _sorted(c) for cap, c in sorted(verdicts.items())},
    )


def text_lines(report: Report) -> list[str]:
    """The report as a person reads it."""
    data = report.as_json()

    def counts(values: dict[str, int]) -> str:
        return ", ".join(f"{k} {v}" for k, v in values.items()) or "none"

    def waits(values: dict[str, float | None]) -> str:
        if values.get("p50") is None:
            return "no data"
        return f"p50 {values['p50']:g} ms, p95 {values['p95']:g} ms"

    lines = [
        f"beacon report {data['since']} .. {data['until']}",
        f"turns: {counts(report.turns)}",
        f"errors by cause: {counts(report.errors)}",
        f"time to first frame (the answer's): {waits(report.first_frame_ms)}",
        f"turn duration: {waits(report.duration_ms)}",
        f"tool calls: {counts(report.tool_calls)}",
    ]
    lines += [f"  {tool}: {counts(v)}" for tool, v in report.tools.items()]
    lines += [
        f"tool call time: {waits(report.tool_ms)}",
        f"count grades: {counts(report.grades)}",
        f"guard drops: {counts(report.drops)}",
        f"narration rows: {counts(report.narration)}",
        "permission verdicts: " + ("none" if not report.verdicts else ""),
    ]
    lines += [f"  {cap}: {counts(v)}" for cap, v in report.verdicts.items()]
    return lines
