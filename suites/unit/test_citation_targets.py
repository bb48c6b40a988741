"""Host-blind citations: a card says where its record lives, never a host's URL.

Expected targets are written out from the records below (as the stub's corpus
shapes them), not computed by the code under test.
"""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from beacon.loop.citations import card_fields
from beacon.wire.frames import Citation

HARBOR = "prj-harbor-tower"
# A record that carries no view, BIM reference or host scope: its target has none.
NO_PLACE = {
    "view": None,
    "bim": None,
    "organisation": None,
    "project": None,
    "review": None,
    "team": None,
}


@pytest.mark.parametrize(
    ("source", "record", "call_project", "target", "link"),
    [
        pytest.param(
            "search_photos",
            {"id": "ph-000223", "title": "PPE", "level_number": 7, "capture_id": "cap-000019"},
            HARBOR,
            {
                "kind": "photo",
                "id": "ph-000223",
                "project_id": HARBOR,
                "level_number": 7,
                "panorama_id": "cap-000019",
                **NO_PLACE,
            },
            "beacon:photo/ph-000223?project=prj-harbor-tower",
            id="photo-on-its-capture",
        ),
        pytest.param(
            "list_annotations",
            {"id": "ann-000020", "title": "Lap", "level_number": 2, "capture_id": "cap-000002"},
            HARBOR,
            {
                "kind": "annotation",
                "id": "ann-000020",
                "project_id": HARBOR,
                "level_number": 2,
                "panorama_id": "cap-000002",
                **NO_PLACE,
            },
            "beacon:annotation/ann-000020?project=prj-harbor-tower",
            id="annotation-on-its-capture",
        ),
        pytest.param(
            "query_data",
            {"id": "cap-000003", "label": "L3 walk", "level_number": 3},
            HARBOR,
            {
                "kind": "panorama",
                "id": "cap-000003",
                "project_id": HARBOR,
                "level_number": 3,
                "panorama_id": "cap-000003",
                **NO_PLACE,
            },
            "beacon:panorama/cap-000003?project=prj-harbor-tower",
            id="a-panorama-is-its-own-panorama",
        ),
        pytest.param(
            "list_projects",
            {"id": "prj-maple-clinic", "name": "Maple Clinic"},
            None,
            {
                "kind": "project",
                "id": "prj-maple-clinic",
                "project_id": "prj-maple-clinic",
                "level_number": None,
                "panorama_id": None,
                **NO_PLACE,
            },
            "beacon:project/prj-maple-clinic?project=prj-maple-clinic",
            id="a-project-is-its-own-project",
        ),
        pytest.param(
            "get_capture",
            {"id": "cap-000051", "label": "L1 atrium", "project_id": HARBOR, "level_number": 1},
            None,
            {
                "kind": "panorama",
                "id": "cap-000051",
                "project_id": HARBOR,
                "level_number": 1,
                "panorama_id": "cap-000051",
                **NO_PLACE,
            },
            "beacon:panorama/cap-000051?project=prj-harbor-tower",
            id="the-records-own-project-when-the-call-named-none",
        ),
        pytest.param(
            "search_documents",
            {"id": "doc-000004", "title": "RFI 4", "level_number": True},
            None,
            {
                "kind": "document",
                "id": "doc-000004",
                "project_id": None,
                "level_number": None,
                "panorama_id": None,
                **NO_PLACE,
            },
            "beacon:document/doc-000004",
            id="no-project-known-and-a-boolean-is-no-level",
        ),
    ],
)
def test_a_card_carries_its_records_target_and_a_host_neutral_link(
    source: str,
    record: dict[str, Any],
    call_project: str | None,
    target: dict[str, Any],
    link: str,
) -> None:
    card = card_fields(source, record, call_project)
    assert card is not None
    citation = Citation(**card)
    assert citation.target.model_dump() == target
    assert citation.deep_link == link


def test_a_link_quotes_what_would_break_its_shape() -> None:
    card = card_fields("search_photos", {"id": "ph-a/b?c"}, "prj x&y")
    assert card is not None
    assert card["deep_link"] == "beacon:photo/ph-a%2Fb%3Fc?project=prj%20x%26y"


@pytest.mark.parametrize(
    ("source", "record_id"),
    [
        pytest.param("search_photos", "doc-000001", id="a-kind-the-tool-never-returns"),
        pytest.param("list_levels", "lvl-harbor-tower-03", id="a-level-is-no-card"),
        pytest.param("brand_new_tool", "ph-000001", id="a-tool-outside-the-table"),
    ],
)
def test_a_record_its_tool_does_not_cite_gets_no_card(source: str, record_id: str) -> None:
    assert card_fields(source, {"id": record_id, "title": "x"}, HARBOR) is None


@pytest.mark.parametrize(
    "link",
    [
        "/hosts/viewer?project=prj-harbor-tower&photo=ph-000001",
        "https://viewer.example/ph-000001",
        "javascript:alert(1)",
    ],
)
def test_the_wire_refuses_a_citation_whose_link_is_an_address(link: str) -> None:
    card = card_fields("search_photos", {"id": "ph-000001", "title": "x"}, HARBOR)
    assert card is not None
    Citation(**card)  # the server's own link passes
    with pytest.raises(ValidationError, match="deep_link"):
        Citation(**{**card, "deep_link": link})


def test_the_wire_refuses_a_citation_without_a_target() -> None:
    card = card_fields("search_photos", {"id": "ph-000001", "title": "x"}, HARBOR)
    assert card is not None
    with pytest.raises(ValidationError, match="target"):
        Citation(**{k: v for k, v in card.items() if k != "target"})
