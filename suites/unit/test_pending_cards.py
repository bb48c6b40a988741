"""A page's cards past the shown ones are made when first read, and packed
straight from their records (issue 32: a 3000-row page keeps 500 of them, and
making them where the page was adjudicated held the answer request back).

The expectation is always the long way round, each step of which has its own
tests (``test_packed_cards``, ``test_citation_views``): the record's card, made
whole by ``card_fields``, then packed by ``pack_card``.
"""

from __future__ import annotations

import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import beacon.loop.citations as citations
from beacon.loop.citations import PendingCards, card_fields, pack_card, pack_record

PREFIXES = {
    "search_photos": ("ph-", "cap-"),
    "list_annotations": ("ann-",),
    "query_data": ("cap-", "ann-", "ph-", "lvl-"),
    "list_projects": ("prj-",),
}
# Values a record's field may carry, well-formed or not: what a lying upstream sends.
ANY_VALUE = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 40),
    st.text(max_size=12),
    st.floats(allow_nan=True, allow_infinity=True),
    st.lists(st.integers(0, 3), max_size=3),
)
NUMBER = st.one_of(st.floats(-1e3, 1e3), st.just(math.nan), st.just(math.inf), st.integers(-9, 9))
VIEW = st.one_of(
    ANY_VALUE,
    st.fixed_dictionaries(
        {k: st.lists(NUMBER, min_size=2, max_size=4) for k in ("position", "look_at", "direction")}
    ),
)
BIM = st.one_of(
    ANY_VALUE,
    st.fixed_dictionaries({k: st.text(max_size=8) for k in ("model", "element", "level")}),
)
OPTIONAL = (
    "title", "label", "name", "thumbnail", "level_name", "level_number", "capture_id",
    "taken_at", "created_at", "captured_at", "date", "project_id", "organisation",
    "project_name", "review", "team",
)  # fmt: skip


@st.composite
def records(draw: st.DrawFn, source: str) -> dict[str, Any]:
    prefix = draw(st.sampled_from(PREFIXES[source]))
    record: dict[str, Any] = {"id": prefix + draw(st.sampled_from(["000001", "000223", "x y/é"]))}
    for name in OPTIONAL:
        if draw(st.booleans()):
            record[name] = draw(ANY_VALUE)
    if draw(st.booleans()):
        record["view"] = draw(VIEW)
    if draw(st.booleans()):
        record["bim"] = draw(BIM)
    return record


@settings(max_examples=300, deadline=None)
@given(data=st.data(), source=st.sampled_from(sorted(PREFIXES)))
def test_a_record_packed_straight_is_its_card_packed(data: st.DataObject, source: str) -> None:
    record = data.draw(records(source))
    project = data.draw(st.sampled_from([None, "prj-harbor-tower"]))
    card = card_fields(source, record, project)
    if card is None:
        return  # an uncitable record is never packed (PendingCards skips it)
    assert pack_record(source, record) == pack_card(card)
    assert pack_record(source, record, card["kind"]) == pack_card(card)


# Each place field a record may carry, alone and well-formed: the packing skips
# reading the place of records that carry none, so each must still be seen alone.
PLACES = [
    ("view", {"position": [1.0, 2.0, 3.0], "look_at": [1.0, 2.0, 4.0], "direction": [0, 0, 1]}),
    ("bim", {"model": "arch", "element": "wall-7", "level": "L3"}),
    ("organisation", "Acme Build"),
    ("project_name", "Harbor Tower"),
    ("review", "Weekly walk"),
    ("team", "Site safety"),
]


@pytest.mark.parametrize(("field", "value"), PLACES, ids=[f for f, _ in PLACES])
def test_a_record_whose_only_place_is_one_field_packs_that_field(field: str, value: Any) -> None:
    record = {"id": "cap-000001", "label": "L1 walk", field: value}
    card = card_fields("query_data", record, None)
    assert card is not None
    packed = pack_record("query_data", record)
    assert packed == pack_card(card)
    assert len(packed) > 7  # the place is in it, not dropped as trailing nulls


PAGE = [
    {"id": "cap-000001", "label": "L1 walk", "level_number": 1},
    {"total": 12},  # an aggregate row: no id, no card
    {"id": "cap-000002", "label": "L2 walk", "level_number": 2, "date": "2025-09-12"},
    {"id": "zz-9", "label": "an id of no kind this tool returns"},
    {"id": "cap-000003", "label": "L3 walk"},
]


def test_the_pending_cards_are_the_citable_records_cards_up_to_the_limit() -> None:
    pending = PendingCards("query_data", PAGE, "prj-harbor-tower", 2)
    assert [c["id"] for c in pending.cards()] == ["cap-000001", "cap-000002"]
    assert pending.cards()[1] == card_fields("query_data", PAGE[2], "prj-harbor-tower")
    assert pending.packed() == tuple(pack_card(c) for c in pending.cards())


@pytest.mark.parametrize(
    ("page", "limit", "any_pending"),
    [
        (PAGE, 500, True),
        (PAGE[1:2] + PAGE[3:4], 500, False),  # rows, but none citable
        ([], 500, False),
        (PAGE, 0, False),  # nothing may wait
    ],
)
def test_whether_cards_are_pending_is_whether_a_citable_record_remains(
    page: list[dict[str, Any]], limit: int, any_pending: bool
) -> None:
    assert bool(PendingCards("query_data", page, None, limit)) is any_pending


def test_no_card_is_made_until_the_pending_cards_are_read(monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[str] = []
    real = citations._card_text

    def counted(record: Any, record_id: str) -> Any:
        made.append(record_id)
        return real(record, record_id)

    monkeypatch.setattr(citations, "_card_text", counted)
    pending = PendingCards("query_data", PAGE, None, 500)
    assert pending and made == []  # asking whether any wait makes none
    pending.packed()
    assert made == ["cap-000001", "cap-000002", "cap-000003"]
    pending.packed()
    assert len(made) == 3  # made once
