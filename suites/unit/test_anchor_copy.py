"""The exact instructions each anchor builder hands the model (golden table).

Anchors are the contract between adjudication and narration: a changed word
changes what the model is told, so each one is pinned here on purpose.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from beacon.adjudication import anchors as build
from beacon.adjudication.absence import AbsenceCause, AbsenceVerdict, Recovery

ROWS: list[Any] = [
    pytest.param(
        lambda: build.exact_count("c1", "open findings"),
        {
            "kind": "exact_count",
            "slot": "c1",
            "subject": "open findings",
            "instruction": "The count of open findings is exact: write {{count:c1}} where it "
            "belongs.",
        },
        id="exact-count",
    ),
    pytest.param(
        lambda: build.lower_bound("c2", "photos"),
        {
            "kind": "lower_bound",
            "slot": "c2",
            "subject": "photos",
            "instruction": "Only a lower bound is known for photos: write {{count:c2}} (it reads "
            "'at least N'); never call it exact, complete or all.",
        },
        id="lower-bound",
    ),
    pytest.param(
        lambda: build.shown_subset("c3"),
        {
            "kind": "shown_subset",
            "slot": "c3",
            "instruction": "In a separate sentence whose subject is the returned examples, write "
            "{{shown:c3}} (e.g. 'These {{shown:c3}} are shown'); never describe the whole "
            "population in that sentence.",
        },
        id="shown-subset",
    ),
    pytest.param(
        lambda: build.unknown_count("c4", "photos"),
        {
            "kind": "unknown_count",
            "slot": "c4",
            "subject": "photos",
            "instruction": "The source did not say how many photos there are: utter no number for "
            "it at all, and do not guess.",
        },
        id="unknown-count",
    ),
    pytest.param(
        lambda: build.empty_with_standing("c5", "clashes"),
        {
            "kind": "empty_with_standing",
            "slot": "c5",
            "subject": "clashes",
            "instruction": "The source searched and accounted for its result: there are no "
            "clashes. You may say so plainly.",
        },
        id="empty-with-standing",
    ),
    pytest.param(
        lambda: build.in_band_failure("c6", "search_photos"),
        {
            "kind": "in_band_failure",
            "slot": "c6",
            "source": "search_photos",
            "instruction": "search_photos did not return a usable result: say it failed; state no "
            "count and no absence.",
        },
        id="in-band-failure",
    ),
    pytest.param(
        lambda: build.narrowing_released(),
        {
            "kind": "narrowing_released",
            "slot": None,
            "instruction": "The narrowing has been released: the next search covers everything. "
            "Say so; do not re-run the search inside this turn.",
        },
        id="narrowing-released",
    ),
    pytest.param(
        lambda: build.stitch_discarded("c7", ["total_changed"]),
        {
            "kind": "stitch_discarded",
            "slot": "c7",
            "anomalies": ["total_changed"],
            "instruction": "Later pages disagreed with the first (the data moved while paging): "
            "answer from the first page only and say so.",
        },
        id="stitch-discarded",
    ),
    pytest.param(
        lambda: build.counter_question(["level"], None),
        {
            "kind": "counter_question",
            "slot": None,
            "axes": ["level"],
            "recommended": None,
            "instruction": "Ask one short question to narrow by level; promise no counts.",
        },
        id="counter-question-one-way",
    ),
    pytest.param(
        lambda: build.counter_question(["level", "status"], "level"),
        {
            "kind": "counter_question",
            "slot": None,
            "axes": ["level", "status"],
            "recommended": "level",
            "instruction": "Offer to narrow by one of: level, status; recommend level. Promise no "
            "counts you have not retrieved.",
        },
        id="counter-question-options",
    ),
    pytest.param(
        lambda: build.view_list_truncated("v1"),
        {
            "kind": "view_list_truncated",
            "slot": "v1",
            "instruction": "The on-screen list may be truncated: speak of {{shown:v1}} as what is "
            "shown, never as all.",
        },
        id="view-list-truncated",
    ),
]


def absence(cause: AbsenceCause, recovery: Recovery) -> AbsenceVerdict:
    return AbsenceVerdict(cause, recovery, False)


ROWS.append(
    pytest.param(
        lambda: build.enumeration(
            "c8", "company", ["Apex", "Keystone"], complete=True, relation="appears_in_findings"
        ),
        {
            "kind": "enumeration",
            "slot": "c8",
            "field": "company",
            "members": ["Apex", "Keystone"],
            "complete": True,
            "relation": "appears_in_findings",
            "instruction": "The company values below were read from a field of every matching "
            "record: describe them all, do not rank or trim them, and say only where they "
            "appear (appears_in_findings).",
        },
        id="enumeration",
    )
)
ROWS.append(
    pytest.param(
        lambda: build.enumeration(
            "c9", "category", ["ppe"], complete=False, relation="appears_in_records"
        ),
        {
            "kind": "enumeration",
            "slot": "c9",
            "field": "category",
            "members": ["ppe"],
            "complete": False,
            "relation": "appears_in_records",
            "instruction": "The category values below were read from a field of the records "
            "returned (not all of them): describe them all, do not rank or trim them, and say "
            "only where they appear (appears_in_records).",
        },
        id="enumeration-of-a-partial-result",
    )
)

ABSENCE_ROWS: list[Any] = [
    pytest.param(
        absence(AbsenceCause.PERMISSION_DENIED, Recovery.REQUEST_ACCESS),
        {
            "kind": "absence_permission_denied",
            "slot": "c1",
            "recovery": "request_access",
            "instruction": "The call was not made: a notice card explains why. Do not restate it "
            "and do not say the data is missing.",
        },
        id="permission-denied",
    ),
    pytest.param(
        absence(AbsenceCause.AUTH_FAILURE, Recovery.REAUTHENTICATE),
        {
            "kind": "absence_auth_failure",
            "slot": "c1",
            "recovery": "reauthenticate",
            "instruction": "The source refused the sign-in: say authentication failed; never say "
            "there is no data.",
        },
        id="auth-failure",
    ),
    pytest.param(
        absence(AbsenceCause.ZERO_AFTER_NARROWING, Recovery.RELEASE_NARROWING),
        {
            "kind": "absence_zero_after_narrowing",
            "slot": "c1",
            "recovery": "release_narrowing",
            "instruction": "Nothing matched within the narrowed scope: say it is not among the "
            "previous results and offer to search the whole project.",
        },
        id="zero-after-narrowing",
    ),
    pytest.param(
        absence(AbsenceCause.ZERO_FROM_START, Recovery.NONE),
        {
            "kind": "absence_zero_from_start",
            "slot": "c1",
            "recovery": "none",
            "instruction": "Nothing matched in the whole scope: you may say the project has no "
            "such data.",
        },
        id="zero-from-start",
    ),
    pytest.param(
        absence(AbsenceCause.UPSTREAM_FAILURE, Recovery.RETRY_LATER),
        {
            "kind": "in_band_failure",
            "slot": "c1",
            "source": "the source",
            "instruction": "the source did not return a usable result: say it failed; state no "
            "count and no absence.",
        },
        id="upstream-failure",
    ),
    pytest.param(
        absence(AbsenceCause.NO_STANDING, Recovery.NONE),
        {
            "kind": "unknown_count",
            "slot": "c1",
            "subject": "results",
            "instruction": "The source did not say how many results there are: utter no number "
            "for it at all, and do not guess.",
        },
        id="no-standing",
    ),
]


@pytest.mark.parametrize(("anchor", "record"), ROWS)
def test_each_builder_says_exactly_this(
    anchor: Callable[[], build.Anchor], record: dict[str, Any]
) -> None:
    # Built inside the test, not at collection, so a mutated builder is what runs.
    assert anchor().record() == record


@pytest.mark.parametrize(("verdict", "record"), ABSENCE_ROWS)
def test_each_absence_cause_says_exactly_this(
    verdict: AbsenceVerdict, record: dict[str, Any]
) -> None:
    assert build.absence("c1", verdict).record() == record


def test_a_slotless_absence_of_no_standing_still_names_no_number() -> None:
    anchor = build.absence(None, absence(AbsenceCause.NO_STANDING, Recovery.NONE))
    assert anchor.slot is None and "{{" not in anchor.instruction
