"""Cards waiting for load-more are kept packed and come back whole."""

from __future__ import annotations

from typing import Any

import pytest

from beacon.loop.citations import card_fields, pack_card, unpack_card
from beacon.wire.frames import Citation

RECORDS: list[tuple[str, dict[str, Any]]] = [
    (
        "search_photos",
        {
            "id": "ph-000223",
            "title": "Level 7: PPE breach",
            "level_name": "Level 7",
            "taken_at": "2025-09-12T10:00:00Z",
            "thumbnail": "http://127.0.0.1:9/thumbs/ph-000223.svg",
        },
    ),
    ("query_data", {"id": "cap-000001", "label": "L1 walk", "level_number": 1}),
    ("list_annotations", {"id": "ann-000020", "title": "Membrane lap", "created_at": "2026-03-01"}),
]


@pytest.mark.parametrize(("source", "record"), RECORDS)
def test_a_packed_card_unpacks_to_the_card_it_was(source: str, record: dict[str, Any]) -> None:
    card = card_fields(source, record, "prj-harbor-tower")
    assert card is not None
    back = unpack_card(pack_card(card), source, "prj-harbor-tower")
    assert back == card
    Citation(**back)  # still a valid wire citation


def test_a_card_kept_whole_by_an_older_record_is_served_as_it_is() -> None:
    card = card_fields("query_data", {"id": "cap-000002", "label": "L2"}, None)
    assert card is not None and unpack_card(card, "ignored", "ignored") is card
