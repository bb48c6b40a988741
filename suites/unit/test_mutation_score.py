"""`make mutation` reads mutmut's listing into a kill rate with a floor."""

from __future__ import annotations

from harness.mutation_score import kill_rate, tally


def test_the_kill_rate_counts_killed_and_timeouts_over_every_mutant() -> None:
    listing = [
        "    beacon.adjudication.counts.x_grade__mutmut_1: killed",
        "    beacon.adjudication.counts.x_grade__mutmut_2: survived",
        "    beacon.adjudication.guard.slots.x_feed__mutmut_3: timeout",
        "    beacon.adjudication.guard.slots.x_feed__mutmut_4: killed",
        "some banner line without a mutant",
    ]
    statuses = tally(listing)
    assert dict(statuses) == {"killed": 2, "survived": 1, "timeout": 1}
    assert kill_rate(statuses) == 75.0


def test_no_mutants_is_a_zero_rate_not_a_division_error() -> None:
    assert kill_rate(tally([])) == 0.0
