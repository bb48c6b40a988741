"""Denial copy and audit rows: data written by code, never by the model."""

from __future__ import annotations

from datetime import UTC, datetime
from types import ModuleType

import pytest

import beacon.policy
from beacon.policy import (
    CAPABILITIES,
    CAPABILITY_LABELS,
    DENIAL_TEMPLATES,
    LOCALES,
    AuditRow,
    audit_row,
    capability_label,
    decide,
    denial_notice,
)


def test_every_capability_has_a_label_in_every_locale() -> None:
    assert set(CAPABILITY_LABELS) == set(CAPABILITIES)
    for labels in CAPABILITY_LABELS.values():
        assert set(labels) == set(LOCALES) and all(labels.values())


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("capability", CAPABILITIES)
def test_the_notice_names_the_capability_in_the_locale(capability: str, locale: str) -> None:
    text = denial_notice(capability, locale)
    assert capability_label(capability, locale) in text
    assert "{" not in text and capability not in text.replace("BIM", "")


def test_the_english_notice_reads_as_a_sentence() -> None:
    assert denial_notice("photo_ai", "en") == (
        "This requires the Photo AI capability, which your current plan does not include."
    )


def test_each_locale_has_its_own_copy() -> None:
    assert len(set(DENIAL_TEMPLATES.values())) == len(LOCALES) == 5


def test_an_unknown_locale_falls_back_to_english() -> None:
    assert denial_notice("bim", "fr") == denial_notice("bim", "en")


def test_a_tool_outside_the_map_gets_copy_that_names_nothing() -> None:
    assert denial_notice(None, "de") == "Das ist mit Ihrem aktuellen Tarif nicht verfügbar."


AT = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)


def test_an_audit_row_records_the_verdict_and_only_the_hints_presence() -> None:
    decision = decide("search_photos", ["essentials"], capability_hint=["photo_ai"])
    row = audit_row(decision, turn_id="t-1", sub="user-1", at=AT)
    assert row == AuditRow(
        "t-1", "user-1", "search_photos", "photo_ai", False, "capability_missing", True, AT
    )
    assert row.as_record()["at"] == "2026-11-30T12:00:00+00:00"
    assert "photo_ai" not in str(row.as_record()["hint_present"])


def test_an_audit_time_without_a_zone_is_refused() -> None:
    decision = decide("list_projects", ["essentials"], capability_hint=None)
    with pytest.raises(ValueError):
        audit_row(decision, turn_id="t", sub="u", at=datetime(2026, 1, 1))


def test_the_public_surface_is_complete() -> None:
    # Submodules show up as attributes once anything imported them: not API.
    exported = {
        n
        for n in dir(beacon.policy)
        if not n.startswith("_") and not isinstance(getattr(beacon.policy, n), ModuleType)
    }
    assert set(beacon.policy.__all__) == exported
