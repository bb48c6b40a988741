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
            "level_number": 7,
            "capture_id": "cap-000007",
            "taken_at": "2025-09-12T10:00:00Z",
            "thumbnail": "http://127.0.0.1:9/thumbs/ph-000223.svg",
        },
    ),
    ("query_data", {"id": "cap-000001", "label": "L1 walk", "level_number": 1}),
    ("list_annotations", {"id": "ann-000020", "title": "Membrane lap", "created_at": "2026-03-01"}),
    ("list_projects", {"id": "prj-maple-clinic", "name": "Maple Clinic"}),
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


def test_a_whole_card_from_before_targets_is_served_with_a_target_and_no_host_url() -> None:
    older = {
        "id": "ann-000020",
        "source": "list_annotations",
        "kind": "annotation",
        "title": "Membrane lap",
        "deep_link": "/hosts/viewer?project=prj-harbor-tower&annotation=ann-000020",
        "thumbnail": None,
        "level": "Level 2",
        "date": "2026-03-01",
    }
    served = Citation(**unpack_card(older, "list_annotations", "prj-harbor-tower"))
    assert served.deep_link == "beacon:annotation/ann-000020?project=prj-harbor-tower"
    assert served.target.model_dump() == {
        "kind": "annotation",
        "id": "ann-000020",
        "project_id": "prj-harbor-tower",
        "level_number": None,
        "panorama_id": None,
        **dict.fromkeys(("view", "bim", "organisation", "project", "review", "team")),
    }


def test_a_card_packed_before_targets_existed_unpacks_to_a_valid_citation() -> None:
    older = ["ph-000223", "Level 7: PPE breach", None, "Level 7", "2025-09-12"]
    served = Citation(**unpack_card(older, "search_photos", "prj-harbor-tower"))
    assert (served.id, served.kind, served.level) == ("ph-000223", "photo", "Level 7")
    assert served.target.project_id == "prj-harbor-tower"
    assert served.target.level_number is None and served.target.panorama_id is None


@pytest.mark.parametrize("packed", [["ph-000223", "t", None, None], ["ph-1", *[None] * 13]])
def test_a_packed_card_of_the_wrong_length_is_refused(packed: list[Any]) -> None:
    with pytest.raises(ValueError, match="packed card"):
        unpack_card(packed, "search_photos", None)
