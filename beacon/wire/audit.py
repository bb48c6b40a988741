"""The narration audit's codes, as the ``narration_audit`` rows and the metrics carry them.

Defined here, below the guard that decides them, so the store that keeps the rows
and verify's own judge (which may not import the guard) name the same values.
"""

from __future__ import annotations

from enum import StrEnum


class DropRule(StrEnum):
    """The rule a sentence broke, so the guard dropped it whole (the first, in this order)."""

    NUMBER_UNDER_UNKNOWN = "number_under_unknown"  # any number while a count is UNKNOWN
    FREE_COUNT = "free_count"  # a number no slot rendered and no evidence value explains
    SUBJECT_MIXED = "subject_mixed"  # a population slot and a subset slot in one clause
    COMPLETENESS_CLAIM = "completeness_claim"  # "all", "exactly" without a complete count
    ABSENCE_CLAIM = "absence_claim"  # "none" without an empty result with standing
    POPULATION_CLAIM = "population_claim"  # the results as a whole, not all on screen


class AuditKind(StrEnum):
    """What a ``narration_audit`` row records."""

    NARRATION_DROPPED = "narration_dropped"  # a sentence the guard dropped (rule: DropRule)
    NARRATION_FALLBACK = "narration_fallback"  # nothing the model wrote survived
    UNKNOWN_SLOT = "unknown_slot"  # a slot naming no graded count
    DROPPED_UNKNOWN_CLAUSE = "dropped_unknown_clause"  # a slot whose count is UNKNOWN
    BYPASSED_SLOT = "bypassed_slot"  # a numeral the model wrote equal to a graded count
    SUBJECT_SHARED = "subject_shared"  # population and subset slots in one sentence
    SCOPE_APPLIED = "scope_applied"  # a limit of the question a call's arguments carried
    SCOPE_UNAPPLIED = "scope_unapplied"  # a count of another set than the question asked
    # A safety filter stopped the turn (rule: "input:NAME" / "output:NAME", token: its code).
    FILTER_BLOCKED = "filter_blocked"
