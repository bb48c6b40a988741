"""A gate's outcomes and their exit codes: one table, rendered into ``--help`` and the README.

Data only (no import beyond the standard library), so ``beacon gate --help`` can show
it without the ``[harness]`` extra; ``harness.gating`` decides with it.
"""

from __future__ import annotations

from enum import StrEnum


class Outcome(StrEnum):
    OPEN = "open"
    FAILING = "failing_evidence"
    USAGE = "usage"
    STALE = "stale_sweep"


# Outcome → (exit code, what it means). A child's exit code never passes through
# (pytest also exits 5, for "no tests collected"): 5 always means a stale sweep.
EXIT_TABLE: dict[Outcome, tuple[int, str]] = {
    Outcome.OPEN: (0, "open"),
    Outcome.FAILING: (1, "failing evidence"),
    Outcome.USAGE: (2, "usage"),
    Outcome.STALE: (5, "stale sweep"),
}
EXIT_CODES: dict[Outcome, int] = {outcome: code for outcome, (code, _) in EXIT_TABLE.items()}


def exit_codes_line() -> str:
    """``exit 0 open, 1 failing evidence, 2 usage, 5 stale sweep``."""
    return "exit " + ", ".join(f"{code} {meaning}" for code, meaning in EXIT_TABLE.values())


def exit_codes_markdown() -> str:
    """The README's table (between its ``gate-exit-codes`` markers)."""
    rows = [f"| {code} | `{o.value}` | {meaning} |" for o, (code, meaning) in EXIT_TABLE.items()]
    return "\n".join(["| exit | outcome | meaning |", "|---|---|---|", *rows])
