"""Absence by cause, and the anchors that tell the model what code learned."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from beacon.adjudication import (
    AbsenceCause,
    AnchorKind,
    Basis,
    CallFacts,
    CountVerdict,
    Grade,
    Recovery,
    absence_cause,
    call_anchors,
)
from beacon.adjudication import anchors as build
from beacon.adjudication.absence import AbsenceVerdict


@pytest.mark.parametrize(
    ("facts", "cause", "recovery", "may_say_none"),
    [
        pytest.param(
            CallFacts("unknown", denied=True),
            AbsenceCause.PERMISSION_DENIED,
            Recovery.REQUEST_ACCESS,
            False,
            id="denied-before-dispatch",
        ),
        pytest.param(
            CallFacts("empty", denied=True),
            AbsenceCause.PERMISSION_DENIED,
            Recovery.REQUEST_ACCESS,
            False,
            id="denial-wins-over-emptiness",
        ),
        pytest.param(
            CallFacts("empty", transport_status=401),
            AbsenceCause.AUTH_FAILURE,
            Recovery.REAUTHENTICATE,
            False,
            id="braces-after-401-are-auth",
        ),
        pytest.param(
            CallFacts("unknown", transport_status=403),
            AbsenceCause.AUTH_FAILURE,
            Recovery.REAUTHENTICATE,
            False,
            id="403-is-auth",
        ),
        pytest.param(
            CallFacts("unknown", failed=True),
            AbsenceCause.UPSTREAM_FAILURE,
            Recovery.RETRY_LATER,
            False,
            id="in-band-failure",
        ),
        pytest.param(
            CallFacts("empty", transport_status=502),
            AbsenceCause.UPSTREAM_FAILURE,
            Recovery.RETRY_LATER,
            False,
            id="transport-5xx",
        ),
        pytest.param(
            CallFacts("empty", narrowed=True),
            AbsenceCause.ZERO_AFTER_NARROWING,
            Recovery.RELEASE_NARROWING,
            True,
            id="zero-after-narrowing",
        ),
        pytest.param(
            CallFacts("empty"),
            AbsenceCause.ZERO_FROM_START,
            Recovery.NONE,
            True,
            id="zero-from-the-start",
        ),
        pytest.param(
            CallFacts("unknown"),
            AbsenceCause.NO_STANDING,
            Recovery.NONE,
            False,
            id="no-standing-no-absence-claim",
        ),
    ],
)
def test_each_cause_has_its_recovery(
    facts: CallFacts, cause: AbsenceCause, recovery: Recovery, may_say_none: bool
) -> None:
    verdict = absence_cause(facts)
    assert verdict is not None
    assert (verdict.cause, verdict.recovery, verdict.may_say_none) == (
        cause,
        recovery,
        may_say_none,
    )


def test_findings_are_not_an_absence() -> None:
    assert absence_cause(CallFacts("non_empty")) is None


def v(grade: Grade, value: int | None, basis: Basis = Basis.TOTAL) -> CountVerdict:
    return CountVerdict(grade, value, False, 0, "t", basis)


@pytest.mark.parametrize(
    ("verdict", "absence", "shown", "kinds"),
    [
        pytest.param(
            v(Grade.EXACT, 24),
            None,
            10,
            [AnchorKind.EXACT_COUNT, AnchorKind.SHOWN_SUBSET],
            id="exact-with-cards",
        ),
        pytest.param(
            v(Grade.EXACT, 24, Basis.AGGREGATE),
            None,
            0,
            [AnchorKind.EXACT_COUNT],
            id="aggregate-needs-no-card",
        ),
        pytest.param(
            v(Grade.EXACT, 0),
            None,
            0,
            [AnchorKind.EMPTY_WITH_STANDING],
            id="exact-zero-is-empty-with-standing",
        ),
        pytest.param(
            v(Grade.LOWER_BOUND, 173),
            None,
            10,
            [AnchorKind.LOWER_BOUND, AnchorKind.SHOWN_SUBSET],
            id="lower-bound",
        ),
        pytest.param(v(Grade.SHOWN, 10), None, 10, [AnchorKind.SHOWN_SUBSET], id="shown-only"),
        pytest.param(
            v(Grade.EXACT, 5),
            None,
            1,
            [AnchorKind.EXACT_COUNT, AnchorKind.SHOWN_SUBSET],
            id="one-card-is-a-shown-subset",
        ),
        pytest.param(
            v(Grade.UNKNOWN, None), None, 0, [AnchorKind.UNKNOWN_COUNT], id="unknown-count"
        ),
        pytest.param(
            v(Grade.UNKNOWN, None),
            None,
            5,
            [AnchorKind.UNKNOWN_COUNT],
            id="unknown-never-gets-a-shown-slot",
        ),
    ],
)
def test_a_call_earns_anchors_by_its_verdicts(
    verdict: CountVerdict, absence: AbsenceVerdict | None, shown: int, kinds: list[AnchorKind]
) -> None:
    anchors = call_anchors("c1", "findings", verdict, absence, shown=shown)
    assert [a.kind for a in anchors] == kinds
    assert all(a.slot == "c1" for a in anchors)
    assert all(a.facts.get("subject", "findings") == "findings" for a in anchors)


@pytest.mark.parametrize(
    ("facts", "kind"),
    [
        pytest.param(CallFacts("unknown", denied=True), AnchorKind.ABSENCE_PERMISSION, id="denied"),
        pytest.param(CallFacts("empty", transport_status=401), AnchorKind.ABSENCE_AUTH, id="auth"),
        pytest.param(
            CallFacts("empty", narrowed=True),
            AnchorKind.ABSENCE_ZERO_AFTER_NARROWING,
            id="zero-after-narrowing",
        ),
        pytest.param(CallFacts("empty"), AnchorKind.ABSENCE_ZERO_FROM_START, id="zero-from-start"),
        pytest.param(CallFacts("unknown", failed=True), AnchorKind.IN_BAND_FAILURE, id="failure"),
        pytest.param(CallFacts("unknown"), AnchorKind.UNKNOWN_COUNT, id="no-standing"),
    ],
)
def test_an_absence_earns_the_anchor_of_its_cause(facts: CallFacts, kind: AnchorKind) -> None:
    anchors = call_anchors("c1", "x", v(Grade.EXACT, 3), absence_cause(facts), shown=3)
    assert [(a.kind, a.slot) for a in anchors] == [(kind, "c1")]


def test_the_other_builders_cover_every_kind() -> None:
    made = {
        build.narrowing_released().kind,
        build.stitch_discarded("c1", ["total_changed"]).kind,
        build.counter_question(["level"], None).kind,
        build.counter_question(["level", "status"], "level").kind,
        build.view_list_truncated("v1").kind,
    }
    assert made == {
        AnchorKind.NARROWING_RELEASED,
        AnchorKind.STITCH_DISCARDED,
        AnchorKind.COUNTER_QUESTION,
        AnchorKind.VIEW_LIST_TRUNCATED,
    }
    one = build.counter_question(["level"], None)
    several = build.counter_question(["level", "status"], "level")
    assert "recommend" not in one.instruction and "recommend level" in several.instruction
    assert build.stitch_discarded("c1", ["x"]).record()["anomalies"] == ["x"]


@given(
    st.sampled_from(list(Grade)),
    st.integers(min_value=11, max_value=10**6),
    st.integers(min_value=0, max_value=10),
    st.sampled_from(list(Basis)),
)
def test_an_anchor_never_carries_the_number_only_its_slot(
    grade: Grade, value: int, shown: int, basis: Basis
) -> None:
    verdict = CountVerdict(
        grade, None if grade is Grade.UNKNOWN else value, False, shown, "t", basis
    )
    for anchor in call_anchors("c1", "findings", verdict, None, shown=shown):
        assert str(value) not in anchor.instruction
        assert not re.search(r"\d", anchor.instruction.replace("c1", ""))
        if grade is Grade.UNKNOWN:
            assert "{{" not in anchor.instruction


@pytest.mark.parametrize(
    ("grade", "value", "shown", "kinds"),
    [
        (Grade.EXACT, 4, 4, ["exact_count"]),  # the whole set on screen: said once
        (Grade.EXACT, 21, 10, ["exact_count", "shown_subset"]),
        (Grade.LOWER_BOUND, 10, 10, ["lower_bound", "shown_subset"]),  # more exist
        (Grade.SHOWN, None, 5, ["shown_subset"]),
        (Grade.EXACT, 21, 0, ["exact_count"]),
    ],
)
def test_the_shown_examples_earn_a_sentence_only_when_they_are_fewer_than_the_set(
    grade: Grade, value: int | None, shown: int, kinds: list[str]
) -> None:
    anchors = build.count_anchors("c1", "findings", v(grade, value), shown=shown)
    assert [a.kind.value for a in anchors] == kinds
